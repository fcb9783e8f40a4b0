/* Division by the whole shifted inverse: Watt's algorithm as specified by seed 002, section 9
 * (figures 10, 11 and 12), with base B = 2^64 (one digit = one limb).
 *
 *   shift_n u = floor(u B^n),  shinv_h v = floor(B^h / v),
 *   u quo v = shift_{-h}(u * shinv_h v) + delta, delta in {0, 1}, for u <= B^h.
 *
 * SHINV handles the special cases, takes a two-digit first approximation from the three
 * leading digits of v (w = (B^4 - V) quo V + 1) and refines it by REFINE (Watt's refine3): each
 * Newton STEP w B^m + floor(w (B^(h'-m) - v w) B^(2m-h')) nearly doubles the number l of correct
 * leading digits while working only on the leading digits that matter (shorter iterates, with
 * g = 2 guard digits), on a prefix of v (divisor prefixes, shift_{-s} v), and computing
 * B^(h'-m) - v w as a close product (POWDIFF: only the low L digits of v w, through mullo).
 *
 * Notes on the transcription (the seed's figures are OCR text):
 *  - The loop reads `while h - k > l`, `m = min(l, h - k + 1 - l)`, `s = max(0, k - 2l + 1 - g)`,
 *    `w = shift_{-1} STEP(k + l + m - s + g, shift_{-s} v, w, m, l, g)`, `l += m - 1`, and
 *    POWDIFF's L = prec(v) + prec(w) - l + 1: the only readings under which the invariant
 *    "w approximates B^(k + l + g) / v" holds at every step (checked in the comments below).
 *  - FINDH as printed can return an h with u > B^h; we use h = prec(u), which satisfies the
 *    theorem's u <= B^h (it is at most one digit more than the smallest such h).
 *  - k = 1 is avoided as in figure 12, by the shift by one digit: shinv_(h+1)(v B) = shinv_h(v),
 *    so only v is shifted and u is used as it is.
 *    k = 0 is SHINV's single-digit case, B^h quo v[0]: we call the 2-by-1 long division of
 *    div_knuth.c directly on u, which computes the same quotient without the product.
 *  - Measured (tests/int/test_int_div.c, bulk_mpn_shinv): SHINV as specified is exact except in
 *    about 0.4% of random refine cases, where it is one too small (the floors of the Newton steps
 *    approach B^h / v from below), and rare short cases (h - k <= 2, w = (B^4 - V) quo V + 1
 *    taken from three digits only), where it is one too large. With w = shinv +- 1 the estimate
 *    floor(u w / B^h) is within [q - 2, q + 1] of the quotient q for u < B^h, and within
 *    [q - 3, q + 1] when only the leading digits of u enter the product (as done below), so the
 *    final adjustment of figure 12 is a loop on the signed remainder u - q v rather than the
 *    single "+ delta, delta in {0, 1}": each correction costs O(n), far less than the extra
 *    product that an exact shinv would need. The loop is capped: a quotient further off would be
 *    recomputed by Algorithm D and counted as a fallback (bulk_div_stats; the tests assert
 *    there are none and that every delta is in [-1, 3]).
 *
 * All multiplications go through bulk_mpn_mul / bulk_mpn_mullo_n, so large sizes get Toom. */
#include <assert.h>

#include "int/cpu/div_stats.h"
#include "int/mpn_div.h"

#define GUARD 2     /* g: guard digits of REFINE */
#define ADJUST_CAP 4

/* A bump allocator over the caller's scratch area. */
typedef struct arena {
    bulk_limb_t *p;
    size_t left;
} arena;

static bulk_limb_t *take(arena *a, size_t n)
{
    assert(n <= a->left);
    bulk_limb_t *r = a->p;
    a->p += n;
    a->left -= n;
    return r;
}

static size_t prec(const bulk_limb_t *a, size_t n) { return bulk_mpn_normalized_size(a, n); }

