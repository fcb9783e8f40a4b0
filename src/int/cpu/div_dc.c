/* Divide-and-conquer division (Burnikel and Ziegler, "Fast recursive division", MPI-I-98-1-022,
 * 1998, in the in-place formulation of Moller and Granlund that GMP's dcpi1_div_qr also uses):
 * a 2n-by-n division is two "3-by-2" steps on halves, each a recursive division of the top part
 * by the top half of the divisor followed by one product with the divisor's low half and a
 * short correction. Below bulk_div_dc_threshold limbs the steps are Algorithm D (div_knuth.c).
 *
 * Why it is correct: write D = D1 B^k + D0 with D1 the top h limbs (D normalized, so
 * D1 >= B^h / 2), N the dividend of a step and q = floor(N / D). The estimate
 * qe = floor(floor(N / B^k) / D1) is never below q (D >= D1 B^k), and not much above it: if
 * qe >= q + m + 1 then N - qe D < D - (m + 1) D = -m D, while N - qe D >= -qe D0 > -qe B^k, so
 * qe > m D1 >= m B^h / 2. An estimate below B^h (no top bit) is thus at most q + 2, one below
 * 2 B^h (top bit qh set) at most q + 4 (the first is Burnikel and Ziegler's bound).
 * The step computes qe and R1 = floor(N / B^k) - qe D1 by recursion, then
 * R = R1 B^k + (N mod B^k) - qe D0, which is N - qe D; while R is negative, qe is too large:
 * qe--, R += D (each time counted in bulk_div_stats.dc_adjust for the tests).
 *
 * Cost: with M(n) the time of an n x n product, D(2n, n) = 2 D(n, n/2) + 2 M(n/2) + O(n), which
 * is 2 M(n) under Karatsuba and about 2.6 M(n) under Toom-3: a constant times a product, below
 * Newton's (an inverse of the whole divisor and two more full products per division).
 *
 * All sub-divisors are top parts D[k, n) of the one normalized divisor, so they share its top
 * two limbs and one 3-by-2 reciprocal, computed once per call. */
#include <assert.h>

#include "int/cpu/div_internal.h"
#include "int/cpu/div_stats.h"
#include "int/mpn_div.h"

/* The smallest divisor (and quotient) in limbs for which AUTO takes this method; inside the
 * recursion, blocks of fewer limbs go to Algorithm D. Measured by bench/int/tune_div.c (table
 * in docs/int.md, "Division", and bench/results/int-tune-div-vm.txt): over 2n-by-n
 * divisions of 16 to 512 limbs the geometric means of the times for T = 8, 10, 12, 16 are within
 * 1.5% of each other (two runs; one chose 12, one 8: noise of the shared machine); 48 costs 17%,
 * 96 32-35%. 12 leaves 8-limb divisions to Algorithm D, slightly faster there. */
size_t bulk_div_dc_threshold = 12;

/* The recursion splits n into floor(n/2) and ceil(n/2) and Algorithm D needs divisors of at least
 * two limbs: blocks of fewer than 4 limbs always go to the basecase. */
static size_t effective_threshold(void)
{
    return bulk_div_dc_threshold < 4 ? 4 : bulk_div_dc_threshold;
}

/* np (nn limbs) by dp (dn >= 2 limbs, normalized) where the top dn limbs of np are below 2 dp
 * (always true: 2 dp >= B^dn). Returns the quotient's top bit qh (1 when the top dn limbs were
 * >= dp) and writes the other nn - dn quotient limbs to qp; remainder in np[0, dn). */
static bulk_limb_t basecase(bulk_limb_t *qp, bulk_limb_t *np, size_t nn, const bulk_limb_t *dp,
                            size_t dn, bulk_limb_t v)
{
    bulk_limb_t qh = 0;
    bulk_limb_t *top = np + (nn - dn);
    if (bulk_mpn_cmp(top, dp, dn) >= 0) {
        bulk_mpn_sub_n(top, top, dp, dn);
        qh = 1;
    }
    bulk_div_schoolbook(qp, np, nn, dp, dn, v);
    return qh;
}

static bulk_limb_t div_2n_n(bulk_limb_t *qp, bulk_limb_t *np, const bulk_limb_t *dp, size_t n,
                            bulk_limb_t v, size_t thr, bulk_limb_t *tp);

