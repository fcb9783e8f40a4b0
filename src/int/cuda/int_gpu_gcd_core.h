/* The GCD of the register kernel (W <= 2048 bits): binary GCD by batched divsteps
 * (Bernstein and Yang, "Fast constant-time gcd computation and modular inversion", 2019),
 * written once as BULK_HD functions so the CPU tests run exactly the code the GPU runs.
 *
 * Why not the approximate Euclidean algorithm of seed 001 (bg_gcd in int_gpu_core.h) here:
 * between numbers of equal word length its steps are Euclid steps with small quotients, a few
 * bits of progress per pass over both numbers (about 600 passes at 1024 bits). A batch of 30
 * divsteps decides 30 steps from the low words alone (every decision needs only delta and bit
 * 0 of g) and applies them to the full numbers in one pass: about 2.3 divsteps per bit, so
 * ~80 passes at 1024 bits, each computing two linear combinations.
 *
 * divstep(delta, f, g), f odd: (1 - delta, g, (g - f) / 2) if delta > 0 and g odd, else
 * (1 + delta, f, (g + (g mod 2) f) / 2). gcd(f, g) is invariant (f stays odd), |f| and |g| never
 * grow, and g reaches 0 after at most (49 d + 57) / 17 steps for d-bit inputs (d >= 46), f is
 * then +-gcd. Numbers are two's complement over `len` 32-bit words (word len-1 signed); the
 * arrays hold cap + 1 words, cap = words of the widest input, so the sign always fits. */
#ifndef BULK_INT_CUDA_INT_GPU_GCD_CORE_H
#define BULK_INT_CUDA_INT_GPU_GCD_CORE_H

#include "int/cuda/int_gpu_core.h"

#define BG_GCD_MAXW 64 /* widest register GCD: 64 words = 2048 bits */
#define BG_DIVSTEPS 30 /* per batch: the matrix entries stay within 2^30 (products fit int64) */

/* BG_DIVSTEPS divsteps on the low words f (odd), g of the numbers (each step needs only bit 0
 * of g; after i steps the words are right mod 2^(32 - i)). m = (u, v, q, r) with
 * 2^30 (f', g') = (u f + v g, q f + r g) for the full numbers; |u| + |v|, |q| + |r| <= 2^30 (each
 * step's matrix, doubled, has rows of L1 norm <= 2). Branch-free: the 32 threads of a warp stay
 * together. Returns the new delta. */
BULK_HD int bg_divsteps(int delta, bg_word f, bg_word g, int32_t m[4])
{
    int32_t u = 1, v = 0, q = 0, r = 1;
    BG_UNROLL
    for (int i = 0; i < BG_DIVSTEPS; i++) {
        int odd = (int)(g & 1);
        int sw = (delta > 0) & odd;
        bg_word ng = odd ? (sw ? g - f : g + f) : g;
        int32_t nq = odd ? (sw ? q - u : q + u) : q;
        int32_t nr = odd ? (sw ? r - v : r + v) : r;
        f = sw ? g : f;
        u = sw ? q * 2 : u * 2;
        v = sw ? r * 2 : v * 2;
        g = ng >> 1;
        q = nq;
        r = nr;
        delta = sw ? 1 - delta : 1 + delta;
    }
    m[0] = u;
    m[1] = v;
    m[2] = q;
    m[3] = r;
    return delta;
}

/* u x + v y + c for x, y the words of two numbers, |u| + |v| <= 2^30: |result| < 2^63. */
BULK_HD int64_t bg_lin2(int32_t u, int64_t x, int32_t v, int64_t y, int64_t c)
{
    return (int64_t)u * x + (int64_t)v * y + c;
}

/* (f, g) <- ((u f + v g) / 2^30, (q f + r g) / 2^30) over words 0 .. len-1 (the divisions are
 * exact by the choice of the matrix); one pass, each new word from two combination words by a
 * funnel shift. Words len .. cap are not touched (they are never read again: len only
 * shrinks). Returns 1 when the new f is negative (the sign of the last carry: the words below
 * it are a non-negative number under 2^(32 len)); the caller keeps it so that nothing indexes
 * the register arrays at run time (nvcc would move them to local memory). */
BULK_HD int bg_gcd_apply(bg_word *f, bg_word *g, const int32_t m[4], int len, int cap)
{
    int64_t cf = 0, cg = 0;
    bg_word pf = 0, pg = 0;
    BG_UNROLL
    for (int j = 0; j <= cap; j++) {
        if (j < len) {
            int top = j == len - 1;
            int64_t fj = top ? (int64_t)(int32_t)f[j] : (int64_t)f[j];
            int64_t gj = top ? (int64_t)(int32_t)g[j] : (int64_t)g[j];
            int64_t af = bg_lin2(m[0], fj, m[1], gj, cf);
            int64_t ag = bg_lin2(m[2], fj, m[3], gj, cg);
            bg_word wf = (bg_word)af, wg = (bg_word)ag;
            cf = af >> 32; /* arithmetic: the signed carry */
            cg = ag >> 32;
            if (j > 0) {
                f[j - 1] = (pf >> BG_DIVSTEPS) | (wf << (32 - BG_DIVSTEPS));
                g[j - 1] = (pg >> BG_DIVSTEPS) | (wg << (32 - BG_DIVSTEPS));
            }
            if (top) {
                f[j] = (wf >> BG_DIVSTEPS) | ((bg_word)cf << (32 - BG_DIVSTEPS));
                g[j] = (wg >> BG_DIVSTEPS) | ((bg_word)cg << (32 - BG_DIVSTEPS));
            }
            pf = wf;
            pg = wg;
        }
    }
    return cf < 0;
}

