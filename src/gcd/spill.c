/* Tree levels in memory or in spill files (contract: gcd_internal.h). A spill file holds the
 * raw limbs 0 .. off[count] of a level, written in chunks of whole nodes (each with a 64-bit
 * checksum); offsets, lengths and the chunk table stay in memory (16 bytes per node, 16 per
 * chunk). A level is resident whole, not at all, or as a window of consecutive nodes (the
 * chunks that cover a range: how the remainder tree reads spilled levels block by block).
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

size_t gcd_block_limbs = GCD_BLOCK_LIMBS;

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

int gcd_level_alloc_window(gcd_level *L, size_t j0, size_t j1)
{
    size_t n = L->off[j1] - L->off[j0];
    L->data = malloc((n ? n : 1) * sizeof *L->data);
    if (!L->data) return BULK_ERR_NOMEM;
    L->dbase = L->off[j0];
    L->wlo = j0;
    L->whi = j1;
    return BULK_OK;
}

int gcd_level_alloc_data(gcd_level *L)
{
    return gcd_level_alloc_window(L, 0, L->count);
}

gcd_level gcd_level_view(const gcd_level *L)
{
    gcd_level v = *L;
    v.borrowed = 1;
    v.view = 1; /* off, len and the chunk table stay the owner's */
    v.fd = -1;
    return v;
}

