/* Batched tree levels (contract: gcd_internal.h): the nodes of one block of a level go as one
 * batch of equal-width numbers through the bulk integer API - bulk_int_mul for the product
 * tree, bulk_int_sqr and bulk_int_divmod for the remainder tree - so that a CUDA context runs
 * the block on the GPU in three calls instead of one CPU product or division per node.
 *
 * Why it is exact: the numbers are zero-padded to the block's widest node; a padded number is
 * the same number, and the wrappers return the exact product and remainder on every backend,
 * so each node gets the value the per-node path computes, normalized the same way. */
#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "gcd/gcd_internal.h"

size_t gcd_batched_limbs(const bulk_ctx *ctx, int rem)
{
    const char *e = getenv(rem ? "BULK_GCD_BATCHED_REM" : "BULK_GCD_BATCHED_MUL");
    if (e && *e) return (size_t)strtoull(e, NULL, 0);
    if (bulk_ctx_backend(ctx) != BULK_BACKEND_CUDA) return 0;
    return rem ? GCD_GPU_REM_LIMBS : GCD_GPU_MUL_LIMBS;
}

size_t gcd_level_max_len(const gcd_level *L, size_t j0, size_t j1)
{
    size_t w = 0;
    for (size_t j = j0; j < j1; j++)
        if (L->len[j] > w) w = L->len[j];
    return w;
}

/* ---- gather and scatter on the context's threads ------------------------------------------ */

typedef struct mv_arg {
    const gcd_level *src; /* gather: nodes src[first + step * i] (step 1 or 2), zero-padded */
    size_t first, step;
    int halve;            /* remainder gather: instance i is src node (first + i) / 2 */
    bulk_limb_t *buf;     /* instance i at buf + i * width */
    size_t width;
    gcd_level *dst;       /* scatter: dst node first + i gets buf instance i (keep limbs) */
    size_t keep_mult;     /* limbs kept per node: keep_mult * (sum of the factors' lengths) */
    const gcd_level *fac; /* scatter: the level whose lengths bound each result */
} mv_arg;

static void gather_fn(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    const mv_arg *a = arg;
    for (size_t i = begin; i < end; i++) {
        size_t j = a->halve ? (a->first + i) / 2 : a->first + a->step * i;
        bulk_limb_t *d = a->buf + i * a->width;
        size_t n = a->src->len[j];
        bulk_mpn_copy(d, gcd_level_num(a->src, j), n);
        bulk_mpn_zero(d + n, a->width - n);
    }
}

/* Product scatter: hi node first + i = buf instance i; its length is at most the sum of its
 * two factors' lengths (lo nodes 2j and 2j + 1), which is also its room in hi. */
static void scatter_prod_fn(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    const mv_arg *a = arg;
    for (size_t i = begin; i < end; i++) {
        size_t j = a->first + i;
        size_t n = a->fac->len[2 * j] + a->fac->len[2 * j + 1];
        bulk_limb_t *d = gcd_level_num(a->dst, j);
        bulk_mpn_copy(d, a->buf + i * a->width, n);
        a->dst->len[j] = bulk_mpn_normalized_size(d, n);
    }
}

/* Remainder scatter: rem node first + i = buf instance i (below node^2: 2 len limbs, its room). */
static void scatter_rem_fn(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    const mv_arg *a = arg;
    for (size_t i = begin; i < end; i++) {
        size_t j = a->first + i;
        size_t n = 2 * a->fac->len[j];
        bulk_limb_t *d = gcd_level_num(a->dst, j);
        bulk_mpn_copy(d, a->buf + i * a->width, n);
        size_t rn = bulk_mpn_normalized_size(d, n);
        a->dst->len[j] = rn ? rn : 1;
    }
}

/* Grain of the copies: a few thousand limbs per task. */
static size_t grain_for(size_t width)
{
    size_t g = 4096 / (width ? width : 1);
    return g ? g : 1;
}

