/* Modular inverse for odd moduli on the cooperative lanes of mont_coop.h: a group of TPI lanes
 * per instance, lane l holding words l L .. l L + L - 1 of every number, all in registers.
 *
 * Method: Pornin's optimized binary GCD ("Optimized Binary GCD for Modular Inversion", 2020,
 * algorithm 2), chosen over the approximate Euclidean algorithm of the one-thread kernel
 * (invmod.h) because its inner loop needs no division and no run-time indexing: every outer
 * iteration works on 64-bit approximations that one lane could hold, and the full numbers are
 * touched only by products with 32-bit scalars, which split over the lanes with one carry
 * lookahead. For an odd m and y (y may exceed m) it keeps
 *   a = y, b = m, u = 1, v = 0 at the start; a = u y, b = v y (mod m); b odd; gcd(a, b) =
 *   gcd(y, m); a, b >= 0; 0 <= u, v < m
 * and repeats, until a = 0 (then b = gcd(y, m), and v = y^-1 mod m when b = 1):
 *   1. n = max(bitlen(a), bitlen(b), 64); the approximation a~ (64 bits) is a's bits
 *      n - 33 .. n - 1 above a's low 31 bits, b~ likewise (bg_ic_approx; exact when n = 64);
 *   2. BG_IC_STEPS = 30 binary GCD steps on a~, b~ in registers (bg_ic_inner): when a~ is odd,
 *      swap if a~ < b~ and subtract b~ from a~; then halve a~. They give f0, g0, f1, g1 with
 *      2^30 a_new = f0 a + g0 b and 2^30 b_new = f1 a + g1 b exactly (the low 31 bits of the
 *      approximations are exact, and only they decide parities) and |f0| + |g0|,
 *      |f1| + |g1| <= 2^30 (each step at most adds the two rows and doubles the second);
 *   3. a = |f0 a + g0 b| / 2^30, b = |f1 a + g1 b| / 2^30 (the division is exact), the sign of
 *      a negative result moved into its row of coefficients; |a_new| <= max(a, b): nothing
 *      grows;
 *   4. u = (f0 u + g0 v) / 2^30 mod m and v likewise, the division made exact by adding q m,
 *      q = -(f0 u + g0 v) m^-1 mod 2^30, so the invariants hold exactly and the final v needs
 *      no correction factor.
 * The determinant of each step's matrix is +-2^30, and m is odd, so gcd(a, b) is kept. Pornin
 * bounds the inner steps the loop needs in total by about bitlen(a) + bitlen(b) at the start
 * (2 bitlen(m) - 1 for y < m); the kernel stops at bg_ic_cap(N) outer iterations, that bound
 * for the widest operands over 30 steps, plus 4. Simulated (test_int_gpu_invmod_core), the
 * loop took on average 0.71 (bitlen(y) + bitlen(m)) / 30 outer iterations on random inputs and
 * never more than (bitlen(y) + bitlen(m)) / 30 rounded up on structured ones. An instance that
 * reached the cap without a = 0 would be left to the one-thread kernel, which the kernel's
 * caller runs for it (as for even moduli): the result never depends on the bound.
 *
 * The full-width steps, per lane, with the exchanges of the group between them (the kernel:
 * num/invmod_coop.cu; the CPU mirror: tests/int_gpu/invmod_sim.h):
 *   - lengths: bg_ic_bits per lane, a ballot for the top lane, a shuffle of its length; the
 *     approximations' words: bg_ic_pick in the lane that owns them, shuffled to all lanes;
 *   - z = x f + y g (+ q m), z / 2^30 (bg_ic_lin, bg_ic_shr): a term with c < 0 is taken as
 *     |c| (~x) + |c| - |c| 2^(32 N) (~x: every lane complements its words), so each lane sums
 *     non-negative products into L words and an unsigned word above them (below 2^31 + 2), the
 *     constant C = sum of the negative |c| enters lane 0's word 0, and the sum U = z +
 *     C 2^(32 N) is resolved as in mont_coop.h (the word above each lane added by the lane
 *     above, bg_mc_norm1; one carry lookahead, bg_lc_inc). With T = U div 2^(32 N) (the top
 *     lane's word plus the carry out of the group), z = U mod 2^(32 N) + (T - C) 2^(32 N): z's
 *     sign is that of T - C, and z / 2^30 is the words shifted by 30 bits (the top lane
 *     shifting in the low word of T - C) with (T - C) >> 30 above them;
 *   - a negative a or b is negated (bg_lc_sub from zero, a borrow lookahead, bg_lc_dec);
 *     u_new, in (-m, 2m) (|z| < 2^30 m, q m < 2^30 m), is brought into [0, m) by adding m when
 *     negative (bg_lc_addm) or subtracting it when not below it (bg_mc_norm2, bg_mc_norm3). */
