/* Pattern helpers: cropping to the live cells, freeing. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "bulk/life.h"

void bulk_life_pattern_free(bulk_life_pattern *p)
{
    if (!p) return;
    free(p->cells);
    p->cells = NULL;
    p->width = p->height = 0;
}

int bulk_life_pattern_crop(bulk_life_pattern *p)
{
    static const char fn[] = "bulk_life_pattern_crop";
    if (!p) return bulk_fail(NULL, BULK_ERR_ARG, "%s: p is NULL", fn);
    uint64_t nw = bulk_life_words(p->width);
    uint64_t y0 = UINT64_MAX, y1 = 0, x0 = UINT64_MAX, x1 = 0;
    for (uint64_t y = 0; y < p->height; y++) {
        const uint64_t *row = p->cells + y * nw;
        for (uint64_t j = 0; j < nw; j++) {
            if (!row[j]) continue;
            uint64_t lo = 64 * j + (uint64_t)__builtin_ctzll(row[j]);
            uint64_t hi = 64 * j + 63 - (uint64_t)__builtin_clzll(row[j]);
            if (lo < x0) x0 = lo;
            if (hi + 1 > x1) x1 = hi + 1;
            if (y < y0) y0 = y;
            y1 = y + 1;
        }
    }
    if (y0 == UINT64_MAX) { /* empty */
        free(p->cells);
        p->cells = calloc(1, sizeof(uint64_t));
        p->width = p->height = 0;
        return p->cells ? BULK_OK : bulk_fail(NULL, BULK_ERR_NOMEM, "%s: out of memory", fn);
    }
    uint64_t w = x1 - x0, h = y1 - y0, nw2 = bulk_life_words(w);
    uint64_t *c = calloc((size_t)(nw2 * h), sizeof(uint64_t));
    if (!c) return bulk_fail(NULL, BULK_ERR_NOMEM, "%s: %" PRIu64 " x %" PRIu64 " cells: out of memory", fn, w, h);
    for (uint64_t y = 0; y < h; y++) {
        const uint64_t *src = p->cells + (y + y0) * nw;
        uint64_t *dst = c + y * nw2;
        uint64_t sh = x0 % 64, j0 = x0 / 64;
        for (uint64_t j = 0; j < nw2; j++) {
            uint64_t v = src[j0 + j] >> sh;
            if (sh && j0 + j + 1 < nw) v |= src[j0 + j + 1] << (64 - sh);
            dst[j] = v;
        }
        if (w % 64) dst[nw2 - 1] &= (1ull << (w % 64)) - 1;
    }
    free(p->cells);
    p->cells = c;
    p->x += (int64_t)x0;
    p->y += (int64_t)y0;
    if (p->frame_width || p->frame_height) { /* a stated frame stays where it was */
        p->frame_dx += x0;
        p->frame_dy += y0;
    }
    p->width = w;
    p->height = h;
    return BULK_OK;
}
