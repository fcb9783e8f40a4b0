/* Modular exponentiation for odd moduli: Montgomery multiplication (separated operand
 * scanning: the full product by bulk_mpn_mul_n / bulk_mpn_sqr, so large sizes get Karatsuba and
 * Toom, then REDC one limb at a time) with a left-to-right sliding window over the exponent.
 *
 * Montgomery form: x' = x R mod m with R = B^mn (mn = the modulus' length without high zero
 * limbs); mont(x', y') = x' y' R^-1 mod m. REDC keeps values below m: for t < m^2,
 * (t + q m) / R < (m^2 + R m) / R < 2m, and one conditional subtraction brings it below m. */
#include "backend/report.h"
#include "int/cpu/mont.h"
#include "int/cpu/mpn_mul_internal.h"
#include "int/mpn_div.h"

/* -m^-1 mod B for odd m[0]. */
static bulk_limb_t neg_inverse(bulk_limb_t m0) { return -bulk_limb_inverse_odd(m0); }

/* r (n limbs) = t R^-1 mod m for t (2n limbs) < m R; r may not overlap t.
 *
 * Product scanning (Comba order, seed 000 chapter 3), column by column: column i < n adds t[i]
 * and u[j] m[i-j] (j < i), then picks u[i] = acc0 * (-m^-1) mod B so that the column's low limb
 * becomes zero; columns n..2n-1 give the result limbs. One pass, no carry ripple, and
 * independent multiply-adds inside a column. The column sum is one 128-bit accumulator with a
 * carry count (acc, d2), as in mpn_mul_basecase.c's fixed-size products; the sum is
 * (t + u m) / R < 2m, so one conditional subtraction of m finishes. For n <= 16 and n = 32
 * (2048-bit moduli) the loops are unrolled at compile time (one function per size): that made
 * powmod 1024 go from 0.79x to 0.97x of mpz_powm on one core, and BPSW at 2048 bits from 0.92x
 * to 1.2-1.4x of GMP's (docs/perf/int.md, "Powmod"). */
static inline __attribute__((always_inline)) void redc_cols(bulk_limb_t *r, const bulk_limb_t *t,
                                                            const bulk_limb_t *m, const size_t n,
                                                            bulk_limb_t minv, bulk_limb_t *u)
{
    bulk_limb_t c0 = 0, c1 = 0; /* carry into the current column (two limbs) */
#pragma GCC unroll 32
    for (size_t i = 0; i < n; i++) {
        bulk_dlimb_t acc = (((bulk_dlimb_t)c1 << 64) | c0) + t[i];
        bulk_limb_t d2 = acc < t[i];
#pragma GCC unroll 32
        for (size_t j = 0; j < i; j++) {
            bulk_dlimb_t p = (bulk_dlimb_t)u[j] * m[i - j];
            acc += p;
            d2 += acc < p;
        }
        u[i] = (bulk_limb_t)acc * minv;
        bulk_dlimb_t p = (bulk_dlimb_t)u[i] * m[0]; /* the low limb becomes 0 */
        acc += p;
        d2 += acc < p;
        c0 = (bulk_limb_t)(acc >> 64);
        c1 = d2;
    }
#pragma GCC unroll 32
    for (size_t i = n; i < 2 * n; i++) {
        bulk_dlimb_t acc = (((bulk_dlimb_t)c1 << 64) | c0) + t[i];
        bulk_limb_t d2 = acc < t[i];
#pragma GCC unroll 32
        for (size_t j = i - n + 1; j < n; j++) {
            bulk_dlimb_t p = (bulk_dlimb_t)u[j] * m[i - j];
            acc += p;
            d2 += acc < p;
        }
        r[i - n] = (bulk_limb_t)acc;
        c0 = (bulk_limb_t)(acc >> 64);
        c1 = d2;
    }
    if (c0 || bulk_mpn_cmp(r, m, n) >= 0) bulk_mpn_sub_n(r, r, m, n);
}

#define REDC_FIXED(k)                                                                          \
    static void redc_##k(bulk_limb_t *r, const bulk_limb_t *t, const bulk_limb_t *m,          \
                         bulk_limb_t minv)                                                     \
    {                                                                                          \
        bulk_limb_t u[k];                                                                      \
        redc_cols(r, t, m, k, minv, u);                                                        \
    }
REDC_FIXED(1) REDC_FIXED(2) REDC_FIXED(3) REDC_FIXED(4) REDC_FIXED(5) REDC_FIXED(6)
REDC_FIXED(7) REDC_FIXED(8) REDC_FIXED(9) REDC_FIXED(10) REDC_FIXED(11) REDC_FIXED(12)
REDC_FIXED(13) REDC_FIXED(14) REDC_FIXED(15) REDC_FIXED(16) REDC_FIXED(32)
#undef REDC_FIXED

static void redc_generic(bulk_limb_t *r, const bulk_limb_t *t, const bulk_limb_t *m, size_t n,
                         bulk_limb_t minv, bulk_limb_t *u)
{
    redc_cols(r, t, m, n, minv, u);
}

