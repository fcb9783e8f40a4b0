/* bulk_gcd_pairs (contract: bulk/gcd.h): the pairs (i, j), i < j, of a block of `tile` rows
 * and a block of `tile` columns are gathered into two operand arrays and handed to
 * bulk_int_gcd at once; only the pairs with gcd != 1 are kept, sorted by (i, j) per row
 * block, and passed to the callback before the next row block starts. Memory: three arrays
 * of tile^2 * limbs limbs, whatever n is. */
#include <stdlib.h>
#include <string.h>

#include "bulk/gcd.h"
#include "gcd/gcd_internal.h"


typedef struct hit {
    size_t i, j, at; /* at: offset of the gcd in the hit limbs */
} hit;

static int hit_cmp(const void *a, const void *b)
{
    const hit *x = a, *y = b;
    if (x->i != y->i) return x->i < y->i ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

int bulk_gcd_pairs(bulk_ctx *ctx, const bulk_limb_t *x, size_t n, size_t limbs, size_t tile,
                   bulk_gcd_pair_fn fn, void *arg)
{
    static const char name[] = "bulk_gcd_pairs";
    int st = gcd_check_args(name, ctx, x, n, limbs);
    if (st != BULK_OK) return st;
    if (!fn) return bulk_fail(ctx, BULK_ERR_ARG, "%s: fn: must not be NULL", name);
    if (tile > 65536) return bulk_fail(ctx, BULK_ERR_ARG, "%s: tile %zu: must be 0..65536", name, tile);
    if ((st = gcd_check_inputs(name, ctx, x, n, limbs)) != BULK_OK) return st;
    double total = n < 2 ? 0 : (double)n * (double)(n - 1) / 2;
    bulk_progress_run pr;
    bulk_progress_start(&pr, ctx, "gcd.pairs", "pairs", total);
    if (n < 2) return bulk_progress_end(&pr);
    if (tile == 0) tile = bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA ? 1024 : 256;
    if (tile > n) tile = n;
    size_t cap = tile * tile;
    bulk_limb_t *A = malloc(cap * limbs * sizeof *A), *B = malloc(cap * limbs * sizeof *B);
    bulk_limb_t *G = malloc(cap * limbs * sizeof *G);
    size_t *pi = malloc(cap * sizeof *pi), *pj = malloc(cap * sizeof *pj);
    hit *hits = NULL;
    bulk_limb_t *hl = NULL;
    size_t nh = 0, hcap = 0, nl = 0, lcap = 0;
    double done = 0;
    st = A && B && G && pi && pj ? BULK_OK : BULK_ERR_NOMEM;
    for (size_t i0 = 0; st == BULK_OK && i0 < n; i0 += tile) {
        size_t i1 = i0 + tile < n ? i0 + tile : n;
        nh = nl = 0;
        for (size_t j0 = i0; st == BULK_OK && j0 < n; j0 += tile) {
            size_t j1 = j0 + tile < n ? j0 + tile : n, cnt = 0;
            for (size_t i = i0; i < i1; i++)
                for (size_t j = (j0 > i + 1 ? j0 : i + 1); j < j1; j++) {
                    memcpy(A + cnt * limbs, x + i * limbs, limbs * sizeof *A);
                    memcpy(B + cnt * limbs, x + j * limbs, limbs * sizeof *B);
                    pi[cnt] = i;
                    pj[cnt] = j;
                    cnt++;
                }
            if (cnt == 0) continue;
            if ((st = bulk_int_gcd(ctx, G, A, B, cnt, limbs)) != BULK_OK) break;
            done += (double)cnt;
            if ((st = bulk_progress_step(&pr, done, 0)) != BULK_OK) break;
            for (size_t k = 0; k < cnt; k++) {
                const bulk_limb_t *gk = G + k * limbs;
                size_t gn = bulk_mpn_normalized_size(gk, limbs);
                if (gn == 1 && gk[0] == 1) continue;
                if (nh == hcap) {
                    hcap = hcap ? 2 * hcap : 64;
                    hit *t = realloc(hits, hcap * sizeof *t);
                    if (!t) { st = BULK_ERR_NOMEM; break; }
                    hits = t;
                }
                if (nl + limbs > lcap) {
                    lcap = lcap ? 2 * lcap + limbs : 64 * limbs;
                    bulk_limb_t *t = realloc(hl, lcap * sizeof *t);
                    if (!t) { st = BULK_ERR_NOMEM; break; }
                    hl = t;
                }
                hits[nh++] = (hit){ pi[k], pj[k], nl };
                memcpy(hl + nl, gk, limbs * sizeof *hl);
                nl += limbs;
            }
        }
        if (st != BULK_OK) break;
        if (nh > 1) qsort(hits, nh, sizeof *hits, hit_cmp); /* hits is NULL while nh is 0 */
        for (size_t h = 0; h < nh && st == BULK_OK; h++) {
            const bulk_limb_t *gk = hl + hits[h].at;
            st = fn(arg, hits[h].i, hits[h].j, gk, bulk_mpn_normalized_size(gk, limbs));
        }
    }
    free(A);
    free(B);
    free(G);
    free(pi);
    free(pj);
    free(hits);
    free(hl);
    if (st == BULK_OK) return bulk_progress_end(&pr);
    if (st == BULK_ERR_CANCELLED)
        return bulk_fail(ctx, st, "%s: progress callback: asked to stop", name);
    if (st == BULK_ERR_NOMEM) return bulk_fail(ctx, st, "%s: tiles of %zu pairs: out of memory", name, cap);
    if (st == BULK_ERR_IO || st == BULK_ERR_INTERNAL || st > 0 || st < BULK_ERR_CANCELLED)
        return bulk_fail(ctx, st, "%s: fn: stopped the search (returned %d)", name, st);
    return st; /* the callback's own value, or bulk_int_gcd's failure (its last error) */
}