/* r (an + bn limbs) = a * b for any lengths (zero lengths give zero). */
static void mul_any(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                    size_t bn)
{
    if (an == 0 || bn == 0) {
        bulk_mpn_zero(r, an + bn);
        return;
    }
    if (an >= bn) bulk_mpn_mul(r, a, an, b, bn);
    else bulk_mpn_mul(r, b, bn, a, an);
}

/* Is v (vn limbs, normalized) equal to B^e? */
static int is_pow(const bulk_limb_t *v, size_t vn, size_t e)
{
    return vn == e + 1 && v[e] == 1 && bulk_mpn_is_zero(v, e);
}

/* POWDIFF(v, w, H, lp): P = |B^H - v w| into p (capacity H + 2 limbs), returning its
 * normalized length, and *neg = 1 when v w > B^H. lp (l - g, may be <= 0) is the number of
 * leading digits of w known correct, so |B^H - v w| < B^(L-1) with L = prec v + prec w - lp + 1,
 * and only the low L digits of v w are needed (close product). */
static size_t powdiff(bulk_limb_t *p, int *neg, const bulk_limb_t *v, size_t vn,
                      const bulk_limb_t *w, size_t wn, size_t H, long lp, arena ar)
{
    *neg = 0;
    if (vn == 0 || wn == 0) {
        bulk_mpn_zero(p, H);
        p[H] = 1;
        return H + 1;
    }
    long L = (long)vn + (long)wn - lp + 1;
    if (L >= (long)H || L < 2) {
        /* Worst case: the full product. */
        size_t pn = vn + wn, xn = (pn > H ? pn : H + 1);
        bulk_limb_t *pr = take(&ar, xn), *bh = take(&ar, xn);
        mul_any(pr, v, vn, w, wn);
        bulk_mpn_zero(pr + pn, xn - pn);
        bulk_mpn_zero(bh, xn);
        bh[H] = 1;
        if (bulk_mpn_cmp(pr, bh, xn) > 0) {
            *neg = 1;
            bulk_mpn_sub_n(p, pr, bh, xn);
        } else {
            bulk_mpn_sub_n(p, bh, pr, xn);
        }
        return prec(p, xn);
    }
    /* Close product: P = (v w) mod B^L by a short product of the low L digits. */
    size_t Ln = (size_t)L;
    bulk_limb_t *va = take(&ar, Ln), *wa = take(&ar, Ln);
    size_t vc = vn < Ln ? vn : Ln, wc = wn < Ln ? wn : Ln;
    bulk_mpn_copy(va, v, vc);
    bulk_mpn_zero(va + vc, Ln - vc);
    bulk_mpn_copy(wa, w, wc);
    bulk_mpn_zero(wa + wc, Ln - wc);
    bulk_mpn_mullo_n(p, va, wa, Ln);
    if (bulk_mpn_is_zero(p, Ln)) return 0;
    if (p[Ln - 1] == 0) {
        *neg = 1; /* v w = B^H + P */
        return prec(p, Ln);
    }
    bulk_mpn_neg(p, p, Ln); /* v w = B^H - (B^L - P) */
    return prec(p, Ln);
}

/* SHINV of figure 10 for k >= 2 (v has k + 1 limbs, v[k] != 0): w gets Watt's value, up to
 * h - k + 3 limbs; returns its normalized length. */
