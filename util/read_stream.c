#include "read_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/bulk.h"

int bulk_read_stream(FILE *f, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    if (!b) return BULK_ERR_NOMEM;
    for (;;) {
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (n < cap) break; /* short read: end of file or an error, told apart by ferror */
        char *nb = realloc(b, 2 * cap + 1);
        if (!nb) {
            free(b);
            return BULK_ERR_NOMEM;
        }
        b = nb;
        cap *= 2;
    }
    if (ferror(f)) {
        free(b);
        return BULK_ERR_IO;
    }
    b[n] = 0;
    *buf = b;
    *len = n;
    return BULK_OK;
}

int bulk_read_path(const char *path, char **buf, size_t *len, int *open_errno)
{
    *buf = NULL;
    *len = 0;
    *open_errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *open_errno = errno ? errno : EIO;
        return BULK_ERR_IO;
    }
    int st = bulk_read_stream(f, buf, len);
    int err = errno; /* the cause of a failed read, kept across fclose */
    fclose(f);
    errno = err;
    return st;
}

int bulk_read_path_msg(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
    int open_errno, st = bulk_read_path(path, buf, len, &open_errno);
    if (st == BULK_ERR_IO && err && errlen)
        snprintf(err, errlen, "%s: %s", path, strerror(open_errno ? open_errno : errno ? errno : EIO));
    return st;
}
