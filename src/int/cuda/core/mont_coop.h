/* Cooperative Montgomery arithmetic: a group of TPI lanes (threads) per instance, each lane
 * owning L consecutive 32-bit words of every number (lane l: words l L .. l L + L - 1), for
 * powmod at widths where one thread per instance runs out of registers (CGBN's threads-per-
 * instance idea).
 *
 * The functions here are the per-lane steps between two exchanges of the group (a shuffle or a
 * ballot); the kernel (num/powmod_coop.cu) runs them with warp shuffles, and the CPU test
 * (tests/int_gpu/test_int_gpu_mont_core.c) runs the same steps for TPI simulated lanes with the
 * exchanges done by hand, against GMP. Exactness is required, constant time is not.
 *
 * The product (CIOS, one row per word b_i of b, i = 0 .. N - 1 with N = TPI L): each lane
 * keeps its segment (L + 2 words from word 0 of the lane) as the sum of two accumulators e and
 * o, so that every word product is one fused multiply-add on an aligned register pair:
 *   bi = b word i, broadcast from lane i / L;
 *   every lane adds a_l bi (bg_mc_row_mul): o_0 is folded into e_0 (its carry enters o at
 *   word 1), the products of the even words of a go into e (pairs of words 0-1, 2-3, ..),
 *   those of the odd words into o (pairs 1-2, 3-4, ..);
 *   q  = e_0 m' mod 2^32 (bg_mc_q), computed by every lane, lane 0's value broadcast;
 *   every lane adds q m_l (bg_mc_row_q) the same way: four carry chains in all, one
 *   IMAD.WIDE each word product on sm_90 (mul_eo.h);
 *   the number is divided by 2^32 (bg_mc_shift): each lane hands e_0 to the lane below, which
 *   adds it at its word L - 1; lane 0's e_0 is zero by the choice of q, so it is what the top
 *   lane receives (a rotation of the group's words: one shuffle, no select). Dividing by 2^32 moves
 *   the pairs by one word: the old o becomes the new e and the old e the new o, so the pairs
 *   stay where they are and no register moves between rows (with one accumulator, the odd
 *   chains would read the even chains' pairs across their halves: two moves per odd pair).
 * A lane's segment overlaps the next lane's: its words L, L + 1 are the carries into the next
 * lane, left there (redundant form) instead of being propagated every row. Bounds, D = 2^32,
 * X = D^L: before a row e < 3 X and o < 2 X (e[L + 1] = o[L + 1] = 0). The row adds less than
 * D + 2 X to e (the fold and the even products), so e < 6 X and e[L] <= 5 takes the even
 * chains' carries; and less than D + 2 X D to o, so o < 3 X D and o[L + 1] <= 2. After the
 * division the new e (the old o / D) is below 3 X, the new o (the old e / D plus the word from
 * above, below X) below 6 X / D + X < 2 X: by induction from e = o = 0. After the N rows,
 * e + o < 5 X (bg_mc_merge: word L <= 4, word L + 1 = 0) is the segment, its carries resolved
 * once (bg_mc_norm1: each lane adds the word L of the lane below; the single-bit carries left
 * are resolved by a carry lookahead over the group's ballots, bg_mc_lookahead), and the result
 * (< 2m for a < R, b < m) is reduced by one subtraction of m with the same lookahead on its
 * borrows (bg_mc_norm2, bg_mc_norm3). R = 2^(32 N), N the padded width: any R > m gives the
 * same powmod. Shuffles per row: 3 (bi, q, the shifted word); per product 3 N + 2 plus 4
 * ballots. */
#ifndef BULK_INT_CUDA_CORE_MONT_COOP_H
#define BULK_INT_CUDA_CORE_MONT_COOP_H

#include "int/cuda/core/mont.h"

/* Capacities: lanes per instance and words per lane the kernels are compiled for (lanes 2, 4,
 * .., 32; words 2, 4, 6, 8, 16). */
