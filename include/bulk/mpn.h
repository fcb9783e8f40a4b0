/* Single-instance natural-number arithmetic ("mpn", after GMP's low-level layer): the functions
 * the bulk operations of bulk/int.h run on every instance, for callers that work on one number
 * at a time or build their own bulk loops.
 *
 * Numbers are arrays of 64-bit limbs (bulk_limb_t), least significant first, with an explicit
 * length; no function allocates its result or normalises lengths.
 *
 * Contract, as GMP's mpn layer: arguments are NOT checked. Lengths must be as stated (n >= 1
 * unless a function says otherwise), pointers valid for their lengths, and results must not
 * overlap operands except where a function allows it (then exactly the same pointer, never a
 * partial overlap); breaking a precondition is undefined behaviour, not an error code. The
 * functions that can fail on valid arguments (invmod, powmod) return a status and set the
 * calling thread's last error (bulk_ctx_last_error(NULL)): "<function>: <what>: <why>".
 *
 * Scratch: the division, gcd, inverse and power functions take a caller-provided area `tp` of
 * at least the limbs their *_scratch function returns for the same sizes, disjoint from every
 * other argument; they never allocate. The multiplications find their own temporaries (on the
 * stack up to 32 KiB, else one malloc per call, falling back to the scratch-free schoolbook
 * method if that fails), so none of them can fail.
 *
 * Thread safety: every function is reentrant; many threads may call them at once on different
 * numbers. Results never depend on the algorithm a size selects. */
#ifndef BULK_MPN_H
#define BULK_MPN_H

#include "bulk/int.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- linear time ------------------------------------------------------------------------------ */

/* r = a + b (n limbs); returns the carry out (0 or 1). r may be a or b. n may be 0. */
BULK_API bulk_limb_t bulk_mpn_add_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                                    size_t n);
/* r = a - b (n limbs, mod 2^(64n)); returns the borrow (1 when a < b). r may be a or b. */
BULK_API bulk_limb_t bulk_mpn_sub_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                                    size_t n);
/* r = a + l (n limbs); returns the carry out. r may be a. n may be 0 (returns l != 0). */
BULK_API bulk_limb_t bulk_mpn_add_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l);
/* r = a - l (n limbs); returns the borrow. r may be a. n may be 0 (returns l != 0). */
BULK_API bulk_limb_t bulk_mpn_sub_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l);
/* r (an limbs) = a + b, an >= bn (bn may be 0); returns the carry. r may be a. */
BULK_API bulk_limb_t bulk_mpn_add(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                                  const bulk_limb_t *b, size_t bn);
/* r (an limbs) = a - b, an >= bn (bn may be 0); returns the borrow. r may be a. */
BULK_API bulk_limb_t bulk_mpn_sub(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                                  const bulk_limb_t *b, size_t bn);
/* r = a << cnt (n limbs, 1 <= cnt <= 63); returns the bits shifted out, in the low cnt bits.
 * r may be a or lie above it. */
BULK_API bulk_limb_t bulk_mpn_lshift(bulk_limb_t *r, const bulk_limb_t *a, size_t n, unsigned cnt);
/* r = a >> cnt (n limbs, 1 <= cnt <= 63); returns the bits shifted out, in the HIGH cnt bits
 * (GMP's convention). r may be a or lie below it. */
BULK_API bulk_limb_t bulk_mpn_rshift(bulk_limb_t *r, const bulk_limb_t *a, size_t n, unsigned cnt);
/* r = a * l (n limbs); returns the high limb. r may be a. */
BULK_API bulk_limb_t bulk_mpn_mul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l);
/* r += a * l (n limbs); returns the carry limb. r and a disjoint or equal. */
BULK_API bulk_limb_t bulk_mpn_addmul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n,
                                       bulk_limb_t l);
/* r -= a * l (n limbs); returns the borrow limb (what is still to subtract above r). */
BULK_API bulk_limb_t bulk_mpn_submul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n,
                                       bulk_limb_t l);
