/* Universes: a torus, or the unbounded plane as a dead-boundary grid that follows the pattern;
 * in memory or, when the cells do not fit the memory budget, in a file (ooc.c).
 *
 * The plane: before every chunk of c generations the grid is made to have at least c + 1 dead
 * cells between the live cells and each edge. Nothing travels faster than one cell per
 * generation, so no cell outside the grid could come alive within the chunk and the
 * dead-boundary grid computes exactly what the infinite plane does. The grid is laid out afresh
 * (with room for a further chunk) only when the margin runs short or the grid has become much
 * larger than the pattern. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "backend/context.h"
#include "backend/report.h"
#include "life/life_internal.h"
#include "progress_line.h"

struct bulk_life {
    bulk_ctx *ctx;
    bulk_life_rule rule;
    int torus;
    uint64_t gen;
    unsigned per_pass;
    uint64_t max_memory;
    char *tmp_dir;
    uint64_t w, h;  /* the grid */
    int64_t ox, oy; /* plane coordinates of the grid's cell (0, 0); 0 on a torus */
    uint64_t *cells; /* in memory, or NULL */
    life_ooc *ooc;   /* out of core, or NULL */
    uint64_t *rowbuf;/* one row (out of core) */
};

/* Bytes an in-memory grid of w x h needs while stepping: two copies. */
static uint64_t mem_need(uint64_t w, uint64_t h)
{
    uint64_t nw = bulk_life_words(w);
    if (h && nw > UINT64_MAX / 16 / h) return UINT64_MAX;
    return nw * h * 16;
}

/* Row y of the grid: a pointer into memory, or read into u->rowbuf. NULL on an I/O error. */
static const uint64_t *get_row(bulk_life *u, uint64_t y)
{
    if (u->cells) return u->cells + y * bulk_life_words(u->w);
    return life_ooc_read_row(u->ooc, y, u->rowbuf) == BULK_OK ? u->rowbuf : NULL;
}

/* Allocates a new all-dead store of w x h (memory or file by the budget) into the fields of n. */
static int new_store(bulk_life *u, bulk_life *n, uint64_t w, uint64_t h)
{
    *n = *u;
    n->w = w;
    n->h = h;
    n->cells = NULL;
    n->ooc = NULL;
    n->rowbuf = NULL;
    uint64_t need = mem_need(w, h);
    int ooc = need == UINT64_MAX || (u->max_memory && need > u->max_memory);
    if (!ooc) {
        n->cells = calloc((size_t)(bulk_life_words(w) * h), sizeof(uint64_t));
        if (n->cells) return BULK_OK;
        if (!u->max_memory) return BULK_ERR_NOMEM;
    }
    n->rowbuf = malloc(bulk_life_words(w) * sizeof(uint64_t));
    if (!n->rowbuf) return BULK_ERR_NOMEM;
    return life_ooc_create(&n->ooc, u->tmp_dir, w, h, u->max_memory ? u->max_memory : (1ull << 30));
}

static void free_store(bulk_life *u)
{
    free(u->cells);
    free(u->rowbuf);
    life_ooc_free(u->ooc);
    u->cells = NULL;
    u->rowbuf = NULL;
    u->ooc = NULL;
}

/* Writes row y of store n (after filling `row`, bulk_life_words(n->w) words). */
static int put_row(bulk_life *n, uint64_t y, const uint64_t *row)
{
    uint64_t nw = bulk_life_words(n->w);
    if (n->cells) {
        memcpy(n->cells + y * nw, row, nw * sizeof(uint64_t));
        return BULK_OK;
    }
    return life_ooc_write_row(n->ooc, y, row);
}

