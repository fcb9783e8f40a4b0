/* Out-of-core universes (seed 001 section 6.6): the grid lives in a file, and each pass of t
 * generations streams it through memory in tiles. A tile of rows [y0, y1) and words [j0, j1) is
 * read with a halo of t rows above and below and one word (64 >= t cells) left and right,
 * wrapped on a torus and dead outside a dead-boundary grid; the extended tile is stepped t
 * generations as a dead-boundary grid on the context's backend, which leaves the cells within
 * t of its edge wrong ("dirty") and the tile itself exact; the tile is written to the second
 * file. The two files then swap roles. Both files are unlinked as soon as they are open, so
 * nothing is left behind even if the process dies. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "life/life_internal.h"

struct life_ooc {
    int fd[2];
    int cur; /* the file that holds the grid */
    uint64_t w, h, nw;
    uint64_t max_memory;
};

static int full_pread(int fd, void *buf, size_t n, off_t off)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = pread(fd, p, n, off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return BULK_ERR_IO;
        p += r;
        n -= (size_t)r;
        off += r;
    }
    return BULK_OK;
}

static int full_pwrite(int fd, const void *buf, size_t n, off_t off)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t r = pwrite(fd, p, n, off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return BULK_ERR_IO;
        p += r;
        n -= (size_t)r;
        off += r;
    }
    return BULK_OK;
}

static int open_tmp(const char *dir, int *fd, uint64_t bytes)
{
    char path[4096];
    if (!dir || !*dir) dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    if (snprintf(path, sizeof path, "%s/bulk-life-XXXXXX", dir) >= (int)sizeof path) return BULK_ERR_IO;
    *fd = mkstemp(path);
    if (*fd < 0) return BULK_ERR_IO;
    unlink(path);
    if (ftruncate(*fd, (off_t)bytes) != 0) {
        close(*fd);
        *fd = -1;
        return BULK_ERR_IO;
    }
    return BULK_OK;
}

int life_ooc_create(life_ooc **out, const char *dir, uint64_t width, uint64_t height,
                    uint64_t max_memory)
{
    if (!out || width == 0 || height == 0) return BULK_ERR_ARG;
    life_ooc *o = calloc(1, sizeof *o);
    if (!o) return BULK_ERR_NOMEM;
    o->fd[0] = o->fd[1] = -1;
    o->w = width;
    o->h = height;
    o->nw = bulk_life_words(width);
    o->max_memory = max_memory;
    int st = BULK_OK;
    for (int i = 0; i < 2 && st == BULK_OK; i++) st = open_tmp(dir, &o->fd[i], o->nw * height * 8);
    if (st != BULK_OK) {
        life_ooc_free(o);
        return st;
    }
    *out = o;
    return BULK_OK;
}

void life_ooc_free(life_ooc *o)
{
    if (!o) return;
    for (int i = 0; i < 2; i++)
        if (o->fd[i] >= 0) close(o->fd[i]);
    free(o);
}

int life_ooc_read_row(life_ooc *o, uint64_t y, uint64_t *row)
{
    return full_pread(o->fd[o->cur], row, o->nw * 8, (off_t)(y * o->nw * 8));
}

int life_ooc_write_row(life_ooc *o, uint64_t y, const uint64_t *row)
{
    return full_pwrite(o->fd[o->cur], row, o->nw * 8, (off_t)(y * o->nw * 8));
}

/* Reads into row[] (bulk_life_words(width) words, the others left as they are) the words of
 * row gy that life_row_get64 touches for the tile's words [j0, j1) and its halo word on each
 * side: [j0 - 1, j1 + 1), and on a torus the row's two last words (left of cell 0) and two first
 * words (right of the last cell) when the halo wraps. A full-width tile reads the whole row. */
static int read_row_parts(const life_ooc *o, int fd, uint64_t *row, uint64_t gy, uint64_t j0, uint64_t j1,
                          int torus)
{
    uint64_t nw = o->nw;
    off_t base = (off_t)(gy * nw * 8);
    if (nw <= 4 || (j0 == 0 && j1 == nw)) return full_pread(fd, row, nw * 8, base);
    uint64_t a = j0 > 0 ? j0 - 1 : 0, b = j1 + 1 < nw ? j1 + 1 : nw;
    int st = full_pread(fd, row + a, (b - a) * 8, base + (off_t)(a * 8));
    if (st == BULK_OK && torus && j0 == 0) st = full_pread(fd, row + nw - 2, 16, base + (off_t)((nw - 2) * 8));
    if (st == BULK_OK && torus && 64 * (j1 + 1) > o->w) st = full_pread(fd, row, 16, base);
    return st;
}

/* Tile shape for t generations within the memory budget: the extended tile is held about three
 * times (the tile, the stepper's second copy, its scratch) plus one row buffer. */
