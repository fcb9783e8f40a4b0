/* The approximate Euclidean GCD (seed 001 chapter 4) on strided 32-bit words. */
#ifndef BULK_INT_CUDA_CORE_GCD_APPROX_H
#define BULK_INT_CUDA_CORE_GCD_APPROX_H

#include "int/cuda/core/words.h"

/* ---- the approximate Euclidean GCD (seed 001 chapter 4), 32-bit words ---------------------- */

/* a >>= (all trailing zero bits); a is nonzero, n words; returns the new length. */
BULK_HD int bg_strip_twos(bg_word *a, size_t s, int n)
{
    int wz = 0;
    while (BG_AT(a, s, wz) == 0) wz++;
    int bz = 0;
    bg_word w = BG_AT(a, s, wz);
    while (((w >> bz) & 1) == 0) bz++;
    for (int j = 0; j + wz < n; j++) {
        bg_word lo = BG_AT(a, s, j + wz) >> bz;
        bg_word hi = (j + wz + 1 < n && bz) ? BG_AT(a, s, j + wz + 1) << (32 - bz) : 0;
        BG_AT(a, s, j) = lo | hi;
    }
    for (int j = n - wz; j < n; j++) BG_AT(a, s, j) = 0;
    return bg_len(a, s, n);
}

/* The trailing zero bits of a nonzero number. */
BULK_HD int bg_tz(const bg_word *a, size_t s)
{
    int k = 0;
    while (BG_AT(a, s, k) == 0) k++;
    int b = 0;
    bg_word w = BG_AT(a, s, k);
    while (((w >> b) & 1) == 0) b++;
    return 32 * k + b;
}

/* approx(X, Y) of seed 001 with d = 32 (X >= Y > 0 of lx >= ly significant words): a pair
 * (alpha, beta) with alpha D^beta <= X div Y, 1 <= alpha < 2^32 where beta > 0. One 64-bit
 * division. */
BULK_HD void bg_approx(const bg_word *X, const bg_word *Y, size_t s, int lx, int ly,
                       uint64_t *alpha, int *beta)
{
    uint64_t x12 = lx >= 2 ? ((uint64_t)BG_AT(X, s, lx - 1) << 32) | BG_AT(X, s, lx - 2)
                           : BG_AT(X, s, lx - 1);
    uint64_t y12 = ly >= 2 ? ((uint64_t)BG_AT(Y, s, ly - 1) << 32) | BG_AT(Y, s, ly - 2)
                           : BG_AT(Y, s, ly - 1);
    uint64_t x1 = BG_AT(X, s, lx - 1), y1 = BG_AT(Y, s, ly - 1);
    if (lx <= 2) { /* case 1: X div Y exactly (it may exceed 2^32: then beta = 0 still) */
        *alpha = x12 / y12;
        *beta = 0;
    } else if (ly == 1) {
        if (x1 >= y1) { *alpha = x1 / y1; *beta = lx - 1; }         /* 2-A */
        else { *alpha = x12 / y1; *beta = lx - 2; }                  /* 2-B */
    } else if (ly == 2) {
        if (x12 >= y12) { *alpha = x12 / y12; *beta = lx - 2; }      /* 3-A */
        else { *alpha = x12 / (y1 + 1); *beta = lx - 3; }            /* 3-B */
    } else if (x12 > y12) {
        *alpha = x12 / (y12 + 1); *beta = lx - ly;                   /* 4-A */
    } else if (lx > ly) {
        *alpha = x12 / (y1 + 1); *beta = lx - ly - 1;                /* 4-B */
    } else {
        *alpha = 1; *beta = 0;                                        /* 4-C */
    }
}

/* X = X - Y * alpha * D^beta + (beta > 0 ? Y : 0), for X, Y of nx words (the result is
 * non-negative by the choice of alpha). alpha < 2^64 only in case 1 (lx <= 2, beta = 0). */
