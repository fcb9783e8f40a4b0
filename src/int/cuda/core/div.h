/* Schoolbook division (Knuth D, 32-bit words): the general strided version and the register
 * version of divisors up to 1024 bits. */
#ifndef BULK_INT_CUDA_CORE_DIV_H
#define BULK_INT_CUDA_CORE_DIV_H

#include "int/cuda/core/words.h"

/* ---- schoolbook division (Knuth D, 32-bit words) -------------------------------------------- */

/* q (na words) = floor(u / v), r (nv words) = u mod v, for u of na words and v of nv words.
 * Returns 1 (and q = r = 0) when v = 0. un is scratch of na + 1 words, vn of nv words. The
 * quotient digit estimate is Knuth's (one 64/32 division and at most two corrections). */
BULK_HD int bg_divmod(bg_word *q, bg_word *r, const bg_word *u, int na, const bg_word *v, int nv,
                      bg_word *un, bg_word *vn, size_t s)
{
    int n = bg_len(v, s, nv), m = bg_len(u, s, na);
    if (q) bg_zero(q, s, na);
    if (n == 0) {
        if (r) bg_zero(r, s, nv);
        return 1;
    }
    if (m < n) {
        if (r) {
            bg_copy(r, s, u, s, m);
            bg_zero(r + (size_t)m * s, s, nv - m);
        }
        return 0;
    }
    if (n == 1) {
        uint64_t d = BG_AT(v, s, 0), k = 0;
        for (int j = m - 1; j >= 0; j--) {
            uint64_t t = (k << 32) | BG_AT(u, s, j);
            if (q) BG_AT(q, s, j) = (bg_word)(t / d);
            k = t % d;
        }
        if (r) {
            bg_zero(r, s, nv);
            BG_AT(r, s, 0) = (bg_word)k;
        }
        return 0;
    }
    int sh = 0;
    while (((BG_AT(v, s, n - 1) << sh) & 0x80000000u) == 0) sh++;
    for (int i = n - 1; i > 0; i--)
        BG_AT(vn, s, i) = (BG_AT(v, s, i) << sh) | (sh ? BG_AT(v, s, i - 1) >> (32 - sh) : 0);
    BG_AT(vn, s, 0) = BG_AT(v, s, 0) << sh;
    BG_AT(un, s, m) = sh ? BG_AT(u, s, m - 1) >> (32 - sh) : 0;
    for (int i = m - 1; i > 0; i--)
        BG_AT(un, s, i) = (BG_AT(u, s, i) << sh) | (sh ? BG_AT(u, s, i - 1) >> (32 - sh) : 0);
    BG_AT(un, s, 0) = BG_AT(u, s, 0) << sh;
    uint64_t vtop = BG_AT(vn, s, n - 1), vnext = BG_AT(vn, s, n - 2);
    for (int j = m - n; j >= 0; j--) {
        uint64_t num = ((uint64_t)BG_AT(un, s, j + n) << 32) | BG_AT(un, s, j + n - 1);
        uint64_t qhat = num / vtop, rhat = num - qhat * vtop;
        while (qhat >> 32 || qhat * vnext > ((rhat << 32) | BG_AT(un, s, j + n - 2))) {
            qhat--;
            rhat += vtop;
            if (rhat >> 32) break;
        }
        int64_t k = 0, t;
        for (int i = 0; i < n; i++) {
            uint64_t p = qhat * BG_AT(vn, s, i);
            t = (int64_t)BG_AT(un, s, i + j) - k - (int64_t)(p & 0xffffffffu);
            BG_AT(un, s, i + j) = (bg_word)t;
            k = (int64_t)(p >> 32) - (t >> 32);
        }
        t = (int64_t)BG_AT(un, s, j + n) - k;
        BG_AT(un, s, j + n) = (bg_word)t;
        if (t < 0) { /* qhat was one too large (rare): add v back */
            qhat--;
            uint64_t c = 0;
            for (int i = 0; i < n; i++) {
                uint64_t x = (uint64_t)BG_AT(un, s, i + j) + BG_AT(vn, s, i) + c;
                BG_AT(un, s, i + j) = (bg_word)x;
                c = x >> 32;
            }
            BG_AT(un, s, j + n) += (bg_word)c;
        }
        if (q) BG_AT(q, s, j) = (bg_word)qhat;
    }
    if (r) {
        for (int i = 0; i < n; i++)
            BG_AT(r, s, i) = (BG_AT(un, s, i) >> sh) | (sh ? BG_AT(un, s, i + 1) << (32 - sh) : 0);
        bg_zero(r + (size_t)n * s, s, nv - n);
    }
    return 0;
}