size_t gcd_level_block_end(const gcd_level *L, size_t j0)
{
    size_t j = j0 + 1;
    while (j < L->count && L->off[j + 1] - L->off[j0] <= gcd_block_limbs) j++;
    return j;
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

static int fail_io(gcd_spill *sp, int e)
{
    if (!sp->err) sp->err = e ? e : EIO;
    return BULK_ERR_IO;
}

int gcd_level_file_begin(gcd_level *L, int fd)
{
    if (L->fd >= 0) close(L->fd);
    L->fd = fd;
    L->saved = 0;
    L->nchunk = 0;
    if (!L->chunk) {
        L->chunk_cap = 16;
        L->chunk = malloc((L->chunk_cap + 1) * sizeof *L->chunk);
        L->sum = malloc(L->chunk_cap * sizeof *L->sum);
        if (!L->chunk || !L->sum) return BULK_ERR_NOMEM;
    }
    L->chunk[0] = 0;
    return BULK_OK;
}

int gcd_level_stream_begin(gcd_level *L, gcd_spill *sp)
{
    const char *dir = sp->dir;
    if (!dir) dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    int fd = open_anon(dir);
    if (fd < 0) return fail_io(sp, errno);
    int st = gcd_level_file_begin(L, fd);
    if (st == BULK_OK) sp->rem_levels++;
    return st;
}

/* Appends limbs off[j0] .. off[j1] (at p) as the next chunk of nodes [j0, j1). */
static int put_chunk(gcd_level *L, gcd_spill *sp, size_t j0, size_t j1, const bulk_limb_t *p)
{
    if (j0 != L->chunk[L->nchunk]) return BULK_ERR_INTERNAL;
    if (L->nchunk == L->chunk_cap) {
        size_t cap = 2 * L->chunk_cap;
        size_t *c = realloc(L->chunk, (cap + 1) * sizeof *c);
        if (!c) return BULK_ERR_NOMEM;
        L->chunk = c;
        uint64_t *s = realloc(L->sum, cap * sizeof *s);
        if (!s) return BULK_ERR_NOMEM;
        L->sum = s;
        L->chunk_cap = cap;
    }
    size_t n = L->off[j1] - L->off[j0], bytes = n * sizeof *p, done = 0;
    const char *b = (const char *)p;
    if (sp->fail_at && sp->bytes + bytes > sp->fail_at) return fail_io(sp, ENOSPC);
    while (done < bytes) {
        size_t want = bytes - done < SPILL_IO_CHUNK ? bytes - done : SPILL_IO_CHUNK;
        ssize_t w = pwrite(L->fd, b + done, want, (off_t)(L->off[j0] * sizeof *p + done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return fail_io(sp, w < 0 ? errno : ENOSPC); /* w == 0: no progress, as full */
        done += (size_t)w;
    }
    L->sum[L->nchunk] = gcd_limbs_sum(p, n);
    L->chunk[++L->nchunk] = j1;
    sp->bytes += bytes;
    return BULK_OK;
}

int gcd_level_stream_put(gcd_level *L, gcd_spill *sp)
{
    int st = put_chunk(L, sp, L->wlo, L->whi, L->data);
    gcd_level_drop(L);
    return st;
}

int gcd_level_write_chunks(gcd_level *L, gcd_spill *sp)
{
    if (!L->data || L->wlo != 0 || L->whi != L->count) return BULK_ERR_INTERNAL; /* whole levels */
    int st = BULK_OK;
    for (size_t j0 = 0; st == BULK_OK && j0 < L->count;) {
        size_t j1 = gcd_level_block_end(L, j0);
        st = put_chunk(L, sp, j0, j1, L->data + L->off[j0]);
        j0 = j1;
    }
    return st;
}

int gcd_level_spill(gcd_level *L, gcd_spill *sp)
{
    if (L->borrowed || !L->data) return BULK_OK;
    if (L->wlo != 0 || L->whi != L->count) return BULK_ERR_INTERNAL; /* whole levels only */
    if (L->saved && L->fd >= 0) { /* already whole in a checkpoint file */
        gcd_level_drop(L);
        sp->levels++;
        return BULK_OK;
    }
    size_t rem = sp->rem_levels;
    int st = gcd_level_stream_begin(L, sp);
    sp->rem_levels = rem; /* a product level */
    if (st == BULK_OK) st = gcd_level_write_chunks(L, sp);
    if (st != BULK_OK) {
        if (L->fd >= 0) close(L->fd);
        L->fd = -1;
        return st;
    }
    free(L->data);
    L->data = NULL;
    sp->levels++;
    return BULK_OK;
}

/* Reads chunks c0 .. c1 - 1 into a new window and checks them. */
static int read_chunks(gcd_level *L, gcd_spill *sp, size_t c0, size_t c1)
{
    gcd_level_drop(L);
    size_t j0 = L->chunk[c0], j1 = L->chunk[c1];
    int st = gcd_level_alloc_window(L, j0, j1);
    if (st != BULK_OK) return st;
    size_t bytes = (L->off[j1] - L->off[j0]) * sizeof *L->data, done = 0;
    char *p = (char *)L->data;
    int err = 0;
    while (done < bytes) {
        size_t want = bytes - done < SPILL_IO_CHUNK ? bytes - done : SPILL_IO_CHUNK;
        ssize_t r = pread(L->fd, p + done, want, (off_t)(L->off[j0] * sizeof *L->data + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { /* r == 0: the file is shorter than what was written */
            err = r < 0 ? errno : EIO;
            break;
        }
        done += (size_t)r;
    }
    for (size_t c = c0; !err && c < c1; c++) {
        const bulk_limb_t *q = L->data + (L->off[L->chunk[c]] - L->dbase);
        if (gcd_limbs_sum(q, L->off[L->chunk[c + 1]] - L->off[L->chunk[c]]) != L->sum[c]) err = EIO;
    }
    if (err) {
        gcd_level_drop(L);
        return fail_io(sp, err);
    }
    return BULK_OK;
}

int gcd_level_load_range(gcd_level *L, gcd_spill *sp, size_t j0, size_t j1)
{
    if (L->data && L->wlo <= j0 && j1 <= L->whi) return BULK_OK;
    if (L->fd < 0 || L->nchunk == 0 || L->chunk[L->nchunk] != L->count) return BULK_ERR_INTERNAL;
    size_t c0 = 0, c1;
    while (L->chunk[c0 + 1] <= j0) c0++;
    for (c1 = c0 + 1; L->chunk[c1] < j1; c1++) {
    }
    return read_chunks(L, sp, c0, c1);
}

int gcd_level_load(gcd_level *L, gcd_spill *sp)
{
    return gcd_level_load_range(L, sp, 0, L->count);
}

void gcd_level_drop(gcd_level *L)
{
    if (!L->borrowed) free(L->data);
    L->data = NULL;
    L->dbase = L->wlo = L->whi = 0;
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
    free(L->chunk);
    free(L->sum);
    memset(L, 0, sizeof *L);
    L->fd = -1;
}

void gcd_test_spill_fail_at(bulk_ctx *ctx, uint64_t bytes) { ctx->tune.gcd_spill_fail_at = bytes; }