static void redc(bulk_limb_t *r, const bulk_limb_t *t, const bulk_limb_t *m, size_t n,
                 bulk_limb_t minv, bulk_limb_t *u)
{
    if (bulk_mpn_adx && n <= BULK_MPN_ADX_REDC_MAX) {
        bulk_mpn_redc_adx(r, t, m, n, minv, u); /* u: 4n limbs */
        return;
    }
    switch (n) {
#define R(k) \
    case k: redc_##k(r, t, m, minv); return;
        R(1) R(2) R(3) R(4) R(5) R(6) R(7) R(8) R(9) R(10) R(11) R(12) R(13) R(14) R(15) R(16)
        R(32)
#undef R
    default: redc_generic(r, t, m, n, minv, u); return;
    }
}

/* From bulk_powmod_redc_mul_threshold limbs on, REDC is done with two products (Montgomery's
 * original form): u = (t mod R) m' mod R by a short product, then (t + u m) / R, with
 * m' = -m^-1 mod R. Both products get Karatsuba / Toom from int/mpn.h, so the reduction becomes
 * subquadratic. Measured with bench/int/tune_div.c (see docs/int.md, "Powmod"). */
size_t bulk_powmod_redc_mul_threshold = 64;

/* m' (n limbs) = -m^-1 mod B^n for odd m, by Hensel lifting x <- x (2 - m x), which doubles the
 * number of correct limbs per step. tmp: 3n limbs. */
static void neg_inverse_full(bulk_limb_t *mi, const bulk_limb_t *m, size_t n, bulk_limb_t *tmp)
{
    bulk_limb_t *e = tmp, *f = tmp + n, *g = tmp + 2 * n;
    bulk_mpn_zero(mi, n);
    mi[0] = bulk_limb_inverse_odd(m[0]);
    for (size_t k = 1; k < n;) {
        size_t k2 = 2 * k < n ? 2 * k : n;
        /* e = m x mod B^k2, f = 2 - e, g = x f mod B^k2 (x has k correct limbs, zero above) */
        bulk_mpn_mullo_n(e, m, mi, k2);
        bulk_mpn_neg(f, e, k2);
        bulk_mpn_add_1(f, f, k2, 2);
        bulk_mpn_mullo_n(g, mi, f, k2);
        bulk_mpn_copy(mi, g, k2);
        k = k2;
    }
    bulk_mpn_neg(mi, mi, n);
}

/* redc by products: r = t R^-1 mod m for t (2n limbs) < m R. w: 4n limbs. */
static void redc_mul(bulk_limb_t *r, const bulk_limb_t *t, const bulk_limb_t *m, size_t n,
                     const bulk_limb_t *mi, bulk_limb_t *w)
{
    bulk_limb_t *u = w, *p = w + n; /* p: 2n limbs, w + 3n: n spare */
    bulk_mpn_mullo_n(u, t, mi, n);
    bulk_mpn_mul_n(p, u, m, n);
    /* t + u m = 0 mod R, so its low half sums to 0 or R: the carry into the top is t_lo != 0. */
    bulk_limb_t cy = !bulk_mpn_is_zero(t, n);
    cy = bulk_mpn_add_n(r, t + n, p + n, n) + bulk_mpn_add_1(r, r, n, cy);
    if (cy || bulk_mpn_cmp(r, m, n) >= 0) bulk_mpn_sub_n(r, r, m, n);
}

void bulk_mont_init(bulk_mont *M, const bulk_limb_t *m, size_t n, bulk_limb_t *tp)
{
    M->m = m;
    M->n = n;
    M->minv = neg_inverse(m[0]);
    M->t = tp;
    M->u = tp + 2 * n;
    M->mi = NULL;
    if (n >= bulk_powmod_redc_mul_threshold) {
        neg_inverse_full(tp + 6 * n, m, n, M->u); /* u's 4n limbs are free until the first REDC */
        M->mi = tp + 6 * n;
    }
}

void bulk_mont_redc(const bulk_mont *M, bulk_limb_t *r, const bulk_limb_t *t)
{
    if (M->mi) redc_mul(r, t, M->m, M->n, M->mi, M->u);
    else redc(r, t, M->m, M->n, M->minv, M->u);
}

void bulk_mont_mul(const bulk_mont *M, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b)
{
    bulk_mpn_mul_n(M->t, a, b, M->n);
    bulk_mont_redc(M, r, M->t);
}

void bulk_mont_sqr(const bulk_mont *M, bulk_limb_t *r, const bulk_limb_t *a)
{
    bulk_mpn_sqr(M->t, a, M->n);
    bulk_mont_redc(M, r, M->t);
}

/* Window width for an exponent of `bits` bits (minimises squarings + table + multiplications,
 * the same breakpoints GMP uses). */
static unsigned window_bits(size_t bits)
{
    static const size_t limit[] = { 7, 25, 81, 241, 673, 1793, 4609, 11521 };
    unsigned k = 1;
    while (k <= 8 && bits > limit[k - 1]) k++;
    return k;
}

/* The widest window for an n-limb modulus: 9 (256 table entries) up to 1024 limbs, narrower
 * above so that the table stays a few MiB per worker (a 2^20-limb modulus with 256 entries would
 * need 2 GiB); a narrower window only costs a few more multiplications. */