/* ---- schoolbook division with the numbers in registers (divisors up to 1024 bits) ----------- */

#define BG_DIV_MAXW 32

BULK_HD int bg_clz32(bg_word x)
{
#if BG_DEVICE
    return __clz((int)x);
#else
    return x ? __builtin_clz(x) : 32;
#endif
}

/* The high word of (hi B + lo) << sh, 0 <= sh < 32 (one funnel shift on the device). */
BULK_HD bg_word bg_shl2(bg_word hi, bg_word lo, int sh)
{
#if BG_DEVICE
    return __funnelshift_l(lo, hi, (unsigned)sh);
#else
    return sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
#endif
}

/* The low word of (hi B + lo) >> sh, 0 <= sh < 32 (one funnel shift on the device). */
BULK_HD bg_word bg_shr2(bg_word hi, bg_word lo, int sh)
{
#if BG_DEVICE
    return __funnelshift_r(lo, hi, (unsigned)sh);
#else
    return sh ? (lo >> sh) | (hi << (32 - sh)) : lo;
#endif
}

/* The quotient's zero words above NW and the remainder un >> (32 dw + sh) into r (wa = NW - dw
 * words). */
BULK_HD void bg_divregs_store(bg_word *q, bg_word *r, const bg_word *un, int nu, size_t s, int NW,
                              int dw, int sh)
{
    if (q)
        for (int j = NW + 1; j < nu; j++) BG_AT(q, s, j) = 0;
    if (r) {
        BG_UNROLL
        for (int k = 0; k < NW; k++) {
            int dst = k - dw;
            bg_word val = bg_shr2(un[k + 1], un[k], sh);
            if (dst >= 0) BG_AT(r, s, dst) = val;
        }
    }
}

/* Moller and Granlund's reciprocal of a normalised word d (top bit set):
 * floor((B^2 - 1) / d) - B, B = 2^32. One 64-bit division per divisor, not per quotient word. */
BULK_HD bg_word bg_recip32(bg_word d)
{
    return (bg_word)(UINT64_MAX / d - ((uint64_t)1 << 32));
}

/* ---- schoolbook division by even/odd rows --------------------------------------------------- */

/* Moller and Granlund's reciprocal of a normalised two-word divisor d1 B + d0 (d1's top bit
 * set): floor((B^3 - 1) / (d1 B + d0)) - B, B = 2^32 (GMP's invert_pi1, 32-bit words): the
 * one-word reciprocal of d1 corrected for d0 - no division beyond bg_recip32's. */
BULK_HD bg_word bg_recip3by2(bg_word d1, bg_word d0)
{
    bg_word v = bg_recip32(d1), p = d1 * v + d0;
    if (p < d0) {
        v--;
        const bg_word mask = (bg_word)0 - (bg_word)(p >= d1);
        p -= d1;
        v += mask;
        p -= mask & d1;
    }
    const uint64_t t = (uint64_t)d0 * v;
    const bg_word t1 = (bg_word)(t >> 32), t0 = (bg_word)t;
    p += t1;
    if (p < t1) {
        v--;
        if (p >= d1 && (p > d1 || t0 >= d0)) v--;
    }
    return v;
}

/* floor((n2 B^2 + n1 B + n0) / (d1 B + d0)) for (n2, n1) < (d1, d0), d1's top bit set, dinv =
 * bg_recip3by2(d1, d0): Moller-Granlund's 3-by-2 division (GMP's udiv_qr_3by2), the quotient
 * only. Two 32x32 -> 64 products, one plain product and 64-bit adds; the exact 3-by-2 quotient,
 * so in Knuth's loop it is the estimate after both qhat corrections, with no loop. */
BULK_HD bg_word bg_div3by2(bg_word n2, bg_word n1, bg_word n0, bg_word d1, bg_word d0,
                           bg_word dinv)
{
    const uint64_t qq = (uint64_t)n2 * dinv + (((uint64_t)n2 << 32) | n1);
    const uint64_t d = ((uint64_t)d1 << 32) | d0;
    bg_word q = (bg_word)(qq >> 32);
    const bg_word q0 = (bg_word)qq, r1 = n1 - d1 * q;
    uint64_t r = ((((uint64_t)r1 << 32) | n0) - d) - (uint64_t)d0 * q; /* mod 2^64 */
    q++;
    const bg_word mask = (bg_word)0 - (bg_word)((bg_word)(r >> 32) >= q0);
    q += mask;
    r += d & (((uint64_t)mask << 32) | mask);
    if (r >= d) q++; /* unlikely */
    return q;
}

