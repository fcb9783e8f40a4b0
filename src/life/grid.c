/* Grid-level entry points: stepping on the context's backend, population, row access. */
#include <inttypes.h>

#include "backend/context.h"
#include "backend/report.h"
#include "life/life_backend.h"
#include "life/life_internal.h"

/* The CPU table's step: life_cpu_step on the context's threads under its tuning. */
static int cpu_step(bulk_ctx *ctx, uint64_t *cells, uint64_t width, uint64_t height, int torus,
                    const bulk_life_rule *rule, uint64_t steps, unsigned per_pass)
{
    return life_cpu_step(cells, width, height, torus, rule, steps, per_pass, ctx->threads,
                         ctx->tune.life_isa);
}

const bulk_life_backend bulk_life_cpu_backend = { .step = cpu_step };

/* bulk_life_grid_step on checked arguments. */
static int grid_step(bulk_ctx *ctx, uint64_t *cells, uint64_t width, uint64_t height, int torus,
                     const bulk_life_rule *rule, uint64_t steps, unsigned per_pass)
{
    const bulk_backend_tables *be = ctx->gpu ? ctx->gpu : ctx->cpu;
    return be->life->step(ctx, cells, width, height, torus, rule, steps, per_pass);
}

int bulk_life_grid_step(bulk_ctx *ctx, uint64_t *cells, uint64_t width, uint64_t height, int torus,
                        const bulk_life_rule *rule, uint64_t steps, unsigned per_pass)
{
    static const char fn[] = "bulk_life_grid_step";
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx is NULL", fn);
    if (!cells || !rule) return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s is NULL", fn, cells ? "rule" : "cells");
    if (width == 0 || height == 0)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %" PRIu64 " x %" PRIu64 ": the grid must have at least one cell", fn,
                         width, height);
    if ((rule->birth | rule->survive) >> 9)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: rule birth 0x%x, survive 0x%x: only bits 0..8 may be set", fn,
                         (unsigned)rule->birth, (unsigned)rule->survive);
    int st = grid_step(ctx, cells, width, height, torus, rule, steps, per_pass);
    if (st == BULK_ERR_NOMEM)
        return bulk_fail(ctx, st, "%s: %" PRIu64 " x %" PRIu64 ": out of memory", fn, width, height);
    return st; /* a backend failure (BULK_ERR_CUDA) has recorded its own message */
}

uint64_t bulk_life_grid_population(const uint64_t *cells, uint64_t width, uint64_t height)
{
    if (!cells && width && height) return (uint64_t)bulk_fail(NULL, 0, "bulk_life_grid_population: cells is NULL");
    uint64_t n = bulk_life_words(width) * height, pop = 0;
    for (uint64_t i = 0; i < n; i++) pop += (uint64_t)__builtin_popcountll(cells[i]);
    return pop;
}

uint64_t life_row_get64(const uint64_t *row, uint64_t width, int torus, int64_t x)
{
    uint64_t v = 0;
    if (!torus) {
        if (x >= (int64_t)width || x <= -64) return 0;
        if (x >= 0 && x % 64 == 0) {
            v = row[x / 64];
        } else if (x >= 0) {
            uint64_t j = (uint64_t)x / 64, s = (uint64_t)x % 64;
            v = row[j] >> s;
            if (j + 1 < bulk_life_words(width)) v |= row[j + 1] << (64 - s);
        } else {
            v = row[0] << (uint64_t)(-x); /* x in (-64, 0) */
        }
        return v; /* padding bits of the row are 0, so nothing past width leaks in */
    }
    /* torus: cell by cell runs of the row, each as long as possible */
    int64_t w = (int64_t)width;
    int64_t p = x % w;
    if (p < 0) p += w;
    unsigned got = 0;
    while (got < 64) {
        unsigned take = 64 - got;
        if ((int64_t)take > w - p) take = (unsigned)(w - p);
        uint64_t piece = life_row_get64(row, width, 0, p);
        if (take < 64) piece &= (1ull << take) - 1;
        v |= piece << got;
        got += take;
        p += take;
        if (p == w) p = 0;
    }
    return v;
}
