/* Stein's binary GCD in its "fast binary Euclidean" form (seed 001 section 4.1, algorithm (D)):
 * strip the common power of two, make both odd, then repeat X <- rshift(X - Y) with X >= Y.
 * The simple, obviously right method that the approximate Euclidean GCD is tested against
 * besides GMP. */
#include "int/cpu/gcd_common.h"

size_t bulk_mpn_gcd_binary(bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                           bulk_limb_t *tp)
{
    bulk_limb_t *X = tp, *Y = tp + n;
    size_t lx, ly, k;
    if (gcd_prepare(g, a, b, n, X, &lx, Y, &ly, &k)) return bulk_mpn_normalized_size(g, n);
    for (;;) {
        int c = lx != ly ? (lx > ly ? 1 : -1) : bulk_mpn_cmp(X, Y, lx);
        if (c == 0) break;
        if (c < 0) gcd_swap(&X, &lx, &Y, &ly);
        bulk_mpn_sub(X, X, lx, Y, ly); /* X - Y > 0, even */
        lx = gcd_rshift_odd(X, bulk_mpn_normalized_size(X, lx));
    }
    return gcd_finish(g, n, Y, ly, k);
}