/* The estimate of one half-step of div_2n_n: np (2h limbs) by dp (the divisor's top h limbs),
 * recursively or, below the threshold, by Algorithm D. Same contract as div_2n_n. */
static bulk_limb_t estimate(bulk_limb_t *qp, bulk_limb_t *np, const bulk_limb_t *dp, size_t h,
                            bulk_limb_t v, size_t thr, bulk_limb_t *tp)
{
    if (h < thr) return basecase(qp, np, 2 * h, dp, h, v);
    return div_2n_n(qp, np, dp, h, v, thr, tp);
}

/* np (2n limbs) by dp (n limbs, normalized), the top n limbs of np below 2 dp: returns qh and
 * writes qp (n limbs), the quotient being qh B^n + qp; remainder in np[0, n), np[n, 2n) left
 * unspecified. tp: n limbs (the recursion reuses them: each level's product is formed after
 * its recursive call returns).
 *
 * With lo = floor(n/2), hi = n - lo, the quotient's high hi limbs come from dividing
 * np[2 lo, 2n) by dp[lo, n) (the 3-by-2 step at the top: its dividend has "3" halves, np[n+lo..]
 * the extra one), its low lo limbs from dividing the updated np[hi, n + lo) by dp[hi, n). */
static bulk_limb_t div_2n_n(bulk_limb_t *qp, bulk_limb_t *np, const bulk_limb_t *dp, size_t n,
                            bulk_limb_t v, size_t thr, bulk_limb_t *tp)
{
    size_t lo = n / 2, hi = n - lo;
    /* High half: estimate q1 = (qh, qp[lo, n)) with R1 in np[2 lo, 2 lo + hi). */
    bulk_limb_t qh = estimate(qp + lo, np + 2 * lo, dp + lo, hi, v, thr, tp);
    /* R = (R1 B^lo + np[lo, 2 lo)) - q1 dp[0, lo), in place in the n limbs np[lo, lo + n). */
    bulk_mpn_mul(tp, qp + lo, hi, dp, lo);
    bulk_limb_t cy = bulk_mpn_sub_n(np + lo, np + lo, tp, n);
    if (qh) cy += bulk_mpn_sub_n(np + n, np + n, dp, lo); /* the B^hi of q1 times dp[0, lo) */
    while (cy) {
        /* R < 0: q1 was too large (at most 2 times, 4 with qh; see the header). The borrow
         * count cy and the carries of the additions keep track of R's sign beyond its n
         * limbs. */
        qh -= bulk_mpn_sub_1(qp + lo, qp + lo, hi, 1);
        cy -= bulk_mpn_add_n(np + lo, np + lo, dp, n);
        BULK_DIV_STAT_INC_THREAD(bulk_div_stat_dc_adjust);
    }
    /* Low half: the remainder np[lo, lo + n) < dp; divide np[hi, n + lo) (2 lo limbs, its top
     * lo limbs np[n, n + lo)) by dp[hi, n). */
    bulk_limb_t ql = estimate(qp, np + hi, dp + hi, lo, v, thr, tp);
    bulk_mpn_mul(tp, dp, hi, qp, lo);
    cy = bulk_mpn_sub_n(np, np, tp, n);
    if (ql) cy += bulk_mpn_sub_n(np + lo, np + lo, dp, hi);
    while (cy) {
        /* a borrow out of qp cancels ql: the true low part is below B^lo (R < dp above) */
        bulk_mpn_sub_1(qp, qp, lo, 1);
        cy -= bulk_mpn_add_n(np, np, dp, n);
        BULK_DIV_STAT_INC_THREAD(bulk_div_stat_dc_adjust);
    }
    return qh;
}

/* A block of qn <= dn quotient limbs: np (dn + qn limbs) by dp (dn limbs, normalized), the top
 * dn limbs of np below dp and, for a short block (qn < dn), np's top limb below dp's. Quotient
 * to qp (qn limbs), remainder in np[0, dn), np[dn, dn + qn) left unspecified. tp: dn limbs.
 *
 * A short quotient is estimated from the top 2 qn limbs of np and the top qn limbs of dp (the
 * same 3-by-2 reasoning with k = dn - qn), then corrected with one qn x (dn - qn) product. The
 * estimate has no qh: np's top qn limbs are below dp's because np's top limb is below dp's (the
 * only short block is bulk_mpn_div_dc's first, whose top limb is the extra one, below
 * 2^s <= dp's top limb), and a full block's top dn limbs are below dp. */
