/* Checkpoints of batch GCD (contract: gcd_internal.h, format: docs/gcd.md). The directory holds
 * "manifest" (which inputs the levels belong to) and one file per finished level, "product-K"
 * or "value-K". A level file is the level's limbs as a spill file holds them (offset 0, in
 * checksummed chunks of whole nodes) followed by a trailer: the node offsets and lengths, the
 * chunk table and sums, and a footer of fixed size at the very end (magic, kind, level, the
 * inputs' hash, where the trailer starts and its checksum). Numbers are in the machine's byte
 * order: a checkpoint is resumed on the machine kind that wrote it.
 *
 * A finished level is written through the atomic file module, so a path names a complete level
 * or nothing; a file that does not check out (other inputs, other shape, bad trailer) is
 * treated as absent and written again. A resumed level is an already spilled level whose file
 * is the checkpoint's: it is read back with the spill code, chunk checksums included. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "splitmix.h"
#include "gcd/gcd_internal.h"

#define FOOTER_WORDS 8
static const uint64_t LEVEL_MAGIC = 0x4c4b5043444347ull; /* "GCDCPKL" */

static char *level_path(const gcd_ckpt *c, int kind, size_t k)
{
    size_t n = strlen(c->dir) + 48;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s-%zu", c->dir, kind == GCD_CKPT_VALUE ? "value" : "product", k);
    return p;
}

static int ck_fail(gcd_ckpt *c, int e)
{
    if (!c->sp.err) c->sp.err = e ? e : EIO;
    return BULK_ERR_IO;
}

/* 1 when name is "product-K" or "value-K" (K decimal digits). */
static int is_level_name(const char *name)
{
    const char *d = strncmp(name, "product-", 8) == 0 ? name + 8 : strncmp(name, "value-", 6) == 0 ? name + 6 : NULL;
    if (!d || !*d) return 0;
    for (; *d; d++)
        if (*d < '0' || *d > '9') return 0;
    return 1;
}

/* Removes what a killed run left half-written: the temporary files of level files (their names
 * contain the level's; a finished level is renamed to exactly "product-K" or "value-K"). */
static void remove_partial_levels(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (is_level_name(e->d_name) || (!strstr(e->d_name, "product-") && !strstr(e->d_name, "value-")))
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(n);
        if (!p) break;
        snprintf(p, n, "%s/%s", dir, e->d_name);
        unlink(p);
        free(p);
    }
    closedir(d);
}

int gcd_ckpt_open(gcd_ckpt *c, const char *dir, const bulk_limb_t *x, size_t n, size_t limbs,
                  uint64_t fail_at)
{
    memset(c, 0, sizeof *c);
    c->dir = strdup(dir);
    if (!c->dir) return BULK_ERR_NOMEM;
    c->sp.dir = dir;
    c->sp.fail_at = fail_at;
    c->id[0] = gcd_limbs_sum(x, n * limbs);
    c->id[1] = bulk_hash_words(n * 0x100000001b3ull + limbs, x, n * limbs);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) return ck_fail(c, errno);
    char want[160];
    int wl = snprintf(want, sizeof want, "bulk-gcd-batch-checkpoint 1\nmoduli %zu limbs %zu hash %016" PRIx64
                      "%016" PRIx64 "\n", n, limbs, c->id[0], c->id[1]);
    size_t pl = strlen(dir) + 16;
    char *path = malloc(pl);
    if (!path) return BULK_ERR_NOMEM;
    snprintf(path, pl, "%s/manifest", dir);
    FILE *fp = fopen(path, "rb");
    int st = BULK_OK;
    if (fp) {
        char have[160];
        size_t got = fread(have, 1, sizeof have, fp);
        fclose(fp);
        if (got != (size_t)wl || memcmp(have, want, (size_t)wl) != 0) st = GCD_CKPT_OTHER;
    } else if (errno != ENOENT) {
        st = ck_fail(c, errno);
    } else if (bulk_write_file_atomic(path, want, (size_t)wl) != 0) {
        st = ck_fail(c, errno);
    }
    free(path);
    if (st == BULK_OK) remove_partial_levels(dir);
    return st;
}

