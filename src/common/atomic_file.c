#define _POSIX_C_SOURCE 200809L
#include "common/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bulk_afile_open(bulk_afile *f, const char *path, const char *mode)
{
    memset(f, 0, sizeof *f);
    size_t len = strlen(path);
    f->path = malloc(len + 1);
    f->tmp_path = malloc(len + 32);
    if (!f->path || !f->tmp_path) {
        free(f->path);
        free(f->tmp_path);
        errno = ENOMEM;
        return -1;
    }
    memcpy(f->path, path, len + 1);
    snprintf(f->tmp_path, len + 32, "%s.tmp.%ld", path, (long)getpid());
    f->fp = fopen(f->tmp_path, mode);
    if (!f->fp) {
        int e = errno;
        free(f->path);
        free(f->tmp_path);
        f->path = f->tmp_path = NULL;
        errno = e;
        return -1;
    }
    return 0;
}

static void afile_release(bulk_afile *f)
{
    free(f->path);
    free(f->tmp_path);
    f->path = f->tmp_path = NULL;
    f->fp = NULL;
}

int bulk_afile_commit(bulk_afile *f)
{
    int ok = fflush(f->fp) == 0 && !ferror(f->fp);
    if (ok) ok = fsync(fileno(f->fp)) == 0;
    int e = errno;
    if (fclose(f->fp) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (ok && rename(f->tmp_path, f->path) != 0) {
        ok = 0;
        e = errno;
    }
    if (!ok) unlink(f->tmp_path);
    afile_release(f);
    errno = e;
    return ok ? 0 : -1;
}

void bulk_afile_abort(bulk_afile *f)
{
    if (!f->fp) return;
    fclose(f->fp);
    unlink(f->tmp_path);
    afile_release(f);
}

int bulk_write_file_atomic(const char *path, const void *data, size_t len)
{
    bulk_afile f;
    if (bulk_afile_open(&f, path, "wb") != 0) return -1;
    if (len && fwrite(data, 1, len, f.fp) != len) {
        int e = errno;
        bulk_afile_abort(&f);
        errno = e ? e : EIO;
        return -1;
    }
    return bulk_afile_commit(&f);
}
