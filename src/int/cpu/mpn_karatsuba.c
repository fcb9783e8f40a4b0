/* Karatsuba multiplication and squaring (Toom-2), subtractive form.
 *
 * With h = ceil(n/2), l = n - h, a = a0 + a1 B^h and b = b0 + b1 B^h (B = 2^64):
 *   a b = z0 + (z0 + z2 - (a0 - a1)(b0 - b1)) B^h + z2 B^2h,  z0 = a0 b0, z2 = a1 b1.
 * The differences are kept as magnitude and sign, so every quantity is a natural number of at
 * most h limbs and the middle term, which equals a0 b1 + a1 b0 >= 0, needs one carry limb.
 *
 * Scratch layout (tmp): t = |a0-a1| |b0-b1| (2h), then da, db (h each), then the
 * sub-products' own scratch. */
#include "int/cpu/mpn_mul_internal.h"

size_t bulk_mpn_karatsuba_itch(size_t n, int sqr)
{
    size_t h = n - n / 2, l = n / 2;
    size_t sh = sqr ? bulk_mpn_sqr_itch(h) : bulk_mpn_mul_n_itch(h);
    size_t sl = sqr ? bulk_mpn_sqr_itch(l) : bulk_mpn_mul_n_itch(l);
    return 4 * h + (sh > sl ? sh : sl);
}

/* d = |x - y| where x has h limbs and y has l <= h limbs; returns 1 when x < y. */
static int abs_diff(bulk_limb_t *d, const bulk_limb_t *x, size_t h, const bulk_limb_t *y, size_t l)
{
    int neg;
    if (h > l && !bulk_mpn_is_zero(x + l, h - l)) neg = 0;
    else neg = bulk_mpn_cmp(x, y, l) < 0;
    if (neg) {
        bulk_mpn_sub_n(d, y, x, l);
        bulk_mpn_zero(d + l, h - l); /* x's high limbs are zero here */
    } else {
        bulk_mpn_sub(d, x, h, y, l);
    }
    return neg;
}

/* With z0 in r[0, 2h), z2 in r[2h, 2n) and t = |a0-a1| |b0-b1| (2h limbs), adds the middle
 * term z0 + z2 - sign t at r[h, 3h). Writing z0 = L0 + H0 B^h and z2 = L2 + H2 B^h, the limbs
 * from h on receive, in units of B^h:  [1] H0 + L0 + L2,  [2] L2 + H0 + H2,  [3] H2  (already
 * in place), so s = H0 + L2 is formed once and used twice: three h-limb additions instead of
 * four (as GMP's toom22), then the 2h-limb subtraction (or addition) of t, then the carries.
 * Every carry is at most 2 in magnitude and the total is the product, so nothing leaves r. */
static void middle(bulk_limb_t *r, size_t n, size_t h, const bulk_limb_t *t, int add_t)
{
    size_t hh = 2 * n - 3 * h; /* limbs of H2 */
    bulk_limb_t *r1 = r + h, *r2 = r + 2 * h, *r3 = r + 3 * h;
    bulk_limb_t cy = bulk_mpn_add_n(r2, r1, r2, h);              /* r2 = s = H0 + L2 */
    bulk_limb_t c2 = cy + bulk_mpn_add_n(r1, r2, r, h);          /* r1 = s + L0 */
    long c3 = (long)(cy + bulk_mpn_add(r2, r2, h, r3, hh));      /* r2 = s + H2 */
    if (add_t) c3 += (long)bulk_mpn_add_n(r1, r1, t, 2 * h);
    else c3 -= (long)bulk_mpn_sub_n(r1, r1, t, 2 * h);
    bulk_mpn_add_1(r2, r2, 2 * n - 2 * h, c2);
    if (c3 > 0) bulk_mpn_add_1(r3, r3, hh, (bulk_limb_t)c3);
    else if (c3 < 0) bulk_mpn_sub_1(r3, r3, hh, (bulk_limb_t)-c3);
}

void bulk_mpn_mul_karatsuba(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                            bulk_limb_t *tmp)
{
    size_t h = n - n / 2, l = n / 2;
    bulk_limb_t *t = tmp, *da = tmp + 2 * h, *db = da + h, *sub = tmp + 4 * h;
    int neg = abs_diff(da, a, h, a + h, l) ^ abs_diff(db, b, h, b + h, l);
    bulk_mpn_mul_n_rec(t, da, db, h, sub);
    bulk_mpn_mul_n_rec(r, a, b, h, sub);             /* z0 */
    bulk_mpn_mul_n_rec(r + 2 * h, a + h, b + h, l, sub); /* z2 */
    middle(r, n, h, t, neg);
}

void bulk_mpn_sqr_karatsuba(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t *tmp)
{
    size_t h = n - n / 2, l = n / 2;
    bulk_limb_t *t = tmp, *da = tmp + 2 * h, *sub = tmp + 4 * h;
    abs_diff(da, a, h, a + h, l);
    bulk_mpn_sqr_rec(t, da, h, sub);
    bulk_mpn_sqr_rec(r, a, h, sub);
    bulk_mpn_sqr_rec(r + 2 * h, a + h, l, sub);
    middle(r, n, h, t, 0); /* the square of a difference is always subtracted */
}