/* Copies the old grid into a new w x h grid whose cell (0, 0) is the old grid's (dx, dy). */
static int relayout(bulk_life *u, uint64_t w, uint64_t h, int64_t dx, int64_t dy)
{
    bulk_life n;
    int st = new_store(u, &n, w, h);
    uint64_t nw = bulk_life_words(w);
    uint64_t *row = st == BULK_OK ? calloc(nw, sizeof(uint64_t)) : NULL;
    if (st == BULK_OK && !row) st = BULK_ERR_NOMEM;
    for (uint64_t y = 0; st == BULK_OK && y < h; y++) {
        int64_t sy = (int64_t)y + dy;
        if (sy < 0 || sy >= (int64_t)u->h) {
            if (n.cells) continue; /* already dead */
            memset(row, 0, nw * sizeof(uint64_t));
        } else {
            const uint64_t *src = get_row(u, (uint64_t)sy);
            if (!src) {
                st = BULK_ERR_IO;
                break;
            }
            for (uint64_t j = 0; j < nw; j++)
                row[j] = life_row_get64(src, u->w, 0, dx + (int64_t)(64 * j));
            if (w % 64) row[nw - 1] &= (1ull << (w % 64)) - 1;
        }
        st = put_row(&n, y, row);
    }
    free(row);
    if (st != BULK_OK) {
        free_store(&n);
        return st;
    }
    free_store(u);
    u->cells = n.cells;
    u->ooc = n.ooc;
    u->rowbuf = n.rowbuf;
    u->w = w;
    u->h = h;
    u->ox += dx;
    u->oy += dy;
    return BULK_OK;
}

/* Bounding box [x0, x1) x [y0, y1) of the live cells in grid coordinates; *empty when none. */
static int bbox(bulk_life *u, uint64_t *x0, uint64_t *x1, uint64_t *y0, uint64_t *y1, int *empty)
{
    uint64_t nw = bulk_life_words(u->w);
    *x0 = *y0 = UINT64_MAX;
    *x1 = *y1 = 0;
    for (uint64_t y = 0; y < u->h; y++) {
        const uint64_t *row = get_row(u, y);
        if (!row) return BULK_ERR_IO;
        for (uint64_t j = 0; j < nw; j++) {
            if (!row[j]) continue;
            uint64_t lo = 64 * j + (uint64_t)__builtin_ctzll(row[j]);
            uint64_t hi = 64 * j + 63 - (uint64_t)__builtin_clzll(row[j]) + 1;
            if (lo < *x0) *x0 = lo;
            if (hi > *x1) *x1 = hi;
            if (y < *y0) *y0 = y;
            *y1 = y + 1;
        }
    }
    *empty = *y0 == UINT64_MAX;
    return BULK_OK;
}

/* A failure of the universe's store (memory, the out-of-core file) as ctx's last error. */
static int store_failed(const bulk_ctx *ctx, const char *fn, int st, uint64_t max_memory)
{
    if (st == BULK_ERR_NOMEM) return bulk_fail(ctx, st, "%s: out of memory", fn);
    if (st == BULK_ERR_IO) return bulk_fail(ctx, st, "%s: reading or writing the out-of-core file failed", fn);
    if (st == BULK_ERR_ARG)
        return bulk_fail(ctx, st, "%s: max_memory %" PRIu64 " is too small for one tile of this universe", fn,
                         max_memory);
    return st; /* a backend failure (BULK_ERR_CUDA) has recorded its own message */
}

