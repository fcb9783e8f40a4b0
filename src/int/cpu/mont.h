/* Montgomery arithmetic for one odd modulus on the CPU (powmod.c): the layer that
 * bulk_mpn_powmod and the primality tests (prime.c) share.
 *
 * Montgomery form: x' = x R mod m with R = B^n (n = the modulus' length without high zero
 * limbs, m[n-1] != 0). mul(x', y') = x' y' R^-1 mod m; every result is fully reduced (< m), so
 * results are canonical and can be compared limb by limb (0 is 0, 1 is R mod m). */
#ifndef BULK_INT_CPU_MONT_H
#define BULK_INT_CPU_MONT_H

#include <stddef.h>

#include "int/mpn.h"

typedef struct bulk_mont {
    const bulk_limb_t *m;
    size_t n;
    bulk_limb_t minv; /* -m^-1 mod B */
    bulk_limb_t *t;   /* 2n limbs of product space */
    bulk_limb_t *u;   /* 4n limbs: REDC's multipliers or redc_mul's products */
    bulk_limb_t *mi;  /* -m^-1 mod R (n limbs) when n >= bulk_powmod_redc_mul_threshold */
} bulk_mont;

/* Limbs of tp that bulk_mont_init takes for the context (t, u, mi) of an n-limb modulus. */
static inline size_t bulk_mont_scratch(size_t n) { return 7 * n; }

/* Prepares M for the odd modulus m (n limbs, m[n-1] != 0, m > 1); M keeps pointers to m and
 * to tp (bulk_mont_scratch(n) limbs), which must live as long as M is used. */
void bulk_mont_init(bulk_mont *M, const bulk_limb_t *m, size_t n, bulk_limb_t *tp);

/* r = t R^-1 mod m for t (2n limbs) < m R; r (n limbs) may not overlap t. */
void bulk_mont_redc(const bulk_mont *M, bulk_limb_t *r, const bulk_limb_t *t);
/* r = a b R^-1 mod m and r = a^2 R^-1 mod m for a, b < m; r may be a or b. */
void bulk_mont_mul(const bulk_mont *M, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b);
void bulk_mont_sqr(const bulk_mont *M, bulk_limb_t *r, const bulk_limb_t *a);

/* Limbs of the window table bulk_mont_pow needs for an exponent of ebits bits. */
size_t bulk_mont_pow_scratch(size_t n, size_t ebits);
/* x = b^e in Montgomery form, for b in Montgomery form (< m), e of ebits >= 1 bits (e's top
 * bit set); left-to-right sliding window. x (n limbs) must not overlap b; tbl:
 * bulk_mont_pow_scratch(n, ebits) limbs. */
void bulk_mont_pow(const bulk_mont *M, bulk_limb_t *x, const bulk_limb_t *b, const bulk_limb_t *e,
                   size_t ebits, bulk_limb_t *tbl);

#endif