/* The fewest words (>= 1, <= len) that hold both f and g (two's complement); *gnz = g != 0. */
BULK_HD int bg_gcd_len(const bg_word *f, const bg_word *g, int len, int cap, int *gnz)
{
    int nl = 1;
    bg_word gor = g[0];
    BG_UNROLL
    for (int j = 1; j <= cap; j++) {
        if (j < len) {
            bg_word sf = (bg_word)((int32_t)f[j - 1] >> 31), sg = (bg_word)((int32_t)g[j - 1] >> 31);
            if (f[j] != sf || g[j] != sg) nl = j + 1;
            gor |= g[j];
        }
    }
    *gnz = gor != 0;
    return nl;
}

/* Word j of x >> k (x of n words at stride s; words past n are 0). */
BULK_HD bg_word bg_word_shr(const bg_word *x, size_t s, int n, int j, int k)
{
    int wk = j + (k >> 5), bk = k & 31;
    bg_word lo = wk < n ? BG_AT(x, s, wk) : 0;
    bg_word hi = wk + 1 < n ? BG_AT(x, s, wk + 1) : 0;
    return bk ? (lo >> bk) | (hi << (32 - bk)) : lo;
}

/* g = gcd(a, b) for a, b, g of n words at stride s, n <= cap <= BG_GCD_MAXW; gcd(x, 0) = x.
 * Under nvcc with cap a compile-time constant every loop over words unrolls and the numbers
 * live in registers (2 (cap + 1) words); the memory is read once and written once. */
BULK_HD void bg_gcd_divsteps(bg_word *gout, const bg_word *a, const bg_word *b, size_t s, int n,
                             int cap)
{
    int la = bg_len(a, s, n), lb = bg_len(b, s, n);
    if (la == 0 || lb == 0) {
        bg_copy(gout, s, la == 0 ? b : a, s, n);
        return;
    }
    int ta = bg_tz(a, s), tb = bg_tz(b, s);
    int k = ta < tb ? ta : tb; /* the common power of two: gcd = 2^k gcd(a >> k, b >> k) */
    bg_word F[BG_GCD_MAXW + 1] = {0}, G[BG_GCD_MAXW + 1] = {0}; /* (zeros: for the compiler) */
    BG_UNROLL
    for (int j = 0; j < cap; j++) {
        F[j] = j < n ? bg_word_shr(a, s, n, j, k) : 0;
        G[j] = j < n ? bg_word_shr(b, s, n, j, k) : 0;
    }
    F[cap] = G[cap] = 0;
    /* f must be odd; one of the two is */
    int sw = (F[0] & 1) == 0;
    BG_UNROLL
    for (int j = 0; j < cap; j++) {
        bg_word t = F[j];
        F[j] = sw ? G[j] : t;
        G[j] = sw ? t : G[j];
    }
    int gnz, len = bg_gcd_len(F, G, cap + 1, cap, &gnz), delta = 1, fneg = 0;
    /* (49 d + 57) / 17 divsteps suffice (d = 32 cap bits); the guard only bounds a loop that
     * the theorem ends, never reached */
    int guard = (49 * 32 * cap + 57) / (17 * BG_DIVSTEPS) + 2;
    while (gnz && guard-- > 0) {
        int32_t m[4];
        delta = bg_divsteps(delta, F[0], G[0], m);
        fneg = bg_gcd_apply(F, G, m, len, cap);
        len = bg_gcd_len(F, G, len, cap, &gnz);
    }
    /* F = +-gcd(a >> k, b >> k): its absolute value, over all cap + 1 words (sign-extended) */
    bg_word sign = fneg ? 0xffffffffu : 0;
    uint64_t c = sign & 1;
    BG_UNROLL
    for (int j = 0; j <= cap; j++) {
        bg_word w = j < len ? F[j] : sign;
        c += (uint64_t)(w ^ sign);
        F[j] = (bg_word)c;
        c >>= 32;
    }
    /* gout = F << k: zero words below, then word i of F into word i + wk */
    int wk = k >> 5, bk = k & 31;
    for (int j = 0; j < wk && j < n; j++) BG_AT(gout, s, j) = 0;
    BG_UNROLL
    for (int i = 0; i < cap; i++) {
        bg_word prev = i > 0 ? F[i - 1] : 0;
        bg_word w = bk ? (F[i] << bk) | (prev >> (32 - bk)) : F[i];
        if (i + wk < n) BG_AT(gout, s, i + wk) = w;
    }
}

#endif