/* The remainder of bg_divmod_regs_eor lives in 64-bit pairs of words (word k in x2[k / 2], the
 * low half when k is even): the fused multiply-add IMAD.WIDE.U32.X reads and writes a 64-bit
 * register pair, and with 32-bit words ptxas (nvcc 13, sm_90) placed the words written by the
 * other chain's 32-bit adds in unaligned registers and spent two moves per fused product
 * building pairs for the next row. As halves of one 64-bit value the two words of a pair stay
 * in one aligned register pair (device: mov.b64 packs and unpacks, which cost nothing). */
BULK_HD uint64_t bg_pack(bg_word lo, bg_word hi)
{
#if BG_DEVICE
    uint64_t d;
    asm("mov.b64 %0, {%1, %2};" : "=l"(d) : "r"(lo), "r"(hi));
    return d;
#else
    return ((uint64_t)hi << 32) | lo;
#endif
}

BULK_HD bg_word bg_pget(const uint64_t *x2, int k)
{
#if BG_DEVICE
    bg_word lo, hi;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(x2[k >> 1]));
    return (k & 1) ? hi : lo;
#else
    return (bg_word)(x2[k >> 1] >> (32 * (k & 1)));
#endif
}

BULK_HD void bg_pset(uint64_t *x2, int k, bg_word w)
{
    const bg_word lo = bg_pget(x2, k & ~1), hi = bg_pget(x2, k | 1);
    x2[k >> 1] = (k & 1) ? bg_pack(lo, w) : bg_pack(w, hi);
}

/* x[j .. j + NW] += qw vn modulo B^(NW + 1) (the carry out of word j + NW dropped), x in pairs:
 * - the products qw vn_i with j + i even start on the low word of a pair: one fused chain
 *   (madc.lo.cc and madc.hi.cc on the pair's halves: one IMAD.WIDE.U32.X each);
 * - the others (j + i odd) straddle two pairs: independent 32x32 -> 64 products (mul.wide)
 *   added by one add chain.
 * NW even (4 .. 32). About 2 instructions a word. */
BULK_HD void bg_divregs_row_eo(uint64_t *x2, const bg_word *vn, bg_word qw, int j, int NW)
{
    const int p = j & 1;
    {
        bg_cc f = {0};
        BG_UNROLL
        for (int i = p; i < NW; i += 2) {
            const int k = j + i; /* even */
            bg_word lo = bg_pget(x2, k), hi = bg_pget(x2, k + 1);
            lo = i == p ? bg_mad_lo_cc(qw, vn[i], lo, &f) : bg_madc_lo_cc(qw, vn[i], lo, &f);
            hi = k + 1 == j + NW ? bg_madc_hi(qw, vn[i], hi, &f) : bg_madc_hi_cc(qw, vn[i], hi, &f);
            x2[k >> 1] = bg_pack(lo, hi);
        }
        if (p == 0) bg_pset(x2, j + NW, bg_addc(bg_pget(x2, j + NW), 0, &f));
    }
    {
        bg_cc f = {0};
        const int par = 1 - p;
        BG_UNROLL
        for (int i = par; i < NW; i += 2) {
            const uint64_t t = bg_mad_wide(qw, vn[i], 0);
            const int k = j + i; /* odd */
            const bg_word w0 = i == par ? bg_add_cc(bg_pget(x2, k), (bg_word)t, &f)
                                        : bg_addc_cc(bg_pget(x2, k), (bg_word)t, &f);
            const bg_word w1 = k + 1 == j + NW ? bg_addc(bg_pget(x2, k + 1), (bg_word)(t >> 32), &f)
                                               : bg_addc_cc(bg_pget(x2, k + 1), (bg_word)(t >> 32), &f);
            bg_pset(x2, k, w0);
            bg_pset(x2, k + 1, w1);
        }
        if (par == 0) bg_pset(x2, j + NW, bg_addc(bg_pget(x2, j + NW), 0, &f));
    }
}

/* x[j .. j + NW] -= vn modulo B^(NW + 1), x in pairs (the complement form's add-back): one
 * subtract chain (one IADD3.X a word; the 64-bit C version took three). */
