/* Internal: the pieces of schoolbook division (div_knuth.c) that the divide-and-conquer division
 * (div_dc.c) builds on. Both work on NORMALIZED operands (divisor's top bit set) in place, and
 * share one 3-by-2 reciprocal of the divisor's top two limbs: every sub-divisor of the
 * divide-and-conquer recursion is a top part of the divisor, so its top two limbs, and hence the
 * reciprocal, are the same at every level (computed once per division). */
#ifndef BULK_INT_CPU_DIV_INTERNAL_H
#define BULK_INT_CPU_DIV_INTERNAL_H

#include "int/mpn.h"

/* The 3-by-2 reciprocal floor((B^3 - 1) / (d1 B + d0)) - B of a normalized (d1 d0)
 * (Moller-Granlund algorithm 6). */
bulk_limb_t bulk_div_reciprocal_3by2(bulk_limb_t d1, bulk_limb_t d0);

/* Algorithm D on normalized operands: np has nn limbs, dp has dn >= 2 limbs with its top bit
 * set, v = bulk_div_reciprocal_3by2(dp[dn-1], dp[dn-2]), and the top dn limbs of np are below
 * dp. Writes the nn - dn quotient limbs to qp, leaves the remainder in np[0, dn) and zeroes
 * np[dn, nn). */
void bulk_div_schoolbook(bulk_limb_t *qp, bulk_limb_t *np, size_t nn, const bulk_limb_t *dp,
                         size_t dn, bulk_limb_t v);

/* Normalizes for division: dp = d << s and np = a << s with its carry-out in np[an] (an + 1
 * limbs), s = clz(d's top limb); returns s. Shared by Algorithm D and divide and conquer. */
static inline int bulk_div_normalize(bulk_limb_t *dp, bulk_limb_t *np, const bulk_limb_t *d, size_t dn,
                                     const bulk_limb_t *a, size_t an)
{
    int s = bulk_limb_clz(d[dn - 1]);
    if (s) {
        bulk_mpn_lshift(dp, d, dn, (unsigned)s);
        np[an] = bulk_mpn_lshift(np, a, an, (unsigned)s);
    } else {
        bulk_mpn_copy(dp, d, dn);
        bulk_mpn_copy(np, a, an);
        np[an] = 0;
    }
    return s;
}

#endif
