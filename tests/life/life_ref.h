/* The slow, obviously right twin of the Life steppers: one byte per cell, neighbours counted one
 * by one, written without the library's code. Also conversions to and from bit grids. */
#ifndef BULK_TESTS_LIFE_REF_H
#define BULK_TESTS_LIFE_REF_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One generation of a w x h byte grid (torus or dead boundary) under birth/survive masks. */
static inline void ref_step(uint8_t *g, uint64_t w, uint64_t h, int torus, unsigned birth,
                            unsigned survive)
{
    uint8_t *n = malloc(w * h);
    for (uint64_t y = 0; y < h; y++)
        for (uint64_t x = 0; x < w; x++) {
            int count = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    if (!dx && !dy) continue;
                    int64_t xx = (int64_t)x + dx, yy = (int64_t)y + dy;
                    if (torus) {
                        xx = (xx + (int64_t)w) % (int64_t)w;
                        yy = (yy + (int64_t)h) % (int64_t)h;
                    } else if (xx < 0 || yy < 0 || xx >= (int64_t)w || yy >= (int64_t)h) {
                        continue;
                    }
                    count += g[(uint64_t)yy * w + (uint64_t)xx];
                }
            int alive = g[y * w + x];
            n[y * w + x] = (uint8_t)(alive ? (survive >> count) & 1 : (birth >> count) & 1);
        }
    memcpy(g, n, w * h);
    free(n);
}

static inline void ref_to_bits(const uint8_t *g, uint64_t w, uint64_t h, uint64_t *cells)
{
    uint64_t nw = (w + 63) / 64;
    memset(cells, 0, nw * h * 8);
    for (uint64_t y = 0; y < h; y++)
        for (uint64_t x = 0; x < w; x++)
            if (g[y * w + x]) cells[y * nw + x / 64] |= 1ull << (x % 64);
}

/* Index of the first cell where the bit grid differs from the byte grid, or -1; also checks that
 * the padding bits are 0 (reported as the cell index w * h). */
static inline int64_t ref_compare(const uint8_t *g, uint64_t w, uint64_t h, const uint64_t *cells)
{
    uint64_t nw = (w + 63) / 64;
    for (uint64_t y = 0; y < h; y++) {
        for (uint64_t x = 0; x < w; x++)
            if (((cells[y * nw + x / 64] >> (x % 64)) & 1) != g[y * w + x]) return (int64_t)(y * w + x);
        if (w % 64 && cells[y * nw + nw - 1] >> (w % 64)) return (int64_t)(w * h);
    }
    return -1;
}
#endif
