/* Sum-rotate multiplication rows (a group of G lanes per instance, mid-size W) and the issue-
 * cost model choosing between sum-rotate and warp-column. */
#ifndef BULK_INT_CUDA_CORE_MUL_SR_H
#define BULK_INT_CUDA_CORE_MUL_SR_H

#include "int/cuda/core/mul_cols.h"

/* ---- sum-rotate multiplication (a group of G lanes per instance, mid-size W) ---------------
 *
 * Seed 000's sum-rotate method with G = 8, 16 or 32 lanes per instance (32 / G instances per
 * warp, as seed 000 runs several small instances per warp) and P words of a per lane: lane l
 * holds a[P l .. P l + P) and P column accumulators (96 bits each) for columns i + P l + q at
 * row i. Each row adds a_j b_i into them (b_i a shared-memory broadcast), then the lowest column
 * of every lane is complete for that lane and moves to lane l - 1 (a rotation by shuffle),
 * whose top slot it becomes; the column leaving lane 0 is final and is written out. No product
 * is computed twice and no lane idles: (G P)^2 products for an instance padded to G P words.
 * Slots rotate through the physical registers (slot q of row u is register (q + u) mod P), so
 * after unrolling P rows the shift is free. */

/* Row u (mod P) of the sum-rotate method: acc[3 ((q + u) mod P) ..] += a[q] * bi, q < P. */
BULK_HD void bg_sr_row(bg_word *acc, const bg_word *a, bg_word bi, int u, int P)
{
    bg_cc f = {0};
    BG_UNROLL
    for (int q = 0; q < P; q++) {
        int ph = (q + u) % P;
        acc[3 * ph] = bg_mad_lo_cc(a[q], bi, acc[3 * ph], &f);
        acc[3 * ph + 1] = bg_madc_hi_cc(a[q], bi, acc[3 * ph + 1], &f);
        acc[3 * ph + 2] = bg_addc(acc[3 * ph + 2], 0, &f);
    }
}

/* Predicted issue cost (lane instruction slots per instance) of the large-W kernels, for
 * choosing between them until measured thresholds replace it: the warp-column kernel computes
 * the parallelogram of each 128-column task (3.5 slots per product); sum-rotate with G lanes of
 * P words computes the padded square, G P rows of 3 P slots per lane plus about 11 for the
 * broadcast, the three shuffles and selects, the three stores of the finished column and the
 * loop - so fewer lanes with more words each amortise that overhead better. */
BULK_HD double bg_cost_cols(int N)
{
    int T = (2 * N + BG_COLS_PER_TASK - 1) / BG_COLS_PER_TASK;
    double prod = 0;
    for (int t = 0; t < T; t++) {
        int ilo, ihi;
        bg_task_range(t, N, &ilo, &ihi);
        if (ihi >= ilo) prod += (double)BG_COLS_PER_TASK * (ihi - ilo + 1);
    }
    return prod * 3.5;
}
BULK_HD double bg_cost_sr(int P, int G)
{
    double rows = (double)G * P; /* words of the padded instance */
    return rows * G * (3.0 * P + 11.0);
}

#endif