#ifndef BULK_INT_CUDA_CORE_INVMOD_COOP_H
#define BULK_INT_CUDA_CORE_INVMOD_COOP_H

#include "int/cuda/core/lucas_coop.h"

/* Inner binary GCD steps per outer iteration: 30 (not Pornin's 31) keeps every coefficient
 * within +-2^30, so f, g fit an int32 and a lane's sum of three scaled words stays below
 * 2^64. */
#define BG_IC_STEPS 30
#define BG_IC_MASK ((1u << BG_IC_STEPS) - 1)

/* The widest instance (32-bit words): 8192 bits (32 lanes of 8 words, 16 of 16). */
#define BG_IC_MAX_WORDS 256
/* The narrowest width (words) the dispatch gives to the cooperative kernel by default;
 * narrower moduli run the one-thread kernel. 512 bits, to be measured (bench_int_gpu_powmod
 * --only invmod --sweep). */
#define BG_IC_MIN_WORDS 16
/* Words per lane: 8 below BG_IC_WIDE_WORDS words (2048 bits), 16 from there on. Every lane
 * runs the same inner steps (about 25 PTX instructions each, 750 an outer iteration) for its
 * instance, against about 40 L for its share of the products and lookaheads: fewer, fuller
 * lanes repeat the inner steps fewer times, at the price of registers (the loop keeps a, b, u,
 * v, m, the two new numbers and a sum: 8 numbers of L words; 166 registers at L = 16, so half
 * the warps per SM). Measured on one H200 (bench_int_gpu_powmod --only invmod --sweep,
 * device-resident, docs/perf/int-gpu-groups.md): 1024 bits 4 x 8 4.68e7/s, 2 x 16 4.07e7; 2048 bits
 * 4 x 16 1.472e7, 8 x 8 1.438e7; 4096 bits 8 x 16 4.73e6, 16 x 8 3.98e6. */
#define BG_IC_WIDE_WORDS 64
BULK_HD int bg_ic_def_l(int nw) { return nw >= BG_IC_WIDE_WORDS ? 16 : 8; }

/* The shape for nw words: lanes *tpi (2 .. 32, a power of two) of *L words (8, or 16 with 4 ..
 * 16 lanes: the shapes invmod_coop.cu compiles; 2 lanes of 16 lost to 4 of 8 at 1024 bits and
 * are not compiled), tpi L >= nw. want: the lanes asked for by the tuning (int.invmod_tpi; 0 =
 * by width, 1 = the one-thread kernel): then L = 8 when that holds nw, else 16; a want that
 * cannot hold nw is replaced by the default. Default: L = bg_ic_def_l(nw), the fewest lanes
 * from 2 on. Returns 0 (the one-thread kernel) for want = 1, above BG_IC_MAX_WORDS and, by
 * default, below BG_IC_MIN_WORDS. */
