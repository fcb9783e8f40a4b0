/* Montgomery arithmetic and powmod: strided, and with the exponent loop's numbers in registers. */
#ifndef BULK_INT_CUDA_CORE_MONT_H
#define BULK_INT_CUDA_CORE_MONT_H

#include "int/cuda/core/div.h"

/* ---- Montgomery arithmetic (powmod) --------------------------------------------------------- */

/* -m0^-1 mod 2^32 for odd m0 (Newton: each step doubles the correct low bits). */
BULK_HD bg_word bg_mont_minv(bg_word m0)
{
    bg_word x = (3 * m0) ^ 2; /* 5 bits */
    x *= 2 - m0 * x;
    x *= 2 - m0 * x;
    x *= 2 - m0 * x;
    return (bg_word)0 - x;
}

/* r = a * b * 2^(-32 n) mod m (CIOS), for odd m, a < 2^(32 n), b < m; then r < m.
 * t is scratch of n + 2 words; r may alias a or b (it is written only at the end). */
BULK_HD void bg_mont_mul(bg_word *r, const bg_word *a, const bg_word *b, const bg_word *m,
                         bg_word *t, size_t s, int n, bg_word minv)
{
    for (int j = 0; j < n + 2; j++) BG_AT(t, s, j) = 0;
    for (int i = 0; i < n; i++) {
        uint64_t bi = BG_AT(b, s, i), c = 0;
        for (int j = 0; j < n; j++) {
            uint64_t x = BG_AT(a, s, j) * bi + BG_AT(t, s, j) + c;
            BG_AT(t, s, j) = (bg_word)x;
            c = x >> 32;
        }
        uint64_t x = (uint64_t)BG_AT(t, s, n) + c;
        BG_AT(t, s, n) = (bg_word)x;
        BG_AT(t, s, n + 1) = (bg_word)(x >> 32);
        uint64_t mq = (bg_word)(BG_AT(t, s, 0) * minv);
        x = mq * BG_AT(m, s, 0) + BG_AT(t, s, 0);
        c = x >> 32;
        for (int j = 1; j < n; j++) {
            x = mq * BG_AT(m, s, j) + BG_AT(t, s, j) + c;
            BG_AT(t, s, j - 1) = (bg_word)x;
            c = x >> 32;
        }
        x = (uint64_t)BG_AT(t, s, n) + c;
        BG_AT(t, s, n - 1) = (bg_word)x;
        BG_AT(t, s, n) = BG_AT(t, s, n + 1) + (bg_word)(x >> 32);
    }
    /* t < 2m: subtract m once if t >= m */
    int ge = BG_AT(t, s, n) != 0 || bg_cmp(t, s, m, s, n) >= 0;
    if (ge) bg_sub_inplace(t, s, m, s, n);
    bg_copy(r, s, t, s, n);
}

/* Words of scratch bg_powmod needs (all with the common stride s). */
#define BG_POWMOD_WINDOW 4
#define BG_POWMOD_TABLE (1 << (BG_POWMOD_WINDOW - 1))
BULK_HD size_t bg_powmod_scratch_words(int n) { return (size_t)(BG_POWMOD_TABLE + 4) * n + 2; }
/* (the table's 8n words also hold the 5n + 3 words of the R^2 division, done before it) */

BULK_HD int bg_bit(const bg_word *e, size_t s, int i) { return (BG_AT(e, s, i >> 5) >> (i & 31)) & 1; }

/* The set-up of a powmod: checks m (returns 1 for even or zero m, 2 for m = 1, with r = 0),
 * else returns 0 after filling, in scratch: tab[k] = base^(2k+1) R mod m (k < BG_POWMOD_TABLE),
 * acc = R mod m (Montgomery 1), one = 1, and *minv. R = 2^(32 n); base may exceed m. */
BULK_HD int bg_powmod_setup(bg_word *r, const bg_word *base, const bg_word *m, bg_word *scratch,
                            size_t s, int n, bg_word *minv)
{
    if ((BG_AT(m, s, 0) & 1) == 0) {
        bg_zero(r, s, n);
        return 1;
    }
    if (bg_len(m, s, n) == 1 && BG_AT(m, s, 0) == 1) {
        bg_zero(r, s, n);
        return 2;
    }
    bg_word *tab = scratch;                                   /* BG_POWMOD_TABLE numbers */
    bg_word *acc = scratch + (size_t)BG_POWMOD_TABLE * n * s; /* the running power */
    bg_word *x = acc + (size_t)n * s;                         /* R^2 mod m, then b^2 R */
    bg_word *one = x + (size_t)n * s;
    bg_word *t = one + (size_t)n * s; /* n + 2 words */
    *minv = bg_mont_minv(BG_AT(m, s, 0));

    /* x = R^2 mod m = 2^(64 n) mod m: one schoolbook division of 2n+1 words by m, its
     * operands in the (not yet used) table space: u 2n+1, un 2n+2, vn n <= 8n words */
    {
        bg_word *u = tab, *un = u + (size_t)(2 * n + 1) * s, *vn = un + (size_t)(2 * n + 2) * s;
        bg_zero(u, s, 2 * n);
        BG_AT(u, s, 2 * n) = 1;
        bg_divmod(NULL, x, u, 2 * n + 1, m, n, un, vn, s);
    }
    bg_zero(one, s, n);
    BG_AT(one, s, 0) = 1;
    bg_mont_mul(tab, base, x, m, t, s, n, *minv); /* base R mod m */
    bg_mont_mul(acc, x, one, m, t, s, n, *minv);  /* R mod m */
    bg_mont_mul(x, tab, tab, m, t, s, n, *minv);  /* base^2 R */
    for (int k = 1; k < BG_POWMOD_TABLE; k++)
        bg_mont_mul(tab + (size_t)k * n * s, tab + (size_t)(k - 1) * n * s, x, m, t, s, n, *minv);
    return 0;
}