BULK_HD void bg_submul_shift(bg_word *X, const bg_word *Y, size_t s, int nx, uint64_t alpha,
                             int beta, int addY)
{
    bg_word alo = (bg_word)alpha, ahi = (bg_word)(alpha >> 32);
    uint64_t mc = 0; /* carry of the product Y * alpha (shifted by beta words) */
    int64_t sc = 0;  /* signed carry of the running sum */
    bg_word yprev = 0;
    for (int j = 0; j < nx; j++) {
        int yi = j - beta;
        bg_word y = yi >= 0 ? BG_AT(Y, s, yi) : 0;
        /* product word: y * alo + yprev * ahi + mc, kept in 64 + 1 bits through two steps */
        uint64_t p = (uint64_t)y * alo + (mc & 0xffffffffu);
        uint64_t p2 = (uint64_t)yprev * ahi + (p >> 32) + (mc >> 32);
        bg_word pw = (bg_word)p;
        mc = p2; /* < 2^64: (2^32-1)^2 + 2 (2^32 - 1) */
        yprev = y;
        int64_t t = (int64_t)BG_AT(X, s, j) - (int64_t)pw + sc;
        if (addY) t += BG_AT(Y, s, j);
        BG_AT(X, s, j) = (bg_word)t;
        sc = t >> 32; /* arithmetic shift: -1, 0 or +1 */
    }
}

/* g = gcd(a, b) (n words each; gcd(0, 0) = 0). X and Y are scratch of n words each. The same
 * code runs per thread on the GPU over the column-major layout: every iteration touches words
 * 0 .. lx-1 in order, so the accesses are those of seed 001's semi-oblivious execution. */
BULK_HD void bg_gcd(bg_word *g, const bg_word *a, const bg_word *b, bg_word *X, bg_word *Y,
                    size_t s, int n)
{
    int la = bg_len(a, s, n), lb = bg_len(b, s, n);
    if (la == 0 || lb == 0) {
        bg_copy(g, s, la == 0 ? b : a, s, n);
        return;
    }
    int ta = bg_tz(a, s), tb = bg_tz(b, s);
    int k = ta < tb ? ta : tb; /* the common power of two */
    bg_copy(X, s, a, s, n);
    bg_copy(Y, s, b, s, n);
    int lx = bg_strip_twos(X, s, n), ly = bg_strip_twos(Y, s, n);
    if (lx < ly || (lx == ly && bg_cmp(X, s, Y, s, lx) < 0)) {
        bg_word *tp = X; X = Y; Y = tp;
        int tl = lx; lx = ly; ly = tl;
    }
    /* X >= Y, both odd */
    while (ly > 0) {
        uint64_t alpha;
        int beta;
        bg_approx(X, Y, s, lx, ly, &alpha, &beta);
        if (beta == 0) {
            if ((alpha & 1) == 0) alpha--; /* X - Y alpha even */
            bg_submul_shift(X, Y, s, lx, alpha, 0, 0);
        } else {
            bg_submul_shift(X, Y, s, lx, alpha, beta, 1);
        }
        lx = bg_len(X, s, lx);
        if (lx > 0) lx = bg_strip_twos(X, s, lx);
        if (lx < ly || (lx == ly && bg_cmp(X, s, Y, s, lx) < 0)) {
            bg_word *tp = X; X = Y; Y = tp;
            int tl = lx; lx = ly; ly = tl;
        }
    }
    /* g = X << k */
    int wk = k >> 5, bk = k & 31;
    for (int j = n - 1; j >= 0; j--) {
        int src = j - wk;
        bg_word lo = src >= 0 && src < lx ? BG_AT(X, s, src) : 0;
        bg_word lo2 = src - 1 >= 0 && src - 1 < lx ? BG_AT(X, s, src - 1) : 0;
        BG_AT(g, s, j) = bk ? (lo << bk) | (lo2 >> (32 - bk)) : lo;
    }
}

#endif
