/* Karatsuba over the batch: the per-instance glue on 64-bit limbs. */
#ifndef BULK_INT_CUDA_CORE_KARA_H
#define BULK_INT_CUDA_CORE_KARA_H

#include "int/cuda/core/carry.h"

/* ---- Karatsuba over the batch (large W): the per-instance glue on 64-bit limbs --------------
 *
 * a = a1 B^h + a0, b = b1 B^h + b0 (B = 2^64, h = limbs / 2). The three half-size products
 * z0 = a0 b0, z2 = a1 b1, z1 = sa sb with sa = a0 + a1 = ca B^h + (h limbs), likewise sb, run as
 * batched multiplications; then a b = z0 + (z1' - z0 - z2) B^h + z2 B^2h with
 * z1' = z1 + (ca sb + cb sa) B^h + ca cb B^2h. All of it is computed modulo B^(4h): the true
 * product fits, so the wrap-arounds of the partial sums cancel. */

/* r[off ..] += x (len limbs), carry propagated to r[n - 1], dropped beyond (mod B^n). */
BULK_HD void bg_add64_at(uint64_t *r, int n, const uint64_t *x, int len, int off)
{
    uint64_t c = 0;
    int k = off;
    for (int j = 0; j < len && k < n; j++, k++) {
        uint64_t s = r[k] + x[j];
        uint64_t c1 = s < x[j];
        uint64_t t = s + c;
        c = c1 | (t < s);
        r[k] = t;
    }
    for (; c && k < n; k++) c = ++r[k] == 0;
}

/* r[off ..] -= x (len limbs), borrow propagated to r[n - 1], dropped beyond (mod B^n). */
BULK_HD void bg_sub64_at(uint64_t *r, int n, const uint64_t *x, int len, int off)
{
    uint64_t br = 0;
    int k = off;
    for (int j = 0; j < len && k < n; j++, k++) {
        uint64_t xj = x[j], rk = r[k];
        uint64_t d = rk - xj;
        uint64_t b1 = rk < xj;
        uint64_t t = d - br;
        br = b1 | (d < br);
        r[k] = t;
    }
    for (; br && k < n; k++) br = r[k]-- == 0;
}

/* s = x + y (h limbs each), returns the carry (0 or 1). */
BULK_HD uint64_t bg_add64_n(uint64_t *s, const uint64_t *x, const uint64_t *y, int h)
{
    uint64_t c = 0;
    for (int j = 0; j < h; j++) {
        uint64_t t = x[j] + y[j];
        uint64_t c1 = t < x[j];
        uint64_t u = t + c;
        c = c1 | (u < t);
        s[j] = u;
    }
    return c;
}

/* r (4h limbs) = the product, from z0, z2, z1 (2h limbs each), sa, sb (h limbs), ca, cb. */
BULK_HD void bg_kara_combine(uint64_t *r, const uint64_t *z0, const uint64_t *z1,
                             const uint64_t *z2, const uint64_t *sa, const uint64_t *sb, int ca,
                             int cb, int h)
{
    const int n = 4 * h;
    for (int j = 0; j < 2 * h; j++) {
        r[j] = z0[j];
        r[2 * h + j] = z2[j];
    }
    bg_add64_at(r, n, z1, 2 * h, h);
    if (ca) bg_add64_at(r, n, sb, h, 2 * h);
    if (cb) bg_add64_at(r, n, sa, h, 2 * h);
    if (ca && cb) {
        const uint64_t one = 1;
        bg_add64_at(r, n, &one, 1, 3 * h);
    }
    bg_sub64_at(r, n, z0, 2 * h, h);
    bg_sub64_at(r, n, z2, 2 * h, h);
}

#endif