/* The sliding-window walk over the exponent, one Montgomery product per call, so that a
 * kernel has a single product site (one inlined copy of a fully unrolled product). */
typedef struct bg_expwalk {
    int i;   /* next exponent bit to look at */
    int sq;  /* squarings pending before the multiplication */
    int mul; /* table index of the pending multiplication, -1 none */
} bg_expwalk;

BULK_HD void bg_expwalk_init(bg_expwalk *w, const bg_word *e, size_t s, int n)
{
    int i = bg_len(e, s, n) * 32 - 1;
    while (i >= 0 && !bg_bit(e, s, i)) i--;
    w->i = i;
    w->sq = 0;
    w->mul = -1;
}

/* 0: done; 1: square acc; 2: multiply acc by table entry *idx. */
BULK_HD int bg_expwalk_next(bg_expwalk *w, const bg_word *e, size_t s, int *idx)
{
    if (w->sq == 0 && w->mul < 0) {
        int i = w->i;
        if (i < 0) return 0;
        if (!bg_bit(e, s, i)) {
            w->sq = 1;
            w->i = i - 1;
        } else {
            int l = i - BG_POWMOD_WINDOW + 1;
            if (l < 0) l = 0;
            while (!bg_bit(e, s, l)) l++; /* the window ends on a one bit */
            int v = 0;
            for (int k = i; k >= l; k--) v = (v << 1) | bg_bit(e, s, k);
            w->sq = i - l + 1;
            w->mul = v >> 1;
            w->i = l - 1;
        }
    }
    if (w->sq > 0) {
        w->sq--;
        return 1;
    }
    *idx = w->mul;
    w->mul = -1;
    return 2;
}

/* r = base^e mod m (n words each), sliding window of BG_POWMOD_WINDOW bits over Montgomery
 * products. Returns 0, or 1 when m is even or zero (r = 0 then). base may exceed m. r must not
 * overlap the inputs; scratch holds bg_powmod_scratch_words(n) words at stride s. */
BULK_HD int bg_powmod(bg_word *r, const bg_word *base, const bg_word *e, const bg_word *m,
                      bg_word *scratch, size_t s, int n)
{
    bg_word minv;
    int st = bg_powmod_setup(r, base, m, scratch, s, n, &minv);
    if (st) return st == 1;
    bg_word *tab = scratch, *acc = scratch + (size_t)BG_POWMOD_TABLE * n * s;
    bg_word *one = acc + (size_t)2 * n * s, *t = one + (size_t)n * s;
    bg_expwalk w;
    bg_expwalk_init(&w, e, s, n);
    int op, idx = 0;
    while ((op = bg_expwalk_next(&w, e, s, &idx)) != 0)
        bg_mont_mul(acc, acc, op == 1 ? acc : tab + (size_t)idx * n * s, m, t, s, n, minv);
    bg_mont_mul(r, acc, one, m, t, s, n, minv); /* out of Montgomery form */
    return 0;
}

/* ---- Montgomery products in registers (powmod up to 1024 bits) ------------------------------- */

#define BG_REG_MAXW 32

/* r = a b R^-1 mod m (R = 2^(32 nw), odd m, a < R, b < m; r < m; r may be a or b), CIOS with
 * a, b, r and the accumulator in registers under nvcc (nw a compile-time constant <=
 * BG_REG_MAXW); m is read from memory at stride ms (cached: the same words every row), which
 * keeps the register count near 3 nw. Per word of b four carry chains - lo and hi halves of
 * a b_i, then of q m - so 4 nw^2 + O(nw) instructions. */