BULK_HD void bg_divregs_subback(uint64_t *x2, const bg_word *vn, int j, int NW)
{
    bg_cc f = {0};
    BG_UNROLL
    for (int i = 0; i < NW; i++) {
        const bg_word w = i == 0 ? bg_sub_cc(bg_pget(x2, j), vn[0], &f)
                                 : bg_subc_cc(bg_pget(x2, i + j), vn[i], &f);
        bg_pset(x2, i + j, w);
    }
    bg_pset(x2, j + NW, bg_subc(bg_pget(x2, j + NW), 0, &f));
}

/* Word k of u shifted left by 32 dw + sh bits (u normalised as bg_divmod_regs_eor does). */
BULK_HD bg_word bg_divregs_uword(const bg_word *u, int nu, size_t s, int k, int dw, int sh)
{
    const int src = k - dw;
    const bg_word hi = (src >= 0 && src < nu) ? BG_AT(u, s, src) : 0;
    const bg_word lo = (src >= 1 && src - 1 < nu) ? BG_AT(u, s, src - 1) : 0;
    return bg_shl2(hi, lo, sh);
}

/* One quotient step of bg_divmod_regs_eor on the window y[b .. b + NW] (b = 0 or 1, a
 * compile-time constant), quotient word j: qhat, the row, the rare add-back, q[j]. */
BULK_HD void bg_divregs_step_eo(uint64_t *y2, const bg_word *vn, bg_word d1, bg_word d0,
                                bg_word dinv, int b, int NW, bg_word *q, size_t s, int nu, int j)
{
    /* Knuth's invariant: the window's top two words are at most (d1, d0) */
    const bg_word n2 = ~bg_pget(y2, b + NW), n1 = ~bg_pget(y2, b + NW - 1);
    const bg_word n0 = ~bg_pget(y2, b + NW - 2);
    bg_word qw = bg_div3by2(n2, n1, n0, d1, d0, dinv);
    if (n2 == d1 && n1 == d0) qw = 0xffffffffu;
    bg_divregs_row_eo(y2, vn, qw, b, NW);
    if (bg_pget(y2, b + NW) != 0xffffffffu) { /* rare: qhat was one too large */
        qw--;
        bg_divregs_subback(y2, vn, b, NW);
    }
    if (q && j < nu) BG_AT(q, s, j) = qw;
}

/* q (nu words) = floor(u / v), r (wa words) = u mod v, for u of nu <= 2 wa words and v of wa
 * words whose top word v[wa - 1] is nonzero; returns -1 (nothing written) when it is zero, for
 * the caller to take the general path (bg_divmod). NW >= wa, NW >= 4, is the register capacity:
 * v is shifted left by 32 (NW - wa) + clz(v[wa-1]) bits to fill exactly NW words with its top
 * bit set, u by the same (then it fits 2 NW + 1 words), and Knuth's loop runs over compile-time
 * word positions (NW + 1 quotient words of NW steps each), so under nvcc with a constant NW
 * both numbers stay in registers. The shifts are applied while loading and storing, where a
 * run-time offset indexes memory, not registers. q may alias u and r may alias v (the staged
 * kernel): q[j] is written after step j and no later load reads a word at or above j.
 * The multiply-subtract u -= qhat v is one fused multiply-add per two word products:
 * - the remainder is kept complemented, x = ~u (so u - qhat v = ~(x + qhat v) within the window
 *   j .. j + NW, modulo B^(NW + 1)): the row becomes an ADDITION of qhat v, which madc.lo.cc /
 *   madc.hi.cc pairs do with one IMAD.WIDE.U32.X per word product, as in the even/odd rows of
 *   the multiplication (bg_eo_chain), for the half of the products that start on an even word;
 *   the other half are added by one add chain (bg_divregs_row_eo): about 2 instructions a
 *   word, against about 6 for carry-flag rows (IMAD, IMAD.HI and three or four IADD3);
 * - qhat is the exact 3-by-2 quotient of the window's top three words by vn's top two
 *   (bg_div3by2, one reciprocal per instance: no correction loop), B - 1 when the top two
 *   words equal vn's; it is then the true quotient word or one more, which the window's top
 *   word after the row shows (x's top word not all ones: negative) and one subtraction of v
 *   from x (an add-back to u) repairs - rare on random data.
 * The quotient loop is ROLLED, U steps an iteration (the kernel: U = 8): the window stays at
 * fixed registers: y holds words j0 .. j0 + NW + U - 1 of the complemented remainder (j0
 * even), an iteration runs the steps j0 + U - 1 .. j0 (window y[j - j0 ..]) and then shifts y
 * up by U words (U / 2 pairs; NW / 2 64-bit moves), the U words of u below entering at the
 * bottom (loaded one iteration ahead). Why: fully unrolled, the kernel is ~190 KB of SASS (33
 * steps of ~215 instructions, the add-back inline), and ncu found 37 % of its stall cycles
 * waiting for instruction fetch; this loop body is U steps (~2.4 KB each). The cost: the
 * moves, ~NW / U per step. U even, U <= NW (NW >= 4: U is lowered to NW). Measurements:
 * docs/perf/int-gpu.md "Division". */