static size_t shinv_raw(bulk_limb_t *w, size_t h, const bulk_limb_t *v, size_t k, arena ar)
{
    size_t vn = k + 1;
    /* I. Special cases, in the figure's order: v > B^h gives 0, 2v > B^h gives 1,
     * v = B^k gives B^(h-k). After them B^k < v <= B^h / 2 with k >= 2, so V exists. */
    if (k > h || (k == h && !is_pow(v, vn, h))) return 0;
    if (k == h || (k + 1 == h && (v[k] > (1ull << 63) ||
                                  (v[k] == (1ull << 63) && !bulk_mpn_is_zero(v, k))))) {
        w[0] = 1;
        return 1;
    }
    if (is_pow(v, vn, k)) {
        bulk_mpn_zero(w, h - k);
        w[h - k] = 1;
        return h - k + 1;
    }
    /* II. w = (B^4 - V) quo V + 1 with V the three leading digits (at most three digits). */
    bulk_limb_t V[3] = { v[k - 2], v[k - 1], v[k] }, N[4] = { 0, 0, 0, 0 }, w0[3];
    bulk_mpn_sub(N, N, 4, V, 3); /* B^4 - V mod B^4, which is B^4 - V since V > 0 */
    bulk_limb_t kt[bulk_mpn_div_knuth_scratch(4, 3)];
    bulk_mpn_div_knuth(w0, NULL, N, 4, V, 3, kt);
    w0[2] = bulk_mpn_add_1(w0, w0, 2, 1);
    size_t wn = prec(w0, 3);
    if (h - k <= 2) {
        /* III (short): shift_{h-k-2} w. */
        size_t drop = 2 - (h - k);
        if (drop >= wn) return 0;
        bulk_mpn_copy(w, w0 + drop, wn - drop);
        return wn - drop;
    }
    /* III. REFINE (refine3) with l = 2 correct digits. Invariant at the top of the loop:
     * w approximates B^(k + l + g) / v. */
    const long g = GUARD, hk = (long)(h - k), kk = (long)k;
    long l = 2;
    size_t cap = h - k + GUARD + 4; /* w never has more digits than the final B^(h+g) / v */
    bulk_limb_t *wa = take(&ar, cap + 2), *wb = take(&ar, cap + 2);
    bulk_mpn_zero(wa, (size_t)g);
    bulk_mpn_copy(wa + g, w0, wn);
    wn += (size_t)g;
    size_t pcap = cap + vn + 4; /* |B^H - v w| and the close product's low digits */
    bulk_limb_t *P = take(&ar, pcap), *T = take(&ar, cap + pcap + 4);
    bulk_limb_t *X = take(&ar, cap + pcap + 4);
    while (hk > l) {
        long m = hk + 1 - l < l ? hk + 1 - l : l;
        long s = kk - 2 * l + 1 - g > 0 ? kk - 2 * l + 1 - g : 0;
        const bulk_limb_t *vs = v + s; /* shift_{-s} v */
        size_t vsn = vn - (size_t)s;
        long hs = kk + l + m - s + g; /* STEP's h; w approximates B^(hs - m) / vs */
        /* STEP: w B^m + floor(w (B^(hs-m) - vs w) B^(2m - hs)), then shift_{-1}. */
        int neg;
        size_t H = (size_t)(hs - m);
        assert(H + 2 <= pcap);
        size_t pn = powdiff(P, &neg, vs, vsn, wa, wn, H, l - g, ar);
        size_t tn = wn + pn, sh = (size_t)(hs - 2 * m); /* hs - 2m >= 2l - 1 + g > 0 */
        mul_any(T, wa, wn, P, pn);
        size_t xn = tn > sh ? tn - sh : 0; /* X = floor(|T| / B^(hs - 2m)) */
        if (xn) bulk_mpn_copy(X, T + sh, xn);
        /* res = w B^m +- X, then drop one digit: res has at most wn + m + 1 digits. */
        size_t rn = wn + (size_t)m + 1;
        bulk_limb_t *res = T; /* T is no longer needed; res fits in it */
        bulk_mpn_zero(res, (size_t)m);
        bulk_mpn_copy(res + m, wa, wn);
        res[rn - 1] = 0;
        xn = prec(X, xn);
        if (xn > rn) xn = rn; /* cannot happen for a converging iteration */
        if (neg) bulk_mpn_sub(res, res, rn, X, xn);
        else bulk_mpn_add(res, res, rn, X, xn);
        size_t nn = prec(res, rn);
        if (nn <= 1) {
            wn = 0;
        } else {
            assert(nn - 1 <= cap + 2);
            bulk_mpn_copy(wb, res + 1, nn - 1);
            wn = nn - 1;
        }
        bulk_limb_t *t = wa;
        wa = wb;
        wb = t;
        l += m - 1;
    }
    /* shift_{-g} w */
    if (wn <= (size_t)g) return 0;
    bulk_mpn_copy(w, wa + g, wn - (size_t)g);
    return wn - (size_t)g;
}