BULK_HD int bg_ic_shape(int nw, int want, int *tpi, int *L)
{
    if (nw < 1 || nw > BG_IC_MAX_WORDS || want == 1 || (want == 0 && nw < BG_IC_MIN_WORDS))
        return 0;
    int t = 2, l = bg_ic_def_l(nw);
    int fits = want * 8 >= nw || (want >= 4 && want <= 16 && want * 16 >= nw);
    if (want >= 2 && want <= 32 && (want & (want - 1)) == 0 && fits) {
        t = want;
        l = want * 8 >= nw ? 8 : 16;
    } else {
        while (t * l < nw) t *= 2;
    }
    *tpi = t;
    *L = l;
    return 1;
}

/* The outer iterations after which an instance of N words is left to the one-thread kernel:
 * Pornin's bound (bitlen(y) + bitlen(m) <= 64 N inner steps) over 30 steps, plus 4. */
BULK_HD int bg_ic_cap(int N) { return (64 * N + BG_IC_STEPS - 1) / BG_IC_STEPS + 4; }

/* Bit length of the lane's part of a | b (the absolute bit position above the top set bit, w0:
 * the lane's first word index), 0 when those words are zero. */
BULK_HD int bg_ic_bits(const bg_word *a, const bg_word *b, int w0, int L)
{
    int r = 0;
    BG_UNROLL
    for (int j = 0; j < L; j++) {
        bg_word x = a[j] | b[j];
        if (x) r = 32 * (w0 + j) + 32 - bg_clz32(x);
    }
    return r;
}

/* x's word j (0 <= j < L: this lane owns it), else 0; without run-time register indexing. */
BULK_HD bg_word bg_ic_pick(const bg_word *x, int j, int L)
{
    bg_word r = 0;
    BG_UNROLL
    for (int k = 0; k < L; k++) r = k == j ? x[k] : r;
    return r;
}

/* The 64-bit approximation of step 1: the low 31 bits of lo (word 0) and bits sh .. sh + 32 of
 * the word pair (w1, w0) (bits n - 33 .. n - 1 of the number, sh = (n - 33) mod 32). */
BULK_HD uint64_t bg_ic_approx(bg_word lo, bg_word w0, bg_word w1, int sh)
{
    uint64_t top = ((((uint64_t)w1 << 32) | w0) >> sh) & (((uint64_t)1 << 33) - 1);
    return (top << 31) | (lo & 0x7fffffffu);
}

/* Step 2: BG_IC_STEPS steps on the approximations, branch-free (every lane, every instance of
 * a warp runs the same instructions). c = {f0, g0, f1, g1}. b~ stays odd: it starts as an odd
 * number's approximation (b is odd) and is replaced only by an odd a~. */
BULK_HD void bg_ic_inner(uint64_t a, uint64_t b, int32_t *c)
{
    int32_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    BG_UNROLL
    for (int j = 0; j < BG_IC_STEPS; j++) {
        /* odd: a~ <- (a~ - b~) / 2, or after a swap (b~ - a~) / 2 with b~ <- a~; the rows
         * likewise: (f0, g0) <- +-((f0, g0) - (f1, g1)), (f1, g1) <- 2 (the old row of b~) */
        int odd = (int)(a & 1), sw = odd & (a < b);
        uint64_t d = a - b, t = odd ? (sw ? b - a : d) : a;
        b = sw ? a : b;
        a = t >> 1;
        int32_t df = f0 - f1, dg = g0 - g1, nf1 = sw ? f0 : f1, ng1 = sw ? g0 : g1;
        f0 = odd ? (sw ? -df : df) : f0;
        g0 = odd ? (sw ? -dg : dg) : g0;
        f1 = nf1 * 2;
        g1 = ng1 * 2;
    }
    c[0] = f0;
    c[1] = g0;
    c[2] = f1;
    c[3] = g1;
}

/* |c| and the complement mask of a coefficient (all ones when negative). */
BULK_HD bg_word bg_ic_abs(int32_t c) { return c < 0 ? (bg_word)0 - (bg_word)c : (bg_word)c; }
BULK_HD bg_word bg_ic_negmask(int32_t c) { return c < 0 ? 0xffffffffu : 0; }