BULK_HD int bg_divmod_regs_eor(bg_word *q, bg_word *r, const bg_word *u, int nu, const bg_word *v,
                               int wa, size_t s, int NW, int U)
{
    bg_word vtop = BG_AT(v, s, wa - 1);
    if (vtop == 0) return -1;
    if (U > NW) U = NW;
    const int dw = NW - wa, sh = bg_clz32(vtop), P = U / 2; /* P pairs a shift */
    bg_word vn[BG_DIV_MAXW], un[BG_DIV_MAXW + 1];
    uint64_t y2[BG_DIV_MAXW / 2 + 4], nx[4];
    BG_UNROLL
    for (int k = 0; k < NW; k++) { /* v normalised */
        const int src = k - dw;
        vn[k] = bg_shl2(src >= 0 ? BG_AT(v, s, src) : 0, src >= 1 ? BG_AT(v, s, src - 1) : 0, sh);
    }
    const bg_word d1 = vn[NW - 1], d0 = vn[NW - 2], dinv = bg_recip3by2(d1, d0);
    /* y = words NW - U + 2 .. 2 NW + 1 (word 2 NW + 1 is above u: complement of 0); the first
     * step (j = NW) at local base U - 2 */
    const int jb = NW - U + 2;
    BG_UNROLL
    for (int m = 0; m < NW / 2 + P; m++)
        y2[m] = bg_pack(~bg_divregs_uword(u, nu, s, jb + 2 * m, dw, sh),
                        jb + 2 * m + 1 <= 2 * NW ? ~bg_divregs_uword(u, nu, s, jb + 2 * m + 1, dw, sh)
                                                 : 0xffffffffu);
    bg_divregs_step_eo(y2, vn, d1, d0, dinv, U - 2, NW, q, s, nu, NW);
    /* one pair down: y = words NW - U .. 2 NW - 1 (the dropped pair is above the remainder) */
    BG_UNROLL
    for (int m = NW / 2 + P - 1; m > 0; m--) y2[m] = y2[m - 1];
    y2[0] = bg_pack(~bg_divregs_uword(u, nu, s, NW - U, dw, sh),
                    ~bg_divregs_uword(u, nu, s, NW - U + 1, dw, sh));
    BG_UNROLL
    for (int m = 0; m < P; m++) /* the words below, for the first shift */
        nx[m] = NW - 2 * U >= 0 ? bg_pack(~bg_divregs_uword(u, nu, s, NW - 2 * U + 2 * m, dw, sh),
                                           ~bg_divregs_uword(u, nu, s, NW - 2 * U + 2 * m + 1, dw, sh))
                                 : 0;
    BG_NOUNROLL
    for (int j0 = NW - U;; j0 -= U) {
        BG_UNROLL
        for (int b = U - 1; b >= 0; b--) bg_divregs_step_eo(y2, vn, d1, d0, dinv, b, NW, q, s, nu, j0 + b);
        if (j0 == 0) break;
        BG_UNROLL
        for (int m = NW / 2 + P - 1; m >= P; m--) y2[m] = y2[m - P];
        BG_UNROLL
        for (int m = 0; m < P; m++) y2[m] = nx[m];
        if (j0 >= 2 * U) /* the U words below j0 - U, for the next shift (u words < j0 - U) */
            BG_UNROLL
            for (int m = 0; m < P; m++)
                nx[m] = bg_pack(~bg_divregs_uword(u, nu, s, j0 - 2 * U + 2 * m, dw, sh),
                                ~bg_divregs_uword(u, nu, s, j0 - 2 * U + 2 * m + 1, dw, sh));
    }
    BG_UNROLL
    for (int k = 0; k <= NW; k++) un[k] = ~bg_pget(y2, k);
    bg_divregs_store(q, r, un, nu, s, NW, dw, sh);
    return 0;
}

#endif
