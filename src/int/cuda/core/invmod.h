/* Modular inverse on strided 32-bit words: the extended form of seed 001's approximate
 * Euclidean algorithm (one thread per instance; the CPU's bulk_mpn_invmod without its Lehmer
 * steps). */
#ifndef BULK_INT_CUDA_CORE_INVMOD_H
#define BULK_INT_CUDA_CORE_INVMOD_H

#include "int/cuda/core/div.h"
#include "int/cuda/core/gcd_approx.h"

/* Per-instance outcomes of bg_invmod (the kernel maps them to BULK_ERR_DIVZERO and
 * BULK_ERR_NOT_INVERTIBLE). */
#define BG_INV_OK 0
#define BG_INV_DIVZERO 1
#define BG_INV_NONE 2

/* Words of scratch bg_invmod needs at stride s: X, Y (n each), t_x, t_y (n + 1 each), the
 * division's un (n + 1) and vn (n). */
BULK_HD size_t bg_invmod_scratch_words(int n) { return (size_t)6 * n + 3; }

/* X (lx words) -= al Y D^be (Y of ly words); the caller guarantees a non-negative result. */
BULK_HD void bg_submul_w(bg_word *X, const bg_word *Y, size_t s, int lx, int ly, bg_word al, int be)
{
    uint64_t c = 0, br = 0;
    for (int j = be; j < lx; j++) {
        int yi = j - be;
        if (yi >= ly && c == 0 && br == 0) break;
        uint64_t p = (uint64_t)(yi < ly ? BG_AT(Y, s, yi) : 0) * al + c;
        c = p >> 32;
        uint64_t t = (uint64_t)BG_AT(X, s, j) - (bg_word)p - br;
        BG_AT(X, s, j) = (bg_word)t;
        br = t >> 63;
    }
}

/* T (nt words) += al U D^be (U of nu words); the caller guarantees the sum fits. */
BULK_HD void bg_addmul_w(bg_word *T, const bg_word *U, size_t s, int nt, int nu, bg_word al, int be)
{
    uint64_t c = 0;
    for (int j = be; j < nt; j++) {
        int ui = j - be;
        if (ui >= nu && c == 0) break;
        uint64_t t = (uint64_t)(ui < nu ? BG_AT(U, s, ui) : 0) * al + BG_AT(T, s, j) + c;
        BG_AT(T, s, j) = (bg_word)t;
        c = t >> 32;
    }
}

/* r = a^-1 mod m (n words each, 0 <= r < m), the contract of bulk_mpn_invmod: m = 0 gives
 * BG_INV_DIVZERO, gcd(a, m) != 1 BG_INV_NONE (r = 0 in both), m = 1 gives r = 0. a may
 * exceed m. scratch: bg_invmod_scratch_words(n) words at stride s.
 *
 * X = m, Y = a mod m; each step subtracts alpha Y D^beta from X (alpha D^beta <= X div Y by
 * bg_approx; a quotient of 2^32 or more, possible only with X below 2^64, is applied as two
 * steps of one word each) and adds alpha t_y D^beta to t_x, swapping when X < Y. With
 * s_x, s_y the signed cofactors (X = s_x a mod m) |s_x| = t_x, |s_y| = t_y and the signs are
 * opposite; t_x Y + t_y X = m throughout (true at the start, kept by every step), so the
 * cofactors stay below m + 1 and fit n + 1 words. At the end X = gcd(a, m). */
BULK_HD int bg_invmod(bg_word *r, const bg_word *a, const bg_word *m, bg_word *scratch, size_t s,
                      int n)
{
    int mn = bg_len(m, s, n);
    bg_zero(r, s, n);
    if (mn == 0) return BG_INV_DIVZERO;
    if (mn == 1 && BG_AT(m, s, 0) == 1) return BG_INV_OK;
    bg_word *X = scratch, *Y = X + (size_t)n * s, *tx = Y + (size_t)n * s;
    bg_word *ty = tx + (size_t)(n + 1) * s, *un = ty + (size_t)(n + 1) * s;
    bg_word *vn = un + (size_t)(n + 1) * s;
    bg_divmod(NULL, Y, a, n, m, n, un, vn, s);
    bg_copy(X, s, m, s, n);
    bg_zero(tx, s, n + 1);
    bg_zero(ty, s, n + 1);
    BG_AT(ty, s, 0) = 1;
    int lx = mn, ly = bg_len(Y, s, n), lt = 1, yneg = 0; /* lt: t_x, t_y have at most lt words */
    while (ly > 0) {
        uint64_t alpha;
        int beta;
        bg_approx(X, Y, s, lx, ly, &alpha, &beta);
        bg_word al[2] = {(bg_word)(alpha >> 32), (bg_word)alpha};
        int be[2] = {beta + 1, beta};
        for (int k = alpha >> 32 ? 0 : 1; k < 2; k++) {
            if (al[k] == 0) continue;
            bg_submul_w(X, Y, s, lx, ly, al[k], be[k]);
            int nt = lt + be[k] + 2 < n + 1 ? lt + be[k] + 2 : n + 1;
            bg_addmul_w(tx, ty, s, nt, lt, al[k], be[k]);
            int l2 = bg_len(tx, s, nt);
            if (l2 > lt) lt = l2;
        }
        lx = bg_len(X, s, lx);
        if (lx < ly || (lx == ly && bg_cmp(X, s, Y, s, lx) < 0)) {
            bg_word *tp = X; X = Y; Y = tp;
            tp = tx; tx = ty; ty = tp;
            int tl = lx; lx = ly; ly = tl;
            yneg ^= 1;
        }
    }
    if (lx != 1 || BG_AT(X, s, 0) != 1) return BG_INV_NONE;
    /* s_x = a^-1 mod m: its sign is the opposite of s_y's; 0 < t_x <= m */
    if (yneg) {
        bg_copy(r, s, tx, s, n);
    } else {
        bg_copy(r, s, m, s, n);
        bg_sub_inplace(r, s, tx, s, n);
    }
    if (bg_cmp(r, s, m, s, n) == 0) bg_zero(r, s, n);
    return BG_INV_OK;
}

#endif