static void div_block(bulk_limb_t *qp, bulk_limb_t *np, size_t qn, const bulk_limb_t *dp,
                      size_t dn, bulk_limb_t v, size_t thr, bulk_limb_t *tp)
{
    if (qn < thr) {
        /* Algorithm D costs qn dn here: linear in dn for short quotients. */
        bulk_div_schoolbook(qp, np, dn + qn, dp, dn, v);
        return;
    }
    size_t k = dn - qn; /* low divisor limbs left out of the estimate */
    assert(k == 0 || np[dn + qn - 1] < dp[dn - 1]);
    bulk_limb_t qh = div_2n_n(qp, np + k, dp + k, qn, v, thr, tp);
    assert(qh == 0);
    (void)qh;
    if (k) {
        bulk_mpn_mul(tp, qp, qn, dp, k); /* dn limbs; bulk_mpn_mul takes either order */
        bulk_limb_t cy = bulk_mpn_sub_n(np, np, tp, dn);
        while (cy) {
            /* the estimate is >= the true quotient >= 0: no borrow out of qp */
            bulk_mpn_sub_1(qp, qp, qn, 1);
            cy -= bulk_mpn_add_n(np, np, dp, dn);
            BULK_DIV_STAT_INC_THREAD(bulk_div_stat_dc_adjust);
        }
    }
}

/* np (nn limbs) by dp (dn >= 2 limbs, normalized), the top dn limbs of np below dp: the
 * nn - dn quotient limbs to qp, remainder in np[0, dn). Blocks of dn quotient limbs from the
 * bottom up are full 2dn-by-dn divisions; the top block takes the (nn - dn) mod dn leftover
 * quotient limbs (a full block when there are none) and is done first. */
static void div_qr(bulk_limb_t *qp, bulk_limb_t *np, size_t nn, const bulk_limb_t *dp, size_t dn,
                   bulk_limb_t v, size_t thr, bulk_limb_t *tp)
{
    size_t qn = nn - dn;
    if (qn == 0) return;
    size_t first = qn % dn ? qn % dn : dn;
    size_t pos = qn - first; /* quotient limbs still below the current block */
    div_block(qp + pos, np + pos, first, dp, dn, v, thr, tp);
    while (pos) {
        pos -= dn;
        div_block(qp + pos, np + pos, dn, dp, dn, v, thr, tp);
    }
}

size_t bulk_mpn_div_dc_scratch(size_t an, size_t dn)
{
    /* quotient (when q is NULL): an - dn + 1 <= an; the shifted divisor dn and dividend an + 1;
     * the products of the correction steps: dn */
    return 2 * an + 2 * dn + 4;
}

void bulk_mpn_div_dc(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                     const bulk_limb_t *d, size_t dn, bulk_limb_t *tp)
{
    size_t thr = effective_threshold();
    if (dn < 2 || an - dn + 1 < thr || dn < thr) {
        /* no block would reach the recursion: Algorithm D (same contract, smaller area) */
        bulk_mpn_div_knuth(q, r, a, an, d, dn, tp);
        return;
    }
    BULK_DIV_STAT_INC_THREAD(bulk_div_stat_dc_calls);
    size_t qn = an - dn + 1;
    bulk_limb_t *qp = q ? q : tp; /* tp: qn limbs when q is NULL */
    tp += qn;
    bulk_limb_t *dp = tp, *np = tp + dn, *pt = np + an + 1; /* pt: dn limbs */
    int s = bulk_div_normalize(dp, np, d, dn, a, an);
    /* With the extra top limb (below 2^s <= dp's top limb) the top dn limbs of np are below dp,
     * so the an - dn + 1 quotient limbs are all there is. */
    div_qr(qp, np, an + 1, dp, dn, bulk_div_reciprocal_3by2(dp[dn - 1], dp[dn - 2]), thr, pt);
    if (r) {
        if (s) bulk_mpn_rshift(r, np, dn, (unsigned)s);
        else bulk_mpn_copy(r, np, dn);
    }
}
