/* Tree levels in memory or in spill files (contract: gcd_internal.h). A spill file holds the
 * raw limbs of data[0 .. off[count]); offsets and lengths stay in memory (16 bytes per node).
 *
 * Why anonymous files: the file is unlinked before the first byte is written, so a level is
 * reachable only through its open descriptor. A run that fails, is interrupted or is killed
 * leaves nothing in the spill directory (the kernel frees the blocks when the descriptor
 * closes), and there is never a path naming a half-written level. Integrity: the checksum
 * taken while writing is compared after reading back, so a short or damaged file is an error
 * (BULK_ERR_IO), never a wrong factor. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_TMPFILE */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gcd/gcd_internal.h"

/* Bytes per write/read call: bounded so that a huge level does not hit the 2 GiB per-call
 * limit of Linux and a failure is seen early. */
#define SPILL_IO_CHUNK ((size_t)1 << 26)

uint64_t gcd_limbs_sum(const bulk_limb_t *a, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ a[i]) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    return h;
}

int gcd_level_init(gcd_level *L, size_t count)
{
    memset(L, 0, sizeof *L);
    L->fd = -1;
    L->count = count;
    L->off = calloc(count + 1, sizeof *L->off);
    L->len = calloc(count ? count : 1, sizeof *L->len);
    if (!L->off || !L->len) {
        gcd_level_free(L);
        return BULK_ERR_NOMEM;
    }
    return BULK_OK;
}

int gcd_level_alloc_data(gcd_level *L)
{
    L->data = malloc((L->off[L->count] ? L->off[L->count] : 1) * sizeof *L->data);
    return L->data ? BULK_OK : BULK_ERR_NOMEM;
}

gcd_level gcd_level_view(const gcd_level *L)
{
    gcd_level v = *L;
    v.borrowed = 1;
    v.view = 1; /* off and len stay the owner's */
    v.fd = -1;
    return v;
}

/* A new anonymous file in dir: O_TMPFILE, else mkstemp + unlink. -1 with errno on failure. */
static int open_anon(const char *dir)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) return -1;
#endif
    size_t plen = strlen(dir) + 32;
    char *path = malloc(plen);
    if (!path) return -1;
    snprintf(path, plen, "%s/bulk-gcd-XXXXXX", dir);
    int f = mkstemp(path);
    if (f >= 0) {
        unlink(path);
        fcntl(f, F_SETFD, FD_CLOEXEC);
    }
    int e = errno;
    free(path);
    errno = e;
    return f;
}

int gcd_level_spill(gcd_level *L, gcd_spill *sp)
{
    if (L->borrowed || !L->data) return BULK_OK;
    const char *dir = sp->dir;
    if (!dir) dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    int fd = open_anon(dir);
    if (fd < 0) {
        if (!sp->err) sp->err = errno ? errno : EIO;
        return BULK_ERR_IO;
    }
    size_t n = L->off[L->count], bytes = n * sizeof *L->data, done = 0;
    const char *p = (const char *)L->data;
    while (done < bytes) {
        size_t want = bytes - done < SPILL_IO_CHUNK ? bytes - done : SPILL_IO_CHUNK;
        ssize_t w = write(fd, p + done, want);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { /* w == 0 cannot make progress: report it as a full device */
            if (!sp->err) sp->err = w < 0 ? errno : ENOSPC;
            close(fd);
            return BULK_ERR_IO;
        }
        done += (size_t)w;
    }
    L->sum = gcd_limbs_sum(L->data, n);
    if (L->fd >= 0) close(L->fd);
    L->fd = fd;
    free(L->data);
    L->data = NULL;
    sp->bytes += bytes;
    sp->levels++;
    return BULK_OK;
}

int gcd_level_load(gcd_level *L, gcd_spill *sp)
{
    if (L->data) return BULK_OK;
    if (L->fd < 0) return BULK_ERR_INTERNAL;
    int st = gcd_level_alloc_data(L);
    if (st != BULK_OK) return st;
    size_t n = L->off[L->count], bytes = n * sizeof *L->data, done = 0;
    char *p = (char *)L->data;
    int err = 0;
    while (done < bytes) {
        size_t want = bytes - done < SPILL_IO_CHUNK ? bytes - done : SPILL_IO_CHUNK;
        ssize_t r = pread(L->fd, p + done, want, (off_t)done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { /* r == 0: the file is shorter than what was written */
            err = r < 0 ? errno : EIO;
            break;
        }
        done += (size_t)r;
    }
    if (!err && gcd_limbs_sum(L->data, n) != L->sum) err = EIO;
    if (err) {
        if (!sp->err) sp->err = err;
        free(L->data);
        L->data = NULL;
        return BULK_ERR_IO;
    }
    return BULK_OK;
}

void gcd_level_free(gcd_level *L)
{
    if (L->view) {
        memset(L, 0, sizeof *L);
        L->fd = -1;
        return;
    }
    if (!L->borrowed) free(L->data);
    if (L->fd >= 0) close(L->fd);
    free(L->off);
    free(L->len);
    memset(L, 0, sizeof *L);
    L->fd = -1;
}
