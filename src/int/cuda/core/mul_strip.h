/* Strips of even/odd rows: one thread's product of 2048 or 4096 bits as blocks of the
 * per-thread even/odd rows (core/mul_eo.h), 32 words of b in registers times 64 words of a
 * read row by row, each block added into the result where earlier blocks wrote. */
#ifndef BULK_INT_CUDA_CORE_MUL_STRIP_H
#define BULK_INT_CUDA_CORE_MUL_STRIP_H

#include "int/cuda/core/mul_eo.h"

/* Words of b a strip holds in registers (the even/odd rows' register operand: 1024 bits, the
 * width whose per-thread rows measured best, docs/perf/int-gpu.md "mul 1024 by even/odd
 * rows"), and words of a one block reads as rows. A block is BG_STRIP_W x BG_STRIP_ROWS word
 * products, BG_STRIP_W + BG_STRIP_ROWS words of result. */
#define BG_STRIP_W 32
#define BG_STRIP_ROWS 64

/* *w + prev + *c into *w, *c the carry (0 or 1) below and out; flag instructions as in
 * bg_eo_word. */
BULK_HD void bg_strip_add(bg_word *w, bg_word prev, bg_word *c)
{
    bg_cc f = {0};
    const bg_word t = bg_add_cc(*w, *c, &f);
    const bg_word x = bg_addc(0, 0, &f);
    *w = bg_add_cc(t, prev, &f);
    *c = bg_addc(x, 0, &f);
}

/* r[0 .. na + nb) += x[0 .. na) y[0 .. nb) (1 <= na <= BG_EO_MAXW, 1 <= nb <= BG_STRIP_ROWS)
 * by the even/odd rows of bg_mul_rect_eo, x the register operand and y read one word a row:
 * words r[k], k < k0, are read and added to, words from k0 on are written without being read
 * (they hold something else: the caller's staged operand). Returns the carry out of word
 * na + nb - 1 (0 or 1): the sum is below 2 D^(na + nb) because r[0 .. k0) < D^(na + nb). Word
 * k is emitted BG_EO_LAG rows after row k, as in bg_mul_rect_eo (bounds there). */
BULK_HD bg_word bg_strip_block(bg_word *r, int k0, const bg_word *x, int na, const bg_word *y,
                               int nb)
{
    enum { N = BG_EO_MAXW + BG_STRIP_ROWS };
    const int n = na + nb;
    bg_word e[N], o[N - 1], c = 0, c2 = 0;
    for (int k = k0 > 0 ? k0 : 0; k < n; k++) r[k] = 0; /* fresh words: added to as zeros */
    BG_UNROLL
    for (int j = 0; j < n; j++) e[j] = 0;
    BG_UNROLL
    for (int j = 0; j < n - 1; j++) o[j] = 0;
    BG_UNROLL
    for (int i = 0; i < nb; i++) {
        const int p = i & 1;
        const bg_word yi = y[i];
        bg_eo_chain(e, n, i + p, x, p, yi, na);
        bg_eo_chain(o, n - 1, i - p, x, 1 - p, yi, na);
        if (i >= BG_EO_LAG) {
            const int k = i - BG_EO_LAG;
            bg_word w = bg_eo_word(e, o, k, &c);
            bg_strip_add(&w, r[k], &c2);
            r[k] = w;
        }
    }
    BG_UNROLL
    for (int k = nb - BG_EO_LAG > 0 ? nb - BG_EO_LAG : 0; k < n; k++) {
        bg_word w = bg_eo_word(e, o, k, &c);
        bg_strip_add(&w, r[k], &c2);
        r[k] = w;
    }
    return c2;
}

/* r[0 .. 2nw) = a[0 .. nw) b[0 .. nw), nw a multiple of BG_STRIP_ROWS, where on entry r's
 * upper half holds b (r[nw + j] = b[j]) and its lower half anything; a stays unchanged. Strip
 * s = b[32s .. 32s + 32) goes into registers, then blocks h = 0, 1, .. add it times
 * a[64h .. 64h + 64) at word 32s + 64h. What is written is always a prefix r[0 .. hi) holding
 * the sum of the blocks done (each block starts at or below hi), so a block reads the words
 * below hi and writes the others; its carry out runs up through the words below hi and, past
 * them, becomes word hi. Block (s, h) writes up to word 32s + 64h + 96 <= nw + 32 (s + 1) and a
 * carry word at most one past hi <= 32 s + nw: neither reaches strips of b above s, which are
 * read only when their turn comes. The sum of the blocks done never reaches D^(2 nw) (it is at
 * most a b), so every carry lands inside r. The loops over strips and blocks are not unrolled:
 * one block's code (2048 fused multiply-adds) serves them all. */
BULK_HD void bg_mul_strips(bg_word *r, const bg_word *a, int nw)
{
    const int H = nw / BG_STRIP_ROWS; /* blocks per strip */
    int hi = 0;
    bg_word x[BG_STRIP_W];
    BG_NOUNROLL
    for (int blk = 0; blk < H * (nw / BG_STRIP_W); blk++) {
        const int s = blk / H, h = blk - s * H;
        if (h == 0) {
            BG_UNROLL
            for (int j = 0; j < BG_STRIP_W; j++) x[j] = r[nw + s * BG_STRIP_W + j];
        }
        const int off = s * BG_STRIP_W + h * BG_STRIP_ROWS;
        const int top = off + BG_STRIP_W + BG_STRIP_ROWS;
        bg_word c = bg_strip_block(r + off, hi - off, x, BG_STRIP_W, a + h * BG_STRIP_ROWS,
                                   BG_STRIP_ROWS);
        for (int k = top; c; k++) {
            if (k >= hi) {
                r[k] = c;
                hi = k + 1;
                break;
            }
            r[k] += 1;
            c = r[k] == 0;
        }
        if (top > hi) hi = top;
    }
}

#endif
