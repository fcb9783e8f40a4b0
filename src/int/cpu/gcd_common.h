/* Helpers shared by the two GCD methods: reduction to two odd numbers and the final shift. */
#ifndef BULK_INT_CPU_GCD_COMMON_H
#define BULK_INT_CPU_GCD_COMMON_H

#include "int/mpn_div.h"

/* x (xn > 0 limbs, normalized, x != 0) >>= its trailing zero count; returns the new length. */
static inline size_t gcd_rshift_odd(bulk_limb_t *x, size_t xn)
{
    size_t z = 0;
    while (x[z] == 0) z++;
    if (z) {
        bulk_mpn_copy(x, x + z, xn - z);
        xn -= z;
    }
    int s = bulk_limb_ctz(x[0]);
    if (s) bulk_mpn_rshift(x, x, xn, (unsigned)s);
    return xn - (x[xn - 1] == 0);
}

/* Exchanges the operands (X, lx) and (Y, ly) of the GCD loops (pointers only, no limbs move). */
static inline void gcd_swap(bulk_limb_t **X, size_t *lx, bulk_limb_t **Y, size_t *ly)
{
    bulk_limb_t *t = *X;
    *X = *Y;
    *Y = t;
    size_t tl = *lx;
    *lx = *ly;
    *ly = tl;
}

/* Number of trailing zero bits of a nonzero x. */
static inline size_t gcd_tz(const bulk_limb_t *x)
{
    size_t z = 0;
    while (x[z] == 0) z++;
    return 64 * z + (size_t)bulk_limb_ctz(x[z]);
}

/* Copies a, b into X, Y (n limbs each) made odd, *k = the common power of two. When a or b is
 * zero, writes the answer (the other one) to g and returns 1. */
static inline int gcd_prepare(bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                              bulk_limb_t *X, size_t *lx, bulk_limb_t *Y, size_t *ly, size_t *k)
{
    size_t an = bulk_mpn_normalized_size(a, n), bn = bulk_mpn_normalized_size(b, n);
    if (an == 0 || bn == 0) {
        bulk_mpn_copy(g, an ? a : b, n);
        return 1;
    }
    size_t za = gcd_tz(a), zb = gcd_tz(b);
    *k = za < zb ? za : zb;
    bulk_mpn_copy(X, a, an);
    bulk_mpn_copy(Y, b, bn);
    *lx = gcd_rshift_odd(X, an);
    *ly = gcd_rshift_odd(Y, bn);
    return 0;
}

/* g (n limbs) = y << k; returns g's normalized length. y << k fits: it divides a and b. */
static inline size_t gcd_finish(bulk_limb_t *g, size_t n, const bulk_limb_t *y, size_t ly, size_t k)
{
    size_t zl = k / 64;
    unsigned s = (unsigned)(k % 64);
    bulk_mpn_zero(g, n);
    bulk_mpn_copy(g + zl, y, ly);
    if (s) {
        bulk_limb_t out = bulk_mpn_lshift(g + zl, g + zl, ly, s);
        if (out) g[zl + ly] = out;
    }
    return bulk_mpn_normalized_size(g, n);
}

#endif
