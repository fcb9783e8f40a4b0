/* Toom-3 specialised (the general Toom-k of mpn_toom.c handles k = 3 too, with more linear
 * work): points 0, 1, -1, -2, infinity and Bodrato's interpolation sequence, in W-limb two's
 * complement arithmetic.
 *
 * With m = ceil(n/3), t = n - 2m >= 1 (true for n >= 5 and n = 3), A(x) = a0 + a1 x + a2 x^2
 * and R = AB of degree 4 with coefficients c0..c4:
 *   v0 = c0 = a0 b0, v1 = R(1), vm1 = R(-1), vm2 = R(-2), vinf = c4 = a2 b2;
 *   r3 = (vm2 - v1) / 3;  r1 = (v1 - vm1) / 2;  r2 = vm1 - v0;
 *   r3 = (r2 - r3) / 2 + 2 vinf;  r2 = r2 + r1 - vinf;  r1 = r1 - r3
 * leaves r1 = c1, r2 = c2, r3 = c3 (check: r3 first equals -c1 + c2 - 3c3 + 5c4, r2 first
 * -c1 + c2 - c3 + c4). Intermediate values may be negative; all are below 2^(64(2m+1)) in
 * magnitude (|A(-2)| < 5 B^m), so two's complement in W = 2m+2 limbs holds them. The
 * divisions are exact: by 3 through the Hensel inverse (exact division is valid mod B^W, so
 * also for negative values), by 2 by an arithmetic shift.
 *
 * Scratch: five W-limb value slots, 8 evaluation buffers of m+1 limbs, then the sub-products'
 * scratch (bulk_mpn_toom3_itch). */
#include "int/cpu/mpn_mul_internal.h"

int bulk_mpn_toom3_applies(size_t n) { return n >= 5 || n == 3; }

size_t bulk_mpn_toom3_itch(size_t n, int sqr)
{
    size_t m = (n + 2) / 3, t = n - 2 * m, W = 2 * m + 2;
    /* the sub-products have m and t limbs; the itch is not monotonic in the size (a higher
     * Toom needs less scratch than a lower one just below its threshold), so take both */
    size_t sm = sqr ? bulk_mpn_sqr_itch(m) : bulk_mpn_mul_n_itch(m);
    size_t st = sqr ? bulk_mpn_sqr_itch(t) : bulk_mpn_mul_n_itch(t);
    return 5 * W + 8 * (m + 1) + (sm > st ? sm : st);
}

/* x >>= 1 as a signed W-limb two's complement number (exact here: x is even). */
static void sar1(bulk_limb_t *x, size_t W)
{
    bulk_limb_t sign = x[W - 1] >> 63;
    bulk_mpn_rshift(x, x, W, 1);
    x[W - 1] |= sign << 63;
}

/* d = |x - y| for x, y of len limbs; returns 1 when x < y. d may equal x or y. */
static int abs_sub(bulk_limb_t *d, const bulk_limb_t *x, const bulk_limb_t *y, size_t len)
{
    if (bulk_mpn_cmp(x, y, len) < 0) {
        bulk_mpn_sub_n(d, y, x, len);
        return 1;
    }
    bulk_mpn_sub_n(d, x, y, len);
    return 0;
}

/* p1 = A(1), pm1 = |A(-1)|, pm2 = |A(-2)| (m+1 limbs each; tmp m+1 limbs of scratch).
 * Returns the sign of A(-1) in bit 0 and of A(-2) in bit 1. */
static int eval3(bulk_limb_t *p1, bulk_limb_t *pm1, bulk_limb_t *pm2, bulk_limb_t *tmp,
                 const bulk_limb_t *a, size_t m, size_t t)
{
    const bulk_limb_t *a0 = a, *a1 = a + m, *a2 = a + 2 * m;
    int s = 0;
    tmp[m] = bulk_mpn_add(tmp, a0, m, a2, t);  /* a0 + a2 */
    p1[m] = tmp[m] + bulk_mpn_add_n(p1, tmp, a1, m);
    pm1[m] = 0;
    bulk_mpn_copy(pm1, a1, m);                 /* a1, zero-extended */
    s |= abs_sub(pm1, tmp, pm1, m + 1);        /* (a0 + a2) - a1 */
    bulk_mpn_zero(tmp, m + 1);
    tmp[t] = bulk_mpn_lshift(tmp, a2, t, 2);   /* 4 a2 (t + 1 <= m + 1 limbs) */
    bulk_mpn_add(pm2, tmp, m + 1, a0, m);      /* a0 + 4 a2 < 5 B^m: no carry out */
    tmp[m] = bulk_mpn_lshift(tmp, a1, m, 1);   /* 2 a1 */
    s |= abs_sub(pm2, pm2, tmp, m + 1) << 1;   /* (a0 + 4 a2) - 2 a1 */
    return s;
}

