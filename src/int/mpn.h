/* The single-instance natural-number API ("mpn", after GMP's low level): the public, contracted
 * part is bulk/mpn.h; this header adds the internal helpers. It is the layer the
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
#include "bulk/mpn.h" /* the contracted part: add, sub, shifts, mul, sqr, mullo, cmp */
#include "int/int_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Temporaries up to this many bytes live on the stack (see above). */
#define BULK_MPN_STACK_SCRATCH (32 * 1024)

/* ---- linear-time operations (src/int/cpu/mpn_basic.c) -------------------------------------- */

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

/* r (2n limbs) = a * b with method m at the top level of the recursion; the sub-products use
 * AUTO. When n is too small for m (n < bulk_mpn_method_min_n(m)) the basecase is used. */
void bulk_mpn_mul_n_method(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                           bulk_mul_method m);
/* r (2n limbs) = a^2 with method m at the top level (squaring variants), as above. */
void bulk_mpn_sqr_method(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_mul_method m);
/* The smallest n at which method m is applied as itself (1 for the basecases and AUTO). */
size_t bulk_mpn_method_min_n(bulk_mul_method m);

#ifdef __cplusplus
}
#endif
#endif
