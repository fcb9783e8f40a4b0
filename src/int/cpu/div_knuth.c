/* Schoolbook division: Knuth's Algorithm D (TAOCP vol. 2, 4.3.1) with the quotient digit
 * estimated from three dividend limbs and two divisor limbs through a precomputed reciprocal
 * (Moller and Granlund, "Improved division by invariant integers", IEEE TC 2011, algorithms 4
 * and 6), plus division by a single limb with the 2-by-1 reciprocal.
 *
 * Why the 3-by-2 estimate: Knuth's step D3 estimates the digit from two limbs and then tests
 * and corrects it with a third; the 3-by-2 reciprocal gives that corrected estimate directly
 * with two multiplications and no hardware division. The estimate is the true quotient of the
 * top three window limbs by the top two divisor limbs, so it is at most one too large for the
 * whole window, and that rare case (probability about 2/2^64 on random data) is step D6, the
 * add-back, counted in bulk_div_stats for the tests. */
#include <string.h>

#include "int/cpu/div_internal.h"
#include "int/cpu/div_stats.h"
#include "int/mpn_div.h"
#include "int/udiv_word.h"

/* The 3-by-2 reciprocal floor((B^3 - 1) / (d1 B + d0)) - B (Moller-Granlund algorithm 6). */
bulk_limb_t bulk_div_reciprocal_3by2(bulk_limb_t d1, bulk_limb_t d0)
{
    bulk_limb_t v = bulk_reciprocal_word(d1);
    bulk_limb_t p = d1 * v;
    p += d0;
    if (p < d0) {
        v--;
        if (p >= d1) {
            v--;
            p -= d1;
        }
        p -= d1;
    }
    bulk_dlimb_t t = (bulk_dlimb_t)d0 * v;
    bulk_limb_t t1 = (bulk_limb_t)(t >> 64), t0 = (bulk_limb_t)t;
    p += t1;
    if (p < t1) {
        v--;
        if (p >= d1 && (p > d1 || t0 >= d0)) v--;
    }
    return v;
}

/* (n2 n1 n0) / (d1 d0), normalized divisor, (n2 n1) < (d1 d0): quotient returned, the
 * two-limb remainder in (*r1, *r0) (algorithm 5). */
static inline bulk_limb_t udiv_3by2(bulk_limb_t n2, bulk_limb_t n1, bulk_limb_t n0,
                                    bulk_limb_t d1, bulk_limb_t d0, bulk_limb_t v,
                                    bulk_limb_t *r1, bulk_limb_t *r0)
{
    bulk_dlimb_t qq = (bulk_dlimb_t)v * n2 + (((bulk_dlimb_t)n2 << 64) | n1);
    bulk_limb_t q = (bulk_limb_t)(qq >> 64), q0 = (bulk_limb_t)qq;
    bulk_limb_t rh = n1 - d1 * q;
    bulk_dlimb_t dd = ((bulk_dlimb_t)d1 << 64) | d0;
    bulk_dlimb_t r = (((bulk_dlimb_t)rh << 64) | n0) - dd;
    r -= (bulk_dlimb_t)d0 * q;
    q++;
    /* The first adjustment happens about half the time: done with a mask, not a branch (a
     * mispredicted branch here cost more than the whole estimate). */
    bulk_limb_t mask = -(bulk_limb_t)((bulk_limb_t)(r >> 64) >= q0);
    q += mask;
    r += dd & (((bulk_dlimb_t)mask << 64) | mask);
    if (__builtin_expect(r >= dd, 0)) {
        q++;
        r -= dd;
    }
    *r1 = (bulk_limb_t)(r >> 64);
    *r0 = (bulk_limb_t)r;
    return q;
}

bulk_limb_t bulk_mpn_divrem_1(bulk_limb_t *q, const bulk_limb_t *a, size_t n, bulk_limb_t d)
{
    int s = bulk_limb_clz(d);
    bulk_limb_t dn = d << s, v = bulk_reciprocal_word(dn), r = 0;
    if (s == 0) {
        for (size_t i = n; i-- > 0;) q[i] = bulk_udiv_2by1(r, a[i], dn, v, &r);
        return r;
    }
    r = a[n - 1] >> (64 - s);
    for (size_t i = n; i-- > 0;) {
        bulk_limb_t lo = i > 0 ? a[i - 1] >> (64 - s) : 0;
        bulk_limb_t u0 = (a[i] << s) | lo;
        q[i] = bulk_udiv_2by1(r, u0, dn, v, &r);
    }
    return r >> s;
}

/* The main loop (contract in div_internal.h): the quotient limbs from the top down, each from
 * the window np[i, i + dn] of dn + 1 limbs, which is below B * D. */
void bulk_div_schoolbook(bulk_limb_t *qp, bulk_limb_t *np, size_t nn, const bulk_limb_t *dp,
                         size_t dn, bulk_limb_t v)
{
    bulk_limb_t d1 = dp[dn - 1], d0 = dp[dn - 2];
    for (size_t i = nn - dn; i-- > 0;) {
        /* The window np[i, i + dn] (dn + 1 limbs) is below B * D. */
        bulk_limb_t *w = np + i;
        bulk_limb_t n2 = w[dn], n1 = w[dn - 1], n0 = w[dn - 2], q;
        if (n2 == d1 && n1 == d0) {
            /* The estimate would be B; the true digit is B - 1 (the window is at least
             * (d1 d0 0..0) B^(dn-1) and below B D), and the new top limb is then 0. */
            q = ~(bulk_limb_t)0;
            bulk_mpn_submul_1(w, dp, dn, q);
        } else {
            bulk_limb_t r1, r0;
            q = udiv_3by2(n2, n1, n0, d1, d0, v, &r1, &r0);
            bulk_limb_t cy = bulk_mpn_submul_1(w, dp, dn - 2, q);
            bulk_limb_t cy1 = r0 < cy;
            r0 -= cy;
            cy = r1 < cy1;
            r1 -= cy1;
            w[dn - 2] = r0;
            w[dn - 1] = r1;
            if (cy) {
                /* D6: the estimate was one too large; the carry out of this addition
                 * cancels the borrow. */
                bulk_mpn_add_n(w, w, dp, dn);
                q--;
                BULK_DIV_STAT_INC(bulk_div_stat_addbacks);
            }
        }
        w[dn] = 0;
        qp[i] = q;
    }
}

size_t bulk_mpn_div_knuth_scratch(size_t an, size_t dn) { return 2 * an + dn + 4; }

void bulk_mpn_div_knuth(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                        const bulk_limb_t *d, size_t dn, bulk_limb_t *tp)
{
    size_t qn = an - dn + 1;
    bulk_limb_t *qp = q ? q : tp; /* tp: qn limbs when q is NULL */
    tp += qn;
    if (dn == 1) {
        if (q == NULL && r == NULL) return;
        bulk_limb_t rem = bulk_mpn_divrem_1(qp, a, an, d[0]);
        if (r) r[0] = rem;
        return;
    }
    bulk_limb_t *dp = tp, *np = tp + dn; /* dn + an + 1 limbs */
    int s = bulk_div_normalize(dp, np, d, dn, a, an);
    /* With the extra top limb (below 2^s <= d's shifted top limb) the top dn limbs of np are
     * below dp, so the loop yields all an - dn + 1 quotient limbs. */
    bulk_div_schoolbook(qp, np, an + 1, dp, dn, bulk_div_reciprocal_3by2(dp[dn - 1], dp[dn - 2]));
    if (r) {
        if (s) bulk_mpn_rshift(r, np, dn, (unsigned)s);
        else bulk_mpn_copy(r, np, dn);
    }
}