static int tile_shape(const life_ooc *o, unsigned t, uint64_t *th, uint64_t *tw)
{
    uint64_t budget = o->max_memory;
    uint64_t row_bytes = o->nw * 8;
    if (budget <= row_bytes) return BULK_ERR_ARG;
    budget -= row_bytes;
    uint64_t halo = 2 * (uint64_t)t;
    /* full-width bands when at least max(t, 1) rows fit */
    uint64_t per_row = 3 * 8 * (o->nw + 2) + 16 * 8; /* + the stepper's row pointers */
    uint64_t rows = budget / per_row;
    uint64_t min_rows = t > 1 ? t : 1;
    if (rows >= halo + min_rows) {
        *tw = o->nw;
        *th = rows - halo;
    } else {
        /* narrower tiles, as tall as their own width in cells allows */
        uint64_t h = halo + (t > 8 ? t : 8);
        uint64_t words = budget / (3 * 8 * h + 16 * 8);
        if (words < 3) {
            h = halo + 1;
            words = budget / (3 * 8 * h + 16 * 8);
        }
        if (words < 3) return BULK_ERR_ARG;
        *tw = words - 2;
        *th = h - halo;
    }
    if (*tw > o->nw) *tw = o->nw;
    if (*th > o->h) *th = o->h;
    return BULK_OK;
}

int life_ooc_step(life_ooc *o, bulk_ctx *ctx, int torus, const bulk_life_rule *rule, uint64_t steps,
                  unsigned per_pass)
{
    unsigned tmax = per_pass ? per_pass : 32;
    if (tmax > 64) tmax = 64;
    uint64_t *row = malloc(o->nw * 8);
    uint64_t *ext = NULL;
    int st = row ? BULK_OK : BULK_ERR_NOMEM;
    uint64_t lastmask = o->w % 64 ? (1ull << (o->w % 64)) - 1 : ~0ull;
    for (uint64_t done = 0; st == BULK_OK && done < steps;) {
        unsigned t = steps - done < tmax ? (unsigned)(steps - done) : tmax;
        uint64_t th = 0, tw = 0;
        if (!per_pass) {
            /* the most generations per pass whose tiles are at least as tall as their halo;
             * failing that, any that fits the budget */
            unsigned best = 0;
            for (unsigned tt = t; tt >= 1 && !best; tt--)
                if (tile_shape(o, tt, &th, &tw) == BULK_OK && (th >= 2 * (uint64_t)tt || th == o->h))
                    best = tt;
            for (unsigned tt = t; tt >= 1 && !best; tt--)
                if (tile_shape(o, tt, &th, &tw) == BULK_OK) best = tt;
            if (best) t = best;
        }
        if ((st = tile_shape(o, t, &th, &tw)) != BULK_OK) break;
        uint64_t ew = (tw + 2) * 64, eh = th + 2 * (uint64_t)t, enw = tw + 2;
        free(ext);
        ext = malloc(enw * eh * 8);
        if (!ext) {
            st = BULK_ERR_NOMEM;
            break;
        }
        int src = o->fd[o->cur], dst = o->fd[1 - o->cur];
        for (uint64_t y0 = 0; st == BULK_OK && y0 < o->h; y0 += th) {
            uint64_t y1 = y0 + th < o->h ? y0 + th : o->h;
            for (uint64_t j0 = 0; st == BULK_OK && j0 < o->nw; j0 += tw) {
                uint64_t j1 = j0 + tw < o->nw ? j0 + tw : o->nw;
                uint64_t rows = (y1 - y0) + 2 * (uint64_t)t;
                uint64_t any = 0;
                for (uint64_t r = 0; r < rows; r++) {
                    int64_t gy = (int64_t)y0 - (int64_t)t + (int64_t)r;
                    uint64_t *e = ext + r * enw;
                    if (torus) {
                        gy %= (int64_t)o->h;
                        if (gy < 0) gy += (int64_t)o->h;
                    } else if (gy < 0 || gy >= (int64_t)o->h) {
                        memset(e, 0, enw * 8);
                        continue;
                    }
                    if ((st = read_row_parts(o, src, row, (uint64_t)gy, j0, j1, torus)) != BULK_OK) break;
                    for (uint64_t k = 0; k < enw; k++) {
                        e[k] = life_row_get64(row, o->w, torus, 64 * ((int64_t)j0 - 1 + (int64_t)k));
                        any |= e[k];
                    }
                }
                if (st != BULK_OK) break;
                /* the last tile of a column may be shorter: step only its rows */
                if (any || (rule->birth & 1))
                    st = bulk_life_grid_step(ctx, ext, ew, rows, 0, rule, t, 0);
                for (uint64_t y = y0; st == BULK_OK && y < y1; y++) {
                    uint64_t *e = ext + (y - y0 + t) * enw + 1;
                    if (j1 == o->nw) e[j1 - j0 - 1] &= lastmask;
                    st = full_pwrite(dst, e, (j1 - j0) * 8, (off_t)((y * o->nw + j0) * 8));
                }
            }
        }
        if (st == BULK_OK) o->cur = 1 - o->cur;
        done += t;
    }
    free(ext);
    free(row);
    return st;
}
