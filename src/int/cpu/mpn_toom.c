/* Toom-k multiplication and squaring for k = 3..8 (seed 000 chapter 3 uses Toom-2..Toom-8),
 * by evaluation at the 2k-1 points 0, +-1, +-2, ..., +-(k-1) and exact interpolation.
 *
 * With m = ceil(n/k), a = sum a_i B^(im) is read as the polynomial A(x) = sum a_i x^i
 * (0 <= i < k; the top pieces may be shorter or empty), likewise B(x), and R = A B has degree
 * 2k-2 with natural-number coefficients r_i; the product is R(B^m).
 *
 * 1. Evaluation. For x = 1..k-1 the even and odd parts E = sum a_2j x^2j, O = sum a_2j+1 x^2j+1
 *    give A(x) = E + O and A(-x) = E - O (a magnitude and a sign). All values fit m+1 limbs
 *    (|A(+-x)| < B^m * 7^8 for k = 8).
 * 2. Products, 2k-1 of (m+1) x (m+1) limbs: P0 = a_0 b_0, P(x), P(-x); the (m+1)-th limbs are
 *    handled by addmul_1 around one m x m recursive product (bulk_mpn_mul_plus1, mpn_mul_internal.h).
 * 3. Split into even and odd parts of R, both natural numbers:
 *       Re(x^2) = (P(x) + P(-x)) / 2 = sum r_2j y^j          (degree k-1 in y = x^2)
 *       Ro(x^2) = (P(x) - P(-x)) / (2x) = sum r_2j+1 y^j     (degree k-2)
 *    Re is known at y = 0, 1, 4, ..., (k-1)^2 (k points), Ro at y = 1, 4, ..., (k-1)^2
 *    (k-1 points): two Vandermonde systems of half the size.
 * 4. Interpolation of each by Newton divided differences, then conversion from the Newton to
 *    the monomial basis, in place. Both stay in natural numbers and every division is exact:
 *    for a polynomial with natural coefficients and increasing nodes y_0 < y_1 < ..., the
 *    divided difference f[y_i..y_j] = sum_m c_m h_(m-(j-i))(y_i..y_j) (h = complete symmetric
 *    polynomial) is a natural number, so f[y_i+1..y_j] - f[y_i..y_j-1] = (y_j - y_i) f[y_i..y_j]
 *    is a non-negative multiple of y_j - y_i; and each intermediate polynomial of the Horner
 *    conversion q_i(y) = q_i+1(y) (y - y_i) + c_i is f[y_0..y_i-1, y], which again has natural
 *    coefficients, so each in-place submul_1 leaves a natural number (no borrow out).
 *    All values fit W = 2m+2 limbs (coefficients < k B^2m; intermediate ones gain < 2^64).
 * 5. Recomposition: r = sum r_i B^(im), added with carries, clipped at 2n limbs.
 *
 * Scratch (tmp): 2k-1 value slots of W limbs, 6 evaluation buffers of m+1 limbs, then the
 * sub-products' scratch. */
#include "int/cpu/mpn_mul_internal.h"

size_t bulk_mpn_toom_min_n(unsigned k) { return k; }

size_t bulk_mpn_toom_itch(size_t n, unsigned k, int sqr)
{
    size_t m = (n + k - 1) / k, W = 2 * m + 2;
    size_t local = (2 * (size_t)k - 1) * W + 6 * (m + 1);
    return local + (sqr ? bulk_mpn_sqr_itch(m) : bulk_mpn_mul_n_itch(m));
}

/* dst (m+1 limbs) = sum over i of parity `par`, i < k, of a_i y^((i - par)/2), by Horner. */
static void horner(bulk_limb_t *dst, const bulk_limb_t *a, size_t n, size_t m, unsigned k,
                   unsigned par, bulk_limb_t y)
{
    unsigned top = (k - 1 - par) % 2 == 0 ? k - 1 : k - 2;
    bulk_mpn_zero(dst, m + 1);
    for (int i = (int)top; i >= (int)par; i -= 2) {
        size_t off = (size_t)i * m;
        size_t len = off >= n ? 0 : (n - off < m ? n - off : m);
        if (i != (int)top && y != 1) bulk_mpn_mul_1(dst, dst, m + 1, y); /* no carry: bound */
        if (len) bulk_mpn_add(dst, dst, m + 1, a + off, len);
    }
}

/* pos = A(x), neg = |A(-x)| (m+1 limbs each, tmp m+1 limbs of scratch); returns 1 when
 * A(-x) < 0. */
