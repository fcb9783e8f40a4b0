/* Karatsuba multiplication and squaring (Toom-2), subtractive form.
 *
 * With h = ceil(n/2), l = n - h, a = a0 + a1 B^h and b = b0 + b1 B^h (B = 2^64):
 *   a b = z0 + (z0 + z2 - (a0 - a1)(b0 - b1)) B^h + z2 B^2h,  z0 = a0 b0, z2 = a1 b1.
 * The differences are kept as magnitude and sign, so every quantity is a natural number of at
 * most h limbs and the middle term, which equals a0 b1 + a1 b0 >= 0, needs one carry limb.
 *
 * Scratch layout (tmp): t = |a0-a1| |b0-b1| (2h), then da, db (h each), reused for the
 * middle sum m = z0 + z2 (2h), then the sub-products' own scratch. */
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

/* r[h .. 2n) += m (2h limbs) + cy * B^(3h), the final carry being zero because the sum is
 * the product itself. */
static void add_middle(bulk_limb_t *r, size_t n, size_t h, const bulk_limb_t *m, bulk_limb_t cy)
{
    bulk_limb_t c = bulk_mpn_add_n(r + h, r + h, m, 2 * h);
    c += cy;
    if (3 * h < 2 * n) bulk_mpn_add_1(r + 3 * h, r + 3 * h, 2 * n - 3 * h, c);
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
    /* m = z0 + z2 - sign * t, in the space of da/db */
    bulk_limb_t *m = da;
    bulk_limb_t cy = bulk_mpn_add(m, r, 2 * h, r + 2 * h, 2 * l);
    if (neg) cy += bulk_mpn_add_n(m, m, t, 2 * h);
    else cy -= bulk_mpn_sub_n(m, m, t, 2 * h);
    add_middle(r, n, h, m, cy);
}

void bulk_mpn_sqr_karatsuba(bulk_limb_t *r, const bulk_limb_t *a, size_t n, bulk_limb_t *tmp)
{
    size_t h = n - n / 2, l = n / 2;
    bulk_limb_t *t = tmp, *da = tmp + 2 * h, *sub = tmp + 4 * h;
    abs_diff(da, a, h, a + h, l);
    bulk_mpn_sqr_rec(t, da, h, sub);
    bulk_mpn_sqr_rec(r, a, h, sub);
    bulk_mpn_sqr_rec(r + 2 * h, a + h, l, sub);
    bulk_limb_t *m = da;
    bulk_limb_t cy = bulk_mpn_add(m, r, 2 * h, r + 2 * h, 2 * l);
    cy -= bulk_mpn_sub_n(m, m, t, 2 * h); /* the square of a difference is always subtracted */
    add_middle(r, n, h, m, cy);
}
