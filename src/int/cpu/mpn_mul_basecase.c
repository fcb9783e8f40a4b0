/* Quadratic basecases: operand scanning (schoolbook), product scanning (Comba, seed 000
 * chapter 3) and the specialised basecase squaring. Internal entry points in mpn_mul_internal.h.
 *
 * Operand scanning adds rows to the result, two at a time (addmul_2: each a_i is loaded once
 * for two multipliers, halving the result's read-modify-write traffic against mul_1/addmul_1
 * rows). Product scanning computes the result one column k = i + j at a time and stores each
 * result limb once: the form seed 000 uses on the GPU. Its column sum is kept in two 128-bit
 * accumulators, one for the low and one for the high halves of the products, so the two
 * carry chains are independent and the loop (unrolled by four) overlaps the multiplications;
 * a column of c products gives slo < (c + 2) B and shi < c B, far from 2^128.
 * Balanced products and squares of 1..16 limbs are fully unrolled at compile time (one
 * function per size): without loop control the column sums run at 0.9-1.0x the speed of GMP's
 * assembly on the tuning machine, against 0.6-0.75x for the rolled loops (whose inner loops
 * are short). Larger sizes are better served by Karatsuba over these than by unrolling further
 * (measured up to 32 limbs, where the code of one size alone is ~20 KiB). */
#include "int/cpu/mpn_mul_internal.h"

/* r[0 .. an + 2) : rows a * (b0 + b1 B) added to r[0 .. an), r[an], r[an + 1] written. */
static inline void addmul_2(bulk_limb_t *r, const bulk_limb_t *a, size_t an, bulk_limb_t b0,
                            bulk_limb_t b1)
{
    bulk_limb_t c0 = 0, c1 = 0; /* pending additions at r[i] and r[i + 1] */
    for (size_t i = 0; i < an; i++) {
        bulk_dlimb_t p0 = (bulk_dlimb_t)a[i] * b0 + r[i] + c0;
        r[i] = (bulk_limb_t)p0;
        bulk_dlimb_t p1 = (bulk_dlimb_t)a[i] * b1 + c1 + (bulk_limb_t)(p0 >> 64);
        c0 = (bulk_limb_t)p1;
        c1 = (bulk_limb_t)(p1 >> 64);
    }
    r[an] = c0;
    r[an + 1] = c1;
}

void bulk_mpn_mul_schoolbook(bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                             const bulk_limb_t *b, size_t bn)
{
    size_t j;
    if (bn & 1) {
        r[an] = bulk_mpn_mul_1(r, a, an, b[0]);
        j = 1;
    } else {
        bulk_mpn_zero(r, an);
        j = 0;
    }
    for (; j < bn; j += 2) addmul_2(r + j, a, an, b[j], b[j + 1]);
}

/* Product scanning, shape-generic. */
static void comba_generic(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                          size_t bn)
{
    bulk_dlimb_t carry = 0; /* the previous column's value divided by B */
    size_t last = an + bn - 2;
    for (size_t k = 0; k <= last; k++) {
        size_t ilo = k >= bn ? k - bn + 1 : 0;
        size_t ihi = k < an ? k : an - 1;
        const bulk_limb_t *bp = b + (k - ilo);
        bulk_dlimb_t slo = carry, shi = 0;
#pragma GCC unroll 4
        for (size_t i = ilo; i <= ihi; i++, bp--) {
            bulk_dlimb_t p = (bulk_dlimb_t)a[i] * *bp;
            slo += (bulk_limb_t)p;
            shi += (bulk_limb_t)(p >> 64);
        }
        r[k] = (bulk_limb_t)slo;
        carry = shi + (slo >> 64);
    }
    r[last + 1] = (bulk_limb_t)carry;
}

/* Product scanning for a compile-time n (always inlined into the fixed-size functions below).
 * Fully unrolled, one 128-bit accumulator with a carry count (acc, d2) is the faster form:
 * 0.90-0.93x GMP's assembly at 8-16 limbs against 0.75-0.8x for the split accumulators,
 * and half the code. */