#define BG_MC_MAX_L 16
#define BG_MC_MAX_TPI 32
/* The widest instance (32-bit words) of the cooperative powmod: 8192 bits. */
#define BG_MC_MAX_WORDS 256
/* The most words per lane of the default shape (bg_mc_shape): 16 from BG_MC_WIDE_WORDS words
 * on (4 lanes x 16 at 2048 bits, 8 x 16 at 4096: a quarter fewer instructions per product at
 * half the occupancy, 136 registers, twice the shared memory per block), 8 below. Measured on
 * one H200 (bench_int_gpu_powmod --sweep, 512-bit exponents, docs/perf/int-gpu-groups.md): 1024 bits
 * 4 x 8 4.07e6/s vs 2 x 16 3.92e6; 2048 bits 8 x 8 1.14e6 vs 4 x 16 1.24e6; 4096 bits 16 x 8
 * 2.95e5 vs 8 x 16 3.32e5 (full-width exponents alike). Widths between 1024 and 2048 bits
 * were not measured and keep 8. */
#define BG_MC_WIDE_WORDS 64
BULK_HD int bg_mc_def_l(int nw) { return nw >= BG_MC_WIDE_WORDS ? 16 : 8; }
/* Up to this many words (512 bits) the one-thread register kernel (bg_powmod_regs) is the
 * default; wider, the cooperative one. To be measured (bench_int_gpu_powmod --sweep). */
#define BG_MC_MIN_WORDS 17

/* q of a row: e0 m' mod 2^32, e0 the word 0 after the row's a bi half (bg_mc_row_mul; lane 0's
 * is the one that counts). Reading it there, instead of forming e0 + o0 + a0 bi beside the
 * chains, saves a multiply-add and an add a row on the multiply-add pipe, which the wide
 * multiply-adds keep busy. */
BULK_HD bg_word bg_mc_q(bg_word e0, bg_word minv) { return e0 * minv; }

/* t[par ..] += x y restricted to the words x_j of parity par (j = par, par + 2, .. < L; L
 * even): those products are two words each at j, j + 1 and do not overlap, so the row is one
 * carry chain alternating madc.lo.cc and madc.hi.cc on the same operands, which ptxas (sm_90)
 * fuses into one IMAD.WIDE.U32(.X) per word product (mul_eo.h). The carry out goes into
 * t[L + par]; the caller guarantees it does not overflow there. */
BULK_HD void bg_mc_chain(bg_word *t, const bg_word *x, bg_word y, int par, int L)
{
    bg_cc f = {0};
    t[par] = bg_mad_lo_cc(x[par], y, t[par], &f);
    t[par + 1] = bg_madc_hi_cc(x[par], y, t[par + 1], &f);
    BG_UNROLL
    for (int j = par + 2; j < L; j += 2) {
        t[j] = bg_madc_lo_cc(x[j], y, t[j], &f);
        t[j + 1] = bg_madc_hi_cc(x[j], y, t[j + 1], &f);
    }
    t[L + par] = bg_addc(t[L + par], 0, &f);
}

/* The a bi half of a row: e + o += a bi (a of L words, L even; e, o of L + 2 words within the
 * bounds above). o[0] is folded into e[0] and the carry of that addition is the carry in of the
 * odd a chain (both in one chain: the flag must not wait); then the even a chain into e. Leaves
 * o[0] = 0, so that e[0] is the lane's word 0. It is also the whole row of a plain product
 * (mul_coop.h), which adds half of what a Montgomery row adds, within the same bounds. */
BULK_HD void bg_mc_row_mul(bg_word *e, bg_word *o, const bg_word *a, bg_word bi, int L)
{
    bg_cc f = {0};
    e[0] = bg_add_cc(e[0], o[0], &f);
    o[0] = 0;
    BG_UNROLL
    for (int j = 1; j < L; j += 2) {
        o[j] = bg_madc_lo_cc(a[j], bi, o[j], &f);
        o[j + 1] = bg_madc_hi_cc(a[j], bi, o[j + 1], &f);
    }
    o[L + 1] = bg_addc(o[L + 1], 0, &f);
    bg_mc_chain(e, a, bi, 0, L);
}

/* The m q half of a row: the even m chain into e, the odd one into o. */
BULK_HD void bg_mc_row_q(bg_word *e, bg_word *o, const bg_word *m, bg_word q, int L)
{
    bg_mc_chain(e, m, q, 0, L);
    bg_mc_chain(o, m, q, 1, L);
}