void bulk_mpn_mul_toom3(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b, size_t n,
                        bulk_limb_t *tmp)
{
    int sqr = b == NULL;
    size_t m = (n + 2) / 3, t = n - 2 * m, W = 2 * m + 2, M1 = m + 1;
    bulk_limb_t *v0 = tmp, *v1 = v0 + W, *vm1 = v1 + W, *vm2 = vm1 + W, *vinf = vm2 + W;
    bulk_limb_t *a1 = vinf + W, *am1 = a1 + M1, *am2 = am1 + M1, *at = am2 + M1;
    bulk_limb_t *b1 = at + M1, *bm1 = b1 + M1, *bm2 = bm1 + M1, *bt = bm2 + M1;
    bulk_limb_t *sub = bt + M1;

    int sa = eval3(a1, am1, am2, at, a, m, t), sb = 0;
    if (!sqr) sb = eval3(b1, bm1, bm2, bt, b, m, t);
    int s = sqr ? 0 : sa ^ sb;

    bulk_mpn_mul_plus1(v1, a1, sqr ? NULL : b1, m, sub);
    bulk_mpn_mul_plus1(vm1, am1, sqr ? NULL : bm1, m, sub);
    if (s & 1) bulk_mpn_neg(vm1, vm1, W);
    bulk_mpn_mul_plus1(vm2, am2, sqr ? NULL : bm2, m, sub);
    if (s & 2) bulk_mpn_neg(vm2, vm2, W);
    bulk_mpn_zero(v0 + 2 * m, 2);
    bulk_mpn_zero(vinf + 2 * t, W - 2 * t);
    if (sqr) {
        bulk_mpn_sqr_rec(v0, a, m, sub);
        bulk_mpn_sqr_rec(vinf, a + 2 * m, t, sub);
    } else {
        bulk_mpn_mul_n_rec(v0, a, b, m, sub);
        bulk_mpn_mul_n_rec(vinf, a + 2 * m, b + 2 * m, t, sub);
    }

    /* interpolation: r3 in vm2, r1 in v1, r2 in vm1 */
    bulk_mpn_sub_n(vm2, vm2, v1, W);
    bulk_mpn_divexact_1(vm2, W, 3);             /* r3 = (vm2 - v1) / 3 */
    bulk_mpn_sub_n(v1, v1, vm1, W);
    sar1(v1, W);                                /* r1 = (v1 - vm1) / 2 */
    bulk_mpn_sub_n(vm1, vm1, v0, W);            /* r2 = vm1 - v0 */
    bulk_mpn_sub_n(vm2, vm1, vm2, W);
    sar1(vm2, W);
    bulk_mpn_add_n(vm2, vm2, vinf, W);
    bulk_mpn_add_n(vm2, vm2, vinf, W);          /* r3 = (r2 - r3) / 2 + 2 vinf */
    bulk_mpn_add_n(vm1, vm1, v1, W);
    bulk_mpn_sub_n(vm1, vm1, vinf, W);          /* r2 = r2 + r1 - vinf */
    bulk_mpn_sub_n(v1, v1, vm2, W);             /* r1 = r1 - r3 */

    /* recomposition: c0 and c4 go straight in, c1..c3 are added */
    size_t rn = 2 * n;
    bulk_mpn_copy(r, v0, 2 * m);
    bulk_mpn_copy(r + 4 * m, vinf, 2 * t);
    bulk_mpn_zero(r + 2 * m, 2 * m);
    bulk_mpn_add_at(r, rn, m, v1, W);
    bulk_mpn_add_at(r, rn, 2 * m, vm1, W);
    bulk_mpn_add_at(r, rn, 3 * m, vm2, W);
}
