/* bulk_gcd_batch (contract: bulk/gcd.h): product tree, remainder tree, then per input
 * q_i = (P mod x_i^2) / x_i (exact: x_i divides P) and g_i = gcd(x_i, q_i) through the bulk
 * wrappers bulk_int_divmod and bulk_int_gcd, so the last, widest step runs on the context's
 * backend. */
#include <stdlib.h>
#include <string.h>

#include "bulk/gcd.h"
#include "gcd/gcd_internal.h"

/* Validation shared with pairs.c: every input >= 2. */
int gcd_check_inputs(const bulk_limb_t *x, size_t n, size_t limbs)
{
    for (size_t i = 0; i < n; i++) {
        const bulk_limb_t *xi = x + i * limbs;
        size_t ln = bulk_mpn_normalized_size(xi, limbs);
        if (ln == 0 || (ln == 1 && xi[0] < 2)) return BULK_ERR_ARG;
    }
    return BULK_OK;
}

int bulk_gcd_batch(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *x, size_t n, size_t limbs,
                   const bulk_gcd_batch_opts *opts, bulk_gcd_batch_stats *stats)
{
    if (stats) memset(stats, 0, sizeof *stats);
    if (!ctx || (n && (!g || !x || limbs == 0))) return BULK_ERR_ARG;
    if (n == 0) return BULK_OK;
    if (limbs > ((size_t)1 << 20) || n > SIZE_MAX / (8 * limbs * sizeof *g)) return BULK_ERR_ARG;
    int st = gcd_check_inputs(x, n, limbs);
    if (st != BULK_OK) return st;

    gcd_level leaves;
    if ((st = gcd_level_init(&leaves, n)) != BULK_OK) return st;
    leaves.borrowed = 1;
    leaves.data = (bulk_limb_t *)x; /* never written: level 0 is only read */
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        leaves.off[i] = i * limbs;
        leaves.len[i] = bulk_mpn_normalized_size(x + i * limbs, limbs);
        total += leaves.len[i];
    }
    leaves.off[n] = n * limbs;
    size_t levels = 1;
    for (size_t c = n; c > 1; c = (c + 1) / 2) levels++;
    /* In memory: every product level (about `total` limbs each), two remainder levels (2 total
     * each) and the final step's 6 n limbs arrays. Spilled: about two product levels. */
    uint64_t need = (uint64_t)total * 8 * (levels + 4) + (uint64_t)n * limbs * 8 * 6;
    const bulk_gcd_batch_opts o = opts ? *opts : (bulk_gcd_batch_opts){ 0, NULL, 0, NULL, NULL };
    int spill = o.force_spill || (o.max_memory && need > o.max_memory);
    int threads = bulk_ctx_threads(ctx);

    gcd_tree T;
    bulk_limb_t *R = NULL, *q = NULL;
    st = gcd_product_tree(&T, &leaves, threads, spill, o.spill_dir, &o);
    gcd_level_free(&leaves); /* borrowed: frees only off and len */
    if (st != BULK_OK) return st;
    if (stats) {
        stats->levels = T.levels;
        stats->spilled = spill;
        stats->spill_bytes = T.spilled_bytes;
    }
    R = malloc(n * 2 * limbs * sizeof *R);
    if (!R) {
        gcd_tree_free(&T);
        return BULK_ERR_NOMEM;
    }
    st = gcd_remainder_tree(R, limbs, &T, threads, spill, o.spill_dir, &o);
    gcd_tree_free(&T);
    if (st == BULK_OK) {
        q = malloc(n * 2 * limbs * sizeof *q);
        st = q ? bulk_int_divmod(ctx, q, NULL, R, 2 * limbs, x, n, limbs, NULL) : BULK_ERR_NOMEM;
    }
    if (st == BULK_OK) {
        /* q_i < x_i fits limbs limbs: compact into R's first n * limbs limbs */
        for (size_t i = 0; i < n; i++) memcpy(R + i * limbs, q + i * 2 * limbs, limbs * sizeof *R);
        st = bulk_int_gcd(ctx, g, x, R, n, limbs);
    }
    if (st == BULK_OK) gcd_tree_progress(&o, 2 * (levels - 1) + 1, levels);
    free(q);
    free(R);
    return st;
}