/* One row: e + o += a bi + m q (a, m of L words, L even; e, o of L + 2 words within the
 * bounds above): the a bi half, then the m q half (q is the one operand that waits for an
 * exchange; the kernels form it between the halves, bg_mc_q). */
BULK_HD void bg_mc_row(bg_word *e, bg_word *o, const bg_word *a, const bg_word *m, bg_word bi,
                       bg_word q, int L)
{
    bg_mc_row_mul(e, o, a, bi, L);
    bg_mc_row_q(e, o, m, q, L);
}

/* The division by 2^32 after a row: e[0] (already handed to the lane below) leaves, the
 * accumulators swap (new e = old o / 2^32, new o = old e / 2^32) and x (the lowest word of the
 * lane above; 0 for the top lane: lane 0's) enters at word L - 1 of the new o. */
BULK_HD void bg_mc_shift(bg_word *e, bg_word *o, bg_word x, int L)
{
    bg_word ne[BG_MC_MAX_L + 2];
    BG_UNROLL
    for (int j = 0; j <= L; j++) ne[j] = o[j + 1];
    BG_UNROLL
    for (int j = 0; j < L - 1; j++) o[j] = e[j + 1];
    bg_cc f = {0};
    o[L - 1] = bg_add_cc(e[L], x, &f);
    o[L] = bg_addc(0, 0, &f);
    o[L + 1] = 0;
    BG_UNROLL
    for (int j = 0; j <= L; j++) e[j] = ne[j];
    e[L + 1] = 0;
}

/* After the rows: t = e + o (L + 2 words; t[L] <= 4, t[L + 1] = 0 by the bounds above), the
 * segment bg_mc_norm1 takes. t may be e. */
BULK_HD void bg_mc_merge(bg_word *t, const bg_word *e, const bg_word *o, int L)
{
    bg_cc f = {0};
    t[0] = bg_add_cc(e[0], o[0], &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) t[j] = bg_addc_cc(e[j], o[j], &f);
    t[L] = bg_addc(e[L], o[L], &f);
    t[L + 1] = 0;
}

/* Carry lookahead over a group: g, p masks of its lanes (bit l for lane l; no lane in both):
 * lane l generates a carry (g) or passes on the one it receives (p). Returns the mask of the
 * lanes that receive a carry; *out = the carry out of the top lane (tpi <= 32). Bits of
 * (g | p) + g: a generating lane adds 1 + 1, a propagating one 1 + 0 + its carry in. */
BULK_HD uint32_t bg_mc_lookahead(uint32_t g, uint32_t p, int tpi, int *out)
{
    uint64_t gp = (uint64_t)(g | p), s = gp + g;
    *out = (int)((s >> tpi) & 1);
    return (uint32_t)(s ^ gp ^ g);
}

/* Normalisation, step 1: t[0 .. L-1] += up (the word L of the lane below; 0 for lane 0).
 * Returns the carry out; *p = 1 when the words are now all ones (a carry in passes on). */
BULK_HD int bg_mc_norm1(bg_word *t, bg_word up, int L, int *p)
{
    bg_cc f = {0};
    t[0] = bg_add_cc(t[0], up, &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) t[j] = bg_addc_cc(t[j], 0, &f);
    bg_word g = bg_addc(0, 0, &f);
    bg_word all = t[0];
    BG_UNROLL
    for (int j = 1; j < L; j++) all &= t[j];
    *p = all == 0xffffffffu && !g;
    return (int)g;
}

/* Step 2: t[0 .. L-1] += cin (0 or 1; the lookahead's bit for this lane, its carry out
 * already counted there), then d = t - m. Returns the borrow out; *p = 1 when d is zero (a
 * borrow in passes on). */
BULK_HD int bg_mc_norm2(bg_word *d, bg_word *t, const bg_word *m, int cin, int L, int *p)
{
    bg_cc f = {0};
    t[0] = bg_add_cc(t[0], (bg_word)cin, &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) t[j] = bg_addc_cc(t[j], 0, &f);
    d[0] = bg_sub_cc(t[0], m[0], &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) d[j] = bg_subc_cc(t[j], m[j], &f);
    bg_word b = bg_subc(0, 0, &f) & 1;
    bg_word any = d[0];
    BG_UNROLL
    for (int j = 1; j < L; j++) any |= d[j];
    *p = any == 0 && !b;
    return (int)b;
}