/* The constant C of z = x f + y g: the sum of the negative coefficients' magnitudes. */
BULK_HD bg_word bg_ic_c(int32_t f, int32_t g)
{
    return (f < 0 ? bg_ic_abs(f) : 0) + (g < 0 ? bg_ic_abs(g) : 0);
}

/* q = -z m^-1 mod 2^30 for z's low word z0 = word 0 of |f| x' + |g| y' + C (lane 0's x0, y0;
 * minv = -m^-1 mod 2^32, bg_mont_minv): z + q m is then divisible by 2^30. */
BULK_HD bg_word bg_ic_q(bg_word x0, bg_word y0, int32_t f, int32_t g, bg_word minv)
{
    bg_word z0 = bg_ic_abs(f) * (x0 ^ bg_ic_negmask(f)) + bg_ic_abs(g) * (y0 ^ bg_ic_negmask(g)) +
                 bg_ic_c(f, g);
    return (z0 * minv) & BG_IC_MASK;
}

/* The lane's part of U = |f| x' + |g| y' + q m + c0 (x' = ~x when f < 0, y' likewise; c0 = C in
 * lane 0, 0 elsewhere; m may be NULL when q = 0): t = its L words, returns the word above them.
 * |f| + |g| <= 2^30 and q < 2^30, so each word's sum is below 3 2^62 + 2^32 and the returned
 * word below 2^31 + 2. */
BULK_HD bg_word bg_ic_lin(bg_word *t, const bg_word *x, const bg_word *y, int32_t f, int32_t g,
                          const bg_word *m, bg_word q, bg_word c0, int L)
{
    bg_word fa = bg_ic_abs(f), ga = bg_ic_abs(g), fm = bg_ic_negmask(f), gm = bg_ic_negmask(g);
    uint64_t c = c0;
    BG_UNROLL
    for (int j = 0; j < L; j++) {
        uint64_t s = (uint64_t)fa * (x[j] ^ fm) + (uint64_t)ga * (y[j] ^ gm) + c;
        if (m) s += (uint64_t)q * m[j];
        t[j] = (bg_word)s;
        c = s >> 32;
    }
    return (bg_word)c;
}

/* r = t >> 30 over the lane's words, nx entering above them (the next lane's word 0; for the
 * top lane the low word of T - C). r may be t. */
BULK_HD void bg_ic_shr(bg_word *r, const bg_word *t, bg_word nx, int L)
{
    BG_UNROLL
    for (int j = 0; j < L - 1; j++)
        r[j] = (t[j] >> BG_IC_STEPS) | (t[j + 1] << (32 - BG_IC_STEPS));
    r[L - 1] = (t[L - 1] >> BG_IC_STEPS) | (nx << (32 - BG_IC_STEPS));
}

/* T - C and the part of z / 2^30 above the N words, from the top lane's word (before the carry
 * resolution), the carry out of the group and C: z / 2^30 = words + ((T - C) >> 30) 2^(32 N).
 * For a, b the part is 0 or -1 (|z / 2^30| < 2^(32 N)); for u, v it is -1, 0 or 1 (z / 2^30 in
 * (-m, 2m)). */
BULK_HD int64_t bg_ic_top(bg_word top, int cout, bg_word c) { return (int64_t)top + cout - c; }
BULK_HD int bg_ic_above(int64_t tc) { return (int)(tc >> BG_IC_STEPS); }

/* 1 when any of the lane's words is nonzero. */
BULK_HD int bg_ic_nz(const bg_word *x, int L)
{
    bg_word o = 0;
    BG_UNROLL
    for (int j = 0; j < L; j++) o |= x[j];
    return o != 0;
}

/* 1 when the lane's words are those of the number 1 (w0: the lane's first word index). */
BULK_HD int bg_ic_is_one(const bg_word *x, int w0, int L)
{
    int ok = 1;
    BG_UNROLL
    for (int j = 0; j < L; j++) ok &= x[j] == (bg_word)(w0 + j == 0);
    return ok;
}

#endif
