/* The Lucas sequences of the strong Lucas test (isprime's step after the base-2 test) on the
 * cooperative Montgomery lanes of mont_coop.h: a group of TPI lanes per instance, lane l
 * holding words l L .. l L + L - 1 of every number.
 *
 * For an odd m > 1 and Selfridge's D (P = 1, Q = (1 - D) / 4) the kernel
 * (num/lucas_coop.cu) computes U_d, V_d and Q^d mod m for d = (m + 1) / 2^s odd, by the binary
 * ladder of int/cpu/prime.c over d's bits from the top, in Montgomery form (R = 2^(32 TPI L)):
 *   U_2k = U_k V_k, V_2k = V_k^2 - 2 Q^k, Q^2k = (Q^k)^2,
 *   then for a one bit: U_k+1 = (U_k + V_k) / 2, V_k+1 = (D U_k + V_k) / 2, Q^k+1 = Q Q^k,
 * from U_1 = V_1 = 1; |D| R and |Q| R come from R^2 mod m (powmod's doublings and squarings),
 * a negative D or Q enters as a subtraction. Montgomery form is linear, so the plain values
 * out are those of the CPU's ladder whatever R: the CPU finishes the test from them.
 *
 * The functions here are the per-lane steps of the modular sum, difference and halving that
 * the ladder adds to mont_coop.h's product, between two exchanges of the group (ballots of
 * the lanes' carries or borrows into bg_mc_lookahead, a shuffle of one bit for the halving).
 * tests/int_gpu/test_int_gpu_lucas_core.c runs them for TPI simulated lanes, mirroring the
 * kernel, against GMP. Sequences per step (x, y < m):
 *   x + y mod m: bg_lc_add, lookahead of its carries; then bg_mc_norm2/3 add the carry in and
 *     subtract m when the sum is >= m (its carry out counts as the overflow);
 *   x - y mod m: bg_lc_sub, lookahead of its borrows, bg_lc_dec takes the borrow in; on a
 *     borrow out of the top lane (the same for the whole group) m is added back: bg_lc_addm,
 *     lookahead, bg_lc_inc (the carry out of the top drops: the sum is below m);
 *   x / 2 mod m: for an odd x (lane 0's bit, broadcast) x + m as above, then bg_lc_shr1 with
 *     the low bit of the lane above (the top lane: the carry out of x + m). */
#ifndef BULK_INT_CUDA_CORE_LUCAS_COOP_H
#define BULK_INT_CUDA_CORE_LUCAS_COOP_H

#include "int/cuda/core/mont_coop.h"

/* r = x + y over the lane's words (r may be x or y). Returns the carry out; *p = 1 when r is
 * all ones without a carry out (a carry in passes on). */
BULK_HD int bg_lc_add(bg_word *r, const bg_word *x, const bg_word *y, int L, int *p)
{
    bg_cc f = {0};
    r[0] = bg_add_cc(x[0], y[0], &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) r[j] = bg_addc_cc(x[j], y[j], &f);
    bg_word g = bg_addc(0, 0, &f);
    bg_word all = r[0];
    BG_UNROLL
    for (int j = 1; j < L; j++) all &= r[j];
    *p = all == 0xffffffffu && !g;
    return (int)g;
}

/* r = x + (take ? m : 0); the same returns as bg_lc_add. */
BULK_HD int bg_lc_addm(bg_word *r, const bg_word *x, const bg_word *m, int take, int L, int *p)
{
    bg_word k = take ? 0xffffffffu : 0;
    bg_cc f = {0};
    r[0] = bg_add_cc(x[0], m[0] & k, &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) r[j] = bg_addc_cc(x[j], m[j] & k, &f);
    bg_word g = bg_addc(0, 0, &f);
    bg_word all = r[0];
    BG_UNROLL
    for (int j = 1; j < L; j++) all &= r[j];
    *p = all == 0xffffffffu && !g;
    return (int)g;
}

/* r = x - y over the lane's words (r may be x or y). Returns the borrow out; *p = 1 when r is
 * zero without a borrow out (a borrow in passes on). */
BULK_HD int bg_lc_sub(bg_word *r, const bg_word *x, const bg_word *y, int L, int *p)
{
    bg_cc f = {0};
    r[0] = bg_sub_cc(x[0], y[0], &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) r[j] = bg_subc_cc(x[j], y[j], &f);
    bg_word b = bg_subc(0, 0, &f) & 1;
    bg_word any = r[0];
    BG_UNROLL
    for (int j = 1; j < L; j++) any |= r[j];
    *p = any == 0 && !b;
    return (int)b;
}