int bulk_life_create(bulk_life **out, bulk_ctx *ctx, const bulk_life_pattern *p,
                     const bulk_life_options *opt)
{
    static const char fn[] = "bulk_life_create";
    if (!out || !ctx || !p || !opt)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s is NULL", fn, !out ? "u" : !ctx ? "ctx" : !p ? "p" : "opt");
    *out = NULL;
    if ((opt->rule.birth | opt->rule.survive) >> 9)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: rule birth 0x%x, survive 0x%x: only bits 0..8 may be set", fn,
                         (unsigned)opt->rule.birth, (unsigned)opt->rule.survive);
    /* B0 would fill the infinite plane at once; only a torus can hold it */
    if (!opt->torus && (opt->rule.birth & 1))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: a rule with B0 needs a torus (it would fill the plane)", fn);
    bulk_life *u = calloc(1, sizeof *u);
    if (!u) return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: out of memory", fn);
    u->ctx = ctx;
    u->rule = opt->rule;
    u->torus = opt->torus;
    u->gen = p->generation;
    u->per_pass = opt->per_pass;
    u->max_memory = opt->max_memory;
    if (opt->tmp_dir && !(u->tmp_dir = strdup(opt->tmp_dir))) {
        free(u);
        return bulk_fail(ctx, BULK_ERR_NOMEM, "%s: out of memory", fn);
    }
    uint64_t w, h;
    int64_t px = 0, py = 0; /* where the pattern's (0, 0) goes in the grid */
    if (opt->torus) {
        w = opt->torus_width;
        h = opt->torus_height;
        /* the frame (at least the cells' own rectangle) fits, and the cells sit where the frame
         * puts them */
        uint64_t fw = p->frame_width, fh = p->frame_height;
        if (p->frame_dx > UINT64_MAX - p->width || p->frame_dy > UINT64_MAX - p->height) {
            bulk_life_free(u);
            return bulk_fail(ctx, BULK_ERR_ARG, "%s: the pattern's frame offset is out of range", fn);
        }
        if (fw < p->frame_dx + p->width) fw = p->frame_dx + p->width;
        if (fh < p->frame_dy + p->height) fh = p->frame_dy + p->height;
        if (w == 0 || h == 0 || fw > w || fh > h) {
            bulk_life_free(u);
            if (w == 0 || h == 0)
                return bulk_fail(ctx, BULK_ERR_ARG, "%s: torus %" PRIu64 " x %" PRIu64 ": must have at least one cell",
                                 fn, w, h);
            return bulk_fail(ctx, BULK_ERR_ARG, "%s: the pattern's frame %" PRIu64 " x %" PRIu64 " is larger than the "
                             "torus %" PRIu64 " x %" PRIu64, fn, fw, fh, w, h);
        }
        px = (int64_t)p->frame_dx;
        py = (int64_t)p->frame_dy;
    } else {
        /* a first layout with a margin of 64 cells; chunks widen it as needed */
        w = p->width + 128;
        h = p->height + 128;
        px = 64;
        py = 64;
        u->ox = p->x - px;
        u->oy = p->y - py;
    }
    bulk_life tmp;
    int st = new_store(u, &tmp, w, h);
    if (st == BULK_OK) {
        u->cells = tmp.cells;
        u->ooc = tmp.ooc;
        u->rowbuf = tmp.rowbuf;
        u->w = w;
        u->h = h;
        uint64_t nw = bulk_life_words(w), pnw = bulk_life_words(p->width);
        uint64_t *row = calloc(nw, sizeof(uint64_t));
        if (!row) st = BULK_ERR_NOMEM;
        for (uint64_t y = 0; st == BULK_OK && y < p->height; y++) {
            memset(row, 0, nw * sizeof(uint64_t));
            const uint64_t *src = p->cells + y * pnw;
            for (uint64_t j = 0; j < nw; j++)
                row[j] = life_row_get64(src, p->width, 0, (int64_t)(64 * j) - px);
            if (w % 64) row[nw - 1] &= (1ull << (w % 64)) - 1;
            st = put_row(u, (uint64_t)((int64_t)y + py), row);
        }
        free(row);
    } else {
        free_store(&tmp);
    }
    if (st != BULK_OK) {
        bulk_life_free(u);
        return store_failed(ctx, fn, st, opt->max_memory);
    }
    *out = u;
    return BULK_OK;
}

void bulk_life_free(bulk_life *u)
{
    if (!u) return;
    free_store(u);
    free(u->tmp_dir);
    free(u);
}

/* The answers for a NULL universe are 0 (and the calling thread's last error names the function). */
static int no_universe(const char *fn) { return bulk_fail(NULL, 0, "%s: u is NULL", fn); }
uint64_t bulk_life_generation(const bulk_life *u) { return u ? u->gen : (uint64_t)no_universe(__func__); }
int bulk_life_out_of_core(const bulk_life *u) { return u ? u->ooc != NULL : no_universe(__func__); }
uint64_t bulk_life_grid_cells(const bulk_life *u) { return u ? u->w * u->h : (uint64_t)no_universe(__func__); }

