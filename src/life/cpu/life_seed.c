/* Seed 001's bit-per-cell algorithms as written there (SINGLE-WORD, DOUBLE-WORD: eight neighbour
 * words per word, one generation per pass, one thread), Conway only: the peers that bench_life
 * measures the CPU backend against, and a second twin for the tests. */
#include <stdlib.h>
#include <string.h>

#include "life/life_core.h"
#include "life/life_internal.h"

/* Row c shifted: l[j] bit k = cell 64 j + k - 1, r[j] bit k = cell 64 j + k + 1, with the grid's
 * boundary at the row ends (wrap at bit granularity on a torus, dead otherwise). */
static void shifted(const uint64_t *c, uint64_t nw, uint64_t width, int torus, uint64_t *l, uint64_t *r)
{
    unsigned b = (unsigned)((width - 1) % 64);
    for (uint64_t j = 0; j < nw; j++) {
        uint64_t prev = j > 0 ? c[j - 1] >> 63 : torus ? (c[nw - 1] >> b) & 1 : 0;
        uint64_t next = j + 1 < nw ? c[j + 1] << 63 : torus ? (c[0] & 1) << b : 0;
        l[j] = (c[j] << 1) | prev;
        r[j] = (c[j] >> 1) | next;
    }
}

int life_cpu_step_seed(uint64_t *cells, uint64_t width, uint64_t height, int torus, uint64_t steps,
                       int double_word)
{
    if (!cells || width == 0 || height == 0) return BULK_ERR_ARG;
    uint64_t nw = bulk_life_words(width), n = nw * height;
    uint64_t lastmask = width % 64 ? (1ull << (width % 64)) - 1 : ~0ull;
    uint64_t *next = malloc(n * 8), *sh = malloc(2 * n * 8), *zero = calloc(nw, 8);
    if (!next || !sh || !zero) {
        free(next);
        free(sh);
        free(zero);
        return BULK_ERR_NOMEM;
    }
    uint64_t *L = sh, *R = sh + n;
    for (uint64_t s = 0; s < steps; s++) {
        for (uint64_t y = 0; y < height; y++) shifted(cells + y * nw, nw, width, torus, L + y * nw, R + y * nw);
#define ROW(base, yy)                                                                               \
    ((yy) < 0 || (yy) >= (int64_t)height ? (torus ? (base) + (((yy) + (int64_t)height) % (int64_t)height) * nw : zero) \
                                         : (base) + (uint64_t)(yy) * nw)
        uint64_t y = 0;
        if (double_word)
            for (; y + 1 < height; y += 2) {
                int64_t t = (int64_t)y;
                const uint64_t *ul = ROW(L, t - 1), *uc = ROW(cells, t - 1), *ur = ROW(R, t - 1);
                const uint64_t *kl = ROW(L, t), *kr = ROW(R, t), *ll = ROW(L, t + 1), *lr = ROW(R, t + 1);
                const uint64_t *dl = ROW(L, t + 2), *dc = ROW(cells, t + 2), *dr = ROW(R, t + 2);
                const uint64_t *kc = cells + y * nw, *lc = kc + nw;
                uint64_t *ko = next + y * nw, *lo = ko + nw;
                for (uint64_t j = 0; j < nw; j++) {
                    uint64_t k = kc[j], l = lc[j];
                    life_double_word_64(ul[j], uc[j], ur[j], kl[j], kr[j], dl[j], dc[j], dr[j], ll[j], lr[j], &k, &l);
                    ko[j] = k;
                    lo[j] = l;
                }
                ko[nw - 1] &= lastmask;
                lo[nw - 1] &= lastmask;
            }
        for (; y < height; y++) {
            int64_t t = (int64_t)y;
            const uint64_t *ul = ROW(L, t - 1), *uc = ROW(cells, t - 1), *ur = ROW(R, t - 1);
            const uint64_t *ml = ROW(L, t), *mr = ROW(R, t);
            const uint64_t *dl = ROW(L, t + 1), *dc = ROW(cells, t + 1), *dr = ROW(R, t + 1);
            const uint64_t *mc = cells + y * nw;
            uint64_t *o = next + y * nw;
            for (uint64_t j = 0; j < nw; j++)
                o[j] = life_single_word_64(ul[j], uc[j], ur[j], ml[j], mr[j], dl[j], dc[j], dr[j], mc[j]);
            o[nw - 1] &= lastmask;
        }
#undef ROW
        memcpy(cells, next, n * 8);
    }
    free(next);
    free(sh);
    free(zero);
    return BULK_OK;
}