int gcd_product_nodes_batched(bulk_ctx *ctx, const gcd_level *lo, gcd_level *hi, size_t h0,
                              size_t h1)
{
    int threads = bulk_ctx_threads(ctx);
    size_t np = h1 - h0; /* full pairs; a last node without a sibling is carried up */
    if (2 * h1 > lo->count) np--;
    if (np > 0) {
        size_t w = gcd_level_max_len(lo, 2 * h0, 2 * (h0 + np));
        bulk_limb_t *a = malloc(np * w * sizeof *a), *b = malloc(np * w * sizeof *b);
        bulk_limb_t *r = malloc(np * 2 * w * sizeof *r);
        int st = a && b && r ? BULK_OK : BULK_ERR_NOMEM;
        if (st == BULK_OK) {
            mv_arg ga = { .src = lo, .first = 2 * h0, .step = 2, .buf = a, .width = w };
            bulk_parallel_for(threads, np, grain_for(w), gather_fn, &ga);
            ga.first = 2 * h0 + 1;
            ga.buf = b;
            bulk_parallel_for(threads, np, grain_for(w), gather_fn, &ga);
            st = bulk_int_mul(ctx, r, a, b, np, w);
        }
        if (st == BULK_OK) {
            mv_arg sa = { .first = h0, .buf = r, .width = 2 * w, .dst = hi, .fac = lo };
            bulk_parallel_for(threads, np, grain_for(2 * w), scatter_prod_fn, &sa);
        }
        free(a);
        free(b);
        free(r);
        if (st != BULK_OK) return st;
    }
    if (h0 + np < h1) { /* the carried node */
        size_t j = h1 - 1;
        bulk_mpn_copy(gcd_level_num(hi, j), gcd_level_num(lo, 2 * j), lo->len[2 * j]);
        hi->len[j] = lo->len[2 * j];
    }
    return BULK_OK;
}

int gcd_remainder_nodes_batched(bulk_ctx *ctx, const gcd_level *node, const gcd_level *up,
                                gcd_level *rem, size_t j0, size_t j1)
{
    int threads = bulk_ctx_threads(ctx);
    size_t c = j1 - j0;
    /* divisors node^2 of 2w limbs, dividends up[j / 2] padded to 4w limbs: w is the widest
     * node, raised where a parent remainder is longer than 4w (a parent whose other child,
     * outside this block, is wider) */
    size_t w = gcd_level_max_len(node, j0, j1);
    size_t uw = gcd_level_max_len(up, j0 / 2, (j1 - 1) / 2 + 1);
    if (uw > 4 * w) w = (uw + 3) / 4;
    bulk_limb_t *y = malloc(c * w * sizeof *y), *sq = malloc(c * 2 * w * sizeof *sq);
    bulk_limb_t *a = malloc(c * 4 * w * sizeof *a), *r = malloc(c * 2 * w * sizeof *r);
    int st = y && sq && a && r ? BULK_OK : BULK_ERR_NOMEM;
    if (st == BULK_OK) {
        mv_arg ga = { .src = node, .first = j0, .step = 1, .buf = y, .width = w };
        bulk_parallel_for(threads, c, grain_for(w), gather_fn, &ga);
        st = bulk_int_sqr(ctx, sq, y, c, w);
    }
    if (st == BULK_OK) {
        mv_arg ga = { .src = up, .first = j0, .halve = 1, .buf = a, .width = 4 * w };
        bulk_parallel_for(threads, c, grain_for(4 * w), gather_fn, &ga);
        st = bulk_int_divmod(ctx, NULL, r, a, 4 * w, sq, c, 2 * w, NULL);
    }
    if (st == BULK_OK) {
        mv_arg sa = { .first = j0, .buf = r, .width = 2 * w, .dst = rem, .fac = node };
        bulk_parallel_for(threads, c, grain_for(2 * w), scatter_rem_fn, &sa);
    }
    free(y);
    free(sq);
    free(a);
    free(r);
    return st;
}