size_t bulk_mpn_shinv_scratch(size_t h, size_t vn)
{
    /* shinv_raw: w twice (cap + 2), P (pcap), T and X (cap + pcap + 4 each), then POWDIFF's
     * at most 2 (vn + h + 8), with cap = h - k + g + 4 <= h + 6 and pcap = cap + vn + 4: at most
     * 7 cap + 5 vn + 2 h + 40 <= 9 h + 5 vn + 82. The k = 0 case needs h + 1, the exported
     * check 3 (vn + h + 4). A margin on top; take() asserts the bound at run time. */
    return 10 * h + 6 * vn + 128;
}

/* shinv for any k: k = 0 by long division, k = 1 by shifting v one digit (figure 12). */
static size_t shinv_any(bulk_limb_t *w, size_t h, const bulk_limb_t *v, size_t vn, arena ar)
{
    size_t k = vn - 1;
    if (k == 0) {
        bulk_limb_t *bh = take(&ar, h + 1);
        bulk_mpn_zero(bh, h);
        bh[h] = 1;
        bulk_mpn_divrem_1(w, bh, h + 1, v[0]);
        return prec(w, h + 1);
    }
    if (k == 1) {
        bulk_limb_t vb[3] = { 0, v[0], v[1] };
        return shinv_raw(w, h + 1, vb, 2, ar);
    }
    return shinv_raw(w, h, v, k, ar);
}

long bulk_mpn_shinv(bulk_limb_t *w, size_t h, const bulk_limb_t *v, size_t vn, bulk_limb_t *tp)
{
    arena ar = { tp, bulk_mpn_shinv_scratch(h, vn) };
    bulk_mpn_zero(w, h + 2);
    size_t wn = shinv_any(w, h, v, vn, ar);
    /* e = B^h - v w, signed, in xn limbs two's complement; then step w until 0 <= e < v. */
    size_t xn = (vn + wn > h ? vn + wn : h) + 2;
    bulk_limb_t *e = take(&ar, xn), *pr = take(&ar, xn), *vp = take(&ar, xn);
    mul_any(pr, v, vn, w, wn);
    bulk_mpn_zero(pr + vn + wn, xn - vn - wn);
    bulk_mpn_zero(e, xn);
    e[h] = 1;
    bulk_mpn_sub_n(e, e, pr, xn);
    bulk_mpn_copy(vp, v, vn);
    bulk_mpn_zero(vp + vn, xn - vn);
    long corr = 0;
    while (e[xn - 1] >> 63) {
        bulk_mpn_add_n(e, e, vp, xn);
        bulk_mpn_sub_1(w, w, h + 2, 1);
        corr--;
    }
    while (bulk_mpn_cmp(e, vp, xn) >= 0) {
        bulk_mpn_sub_n(e, e, vp, xn);
        bulk_mpn_add_1(w, w, h + 2, 1);
        corr++;
    }
    return corr;
}

size_t bulk_mpn_div_newton_scratch(size_t an, size_t dn)
{
    /* w, then either shinv's area or: a w, q, q d, the remainder, d, Algorithm D's area. */
    size_t after = (2 * an + 6) + (an + 7) + 4 * (dn + 2) + bulk_mpn_div_knuth_scratch(an, dn);
    size_t sh = bulk_mpn_shinv_scratch(an + 1, dn + 1);
    return (an + 6) + (sh > after ? sh : after);
}

