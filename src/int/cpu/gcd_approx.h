/* approx(X, Y) of seed 001, section 4.2: a quotient approximation alpha * B^beta <= X div Y
 * from one division of at most two limbs by at most two limbs (B = 2^64, d = 64). Shared by the
 * approximate Euclidean GCD (gcd_approx.c) and the extended Euclidean inverse (invmod.c).
 *
 * Requires X >= Y > 0 with lx, ly their lengths in limbs without high zero limbs and lx >= 3
 * (case 1 of the seed, lx <= 2, is done by the callers in 128-bit registers). The result
 * satisfies 1 <= alpha < B and alpha * B^beta <= X div Y; the bound for each case:
 *   2-A, 2-B: Y = y1 exactly, X >= x1 B^(lx-1) resp. <x1 x2> B^(lx-2);
 *   3-A: Y = <y1 y2> exactly; 3-B, 4-B: Y < (y1 + 1) B^(ly-1); 4-A: Y < (<y1 y2> + 1) B^(ly-2);
 *   4-C: X >= Y, alpha = 1. alpha < B: in 2-A trivially, in 2-B, 3-B, 4-B because x1 <= y1, in
 * 3-A and 4-A because the divisor is at least B. alpha >= 1 because x1 >= 1 and the divisor is
 * at most <x1 x2> in every case. */
#ifndef BULK_INT_CPU_GCD_APPROX_H
#define BULK_INT_CPU_GCD_APPROX_H

#include "int/mpn.h"

/* (hi lo) / d for hi < d: the hardware 128-by-64 division on x86-64 (the compiler would call the
 * generic 128-bit routine __udivti3, which was a quarter of the GCD's time). */
static inline bulk_limb_t gcd_div_2by1(bulk_limb_t hi, bulk_limb_t lo, bulk_limb_t d)
{
#if defined(__x86_64__)
    bulk_limb_t q, r;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d) : "cc");
    (void)r;
    return q;
#else
    return (bulk_limb_t)((((bulk_dlimb_t)hi << 64) | lo) / d);
#endif
}

/* floor(N / D) for D > 0 when the quotient is known to be below 2^64. For D >= 2^64 this is
 * Hacker's Delight's divlu: divide N / 2 by the normalized top limb of D (no overflow), undo the
 * normalization, which gives q or q + 1, step down one and correct once. */
static inline bulk_limb_t gcd_div_2by2(bulk_dlimb_t N, bulk_dlimb_t D)
{
    bulk_limb_t dh = (bulk_limb_t)(D >> 64);
    if (dh == 0) return gcd_div_2by1((bulk_limb_t)(N >> 64), (bulk_limb_t)N, (bulk_limb_t)D);
    int s = bulk_limb_clz(dh);
    bulk_limb_t v1 = (bulk_limb_t)((D << s) >> 64);
    bulk_dlimb_t u1 = N >> 1;
    bulk_limb_t q1 = gcd_div_2by1((bulk_limb_t)(u1 >> 64), (bulk_limb_t)u1, v1);
    bulk_dlimb_t qe = ((bulk_dlimb_t)q1 << s) >> 63; /* q or q + 1, may be 2^64 */
    if (qe != 0) qe--;
    bulk_limb_t q0 = (bulk_limb_t)qe; /* q - 1 or q, below 2^64 */
    if (N - (bulk_dlimb_t)q0 * D >= D) q0++;
    return q0;
}

static inline bulk_limb_t gcd_approx_quotient(const bulk_limb_t *X, size_t lx, const bulk_limb_t *Y,
                                              size_t ly, size_t *beta)
{
    bulk_limb_t x1 = X[lx - 1], x2 = X[lx - 2], y1 = Y[ly - 1];
    bulk_dlimb_t xx = ((bulk_dlimb_t)x1 << 64) | x2;
    if (ly == 1) {
        if (x1 >= y1) { /* Case 2-A */
            *beta = lx - 1;
            return x1 / y1;
        }
        *beta = lx - 2; /* Case 2-B */
        return gcd_div_2by1(x1, x2, y1);
    }
    bulk_dlimb_t yy = ((bulk_dlimb_t)y1 << 64) | Y[ly - 2];
    if (ly == 2) {
        if (xx >= yy) { /* Case 3-A */
            *beta = lx - 2;
            return gcd_div_2by2(xx, yy);
        }
        *beta = lx - 3; /* Case 3-B */
        return gcd_div_2by2(xx, (bulk_dlimb_t)y1 + 1);
    }
    if (xx > yy) { /* Case 4-A: yy + 1 < B^2 */
        *beta = lx - ly;
        return gcd_div_2by2(xx, yy + 1);
    }
    if (lx > ly) { /* Case 4-B */
        *beta = lx - ly - 1;
        return gcd_div_2by2(xx, (bulk_dlimb_t)y1 + 1);
    }
    *beta = 0; /* Case 4-C: X and Y agree in their two leading limbs */
    return 1;
}

#endif
