/* Division of a two-limb number by one normalized limb through a precomputed reciprocal
 * (Moller and Granlund, "Improved division by invariant integers", IEEE TC 2011, algorithm 4).
 * Inline because the callers are chains of these (division by one limb, decimal printing):
 * a call per step would cost as much as the step. */
#ifndef BULK_INT_UDIV_WORD_H
#define BULK_INT_UDIV_WORD_H

#include "int/mpn.h"

/* floor((B^2 - 1) / d) - B for normalized d (top bit set): the 2-by-1 reciprocal. */
static inline bulk_limb_t bulk_reciprocal_word(bulk_limb_t d)
{
    bulk_dlimb_t num = ((bulk_dlimb_t)~d << 64) | ~(bulk_limb_t)0;
    return (bulk_limb_t)(num / d);
}

/* (u1 u0) / d for normalized d and u1 < d, v = bulk_reciprocal_word(d): the quotient is
 * returned, the remainder stored in *r. */
static inline bulk_limb_t bulk_udiv_2by1(bulk_limb_t u1, bulk_limb_t u0, bulk_limb_t d, bulk_limb_t v,
                                         bulk_limb_t *r)
{
    bulk_dlimb_t qq = (bulk_dlimb_t)v * u1 + (((bulk_dlimb_t)u1 << 64) | u0);
    bulk_limb_t q1 = (bulk_limb_t)(qq >> 64) + 1, q0 = (bulk_limb_t)qq;
    bulk_limb_t rr = u0 - q1 * d;
    /* taken about half the time on random data: a mask, not a branch */
    bulk_limb_t mask = -(bulk_limb_t)(rr > q0);
    q1 += mask;
    rr += mask & d;
    if (__builtin_expect(rr >= d, 0)) {
        q1++;
        rr -= d;
    }
    *r = rr;
    return q1;
}

#endif