static inline __attribute__((always_inline)) void comba_fixed(bulk_limb_t *r, const bulk_limb_t *a,
                                                              const bulk_limb_t *b, const size_t n)
{
    bulk_limb_t c0 = 0, c1 = 0; /* carry into the current column (two limbs) */
#pragma GCC unroll 64
    for (size_t k = 0; k + 1 < 2 * n; k++) {
        size_t ilo = k >= n ? k - n + 1 : 0;
        size_t ihi = k < n ? k : n - 1;
        bulk_dlimb_t acc = ((bulk_dlimb_t)c1 << 64) | c0;
        bulk_limb_t d2 = 0;
#pragma GCC unroll 32
        for (size_t i = ilo; i <= ihi; i++) {
            bulk_dlimb_t p = (bulk_dlimb_t)a[i] * b[k - i];
            acc += p;
            d2 += acc < p;
        }
        r[k] = (bulk_limb_t)acc;
        c0 = (bulk_limb_t)(acc >> 64);
        c1 = d2;
    }
    r[2 * n - 1] = c0;
}

#define MUL_FIXED(k) \
    static void mul_fixed_##k(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b) \
    {                                                                                     \
        comba_fixed(r, a, b, k);                                                          \
    }
MUL_FIXED(1) MUL_FIXED(2) MUL_FIXED(3) MUL_FIXED(4) MUL_FIXED(5) MUL_FIXED(6) MUL_FIXED(7)
MUL_FIXED(8) MUL_FIXED(9) MUL_FIXED(10) MUL_FIXED(11) MUL_FIXED(12) MUL_FIXED(13)
MUL_FIXED(14) MUL_FIXED(15) MUL_FIXED(16)
#undef MUL_FIXED

void bulk_mpn_mul_comba(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                        size_t bn)
{
    if (an == bn) {
        switch (an) {
#define C(k) \
    case k: mul_fixed_##k(r, a, b); return;
            C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11) C(12) C(13) C(14) C(15) C(16)
#undef C
        default: break;
        }
    }
    comba_generic(r, a, an, b, bn);
}

/* Squaring by product scanning: in column k the off-diagonal products a_i a_(k-i), i < k-i,
 * are summed once into a fresh three-limb accumulator (acc, d2), doubled by a shift, and the
 * diagonal square (k even) and the carry of the previous column are added: about half the
 * multiplications of a general product, each result limb stored once. A column value is below
 * (n + 2) B^2, so the three limbs never overflow for n < 2^62. (Here one 128-bit accumulator
 * with a carry count measured faster than the split accumulators of comba_generic.) */
static inline __attribute__((always_inline)) void sqr_columns(bulk_limb_t *r, const bulk_limb_t *a,
                                                              const size_t n)
{
    bulk_limb_t c0 = 0, c1 = 0; /* carry into the current column (two limbs) */
#pragma GCC unroll 64
    for (size_t k = 0; k + 1 < 2 * n; k++) {
        size_t ilo = k >= n ? k - n + 1 : 0;
        bulk_dlimb_t acc = 0;
        bulk_limb_t d2 = 0;
#pragma GCC unroll 32
        for (size_t i = ilo, j = k - ilo; i < j; i++, j--) {
            bulk_dlimb_t p = (bulk_dlimb_t)a[i] * a[j];
            acc += p;
            d2 += acc < p;
        }
        d2 = (d2 << 1) | (bulk_limb_t)(acc >> 127);
        acc <<= 1;
        if ((k & 1) == 0) {
            bulk_dlimb_t p = (bulk_dlimb_t)a[k / 2] * a[k / 2];
            acc += p;
            d2 += acc < p;
        }
        bulk_dlimb_t cin = ((bulk_dlimb_t)c1 << 64) | c0;
        acc += cin;
        d2 += acc < cin;
        r[k] = (bulk_limb_t)acc;
        c0 = (bulk_limb_t)(acc >> 64);
        c1 = d2;
    }
    r[2 * n - 1] = c0; /* c1 is 0: the square fits 2n limbs */
}

/* sqr_columns with a run-time n: the loops cannot be unrolled completely. */
static void sqr_generic(bulk_limb_t *r, const bulk_limb_t *a, size_t n) { sqr_columns(r, a, n); }

void bulk_mpn_sqr_basecase(bulk_limb_t *r, const bulk_limb_t *a, size_t n)
{
    if (bulk_mpn_adx && n <= BULK_MPN_ADX_MAX) { /* the general rows beat these columns there */
        bulk_mpn_mul_adx(r, a, n, a, n);
        return;
    }
    switch (n) {
#define S(k) \
    case k: sqr_columns(r, a, k); return;
        S(1) S(2) S(3) S(4) S(5) S(6) S(7) S(8) S(9) S(10) S(11) S(12) S(13) S(14) S(15) S(16)
#undef S
    default: sqr_generic(r, a, n); return;
    }
}
