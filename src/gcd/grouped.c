/* Grouped batch GCD (contract: gcd_internal.h, gcd_batch_grouped): the memory-bounded form of
 * Bernstein's method for inputs whose whole tree does not fit the memory budget.
 *
 * Why it is right: for x in group i, with P = P_i * Q (Q the product of the other groups),
 * (P / x) mod x = a * Q mod x with a = (P_i / x) mod x, and Q mod x = prod_j (P_j mod x) mod x.
 * a comes from group i's own remainder tree (the Q form of remainder_tree.c), P_j mod x from
 * the plain remainder tree over group i's product tree started at P_j mod P_i (every node
 * divides P_i), whose leaves are P_j mod x.
 *
 * Memory: one group's tree (every spillable level spilled), one other group's product (read
 * back from its spill file) and its remainder mod P_i: the floor of a tree of n / k inputs plus
 * about 2 of its levels. Time: k^2 (product tree + remainder tree) of n / k inputs,
 * about k times the plain method. The per-input steps (division, product, gcd) go through the
 * bulk_int wrappers, so on the context's backend. */
#include <stdlib.h>
#include <string.h>

#include "gcd/gcd_internal.h"
#include "int/mul_fft.h"

/* The inputs of one group as a borrowed level (their offsets and lengths allocated here). */
static int group_leaves(gcd_level *L, const bulk_limb_t *x, size_t ni, size_t limbs)
{
    int st = gcd_level_init(L, ni);
    if (st != BULK_OK) return st;
    L->borrowed = 1;
    L->data = (bulk_limb_t *)x; /* only read */
    for (size_t m = 0; m < ni; m++) {
        L->off[m] = m * limbs;
        size_t ln = bulk_mpn_normalized_size(x + m * limbs, limbs);
        L->len[m] = ln ? ln : 1;
    }
    L->off[ni] = ni * limbs;
    L->whi = ni; /* resident */
    return BULK_OK;
}

/* P (one number, resident) = the product of the group's inputs. */
static int group_product(gcd_level *P, const bulk_limb_t *x, size_t ni, size_t limbs, bulk_ctx *ctx,
                         gcd_spill *sp)
{
    gcd_level leaves;
    gcd_tree T;
    int st = group_leaves(&leaves, x, ni, limbs);
    if (st != BULK_OK) return st;
    st = gcd_product_tree(&T, &leaves, ctx, 0, 1, sp, NULL, NULL);
    if (st == BULK_OK) {
        const gcd_level *top = &T.lv[T.levels - 1];
        if ((st = gcd_level_init(P, 1)) == BULK_OK) {
            P->off[1] = top->len[0];
            P->len[0] = top->len[0];
            if ((st = gcd_level_alloc_data(P)) == BULK_OK)
                bulk_mpn_copy(P->data, gcd_level_num(top, 0), top->len[0]);
        }
        gcd_tree_free(&T);
    }
    gcd_level_free(&leaves);
    return st;
}

/* start (one number) = Pj mod Pi; Pj is loaded here and dropped again (its file stays). */
static int cross_start(gcd_level *start, gcd_level *Pj, const gcd_level *Pi, int threads,
                       gcd_spill *sp)
{
    int st = gcd_level_load(Pj, sp);
    if (st != BULK_OK) return st;
    size_t pn = Pi->len[0];
    if ((st = gcd_level_init(start, 1)) == BULK_OK) {
        start->off[1] = pn;
        if ((st = gcd_level_alloc_data(start)) == BULK_OK)
            st = gcd_mod(start->data, gcd_level_num(Pj, 0), Pj->len[0], gcd_level_num(Pi, 0), pn, threads);
        if (st == BULK_OK) {
            size_t rn = bulk_mpn_normalized_size(start->data, pn);
            start->len[0] = rn ? rn : 1;
        } else {
            gcd_level_free(start); /* the caller frees start only on success */
        }
    }
    gcd_level_drop(Pj); /* back to its spill file until the next group needs it */
    return st;
}