void gcd_ckpt_close(gcd_ckpt *c)
{
    if (c->writing) bulk_afile_abort(&c->af);
    free(c->dir);
    memset(c, 0, sizeof *c);
}

int gcd_ckpt_begin(gcd_ckpt *c, gcd_level *L, int kind, size_t k)
{
    char *path = level_path(c, kind, k);
    if (!path) return BULK_ERR_NOMEM;
    int st = bulk_afile_open(&c->af, path, "wb") == 0 ? BULK_OK : ck_fail(c, errno);
    free(path);
    if (st != BULK_OK) return st;
    c->writing = 1;
    int fd = dup(fileno(c->af.fp)); /* the level's own descriptor; the afile keeps its stream */
    if (fd < 0) return ck_fail(c, errno);
    return gcd_level_file_begin(L, fd);
}

/* Writes n words at *pos of fd, advancing *pos. */
static int put_words(gcd_ckpt *c, int fd, off_t *pos, const uint64_t *w, size_t n)
{
    const char *b = (const char *)w;
    size_t bytes = n * sizeof *w, done = 0;
    while (done < bytes) {
        ssize_t r = pwrite(fd, b + done, bytes - done, *pos + (off_t)done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return ck_fail(c, r < 0 ? errno : ENOSPC);
        done += (size_t)r;
    }
    *pos += (off_t)bytes;
    return BULK_OK;
}

int gcd_ckpt_end(gcd_ckpt *c, gcd_level *L, int kind, size_t k)
{
    if (!c->writing || L->fd < 0 || L->chunk[L->nchunk] != L->count) return BULK_ERR_INTERNAL;
    off_t pos = (off_t)(L->off[L->count] * sizeof(bulk_limb_t));
    uint64_t start = (uint64_t)pos, h = 0x636b7074ull;
    uint64_t head[2] = { L->count, L->nchunk };
    int st = put_words(c, L->fd, &pos, head, 2);
    if (st == BULK_OK) st = put_words(c, L->fd, &pos, L->off, L->count + 1);
    if (st == BULK_OK) st = put_words(c, L->fd, &pos, L->len, L->count);
    if (st == BULK_OK) st = put_words(c, L->fd, &pos, L->chunk, L->nchunk + 1);
    if (st == BULK_OK) st = put_words(c, L->fd, &pos, L->sum, L->nchunk);
    h = bulk_hash_words(h, head, 2);
    h = bulk_hash_words(h, L->off, L->count + 1);
    h = bulk_hash_words(h, L->len, L->count);
    h = bulk_hash_words(h, L->chunk, L->nchunk + 1);
    h = bulk_hash_words(h, L->sum, L->nchunk);
    uint64_t foot[FOOTER_WORDS] = { LEVEL_MAGIC, 1, (uint64_t)kind, k, c->id[0], c->id[1], start, 0 };
    foot[7] = bulk_hash_words(h, foot, FOOTER_WORDS - 1);
    if (st == BULK_OK) st = put_words(c, L->fd, &pos, foot, FOOTER_WORDS);
    close(L->fd);
    L->fd = -1;
    c->writing = 0;
    if (st != BULK_OK) {
        bulk_afile_abort(&c->af);
        return st;
    }
    if (bulk_afile_commit(&c->af) != 0) return ck_fail(c, errno);
    char *path = level_path(c, kind, k);
    if (!path) return BULK_ERR_NOMEM;
    L->fd = open(path, O_RDONLY | O_CLOEXEC);
    free(path);
    L->saved = L->fd >= 0;
    return L->fd >= 0 ? BULK_OK : ck_fail(c, errno);
}

int gcd_ckpt_save(gcd_ckpt *c, gcd_level *L, int kind, size_t k)
{
    int st = gcd_ckpt_begin(c, L, kind, k);
    if (st == BULK_OK) st = gcd_level_write_chunks(L, &c->sp);
    if (st == BULK_OK) return gcd_ckpt_end(c, L, kind, k);
    if (c->writing) bulk_afile_abort(&c->af);
    c->writing = 0;
    if (L->fd >= 0) close(L->fd);
    L->fd = -1;
    return st;
}

/* Reads n words at *pos of fd. 0 or -1. */
static int get_words(int fd, off_t *pos, uint64_t *w, size_t n)
{
    size_t bytes = n * sizeof *w, done = 0;
    while (done < bytes) {
        ssize_t r = pread(fd, (char *)w + done, bytes - done, *pos + (off_t)done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        done += (size_t)r;
    }
    *pos += (off_t)bytes;
    return 0;
}

int gcd_ckpt_load(gcd_ckpt *c, gcd_level *L, int kind, size_t k, size_t count)
{
    char *path = level_path(c, kind, k);
    if (!path) return BULK_ERR_NOMEM;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    free(path);
    if (fd < 0) return 1;
    struct stat sb;
    uint64_t foot[FOOTER_WORDS], head[2];
    off_t fpos = 0, pos = 0;
    int st = gcd_level_init(L, count);
    if (st != BULK_OK) {
        close(fd);
        return st;
    }
    int ok = fstat(fd, &sb) == 0 && (uint64_t)sb.st_size >= sizeof foot;
    if (ok) {
        fpos = sb.st_size - (off_t)sizeof foot;
        ok = get_words(fd, &fpos, foot, FOOTER_WORDS) == 0 && foot[0] == LEVEL_MAGIC && foot[1] == 1 &&
             foot[2] == (uint64_t)kind && foot[3] == k && foot[4] == c->id[0] && foot[5] == c->id[1] &&
             foot[6] % 8 == 0 && foot[6] <= (uint64_t)sb.st_size - sizeof foot;
    }
    pos = ok ? (off_t)foot[6] : 0;
    ok = ok && get_words(fd, &pos, head, 2) == 0 && head[0] == count && head[1] >= 1 && head[1] <= count;
    /* the trailer's size from its counts must be what lies between its start and the footer */
    ok = ok && (uint64_t)(sb.st_size - (off_t)sizeof foot - pos) == 8 * (2 * count + 1 + 2 * head[1] + 1);
    if (ok) {
        L->nchunk = L->chunk_cap = head[1];
        L->chunk = malloc((head[1] + 1) * sizeof *L->chunk);
        L->sum = malloc(head[1] * sizeof *L->sum);
        if (!L->chunk || !L->sum) st = BULK_ERR_NOMEM;
        ok = st == BULK_OK && get_words(fd, &pos, L->off, count + 1) == 0 &&
             get_words(fd, &pos, L->len, count) == 0 && get_words(fd, &pos, L->chunk, head[1] + 1) == 0 &&
             get_words(fd, &pos, L->sum, head[1]) == 0;
    }
    if (ok) {
        uint64_t h = bulk_hash_words(0x636b7074ull, head, 2);
        h = bulk_hash_words(h, L->off, count + 1);
        h = bulk_hash_words(h, L->len, count);
        h = bulk_hash_words(h, L->chunk, head[1] + 1);
        h = bulk_hash_words(h, L->sum, head[1]);
        ok = bulk_hash_words(h, foot, FOOTER_WORDS - 1) == foot[7] && L->off[0] == 0 &&
             L->off[count] * sizeof(bulk_limb_t) == foot[6] && L->chunk[0] == 0 && L->chunk[head[1]] == count;
        for (size_t j = 0; ok && j < count; j++)
            ok = L->off[j] < L->off[j + 1] && L->len[j] >= 1 && L->len[j] <= L->off[j + 1] - L->off[j];
        for (size_t i = 0; ok && i < head[1]; i++) ok = L->chunk[i] < L->chunk[i + 1];
    }
    if (!ok || st != BULK_OK) {
        close(fd);
        gcd_level_free(L);
        return st != BULK_OK ? st : 1;
    }
    L->fd = fd;
    L->saved = 1;
    c->read_levels++;
    return BULK_OK;
}

void gcd_ckpt_remove(gcd_ckpt *c, int kind, size_t k)
{
    char *path = level_path(c, kind, k);
    if (path) unlink(path);
    free(path);
}