/* -1, 0, 1 as a <, ==, > b (both n limbs). n may be 0 (returns 0). */
BULK_API int bulk_mpn_cmp(const bulk_limb_t *a, const bulk_limb_t *b, size_t n);
/* r = -a mod 2^(64n); returns 1 unless a is zero. r may be a. */
BULK_API bulk_limb_t bulk_mpn_neg(bulk_limb_t *r, const bulk_limb_t *a, size_t n);

/* ---- multiplication --------------------------------------------------------------------------- */

/* r (an + bn limbs) = a * b, an, bn >= 1, r disjoint from a and b (a == b allowed). The method
 * (schoolbook, Karatsuba, Toom-3..8, FFT) is picked by size. */
BULK_API void bulk_mpn_mul(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                           size_t bn);
/* r (2n limbs) = a * b; r disjoint from a and b; a may be b. */
BULK_API void bulk_mpn_mul_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n);
/* r (2n limbs) = a^2; r disjoint from a. */
BULK_API void bulk_mpn_sqr(bulk_limb_t *r, const bulk_limb_t *a, size_t n);
/* r (n limbs) = a * b mod 2^(64n); r disjoint from a and b. */
BULK_API void bulk_mpn_mullo_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                               size_t n);

/* ---- division --------------------------------------------------------------------------------- */

/* q (n limbs, may be a) = a / d; returns a mod d. d != 0, n >= 1. */
BULK_API bulk_limb_t bulk_mpn_divrem_1(bulk_limb_t *q, const bulk_limb_t *a, size_t n,
                                       bulk_limb_t d);
/* a (an >= 1 limbs) divided by d (dn >= 1 limbs, d != 0, high zero limbs allowed): q (an limbs,
 * zero-padded) and r (dn limbs, zero-padded), either may be NULL; neither overlaps a, d, tp or
 * the other. method: BULK_DIV_AUTO picks by size, the others force one (same results).
 * tp: bulk_mpn_divmod_scratch(an, dn) limbs, enough for any method. */
BULK_API void bulk_mpn_divmod(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                              const bulk_limb_t *d, size_t dn, bulk_div_method method,
                              bulk_limb_t *tp);
BULK_API size_t bulk_mpn_divmod_scratch(size_t an, size_t dn);

/* ---- gcd, inverse, power ---------------------------------------------------------------------- */

/* g (n limbs, zero-padded) = gcd(a, b) (n limbs each; gcd(0, 0) = 0); returns the length of g
 * without high zero limbs. g disjoint from a, b, tp. method: BULK_GCD_AUTO (the approximate
 * Euclidean algorithm), or one forced. tp: bulk_mpn_gcd_scratch(n) limbs. */
BULK_API size_t bulk_mpn_gcd(bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                             bulk_gcd_method method, bulk_limb_t *tp);
BULK_API size_t bulk_mpn_gcd_scratch(size_t n);
/* r (n limbs) = a^-1 mod m (extended Euclid). Returns BULK_OK, BULK_ERR_DIVZERO (m = 0) or
 * BULK_ERR_NOT_INVERTIBLE (gcd(a, m) != 1), these with the last error set; r = 0 on error and
 * for m = 1. r disjoint from a, m, tp. tp: bulk_mpn_invmod_scratch(n) limbs. */
BULK_API int bulk_mpn_invmod(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *m, size_t n,
                             bulk_limb_t *tp);
BULK_API size_t bulk_mpn_invmod_scratch(size_t n);
/* r (n limbs) = base^exp mod m, all n limbs (base may exceed m), m odd (Montgomery, sliding
 * window). Returns BULK_OK or BULK_ERR_EVEN_MODULUS (m even or zero; r = 0; last error set).
 * m = 1 gives 0, exp = 0 gives 1 mod m. r disjoint from the operands and tp.
 * tp: bulk_mpn_powmod_scratch(n) limbs. */
BULK_API int bulk_mpn_powmod(bulk_limb_t *r, const bulk_limb_t *base, const bulk_limb_t *exp,
                             const bulk_limb_t *m, size_t n, bulk_limb_t *tp);
BULK_API size_t bulk_mpn_powmod_scratch(size_t n);

#ifdef __cplusplus
}
#endif
#endif