/* Steps the grid as it is (torus or dead boundary). */
static int step_grid(bulk_life *u, uint64_t steps)
{
    if (u->cells)
        return bulk_life_grid_step(u->ctx, u->cells, u->w, u->h, u->torus, &u->rule, steps,
                                   u->per_pass);
    return life_ooc_step(u->ooc, u->ctx, u->torus, &u->rule, steps, u->per_pass);
}

/* Generations per call of a torus run that reports progress: doubled while a call takes under
 * 50 ms, halved when one takes over half a second. */
static uint64_t next_chunk(uint64_t chunk, double seconds)
{
    if (seconds < 0.05 && chunk < (1ull << 40)) return 2 * chunk;
    if (seconds > 0.5 && chunk > 1) return chunk / 2;
    return chunk;
}

/* bulk_life_step on a checked universe, reporting to pr (generations done in this call). */
static int run_steps(bulk_life *u, uint64_t steps, bulk_progress_run *pr)
{
    int st = BULK_OK;
    const uint64_t all = steps;
    if (u->torus) {
        /* in one call unless someone watches: then in chunks, each reported */
        uint64_t chunk = pr->ctx ? 1 : steps;
        for (uint64_t done = 0; done < steps;) {
            uint64_t c = steps - done < chunk ? steps - done : chunk;
            double t0 = bulk_now();
            if ((st = step_grid(u, c)) != BULK_OK) return st;
            u->gen += c;
            done += c;
            chunk = next_chunk(chunk, bulk_now() - t0);
            if ((st = bulk_progress_step(pr, (double)done, 0)) != BULK_OK) return st;
        }
        return BULK_OK;
    }
    while (steps > 0) {
        uint64_t x0, x1, y0, y1;
        int empty;
        if ((st = bbox(u, &x0, &x1, &y0, &y1, &empty)) != BULK_OK) return st;
        if (empty) { /* nothing will ever happen (B0 rules are not allowed on the plane) */
            u->gen += steps;
            return BULK_OK;
        }
        uint64_t bw = x1 - x0, bh = y1 - y0;
        uint64_t c = bw > bh ? bw : bh;
        uint64_t cmax = u->ctx->backend == BULK_BACKEND_CUDA ? 4096 : 1024;
        if (c < 16) c = 16;
        if (c > cmax) c = cmax;
        if (c > steps) c = steps;
        uint64_t m = c + 1; /* margin needed on every side */
        int short_margin = x0 < m || y0 < m || u->w - x1 < m || u->h - y1 < m;
        uint64_t roomy_w = bw + 4 * m + 128, roomy_h = bh + 4 * m + 128;
        int too_big = u->w > 4 * roomy_w || u->h > 4 * roomy_h;
        if (short_margin || too_big) {
            uint64_t M = 2 * m + 64; /* room for about two chunks */
            int64_t dx = (int64_t)x0 - (int64_t)M, dy = (int64_t)y0 - (int64_t)M;
            if ((st = relayout(u, bw + 2 * M, bh + 2 * M, dx, dy)) != BULK_OK) return st;
        }
        if ((st = step_grid(u, c)) != BULK_OK) return st;
        u->gen += c;
        steps -= c;
        if ((st = bulk_progress_step(pr, (double)(all - steps), 0)) != BULK_OK) return st;
    }
    return BULK_OK;
}

int bulk_life_step(bulk_life *u, uint64_t steps)
{
    static const char fn[] = "bulk_life_step";
    if (!u) return bulk_fail(NULL, BULK_ERR_ARG, "%s: u is NULL", fn);
    bulk_progress_run pr;
    int st = bulk_progress_start(&pr, u->ctx, "life.run", "generations", (double)steps);
    if (st == BULK_OK) st = run_steps(u, steps, &pr);
    if (st == BULK_OK) st = bulk_progress_end(&pr);
    if (st == BULK_ERR_CANCELLED)
        return bulk_fail(u->ctx, st, "%s: cancelled by the progress callback at generation %" PRIu64, fn, u->gen);
    return st ? store_failed(u->ctx, fn, st, u->max_memory) : BULK_OK;
}

