/* The internal single-instance natural-number API ("mpn", after GMP's low level): the layer the
 * bulk wrappers (int_api.c, int_api_div.c), division, gcd, powmod and the CLI build on.
 *
 * Numbers are arrays of 64-bit limbs, least significant first, with an explicit length; no
 * function allocates the result or normalises lengths. Conventions follow GMP's mpn layer:
 *
 *  - Aliasing: add_n, sub_n, add_1, sub_1, lshift, rshift, mul_1, addmul_1's `a` operand
 *    excepted (see below) allow r == a (and r == b for add_n/sub_n): exactly the same pointer,
 *    never a partial overlap. lshift also allows r > a (it works from the top), rshift r < a.
 *    addmul_1 / submul_1 need r and a disjoint or r == a. The multiplications (mul, mul_n, sqr,
 *    mullo_n, *_method) need r disjoint from both operands; a == b is allowed.
 *  - Lengths: n >= 1 unless stated otherwise; for bulk_mpn_mul an >= bn >= 1.
 *  - Thread safety: every function is reentrant; none has global mutable state. Many threads
 *    may call them at once on different numbers.
 *  - Scratch memory (Karatsuba/Toom): each top-level call finds its own. When the product needs
 *    at most BULK_MPN_STACK_SCRATCH bytes of temporaries they live on the stack (so the sizes
 *    that dominate bulk work never call malloc); larger products malloc one block per call and
 *    free it before returning. If that malloc fails the call falls back to the scratch-free
 *    schoolbook algorithm: slower but exact, so none of these functions can fail. Under
 *    AddressSanitizer every scratch area is malloc'd at exactly its computed size, so that the
 *    tests check the scratch bounds too.
 *
 * The method actually used never changes a result, only the time it takes. */
#ifndef BULK_INT_MPN_H
#define BULK_INT_MPN_H

#include <stddef.h>
#include <string.h>

#include "bulk/int.h"
#include "int/int_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Temporaries up to this many bytes live on the stack (see above). */
#define BULK_MPN_STACK_SCRATCH (32 * 1024)

/* ---- linear-time operations (src/int/cpu/mpn_basic.c) -------------------------------------- */

/* r = a + b (n limbs); returns the carry out (0 or 1). r may equal a or b. n may be 0. */
bulk_limb_t bulk_mpn_add_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n);
/* r = a - b (n limbs, mod 2^(64n)); returns the borrow (1 when a < b). r may equal a or b. */
bulk_limb_t bulk_mpn_sub_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n);
/* r = a + l (n limbs); returns the carry out. r may equal a. n may be 0 (returns l != 0). */
bulk_limb_t bulk_mpn_add_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l);
/* r = a - l (n limbs); returns the borrow. r may equal a. n may be 0 (returns l != 0). */
bulk_limb_t bulk_mpn_sub_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l);
/* r = a + b where a has an >= bn limbs (r has an limbs); returns the carry. bn may be 0. */
bulk_limb_t bulk_mpn_add(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                         size_t bn);
/* r = a - b where a has an >= bn limbs; returns the borrow. bn may be 0. */
bulk_limb_t bulk_mpn_sub(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                         size_t bn);
/* r = a << cnt (n limbs, 1 <= cnt <= 63); returns the bits shifted out, in the low cnt bits.
 * r may equal a or lie above it. */
bulk_limb_t bulk_mpn_lshift(bulk_limb_t *r, const bulk_limb_t *a, size_t n, unsigned cnt);
/* r = a >> cnt (n limbs, 1 <= cnt <= 63); returns the bits shifted out, in the HIGH cnt bits
 * (GMP's convention). r may equal a or lie below it. */
bulk_limb_t bulk_mpn_rshift(bulk_limb_t *r, const bulk_limb_t *a, size_t n, unsigned cnt);
/* r = a * l (n limbs); returns the high limb. r may equal a. */
bulk_limb_t bulk_mpn_mul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l);
/* r += a * l (n limbs); returns the carry limb. */
bulk_limb_t bulk_mpn_addmul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l);
/* r -= a * l (n limbs); returns the borrow limb (what must still be subtracted above r). */
bulk_limb_t bulk_mpn_submul_1(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t l);
/* -1, 0, 1 as a <, ==, > b (both n limbs). n may be 0 (returns 0). */
int bulk_mpn_cmp(const bulk_limb_t *a, const bulk_limb_t *b, size_t n);
/* r = -a mod 2^(64n); returns 1 unless a is zero. r may equal a. */
bulk_limb_t bulk_mpn_neg(bulk_limb_t *r, const bulk_limb_t *a, size_t n);
/* a /= d exactly (d != 0), in place; requires d | a. For odd d this is a * d^-1 mod 2^(64n)
 * (Hensel), which is also the exact quotient of a negative number in n-limb two's complement;
 * an even d first shifts right logically, so negative values need an odd d. Used by the Toom
 * interpolations. */
void bulk_mpn_divexact_1(bulk_limb_t *a, size_t n, bulk_limb_t d);

static inline void bulk_mpn_zero(bulk_limb_t *r, size_t n) { if (n) memset(r, 0, n * sizeof *r); }
/* r = a; r and a may overlap in any way. */
static inline void bulk_mpn_copy(bulk_limb_t *r, const bulk_limb_t *a, size_t n)
{
    if (n && r != a) memmove(r, a, n * sizeof *r);
}
/* Length of a without its high zero limbs (0 for zero). */
static inline size_t bulk_mpn_normalized_size(const bulk_limb_t *a, size_t n)
{
    while (n > 0 && a[n - 1] == 0) n--;
    return n;
}
static inline int bulk_mpn_is_zero(const bulk_limb_t *a, size_t n)
{
    return bulk_mpn_normalized_size(a, n) == 0;
}

/* ---- multiplication (src/int/cpu/mpn_mul*.c) --------------------------------------------- */

/* r (an + bn limbs) = a * b, an >= bn >= 1 (an < bn is accepted too: the operands are swapped),
 * r disjoint from a and b; AUTO method (balanced
 * pieces by the thresholds of mul_thresholds.h, unbalanced by slicing a into bn-limb blocks). */
void bulk_mpn_mul(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b, size_t bn);
/* r (2n limbs) = a * b, AUTO method. a may equal b. */
void bulk_mpn_mul_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n);
/* r (2n limbs) = a^2, AUTO method (specialised squaring throughout). */
void bulk_mpn_sqr(bulk_limb_t *r, const bulk_limb_t *a, size_t n);
/* r (2n limbs) = a * b with method m at the top level of the recursion; the sub-products use
 * AUTO. When n is too small for m (n < bulk_mpn_method_min_n(m)) the basecase is used. */
void bulk_mpn_mul_n_method(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                           bulk_mul_method m);
/* r (2n limbs) = a^2 with method m at the top level (squaring variants), as above. */
void bulk_mpn_sqr_method(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_mul_method m);
/* The smallest n at which method m is applied as itself (1 for the basecases and AUTO). */
size_t bulk_mpn_method_min_n(bulk_mul_method m);
/* r (n limbs) = a * b mod 2^(64n), r disjoint from a and b. */
void bulk_mpn_mullo_n(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n);

#ifdef __cplusplus
}
#endif
#endif