/* r += cin (0 or 1: the lookahead's bit for this lane; its carry out is already counted). */
BULK_HD void bg_lc_inc(bg_word *r, int cin, int L)
{
    bg_cc f = {0};
    r[0] = bg_add_cc(r[0], (bg_word)cin, &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) r[j] = bg_addc_cc(r[j], 0, &f);
}

/* r -= bin (0 or 1, likewise for borrows). */
BULK_HD void bg_lc_dec(bg_word *r, int bin, int L)
{
    bg_cc f = {0};
    r[0] = bg_sub_cc(r[0], (bg_word)bin, &f);
    BG_UNROLL
    for (int j = 1; j < L; j++) r[j] = bg_subc_cc(r[j], 0, &f);
}

/* x >>= 1 over the lane's words; hi (0 or 1) enters at the lane's top bit. */
BULK_HD void bg_lc_shr1(bg_word *x, bg_word hi, int L)
{
    BG_UNROLL
    for (int j = 0; j < L - 1; j++) x[j] = (x[j] >> 1) | (x[j + 1] << 31);
    x[L - 1] = (x[L - 1] >> 1) | (hi << 31);
}

/* x = the number c < 2^64 in Montgomery's plain form, the lane's words (w0: its first word's
 * index; lane 0 holds words 0 and 1, L >= 2). */
BULK_HD void bg_lc_small(bg_word *x, uint64_t c, int w0, int L)
{
    BG_UNROLL
    for (int j = 0; j < L; j++)
        x[j] = w0 + j == 0 ? (bg_word)c : w0 + j == 1 ? (bg_word)(c >> 32) : 0;
}

/* The ladder's exponent d = (m + 1) / 2^s (s = the trailing zero bits of m + 1) for the odd m
 * of nw words (m > 1; every lane reads the same words): returns d's bit length, *s, and
 * *mbits = m's bit length. m + 1 clears m's s trailing ones and sets bit s, so bit i >= 1 of d
 * is bit s + i of m, bit 0 is 1, and d has mbits - s bits unless m = 2^s - 1 (then d = 1). */
BULK_HD int bg_lc_exp(const bg_word *m, int nw, int *s, int *mbits)
{
    int k = 0;
    while (k < nw && m[k] == 0xffffffffu) k++;
    int t = 32 * k;
    if (k < nw)
        for (bg_word w = m[k]; w & 1; w >>= 1) t++;
    int top = nw - 1;
    while (top > 0 && m[top] == 0) top--;
    int b = 32 * top;
    for (bg_word w = m[top]; w; w >>= 1) b++;
    *s = t;
    *mbits = b;
    return b - t > 0 ? b - t : 1;
}

/* Bit i (< the bit length bg_lc_exp gave) of d, from m and s. */
BULK_HD int bg_lc_bit(const bg_word *m, int s, int i)
{
    if (i == 0) return 1;
    int j = s + i;
    return (int)((m[j >> 5] >> (j & 31)) & 1);
}

/* Selfridge's Q = (1 - D) / 4 (D = 1 mod 4, as all of Selfridge's are: exact). */
BULK_HD int64_t bg_lc_q(int64_t d) { return (1 - d) / 4; }

/* Magnitude of a nonzero int64 (INT64_MIN excluded by the callers' D). */
BULK_HD uint64_t bg_lc_abs(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

/* The widest instance (32-bit words) of the Lucas kernel, the cooperative powmod's. */
#define BG_LC_MAX_WORDS BG_MC_MAX_WORDS

/* The shape for nw words: the fewest lanes *tpi (4 .. 32, a power of two) of at most 8 words
 * (the ladder keeps about 8 numbers of L words per lane in registers; 16 words would spill),
 * then the smallest even *L (2 .. 8) with tpi L >= nw: so more than 4 lanes only with 6 or 8
 * words each (the shapes the kernel compiles). Returns 0 above BG_LC_MAX_WORDS. */
BULK_HD int bg_lc_shape(int nw, int *tpi, int *L)
{
    if (nw < 1 || nw > BG_LC_MAX_WORDS) return 0;
    int t = 4;
    while (t * 8 < nw) t *= 2;
    int l = 2;
    while (t * l < nw) l += 2;
    *tpi = t;
    *L = l;
    return 1;
}

#endif