BULK_HD void bg_mont_mul_regs(bg_word *r, const bg_word *a, const bg_word *b, const bg_word *m,
                              size_t ms, bg_word minv, int nw)
{
    bg_word t[BG_REG_MAXW + 2];
    bg_cc f = {0};
    BG_UNROLL
    for (int j = 0; j < nw + 2; j++) t[j] = 0;
    BG_UNROLL
    for (int i = 0; i < nw; i++) {
        bg_word bi = b[i];
        /* t += a b_i (t < 2m before: t[nw + 1] = 0 here) */
        t[0] = bg_mad_lo_cc(a[0], bi, t[0], &f);
        BG_UNROLL
        for (int j = 1; j < nw; j++) t[j] = bg_madc_lo_cc(a[j], bi, t[j], &f);
        t[nw] = bg_addc_cc(t[nw], 0, &f);
        t[nw + 1] = bg_addc(t[nw + 1], 0, &f);
        t[1] = bg_mad_hi_cc(a[0], bi, t[1], &f);
        BG_UNROLL
        for (int j = 1; j < nw; j++) t[j + 1] = bg_madc_hi_cc(a[j], bi, t[j + 1], &f);
        t[nw + 1] = bg_addc(t[nw + 1], 0, &f);
        /* t += q m with q = -t / m mod 2^32: the low word becomes 0 */
        bg_word q = t[0] * minv;
        t[0] = bg_mad_lo_cc(BG_AT(m, ms, 0), q, t[0], &f);
        BG_UNROLL
        for (int j = 1; j < nw; j++) t[j] = bg_madc_lo_cc(BG_AT(m, ms, j), q, t[j], &f);
        t[nw] = bg_addc_cc(t[nw], 0, &f);
        t[nw + 1] = bg_addc(t[nw + 1], 0, &f);
        t[1] = bg_mad_hi_cc(BG_AT(m, ms, 0), q, t[1], &f);
        BG_UNROLL
        for (int j = 1; j < nw; j++) t[j + 1] = bg_madc_hi_cc(BG_AT(m, ms, j), q, t[j + 1], &f);
        t[nw + 1] = bg_addc(t[nw + 1], 0, &f);
        /* divide by 2^32 (a renaming once unrolled) */
        BG_UNROLL
        for (int j = 0; j <= nw; j++) t[j] = t[j + 1];
        t[nw + 1] = 0;
    }
    /* t < 2m: subtract m when t >= m (first the comparison's borrow, then the subtraction) */
    uint64_t br = 0;
    BG_UNROLL
    for (int j = 0; j < nw; j++) br = (((uint64_t)t[j] - BG_AT(m, ms, j) - br) >> 32) & 1;
    bg_word take = (t[nw] != 0 || br == 0) ? 0xffffffffu : 0;
    br = 0;
    BG_UNROLL
    for (int j = 0; j < nw; j++) {
        uint64_t x = (uint64_t)t[j] - (BG_AT(m, ms, j) & take) - br;
        r[j] = (bg_word)x;
        br = (x >> 32) & 1;
    }
}

/* The exponent loop of powmod with acc in registers: after bg_powmod_setup, acc (at stride
 * s) = acc * tab-products as the walk says; the operand of each multiplication is loaded from
 * the table. nw <= BG_REG_MAXW; one product site. */
BULK_HD void bg_powmod_regs_loop(bg_word *acc_s, const bg_word *tab, const bg_word *e,
                                 const bg_word *m_s, size_t s, int nw, bg_word minv)
{
    bg_word acc[BG_REG_MAXW], op[BG_REG_MAXW];
    BG_UNROLL
    for (int j = 0; j < nw; j++) acc[j] = BG_AT(acc_s, s, j);
    bg_expwalk w;
    bg_expwalk_init(&w, e, s, nw);
    int o, idx = 0;
    while ((o = bg_expwalk_next(&w, e, s, &idx)) != 0) {
        const bg_word *src = tab + (size_t)idx * nw * s;
        BG_UNROLL
        for (int j = 0; j < nw; j++) op[j] = o == 1 ? acc[j] : BG_AT(src, s, j);
        bg_mont_mul_regs(acc, acc, op, m_s, s, minv, nw);
    }
    BG_UNROLL
    for (int j = 0; j < nw; j++) BG_AT(acc_s, s, j) = acc[j];
}

/* powmod through the register loop (n <= BG_REG_MAXW); same contract as bg_powmod. */
BULK_HD int bg_powmod_regs(bg_word *r, const bg_word *base, const bg_word *e, const bg_word *m,
                           bg_word *scratch, size_t s, int n)
{
    bg_word minv;
    int st = bg_powmod_setup(r, base, m, scratch, s, n, &minv);
    if (st) return st == 1;
    bg_word *tab = scratch, *acc = scratch + (size_t)BG_POWMOD_TABLE * n * s;
    bg_word *one = acc + (size_t)2 * n * s, *t = one + (size_t)n * s;
    bg_powmod_regs_loop(acc, tab, e, m, s, n, minv);
    bg_mont_mul(r, acc, one, m, t, s, n, minv);
    return 0;
}

#endif