void bulk_mpn_div_newton(bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a, size_t an,
                         const bulk_limb_t *d, size_t dn, bulk_limb_t *tp)
{
    size_t qn = an - dn + 1;
    if (dn == 1) { /* k = 0: SHINV's single-digit case (see above) */
        bulk_mpn_div_knuth(q, r, a, an, d, dn, tp);
        return;
    }
    arena ar = { tp, bulk_mpn_div_newton_scratch(an, dn) };
    size_t h = prec(a, an); /* a < B^h, so a <= B^h */
    if (h < dn) {           /* a < B^(dn-1) <= d */
        if (q) bulk_mpn_zero(q, qn);
        if (r) {
            bulk_mpn_copy(r, a, h);
            bulk_mpn_zero(r + h, dn - h);
        }
        return;
    }
    /* 1-3 of figure 12: w = shinv_h d (k = 1 shifted inside shinv_any), q = shift_{-h}(a w). */
    size_t wcap = h - (dn - 1) + 4;
    bulk_limb_t *w = take(&ar, wcap);
    size_t wn = shinv_any(w, h, d, dn, ar); /* uses the area after w, then gives it back */
    assert(wn <= wcap);
    /* q = floor(a w / B^h) from the top h - k + 2 digits of a only: the dropped digits a_lo
     * (t = k - 2 of them) add a_lo w / B^h < B^t B^(h-k+1) / B^h = 1/B, so this is the full
     * product's quotient or one less: one more final correction at most, for half the product
     * (the same "only the leading digits matter" reasoning as REFINE's shorter iterates). */
    size_t qrn = wn, qcap = wn + 2, keep = h - (dn - 1) + 2, t = h > keep ? h - keep : 0;
    bulk_limb_t *Q = take(&ar, h - t + wn), *qb = take(&ar, qcap);
    bulk_mpn_zero(qb, qcap);
    if (wn) {
        mul_any(Q, a + t, h - t, w, wn);
        bulk_mpn_copy(qb, Q + (h - t), wn);
        qrn = prec(qb, wn);
    }
    /* 4. The remainder a - q d: the estimate is within [q - 3, q + 1] of the quotient (see the
     * header comment), so |a - q d| < 4 d < B^(dn+1) / 2 and it is determined by its residue
     * modulo B^(dn+1), a short product, read as a two's complement number. */
    size_t xn = dn + 1;
    bulk_limb_t *qp = take(&ar, xn), *qv = take(&ar, xn), *X = take(&ar, xn), *dp = take(&ar, xn);
    size_t qc = qrn < xn ? qrn : xn;
    bulk_mpn_copy(qp, qb, qc);
    bulk_mpn_zero(qp + qc, xn - qc);
    bulk_mpn_copy(dp, d, dn);
    dp[dn] = 0;
    bulk_mpn_mullo_n(qv, qp, dp, xn);
    size_t ac = an < xn ? an : xn;
    bulk_mpn_copy(X, a, ac);
    bulk_mpn_zero(X + ac, xn - ac);
    bulk_mpn_sub_n(X, X, qv, xn);
    int adj = 0, bad = 0;
    while (X[xn - 1] >> 63) {
        bulk_mpn_add_n(X, X, dp, xn);
        bulk_mpn_sub_1(qb, qb, qcap, 1);
        if (--adj < -ADJUST_CAP) {
            bad = 1;
            break;
        }
    }
    while (!bad && bulk_mpn_cmp(X, dp, xn) >= 0) {
        bulk_mpn_sub_n(X, X, dp, xn);
        bulk_mpn_add_1(qb, qb, qcap, 1);
        if (++adj > ADJUST_CAP) bad = 1;
    }
    if (bad || (qcap > qn && !bulk_mpn_is_zero(qb + qn, qcap - qn))) {
        BULK_DIV_STAT_INC(bulk_div_stat_fallbacks);
        bulk_mpn_div_knuth(q, r, a, an, d, dn, ar.p);
        return;
    }
    BULK_DIV_STAT_INC(bulk_div_stat_adjust[adj >= -1 && adj <= 3 ? adj + 1 : 5]);
    if (q) {
        size_t c = qcap < qn ? qcap : qn;
        bulk_mpn_copy(q, qb, c);
        bulk_mpn_zero(q + c, qn - c);
    }
    if (r) bulk_mpn_copy(r, X, dn);
}