static unsigned max_window(size_t n) { return n <= 1024 ? 9 : n <= 16384 ? 6 : 4; }

static unsigned pow_window(size_t n, size_t ebits)
{
    unsigned k = window_bits(ebits);
    return k > max_window(n) ? max_window(n) : k;
}

size_t bulk_mont_pow_scratch(size_t n, size_t ebits) { return ((size_t)1 << (pow_window(n, ebits) - 1)) * n; }

size_t bulk_mpn_powmod_scratch(size_t n)
{
    /* table 2^(k-1) mn for the modulus' normalized length mn <= n (a shorter modulus may
     * take a wider window: at most 256 entries of 1024 limbs); Montgomery context 7n; x, x^2,
     * B^2n (2n + 1); divmod's area */
    size_t tbl = ((size_t)1 << (max_window(n) - 1)) * n;
    if (n > 1024 && tbl < (size_t)256 * 1024) tbl = (size_t)256 * 1024;
    return tbl + 4 * n + 8 * n + 2 +
           bulk_mpn_divmod_scratch(2 * n + 1, n) + 8;
}

static int exp_bit(const bulk_limb_t *e, size_t i) { return (int)((e[i / 64] >> (i % 64)) & 1); }

void bulk_mont_pow(const bulk_mont *M, bulk_limb_t *x, const bulk_limb_t *b, const bulk_limb_t *exp,
                   size_t ebits, bulk_limb_t *tbl)
{
    size_t mn = M->n;
    unsigned k = pow_window(mn, ebits);
    size_t tsize = (size_t)1 << (k - 1);
    /* tbl[i] = b^(2i+1); x holds b^2 until the loop starts */
    bulk_mpn_copy(tbl, b, mn);
    if (tsize > 1) {
        bulk_mont_sqr(M, x, b);
        for (size_t i = 1; i < tsize; i++) bulk_mont_mul(M, tbl + i * mn, tbl + (i - 1) * mn, x);
    }
    /* Left to right: a window starts at a set bit and ends at the lowest set bit within k
     * bits, so its value is odd and in the table. */
    size_t i = ebits; /* bits [0, i) remain */
    int started = 0;
    while (i > 0) {
        if (!exp_bit(exp, i - 1)) {
            bulk_mont_sqr(M, x, x);
            i--;
            continue;
        }
        size_t lo = i > k ? i - k : 0;
        while (!exp_bit(exp, lo)) lo++;
        size_t w = 0;
        for (size_t j = i; j-- > lo;) w = (w << 1) | (size_t)exp_bit(exp, j);
        if (!started) {
            bulk_mpn_copy(x, tbl + (w >> 1) * mn, mn);
            started = 1;
        } else {
            for (size_t j = lo; j < i; j++) bulk_mont_sqr(M, x, x);
            bulk_mont_mul(M, x, x, tbl + (w >> 1) * mn);
        }
        i = lo;
    }
}

int bulk_mpn_powmod(bulk_limb_t *r, const bulk_limb_t *base, const bulk_limb_t *exp,
                    const bulk_limb_t *m, size_t n, bulk_limb_t *tp)
{
    bulk_mpn_zero(r, n);
    if ((m[0] & 1) == 0) /* also m = 0 */
        return bulk_fail(NULL, BULK_ERR_EVEN_MODULUS, "bulk_mpn_powmod: m: even or zero");
    size_t mn = bulk_mpn_normalized_size(m, n);
    if (mn == 1 && m[0] == 1) return BULK_OK;
    size_t en = bulk_mpn_normalized_size(exp, n);
    size_t ebits = en ? 64 * en - (size_t)bulk_limb_clz(exp[en - 1]) : 0;

    bulk_limb_t *tbl = tp, *x = tbl + bulk_mont_pow_scratch(mn, ebits), *x2 = x + mn;
    bulk_limb_t *mt = x2 + mn, *big = mt + bulk_mont_scratch(mn), *dtp = big + 2 * mn + 1;
    bulk_mont M;
    bulk_mont_init(&M, m, mn, mt);

    /* R^2 mod m into x2 (B^(2 mn) has 2 mn + 1 limbs). */
    bulk_mpn_zero(big, 2 * mn);
    big[2 * mn] = 1;
    bulk_mpn_divmod(NULL, x2, big, 2 * mn + 1, m, mn, BULK_DIV_AUTO, dtp);
    if (en == 0) { /* base^0 = 1, and 1 < m here */
        r[0] = 1;
        return BULK_OK;
    }
    /* b = base mod m, then b R mod m = mont(b, R^2) into big. */
    bulk_mpn_divmod(NULL, x, base, n, m, mn, BULK_DIV_AUTO, dtp);
    bulk_mont_mul(&M, big, x, x2);
    bulk_mont_pow(&M, x, big, exp, ebits, tbl);
    /* Out of Montgomery form: mont(x, 1). */
    bulk_mpn_copy(M.t, x, mn);
    bulk_mpn_zero(M.t + mn, mn);
    bulk_mont_redc(&M, r, M.t);
    return BULK_OK;
}