/* Step 3: r = take ? d - bin : t (r may be t). */
BULK_HD void bg_mc_norm3(bg_word *r, const bg_word *t, bg_word *d, int bin, int take, int L)
{
    bg_cc f = {0};
    d[0] = bg_sub_cc(d[0], (bg_word)bin, &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) d[j] = bg_subc_cc(d[j], 0, &f);
    BG_UNROLL
    for (int j = 0; j < L; j++) r[j] = take ? d[j] : t[j];
}

/* x = 2 x (the lane's words; hi = the top bit of the lane below, 0 for lane 0). The caller
 * then reduces by m with bg_mc_norm2 (cin 0) and bg_mc_norm3, the bit shifted out of the top
 * lane counting as the overflow. */
BULK_HD void bg_mc_shl1(bg_word *x, bg_word hi, int L)
{
    BG_UNROLL
    for (int j = L - 1; j > 0; j--) x[j] = (x[j] << 1) | (x[j - 1] >> 31);
    x[0] = (x[0] << 1) | hi;
}

/* ---- the powmod ---------------------------------------------------------------------------- *
 *
 * The products of a powmod (num/powmod_coop.cu), with slot k = base^(2k+1) R mod m, the
 * sliding window's odd powers (BG_MC_SLOTS of them, BG_POWMOD_WINDOW bits; shared memory on the
 * GPU):
 *   - x = 2^N R mod m by doublings (bg_mc_doublings), five squarings to R^2 mod m (each
 *     doubles the power of two: 2^(32 N) R = R^2);
 *   - slot 0 = base R (base times R^2; base may exceed m), base^2 R, slots 1 .. 7;
 *   - the exponent's walk (bg_expwalk, stride 1): while acc is still 1 its squarings are
 *     skipped and its first multiplication is a copy of the slot; then one product a step;
 *   - acc * 1 (out of Montgomery form), or for a zero exponent 1 itself (m > 1 here). */
#define BG_MC_SLOTS BG_POWMOD_TABLE

/* The doublings that take x = 2^(bitlen(m) - 1) (< m: m is odd and > 1) to 2^N R mod m. */
BULK_HD int bg_mc_doublings(int N, int mbits) { return 33 * N - (mbits - 1); }

/* The shape of the cooperative powmod for nw words: lanes *tpi (4 .. 32, a power of two) of *L
 * words (2 .. 16, even), tpi L >= nw. want: the lanes asked for by the tuning (int.powmod_tpi;
 * 0 = choose, 1 = one thread per instance; 2 lanes of 16 words lost to 4 of 8 at 1024 bits and
 * are not compiled). Returns 0 when the one-thread kernel is to run
 * instead (narrow widths by default, or asked for); a wanted tpi that cannot hold nw words with
 * L <= BG_MC_MAX_L is replaced by the default. Default: the fewest lanes holding nw words with
 * L <= bg_mc_def_l(nw) (fewer, fuller lanes spend less on the exchanges: 3 shuffles and about
 * 16 other instructions a row against 2 L fused multiply-adds; at least 4 lanes from
 * BG_MC_MIN_WORDS on), then the smallest L compiled (2, 4, 6, 8, 16). */
BULK_HD int bg_mc_shape(int nw, int want, int *tpi, int *L)
{
    if (nw > BG_MC_MAX_WORDS || want == 1 || (want == 0 && nw < BG_MC_MIN_WORDS)) return 0;
    int t = 4;
    if (want >= 4 && want <= BG_MC_MAX_TPI && (want & (want - 1)) == 0 && want * BG_MC_MAX_L >= nw)
        t = want;
    else
        while (t * bg_mc_def_l(nw) < nw) t *= 2;
    int l = 2;
    while (t * l < nw) l = l < 8 ? l + 2 : 16;
    *tpi = t;
    *L = l;
    return 1;
}

#endif
