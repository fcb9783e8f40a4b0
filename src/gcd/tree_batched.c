/* Batched tree levels (contract: gcd_internal.h): the nodes of one block of a level go as one
 * batch of equal-width numbers through the bulk integer API - bulk_int_mul for the product
 * tree, bulk_int_divmod and bulk_int_mul for the remainder tree - so that a CUDA context runs
 * the block on the GPU in a few calls instead of one CPU product or division per node.
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
    const bulk_tune *t = bulk_ctx_tune(ctx);
    long long forced = rem ? t->gcd_batched_rem : t->gcd_batched_mul;
    if (forced >= 0) return (size_t)forced;
    if (bulk_ctx_backend(ctx) != BULK_BACKEND_CUDA) return 0;
    return rem ? GCD_GPU_REM_LIMBS : GCD_GPU_MUL_LIMBS;
}

int gcd_level_batched(const bulk_ctx *ctx, int rem, const gcd_level *L)
{
    size_t w = gcd_batched_limbs(ctx, rem);
    if (w == 0) return 0;
    long long forced = bulk_ctx_tune(ctx)->gcd_batched_min;
    size_t min = forced >= 0 ? (size_t)forced : GCD_GPU_MIN_NODES;
    return L->count >= min && gcd_level_max_len(L, 0, L->count) <= w;
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
    int sibling;          /* instance i is src node (first + i) ^ 1, or 1 when there is none */
    bulk_limb_t *buf;     /* instance i at buf + i * width */
    size_t width;
    gcd_level *dst;       /* scatter: dst node first + i gets buf instance i (keep limbs) */
    const gcd_level *fac; /* scatter: the level whose lengths bound each result */
} mv_arg;

static void gather_fn(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    const mv_arg *a = arg;
    for (size_t i = begin; i < end; i++) {
        size_t j = a->halve ? (a->first + i) / 2 : a->sibling ? (a->first + i) ^ 1 : a->first + a->step * i;
        bulk_limb_t *d = a->buf + i * a->width;
        if (a->sibling && j >= a->src->count) { /* a node without a sibling: y' = 1 */
            bulk_mpn_zero(d, a->width);
            d[0] = 1;
            continue;
        }
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

/* Value scatter: rem node first + i = buf instance i (below the node: len limbs, its room). */
static void scatter_rem_fn(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    const mv_arg *a = arg;
    for (size_t i = begin; i < end; i++) {
        size_t j = a->first + i;
        size_t n = a->fac->len[j];
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
                                gcd_level *rem, int plain, size_t j0, size_t j1)
{
    int threads = bulk_ctx_threads(ctx);
    size_t c = j1 - j0;
    /* divisors y of w limbs, dividends (parent values, and the products) of 2w limbs: w is the
     * widest node of the block (siblings included: the block holds whole pairs), raised where
     * a parent's value is longer than 2w */
    size_t w = gcd_level_max_len(node, j0, j1);
    size_t uw = gcd_level_max_len(up, j0 / 2, (j1 - 1) / 2 + 1);
    if (uw > 2 * w) w = (uw + 1) / 2;
    bulk_limb_t *y = malloc(c * w * sizeof *y), *a = malloc(c * 2 * w * sizeof *a);
    bulk_limb_t *t1 = malloc(c * w * sizeof *t1), *t2 = plain ? NULL : malloc(c * w * sizeof *t2);
    int st = y && a && t1 && (plain || t2) ? BULK_OK : BULK_ERR_NOMEM;
    if (st == BULK_OK) { /* t1 = up[j / 2] mod y */
        mv_arg ga = { .src = node, .first = j0, .step = 1, .buf = y, .width = w };
        bulk_parallel_for(threads, c, grain_for(w), gather_fn, &ga);
        mv_arg gu = { .src = up, .first = j0, .halve = 1, .buf = a, .width = 2 * w };
        bulk_parallel_for(threads, c, grain_for(2 * w), gather_fn, &gu);
        st = bulk_int_divmod(ctx, NULL, t1, a, 2 * w, y, c, w, NULL);
    }
    if (st == BULK_OK && !plain) { /* t2 = y' mod y (y' = 1 without a sibling); t1 = t1 t2 mod y */
        mv_arg gs = { .src = node, .first = j0, .sibling = 1, .buf = a, .width = w };
        bulk_parallel_for(threads, c, grain_for(w), gather_fn, &gs);
        st = bulk_int_divmod(ctx, NULL, t2, a, w, y, c, w, NULL);
        if (st == BULK_OK) st = bulk_int_mul(ctx, a, t1, t2, c, w);
        if (st == BULK_OK) st = bulk_int_divmod(ctx, NULL, t1, a, 2 * w, y, c, w, NULL);
    }
    if (st == BULK_OK) {
        mv_arg sa = { .first = j0, .buf = t1, .width = w, .dst = rem, .fac = node };
        bulk_parallel_for(threads, c, grain_for(w), scatter_rem_fn, &sa);
    }
    free(y);
    free(a);
    free(t1);
    free(t2);
    return st;
}