int gcd_batch_grouped(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *x, size_t n,
                      size_t limbs, size_t k, gcd_spill *sp, bulk_progress_run *o)
{
    int threads = bulk_ctx_threads(ctx), st = BULK_OK;
    size_t levels = 1;
    for (size_t c = n; c > 1; c = (c + 1) / 2) levels++;
    double units = 2.0 * (double)(levels - 1) + 1, steps = (double)k * (double)k + (double)k, done = 0;
    size_t maxni = (n + k - 1) / k;
    gcd_level *P = calloc(k, sizeof *P);
    for (size_t j = 0; P && j < k; j++) P[j].fd = -1;
    bulk_limb_t *acc = malloc(maxni * limbs * sizeof *acc), *a = malloc(maxni * limbs * sizeof *a);
    bulk_limb_t *c = malloc(maxni * limbs * sizeof *c), *t = malloc(maxni * 2 * limbs * sizeof *t);
    bulk_limb_t *gout = malloc(n * limbs * sizeof *gout);
    if (!P || !acc || !a || !c || !t || !gout) {
        st = BULK_ERR_NOMEM;
        goto out;
    }
    /* 1. every group's product, to a spill file */
    for (size_t j = 0; j < k && st == BULK_OK; j++) {
        size_t b0 = n * j / k, b1 = n * (j + 1) / k;
        if ((st = group_product(&P[j], x + b0 * limbs, b1 - b0, limbs, ctx, sp)) == BULK_OK)
            st = gcd_level_spill(&P[j], sp);
        done++;
        if (st == BULK_OK && o) st = bulk_progress_step(o, units * done / (steps + 1), 0);
    }
    /* 2. per group i: a (its own remainder tree) and acc = prod_{j != i} P_j mod x */
    for (size_t i = 0; i < k && st == BULK_OK; i++) {
        size_t b0 = n * i / k, ni = n * (i + 1) / k - b0;
        const bulk_limb_t *xi = x + b0 * limbs;
        memset(acc, 0, ni * limbs * sizeof *acc);
        for (size_t m = 0; m < ni; m++) acc[m * limbs] = 1;
        for (size_t j = 0; j < k && st == BULK_OK; j++) {
            gcd_level leaves, start;
            gcd_tree T;
            bulk_limb_t *R = NULL;
            int have_start = 0;
            if ((st = group_leaves(&leaves, xi, ni, limbs)) != BULK_OK) break;
            /* the root P_i only for the cross terms (their start is P_j mod P_i) */
            st = gcd_product_tree(&T, &leaves, ctx, 0, j != i, sp, NULL, NULL); /* freed by it on error */
            int have_tree = st == BULK_OK;
            if (st == BULK_OK && j != i) {
                st = cross_start(&start, &P[j], &T.lv[T.levels - 1], threads | gcd_mul_flags(ctx), sp);
                have_start = st == BULK_OK;
            }
            if (st == BULK_OK)
                st = gcd_remainder_tree(&R, limbs, &T, have_start ? &start : NULL, have_start, ctx, 1, sp,
                                        NULL, NULL, NULL, 0);
            if (have_tree) gcd_tree_free(&T);
            if (have_start) gcd_level_free(&start);
            gcd_level_free(&leaves);
            if (st == BULK_OK && j == i) { /* a = (P_i / x) mod x */
                memcpy(a, R, ni * limbs * sizeof *a);
            } else if (st == BULK_OK) { /* acc = acc * (P_j mod x) mod x */
                st = bulk_int_mul(ctx, t, acc, R, ni, limbs);
                if (st == BULK_OK) st = bulk_int_divmod(ctx, NULL, acc, t, 2 * limbs, xi, ni, limbs, NULL);
            }
            free(R);
            done++;
            if (st == BULK_OK && o) st = bulk_progress_step(o, units * done / (steps + 1), 0);
        }
        /* g = gcd(x, a * acc mod x) */
        if (st == BULK_OK) st = bulk_int_mul(ctx, t, a, acc, ni, limbs);
        if (st == BULK_OK) st = bulk_int_divmod(ctx, NULL, c, t, 2 * limbs, xi, ni, limbs, NULL);
        if (st == BULK_OK) st = bulk_int_gcd(ctx, gout + b0 * limbs, xi, c, ni, limbs);
    }
    if (st == BULK_OK) memcpy(g, gout, n * limbs * sizeof *g);
out:
    if (P)
        for (size_t j = 0; j < k; j++) gcd_level_free(&P[j]);
    free(P);
    free(acc);
    free(a);
    free(c);
    free(t);
    free(gout);
    return st;
}