static int eval_pm(bulk_limb_t *pos, bulk_limb_t *neg, bulk_limb_t *tmp, const bulk_limb_t *a,
                   size_t n, size_t m, unsigned k, bulk_limb_t x)
{
    bulk_limb_t *e = neg, *o = tmp;
    horner(e, a, n, m, k, 0, x * x);
    horner(o, a, n, m, k, 1, x * x);
    if (x != 1) bulk_mpn_mul_1(o, o, m + 1, x);
    bulk_mpn_add_n(pos, e, o, m + 1);
    if (bulk_mpn_cmp(e, o, m + 1) < 0) {
        bulk_mpn_sub_n(neg, o, e, m + 1);
        return 1;
    }
    bulk_mpn_sub_n(neg, e, o, m + 1);
    return 0;
}

/* Interpolates, in place, the polynomial of degree cnt-1 whose values at y_j = (j + j0)^2
 * (j = 0..cnt-1) are in slots V + j*W: afterwards slot j holds the coefficient of y^j. */
static void interpolate(bulk_limb_t *V, size_t W, unsigned cnt, unsigned j0)
{
#define SLOT(j) (V + (size_t)(j) * W)
#define NODE(j) ((bulk_limb_t)((j) + j0) * (bulk_limb_t)((j) + j0))
    for (unsigned l = 1; l < cnt; l++)
        for (unsigned j = cnt - 1; j >= l; j--) {
            bulk_mpn_sub_n(SLOT(j), SLOT(j), SLOT(j - 1), W);
            bulk_mpn_divexact_1(SLOT(j), W, NODE(j) - NODE(j - l));
        }
    for (int i = (int)cnt - 2; i >= 0; i--) {
        bulk_limb_t y = NODE(i);
        if (y == 0) continue;
        for (unsigned s = (unsigned)i; s + 1 < cnt; s++) bulk_mpn_submul_1(SLOT(s), SLOT(s + 1), W, y);
    }
#undef SLOT
#undef NODE
}

void bulk_mpn_mul_toom(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                       unsigned k, bulk_limb_t *tmp)
{
    int sqr = b == NULL;
    size_t m = (n + k - 1) / k, W = 2 * m + 2, M1 = m + 1;
    bulk_limb_t *S = tmp;                  /* even values, k slots */
    bulk_limb_t *D = S + (size_t)k * W;    /* odd values, k-1 slots (x = 1..k-1) */
    bulk_limb_t *ap = D + (size_t)(k - 1) * W, *an = ap + M1, *at = an + M1;
    bulk_limb_t *bp = at + M1, *bn = bp + M1, *bt = bn + M1;
    bulk_limb_t *sub = bt + M1;

    /* P(0) = a_0 b_0: the pieces a_0, b_0 are full (n >= k implies n >= m) */
    if (sqr) bulk_mpn_sqr_rec(S, a, m, sub);
    else bulk_mpn_mul_n_rec(S, a, b, m, sub);
    S[2 * m] = S[2 * m + 1] = 0;

    for (unsigned x = 1; x < k; x++) {
        bulk_limb_t *P = S + (size_t)x * W, *Q = D + (size_t)(x - 1) * W;
        int neg = eval_pm(ap, an, at, a, n, m, k, x);
        if (sqr) neg = 0; /* A(-x)^2 >= 0 */
        else neg ^= eval_pm(bp, bn, bt, b, n, m, k, x);
        bulk_mpn_mul_plus1(P, ap, sqr ? NULL : bp, m, sub);
        bulk_mpn_mul_plus1(Q, an, sqr ? NULL : bn, m, sub);
        /* P(-x) = (neg ? -Q : Q). Ro(x^2) = (P(x) - P(-x)) / (2x) goes to Q, and
         * Re(x^2) = (P(x) + P(-x)) / 2 = P(x) - x Ro(x^2) to P: three passes over W limbs. */
        if (!neg) bulk_mpn_sub_n(Q, P, Q, W);
        else bulk_mpn_add_n(Q, P, Q, W);
        bulk_mpn_divexact_1(Q, W, 2 * (bulk_limb_t)x);
        bulk_mpn_submul_1(P, Q, W, x);
    }
    interpolate(S, W, k, 0);     /* r_0, r_2, ..., r_2k-2 */
    interpolate(D, W, k - 1, 1); /* r_1, r_3, ..., r_2k-3 */

    size_t rn = 2 * n;
    bulk_mpn_zero(r, rn);
    for (unsigned j = 0; j < k; j++) bulk_mpn_add_at(r, rn, 2 * (size_t)j * m, S + (size_t)j * W, W);
    for (unsigned j = 0; j + 1 < k; j++) bulk_mpn_add_at(r, rn, (2 * (size_t)j + 1) * m, D + (size_t)j * W, W);
}