int bulk_life_population(bulk_life *u, uint64_t *population)
{
    if (!u || !population)
        return bulk_fail(u ? u->ctx : NULL, BULK_ERR_ARG, "bulk_life_population: %s is NULL", u ? "population" : "u");
    if (u->cells) {
        *population = bulk_life_grid_population(u->cells, u->w, u->h);
        return BULK_OK;
    }
    uint64_t pop = 0, nw = bulk_life_words(u->w);
    for (uint64_t y = 0; y < u->h; y++) {
        const uint64_t *row = get_row(u, y);
        if (!row) return store_failed(u->ctx, "bulk_life_population", BULK_ERR_IO, 0);
        for (uint64_t j = 0; j < nw; j++) pop += (uint64_t)__builtin_popcountll(row[j]);
    }
    *population = pop;
    return BULK_OK;
}

int bulk_life_region(bulk_life *u, int64_t x, int64_t y, uint64_t w, uint64_t h,
                     bulk_life_pattern *out)
{
    static const char fn[] = "bulk_life_region";
    if (!u || !out) return bulk_fail(u ? u->ctx : NULL, BULK_ERR_ARG, "%s: %s is NULL", fn, u ? "out" : "u");
    memset(out, 0, sizeof *out);
    uint64_t nw = bulk_life_words(w);
    if (h && nw > (1ull << 33) / 8 / h)
        return bulk_fail(u->ctx, BULK_ERR_ARG, "%s: %" PRIu64 " x %" PRIu64 ": larger than 8 GiB of cells", fn, w, h);
    out->cells = calloc((size_t)(nw * h > 0 ? nw * h : 1), sizeof(uint64_t));
    if (!out->cells) return store_failed(u->ctx, fn, BULK_ERR_NOMEM, 0);
    out->x = x;
    out->y = y;
    out->width = w;
    out->height = h;
    out->rule = u->rule;
    out->has_rule = 1;
    out->has_pos = 1;
    out->generation = u->gen;
    for (uint64_t r = 0; r < h; r++) {
        int64_t gy = y + (int64_t)r - u->oy;
        if (u->torus) {
            gy %= (int64_t)u->h;
            if (gy < 0) gy += (int64_t)u->h;
        } else if (gy < 0 || gy >= (int64_t)u->h) {
            continue;
        }
        const uint64_t *row = get_row(u, (uint64_t)gy);
        if (!row) {
            bulk_life_pattern_free(out);
            return store_failed(u->ctx, fn, BULK_ERR_IO, 0);
        }
        uint64_t *dst = out->cells + r * nw;
        for (uint64_t j = 0; j < nw; j++)
            dst[j] = life_row_get64(row, u->w, u->torus, x - u->ox + (int64_t)(64 * j));
        if (w % 64) dst[nw - 1] &= (1ull << (w % 64)) - 1;
    }
    return BULK_OK;
}

int bulk_life_extract(bulk_life *u, bulk_life_pattern *out)
{
    if (!u || !out) return bulk_fail(u ? u->ctx : NULL, BULK_ERR_ARG, "bulk_life_extract: %s is NULL", u ? "out" : "u");
    uint64_t x0, x1, y0, y1;
    int empty;
    int st = bbox(u, &x0, &x1, &y0, &y1, &empty);
    if (st) return store_failed(u->ctx, "bulk_life_extract", st, 0);
    if (empty) {
        st = bulk_life_region(u, 0, 0, 0, 0, out);
        return st;
    }
    return bulk_life_region(u, (int64_t)x0 + u->ox, (int64_t)y0 + u->oy, x1 - x0, y1 - y0, out);
}
