/* The product tree of batch GCD (contract: gcd_internal.h). The nodes of one level are
 * independent: the lower levels (many equal-size products) go in batches through
 * bulk_int_mul (tree_batched.c: the GPU on a CUDA context), the others to the context's
 * threads one node each, where the NTT takes over from Toom inside bulk_mpn_mul_big once the
 * children are large. */
#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "gcd/gcd_internal.h"
#include "int/mul_fft.h"

typedef struct pt_arg {
    const gcd_level *lo;
    gcd_level *hi;
    int node_threads; /* threads per product (> 1 when the level has fewer nodes than threads),
                       * | GCD_MUL_GPU when the GPU NTT may take it */
} pt_arg;

static void pt_nodes(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    pt_arg *a = arg;
    const gcd_level *lo = a->lo;
    gcd_level *hi = a->hi;
    for (size_t j = begin; j < end; j++) {
        size_t l = 2 * j, r = 2 * j + 1;
        bulk_limb_t *dst = gcd_level_num(hi, j);
        if (r < lo->count) {
            gcd_mul(dst, gcd_level_num(lo, l), lo->len[l], gcd_level_num(lo, r),
                                     lo->len[r], a->node_threads);
            hi->len[j] = bulk_mpn_normalized_size(dst, lo->len[l] + lo->len[r]);
        } else { /* no sibling: carried up unchanged */
            bulk_mpn_copy(dst, gcd_level_num(lo, l), lo->len[l]);
            hi->len[j] = lo->len[l];
        }
    }
}

void gcd_tree_free(gcd_tree *T)
{
    if (T->lv)
        for (size_t k = 0; k < T->levels; k++) gcd_level_free(&T->lv[k]);
    free(T->lv);
    memset(T, 0, sizeof *T);
}

/* Level hi (allocated here) = the products of lo's node pairs: batched on ctx when
 * gcd_level_batched says so, else node by node on the context's threads. */
static int pt_level(bulk_ctx *ctx, const gcd_level *lo, gcd_level *hi)
{
    int threads = bulk_ctx_threads(ctx), st = BULK_OK;
    size_t c = hi->count;
    for (size_t j = 0; j < c; j++) {
        size_t sz = lo->len[2 * j] + (2 * j + 1 < lo->count ? lo->len[2 * j + 1] : 0);
        hi->off[j + 1] = hi->off[j] + sz;
    }
    if ((st = gcd_level_alloc_data(hi)) != BULK_OK) return st;
    if (gcd_level_batched(ctx, 0, lo)) {
        /* blocks of about GCD_BLOCK_LIMBS limbs of lo: bounded gather buffers */
        for (size_t h0 = 0; h0 < c && st == BULK_OK;) {
            size_t h1 = (gcd_level_block_end(lo, 2 * h0) + 1) / 2;
            if (h1 <= h0) h1 = h0 + 1;
            st = gcd_product_nodes_batched(ctx, lo, hi, h0, h1);
            h0 = h1;
        }
        return st;
    }
    pt_arg a = { lo, hi, ((size_t)threads > c ? (int)((size_t)threads / c) : 1) | gcd_mul_flags(ctx) };
    bulk_parallel_for(threads, c, 1, pt_nodes, &a);
    return BULK_OK;
}

int gcd_product_tree(gcd_tree *T, const gcd_level *leaves, bulk_ctx *ctx, size_t keep,
                     int need_top, gcd_spill *sp, bulk_progress_run *o, gcd_ckpt *ck)
{
    memset(T, 0, sizeof *T);
    size_t maxlev = 1;
    for (size_t c = leaves->count; c > 1; c = (c + 1) / 2) maxlev++;
    T->lv = calloc(maxlev, sizeof *T->lv);
    if (!T->lv) return BULK_ERR_NOMEM;
    for (size_t k = 0; k < maxlev; k++) T->lv[k].fd = -1;
    /* level 0 shares the caller's data, offsets and lengths: a view */
    T->lv[0] = gcd_level_view(leaves);
    T->levels = 1;
    int st = BULK_OK;
    size_t k0 = 0; /* levels 1 .. k0 come from the checkpoint (the root is never saved) */
    for (size_t c = (leaves->count + 1) / 2; ck && k0 + 2 < maxlev; c = (c + 1) / 2) {
        int r = gcd_ckpt_load(ck, &T->lv[k0 + 1], GCD_CKPT_PRODUCT, k0 + 1, c);
        if (r < 0) st = r;
        if (r != BULK_OK) break;
        T->levels = ++k0 + 1;
        gcd_tree_progress(o, k0, maxlev);
    }
    if (st == BULK_OK && k0 > 0) st = gcd_level_load(&T->lv[k0], sp); /* the next level's input */
    if (st != BULK_OK) goto fail;
    for (size_t k = k0; T->lv[k].count > 1; k++) {
        gcd_level *lo = &T->lv[k], *hi = &T->lv[k + 1];
        size_t c = (lo->count + 1) / 2;
        if ((st = gcd_level_init(hi, c)) != BULK_OK) goto fail;
        T->levels = k + 2;
        if (c == 1 && !need_top) { /* the root, unused: a placeholder 0 of one limb */
            hi->off[1] = 1;
            hi->len[0] = 1;
            if ((st = gcd_level_alloc_data(hi)) != BULK_OK) goto fail;
            hi->data[0] = 0;
        } else {
            if ((st = pt_level(ctx, lo, hi)) != BULK_OK) goto fail;
            if (ck && (st = gcd_ckpt_save(ck, hi, GCD_CKPT_PRODUCT, k + 1)) != BULK_OK) goto fail;
        }
        if ((st = gcd_tree_progress(o, k + 1, maxlev)) != BULK_OK) goto fail;
        /* lo is no longer needed until the remainder tree: spill it unless it is one of the
         * top `keep` spillable levels (1 .. maxlev - 2) that the budget leaves in memory */
        if (k > 0 && k + 1 + keep < maxlev && (st = gcd_level_spill(lo, sp)) != BULK_OK) goto fail;
    }
    return BULK_OK;
fail:
    gcd_tree_free(T);
    return st;
}
