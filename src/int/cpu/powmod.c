/* Modular exponentiation for odd moduli: Montgomery multiplication (separated operand
 * scanning: the full product by bulk_mpn_mul_n / bulk_mpn_sqr, so large sizes get Karatsuba and
 * Toom, then REDC one limb at a time) with a left-to-right sliding window over the exponent.
 *
 * Montgomery form: x' = x R mod m with R = B^mn (mn = the modulus' length without high zero
 * limbs); mont(x', y') = x' y' R^-1 mod m. REDC keeps values below m: for t < m^2,
 * (t + q m) / R < (m^2 + R m) / R < 2m, and one conditional subtraction brings it below m. */
#include "int/mpn_div.h"

/* -m^-1 mod B for odd m[0]. */
static bulk_limb_t neg_inverse(bulk_limb_t m0) { return -bulk_limb_inverse_odd(m0); }

/* r (n limbs) = t R^-1 mod m for t (2n limbs, destroyed) < m R. r may not overlap t. */
static void redc(bulk_limb_t *r, bulk_limb_t *t, const bulk_limb_t *m, size_t n, bulk_limb_t minv)
{
    /* Row i makes t[i] zero; its carry out is parked in t[i] (now free) and added to the
     * upper half at the end (GMP's redc_1 arrangement: one addmul_1 per limb, no carry
     * ripple through the upper half). */
    for (size_t i = 0; i < n; i++) {
        bulk_limb_t u = t[i] * minv;
        t[i] = bulk_mpn_addmul_1(t + i, m, n, u);
    }
    bulk_limb_t cy = bulk_mpn_add_n(r, t + n, t, n);
    if (cy || bulk_mpn_cmp(r, m, n) >= 0) bulk_mpn_sub_n(r, r, m, n);
}

typedef struct mont {
    const bulk_limb_t *m;
    size_t n;
    bulk_limb_t minv;
    bulk_limb_t *t; /* 2n limbs of product space */
} mont;

static void mont_mul(const mont *M, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b)
{
    bulk_mpn_mul_n(M->t, a, b, M->n);
    redc(r, M->t, M->m, M->n, M->minv);
}

static void mont_sqr(const mont *M, bulk_limb_t *r, const bulk_limb_t *a)
{
    bulk_mpn_sqr(M->t, a, M->n);
    redc(r, M->t, M->m, M->n, M->minv);
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

#define MAX_WINDOW 9

size_t bulk_mpn_powmod_scratch(size_t n)
{
    /* table 2^(k-1) n, x, x^2: 2n, t: 2n, R^2 and base reduction: divmod(2n + 1, n) and its
     * operands (3n + 2) */
    return ((size_t)1 << (MAX_WINDOW - 1)) * n + 4 * n + 3 * n + 2 +
           bulk_mpn_divmod_scratch(2 * n + 1, n) + 8;
}

static int exp_bit(const bulk_limb_t *e, size_t i) { return (int)((e[i / 64] >> (i % 64)) & 1); }

int bulk_mpn_powmod(bulk_limb_t *r, const bulk_limb_t *base, const bulk_limb_t *exp,
                    const bulk_limb_t *m, size_t n, bulk_limb_t *tp)
{
    bulk_mpn_zero(r, n);
    if ((m[0] & 1) == 0) return BULK_ERR_EVEN_MODULUS; /* also m = 0 */
    size_t mn = bulk_mpn_normalized_size(m, n);
    if (mn == 1 && m[0] == 1) return BULK_OK;
    size_t en = bulk_mpn_normalized_size(exp, n);
    size_t ebits = en ? 64 * en - (size_t)bulk_limb_clz(exp[en - 1]) : 0;
    unsigned k = window_bits(ebits);
    size_t tsize = (size_t)1 << (k - 1);

    bulk_limb_t *tbl = tp, *x = tbl + tsize * mn, *x2 = x + mn, *prod = x2 + mn;
    bulk_limb_t *big = prod + 2 * mn, *dtp = big + 2 * mn + 1;
    mont M = { m, mn, neg_inverse(m[0]), prod };

    /* R^2 mod m into x2 (B^(2 mn) has 2 mn + 1 limbs). */
    bulk_mpn_zero(big, 2 * mn);
    big[2 * mn] = 1;
    bulk_mpn_divmod(NULL, x2, big, 2 * mn + 1, m, mn, BULK_DIV_AUTO, dtp);
    if (en == 0) { /* base^0 = 1, and 1 < m here */
        r[0] = 1;
        return BULK_OK;
    }
    /* b = base mod m, then tbl[0] = b R mod m = mont(b, R^2). */
    bulk_mpn_divmod(NULL, x, base, n, m, mn, BULK_DIV_AUTO, dtp);
    mont_mul(&M, tbl, x, x2);
    /* tbl[i] = b^(2i+1) in Montgomery form. */
    if (tsize > 1) {
        mont_sqr(&M, x2, tbl);
        for (size_t i = 1; i < tsize; i++) mont_mul(&M, tbl + i * mn, tbl + (i - 1) * mn, x2);
    }
    /* Left to right: a window starts at a set bit and ends at the lowest set bit within k
     * bits, so its value is odd and in the table. */
    size_t i = ebits; /* bits [0, i) remain */
    int started = 0;
    while (i > 0) {
        if (!exp_bit(exp, i - 1)) {
            mont_sqr(&M, x, x);
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
            for (size_t j = lo; j < i; j++) mont_sqr(&M, x, x);
            mont_mul(&M, x, x, tbl + (w >> 1) * mn);
        }
        i = lo;
    }
    /* Out of Montgomery form: mont(x, 1). */
    bulk_mpn_copy(prod, x, mn);
    bulk_mpn_zero(prod + mn, mn);
    redc(r, prod, m, mn, M.minv);
    return BULK_OK;
}
