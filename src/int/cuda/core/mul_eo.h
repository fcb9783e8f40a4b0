/* Even/odd rows: products, squares and low halves with one fused multiply-add per word product
 * (the per-thread multiplication, up to 1280 bits). */
#ifndef BULK_INT_CUDA_CORE_MUL_EO_H
#define BULK_INT_CUDA_CORE_MUL_EO_H

#include "int/cuda/core/carry.h"

/* ---- even/odd rows: one fused multiply-add per word product ---------------------------------
 *
 * Emmart and Weems' split of a row a * b_i into its even and odd words of a: the products
 * a_j b_i with j of one parity are two words each at j and do not overlap, so adding them into
 * an accumulator is a single carry chain that alternates madc.lo.cc and madc.hi.cc on the same
 * operands - which ptxas (nvcc 13, sm_90) fuses into ONE IMAD.WIDE.U32.X per word product
 * (carry in and out through a predicate), against IMAD + IMAD.HI + about two IADD3.X for
 * carry-flag rows (mad.lo / mad.hi chains). Two accumulators keep the 64-bit register pairs aligned (no moves): e holds
 * the chains whose products start at even columns (j of the parity of i), o[k] column k + 1
 * (the others); a row is one chain into each. */

/* The widest operand of the even/odd rows, in words (1280 bits: the kernels' 20-limb capacity). */
#define BG_EO_MAXW 40

/* x[o ..] += sum over j = par, par + 2, .. < nw of a_j bi D^(j - par) (D = 2^32) as one carry
 * chain; its carry goes into the word above the last one written when that word is below xn.
 * The caller guarantees that the sum after the chain, carry included, is below D^(top + 2)
 * (top the last word written), so neither the last high multiply-add (when top + 1 = xn) nor
 * the carry word overflows. */
BULK_HD void bg_eo_chain(bg_word *x, int xn, int o, const bg_word *a, int par, bg_word bi, int nw)
{
    bg_cc f = {0};
    if (par >= nw || o >= xn) return;
    int last = par + 2 * ((nw - 1 - par) / 2); /* the last j of this parity */
    if (o + last - par >= xn) last = par + 2 * ((xn - 1 - o) / 2); /* a low half: x ends first */
    const int hi_last = o + last - par + 1 < xn; /* the last product's high word is inside x */
    const int top = o + last - par + hi_last;     /* the last word written */
    BG_UNROLL
    for (int q = 0; q < BG_EO_MAXW; q += 2) { /* a fixed trip count: nvcc unrolls it always */
        const int j = par + q, w = o + q;
        if (j > last) break;
        const int hi = j < last || hi_last; /* this product's high word is written */
        if (q == 0 && hi) x[w] = bg_mad_lo_cc(a[j], bi, x[w], &f);
        else if (q == 0) x[w] += a[j] * bi; /* a single low word: no chain */
        else if (hi) x[w] = bg_madc_lo_cc(a[j], bi, x[w], &f);
        else x[w] = bg_madc_lo(a[j], bi, x[w], &f); /* the top word: its carry is dropped */
        if (!hi) break;
        if (j < last || top + 1 < xn) x[w + 1] = bg_madc_hi_cc(a[j], bi, x[w + 1], &f);
        else x[w + 1] = bg_madc_hi(a[j], bi, x[w + 1], &f);
    }
    if (hi_last && top + 1 < xn) x[top + 1] = bg_addc(x[top + 1], 0, &f);
}

/* Word k of e + o D: e[k] + o[k - 1] + *c (o[-1] = 0), *c the carry (0 or 1) of that
 * addition below word k, kept in a register (the flag does not survive the next chain). Four
 * flag instructions, no 64-bit C addition: with those between the rows' chains ptxas (nvcc 13)
 * reordered the multiply-adds by columns and spilled carry predicates to registers (about 2.6
 * LOP3 per word product). */
BULK_HD bg_word bg_eo_word(const bg_word *e, const bg_word *o, int k, bg_word *c)
{
    bg_cc f = {0};
    if (k == 0) return e[0];
    const bg_word w = bg_add_cc(e[k], *c, &f);
    const bg_word t = bg_addc(0, 0, &f);
    const bg_word v = bg_add_cc(w, o[k - 1], &f);
    *c = bg_addc(t, 0, &f);
    return v;
}

/* How many rows the addition e + o D runs behind the rows in bg_mul_rows_eo. 2: with 0, 4 or 8
 * ptxas (nvcc 13, sm_90, 1024 bits) reordered the chains by columns and spilled carry
 * predicates (1.6 .. 3.5x the instructions), with 2 it kept rows (1832 instructions, 112
 * registers for the whole staged 1024-bit kernel body). */
#define BG_EO_LAG 2

/* r[0 .. n) = a[0 .. na) * b[0 .. nb) mod D^n (1 <= na, nb <= BG_EO_MAXW; nb <= n <= na + nb;
 * n = na + nb: the full product) by even/odd rows: row i adds the products a_j b_i with i + j even into
 * e (from column i + (i & 1)) and the others into o (word k = column k + 1, from word
 * i - (i & 1)); r = e + o D. na nb fused multiply-adds on sm_90 (fewer when n truncates),
 * 2 nb carry words, an n-word addition. Bounds for bg_eo_chain (full product): after row i, e
 * and o D are each at most a (b mod D^(i+1)) < D^(na + i + 1), and every chain's top + 2 is at
 * least na + i + 1 for e (na + i for o); truncated at n, bg_eo_chain drops what lies above and
 * nothing needs to fit. Column k is final
 * after row k (no later row reaches it), so word k of r is written BG_EO_LAG rows later - each
 * word of r exactly once, in order, and b[i] read once, at row i: the kernel passes
 * shared-memory rows for r and b, and the finished words leave the registers as they complete
 * (e and o hold about na + 4 live words each). */
