/* Internal single-instance API of division, GCD, modular inverse and modular exponentiation
 * (the layer under int_api_div.c). Conventions are those of int/mpn.h: 64-bit limbs, least
 * significant first, explicit lengths, no allocation of results.
 *
 * Scratch memory: every function that needs temporaries takes a caller-provided area `tp` whose
 * size (in limbs) is given by the matching *_scratch function. The bulk wrappers allocate one
 * such area per worker thread, so the per-instance loops never call malloc themselves (the
 * multiplications of int/mpn.h may, for very large operands; see there).
 *
 * Results must not overlap operands unless a function says otherwise. All functions are
 * reentrant; the only global state is the statistics counters below, which exist for the
 * tests (they prove that rare paths, e.g. Knuth's add-back, were really exercised). */
#ifndef BULK_INT_MPN_DIV_H
#define BULK_INT_MPN_DIV_H

#include <stddef.h>

#include "bulk/int.h"
#include "int/mpn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- division (div_knuth.c, div_dc.c, div_newton.c) ----------------------------------------- */
/* divrem_1, divmod and divmod_scratch, gcd and gcd_scratch, invmod, powmod and their scratch
 * functions are public: bulk/mpn.h. */

/* Knuth's Algorithm D (TAOCP 4.3.1) with the 3-by-2 reciprocal quotient estimate of Moller and
 * Granlund. Requires an >= dn >= 1 and d[dn-1] != 0. Writes q (an - dn + 1 limbs) when q is not
 * NULL and r (dn limbs) when r is not NULL. tp: bulk_mpn_div_knuth_scratch(an, dn) limbs. */
void bulk_mpn_div_knuth(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                        const bulk_limb_t *d, size_t dn, bulk_limb_t *tp);
size_t bulk_mpn_div_knuth_scratch(size_t an, size_t dn);

/* Divide-and-conquer division (Burnikel-Ziegler, in Moller and Granlund's in-place form):
 * 2n-by-n as two recursive half-size steps plus a product each, Algorithm D below
 * bulk_div_dc_threshold limbs (and for the whole division when the divisor or the quotient is
 * shorter than that). Same contract as bulk_mpn_div_knuth (dn >= 1).
 * tp: bulk_mpn_div_dc_scratch(an, dn) limbs. */
void bulk_mpn_div_dc(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                     const bulk_limb_t *d, size_t dn, bulk_limb_t *tp);
size_t bulk_mpn_div_dc_scratch(size_t an, size_t dn);

/* Watt's division by the whole shifted inverse (seed 002 section 9): shinv_h(d) by the refine3
 * Newton iteration with shorter iterates, divisor prefixes and close products, then
 * q = shift_{-h}(a * shinv_h d) and the final adjustment. Same contract as bulk_mpn_div_knuth.
 * tp: bulk_mpn_div_newton_scratch(an, dn) limbs. */
void bulk_mpn_div_newton(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                         const bulk_limb_t *d, size_t dn, bulk_limb_t *tp);
size_t bulk_mpn_div_newton_scratch(size_t an, size_t dn);

/* w (h + 2 limbs, zero-padded) = shinv_h(v) = floor(B^h / v) for B^k <= v < B^(k+1)
 * (vn = k + 1 limbs, v[k] != 0), h >= 1, by Watt's SHINV (seed 002 figures 10, 11), then checked
 * against B^h - v w and corrected. Returns the signed correction (exact - Watt's value); it is
 * in {-1, 0, 1} (see div_newton.c). Exposed for the tests.
 * tp: bulk_mpn_shinv_scratch(h, vn) limbs. */
long bulk_mpn_shinv(bulk_limb_t *w, size_t h, const bulk_limb_t *v, size_t vn, bulk_limb_t *tp);
size_t bulk_mpn_shinv_scratch(size_t h, size_t vn);

/* Enough for bulk_mpn_divmod with this method on operands of at most an and dn limbs: under
 * AUTO the area of the largest method that ANY normalized sizes ann <= an, dnn <= dn can reach
 * (the choice is made on those; Newton's area is about 12 an limbs, divide-and-conquer's
 * 2 an + 2 dn + 4, Algorithm D's 2 an + dn + 4). */
size_t bulk_mpn_divmod_scratch_method(size_t an, size_t dn, bulk_div_method method);

/* AUTO uses Newton division when the divisor and the quotient both have at least this many
 * limbs; else divide-and-conquer when both have at least bulk_div_dc_threshold limbs (which is
 * also the block size below which the recursion uses Algorithm D); else Algorithm D. See
 * docs/int.md, "Division", for how they were measured. Globals so that the tuning program and
 * the tests can move them; change them only while no division runs. */
extern size_t bulk_div_newton_threshold;
extern size_t bulk_div_dc_threshold;

/* ---- GCD (gcd_binary.c, gcd_approx.c) ------------------------------------------------------- */

/* g (n limbs, zero-padded) = gcd(a, b) (n limbs each; gcd(0, 0) = 0). Returns the size of g
 * without high zero limbs. tp: bulk_mpn_gcd_scratch(n) limbs. g may not overlap a or b. */
size_t bulk_mpn_gcd_binary(bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                           bulk_limb_t *tp);
size_t bulk_mpn_gcd_approx(bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                           bulk_limb_t *tp);

/* ---- modular exponentiation (powmod.c) ------------------------------------------------------ */

/* Modulus size (limbs) from which REDC uses two products instead of the quadratic loop. */
extern size_t bulk_powmod_redc_mul_threshold;

/* ---- statistics for the tests (relaxed atomic counters, never reset by the library) -------- */
typedef struct bulk_div_stats {
    unsigned long long knuth_addbacks;   /* Algorithm D step D6 taken */
    unsigned long long newton_adjust[6]; /* final correction delta = -1, 0, 1, 2, 3, other */
    unsigned long long newton_fallbacks; /* Newton quotient off by more than the bound (a bug) */
    unsigned long long gcd_beta_pos;     /* approximate Euclid iterations with beta > 0 */
    /* these two count the CALLING THREAD's divisions only (they fire on nearly every one) */
    unsigned long long dc_adjust;        /* divide-and-conquer estimates corrected by one */
    unsigned long long dc_calls;         /* divisions that entered the D&C recursion */
} bulk_div_stats;
void bulk_div_stats_get(bulk_div_stats *out);

#ifdef __cplusplus
}
#endif
#endif