BULK_HD void bg_mul_rect_eo(bg_word *r, const bg_word *a, int na, const bg_word *b, int nb,
                            int n)
{
    bg_word e[2 * BG_EO_MAXW], o[2 * BG_EO_MAXW - 1], c = 0;
    BG_UNROLL
    for (int j = 0; j < n; j++) e[j] = 0;
    BG_UNROLL
    for (int j = 0; j < n - 1; j++) o[j] = 0;
    BG_UNROLL
    for (int i = 0; i < nb; i++) {
        const int p = i & 1;
        const bg_word bi = b[i];
        bg_eo_chain(e, n, i + p, a, p, bi, na);
        bg_eo_chain(o, n - 1, i - p, a, 1 - p, bi, na);
        if (i >= BG_EO_LAG) r[i - BG_EO_LAG] = bg_eo_word(e, o, i - BG_EO_LAG, &c);
    }
    BG_UNROLL
    for (int k = nb - BG_EO_LAG > 0 ? nb - BG_EO_LAG : 0; k < n; k++)
        r[k] = bg_eo_word(e, o, k, &c);
}

/* r[0 .. 2nw) = a[0 .. nw) * b[0 .. nw) (1 <= nw <= BG_EO_MAXW): bg_mul_rect_eo. */
BULK_HD void bg_mul_rows_eo(bg_word *r, const bg_word *a, const bg_word *b, int nw)
{
    bg_mul_rect_eo(r, a, nw, b, nw, 2 * nw);
}

/* r[k] = word k of 2 s + d + *c2: sk = s[k], *sprev = s[k - 1] (the doubled sum's bit shifted
 * in; updated to sk), d the diagonal sum a_i^2 D^(2i), *c2 the carry (0 or 1) of the addition
 * below word k. Flag instructions as in bg_eo_word (no 64-bit C addition). */
BULK_HD void bg_eo_sqr_emit(bg_word *r, bg_word sk, bg_word *sprev, const bg_word *a, int k,
                            bg_word *c2)
{
    bg_cc f = {0};
    const bg_word w = (sk << 1) | (*sprev >> 31);
    const uint64_t sq = (uint64_t)a[k >> 1] * a[k >> 1];
    const bg_word d = (k & 1) ? (bg_word)(sq >> 32) : (bg_word)sq;
    *sprev = sk;
    const bg_word t = bg_add_cc(w, d, &f);
    const bg_word x = bg_addc(0, 0, &f);
    r[k] = bg_add_cc(t, *c2, &f);
    *c2 = bg_addc(x, 0, &f);
}

/* r[0 .. 2nw) = a[0 .. nw)^2 (1 <= nw <= BG_EO_MAXW) by even/odd rows over the products a_i
 * a_j, i < j, once: row i adds a_i (a_(i+1) .. a_(nw-1)) - the words j - i - 1 odd into e
 * (from column 2i + 2), the even ones into o (word k = column k + 1, from word 2i) - so
 * s = e + o D is the sum of the off-diagonal products, then r = 2 s + sum a_i^2 D^(2i). nw (nw - 1) / 2 fused
 * multiply-adds and nw wide squares on sm_90. Bounds for bg_eo_chain: after row i, e and o D
 * are each at most sum over i' <= i of a_i' (a >> 32 (i' + 1)) D^(2i' + 1) < D^(nw + i + 1),
 * and every chain's top + 2 is at least nw + i + 1 for e (nw + i for o). Columns up to 2i + 2
 * are final after row i; words of r are written in order, 4 columns behind. */
BULK_HD void bg_sqr_rows_eo(bg_word *r, const bg_word *a, int nw)
{
    bg_word e[2 * BG_EO_MAXW], o[2 * BG_EO_MAXW - 1], c1 = 0, c2 = 0, sprev = 0;
    BG_UNROLL
    for (int j = 0; j < 2 * nw; j++) e[j] = 0;
    BG_UNROLL
    for (int j = 0; j < 2 * nw - 1; j++) o[j] = 0;
    BG_UNROLL
    for (int i = 0; i < nw - 1; i++) {
        bg_eo_chain(e, 2 * nw, 2 * i + 2, a + i + 1, 1, a[i], nw - i - 1);
        bg_eo_chain(o, 2 * nw - 1, 2 * i, a + i + 1, 0, a[i], nw - i - 1);
        /* words 2i - 3 and 2i - 2 (fixed trip counts: with bounds that depend on i, or a
         * counter carried across the rows, nvcc left loops and put e and o on the stack) */
        BG_UNROLL
        for (int d = 0; d < 2; d++) {
            const int k = 2 * i - 3 + d;
            if (k >= 0) bg_eo_sqr_emit(r, bg_eo_word(e, o, k, &c1), &sprev, a, k, &c2);
        }
    }
    BG_UNROLL
    for (int d = 0; d < 5; d++) { /* words max(0, 2nw - 5) .. 2nw - 1 */
        const int k = 2 * nw - 5 + d;
        if (k >= 0) bg_eo_sqr_emit(r, bg_eo_word(e, o, k, &c1), &sprev, a, k, &c2);
    }
}

/* r[0 .. nw) = a * b mod D^nw (1 <= nw <= BG_EO_MAXW): bg_mul_rect_eo truncated at word nw.
 * nw (nw + 1) / 2 products. */
BULK_HD void bg_mullo_rows_eo(bg_word *r, const bg_word *a, const bg_word *b, int nw)
{
    bg_mul_rect_eo(r, a, nw, b, nw, nw);
}

#endif
