/* The warp-column multiplication's per-lane steps and the lane carry lookahead (large W). */
#ifndef BULK_INT_CUDA_CORE_MUL_COLS_H
#define BULK_INT_CUDA_CORE_MUL_COLS_H

#include "int/cuda/core/carry.h"

/* ---- the warp-column multiplication (large W) ----------------------------------------------
 *
 * Product scanning, balanced per column as in seed 002's convolution multiplication: lane l of a
 * warp owns the four columns k0 .. k0+3 (k0 = 128 t + 4 l for the warp's task t), and for every
 * i of the warp's common range adds a_i * b_{k-i} into a 96-bit accumulator per column. a_i is
 * the same for all lanes (a shared-memory broadcast); the four b words slide by one per step, so
 * each step loads one new b word per lane. b lives in shared memory padded by BG_PAD zero words on
 * both sides (so the warp-wide range needs no bounds checks) and split into four phases (word
 * j at (j & 3) * q + (j >> 2)), so the lanes' loads, four words apart in j, fall in 32 distinct
 * banks. N = number of words of a and b. */
#define BG_PAD 128
#define BG_COLS_PER_TASK 128

/* Words of the phased, padded b buffer, and where padded word j (= index + BG_PAD) lives. */
BULK_HD int bg_bpad_q(int N) { return (N + 2 * BG_PAD + 3) / 4 + 1; }
BULK_HD int bg_bpad_pos(int jpad, int q) { return (jpad & 3) * q + (jpad >> 2); }

/* The common i range of task t: lanes' columns span [kmin, kmin + 127]. */
BULK_HD void bg_task_range(int t, int N, int *ilo, int *ihi)
{
    int kmin = t * BG_COLS_PER_TASK, kmax = kmin + BG_COLS_PER_TASK - 1;
    *ilo = kmin - (N - 1) > 0 ? kmin - (N - 1) : 0;
    *ihi = kmax < N - 1 ? kmax : N - 1;
}

/* acc[3c .. 3c+2] += a_i * w_c for c = 0..3: one carry chain of 12 instructions. */
BULK_HD void bg_col4_mac(bg_word acc[12], bg_word ai, bg_word w0, bg_word w1, bg_word w2,
                         bg_word w3, bg_cc *f)
{
    acc[0] = bg_mad_lo_cc(ai, w0, acc[0], f);
    acc[1] = bg_madc_hi_cc(ai, w0, acc[1], f);
    acc[2] = bg_addc(acc[2], 0, f);
    acc[3] = bg_mad_lo_cc(ai, w1, acc[3], f);
    acc[4] = bg_madc_hi_cc(ai, w1, acc[4], f);
    acc[5] = bg_addc(acc[5], 0, f);
    acc[6] = bg_mad_lo_cc(ai, w2, acc[6], f);
    acc[7] = bg_madc_hi_cc(ai, w2, acc[7], f);
    acc[8] = bg_addc(acc[8], 0, f);
    acc[9] = bg_mad_lo_cc(ai, w3, acc[9], f);
    acc[10] = bg_madc_hi_cc(ai, w3, acc[10], f);
    acc[11] = bg_addc(acc[11], 0, f);
}

/* acc[3c .. 3c+2] = sum over i in [ilo, ihi] of a[i] * b[k0 + c - i], c = 0..3 (b from the
 * phased buffer bq, zero outside [0, N)). k0 must be a multiple of 4. 3 instructions per
 * product, 1 b load per 4 products. The window w0..w3 = b[k0 - i .. k0 + 3 - i] slides down one
 * word per step. Steps come in groups of four starting at i = 0 mod 4: there the padded index
 * j = k0 - i + BG_PAD is 0 mod 4 (k0 and BG_PAD are), so the group's four new words are the
 * phases 3, 2, 1, 0 of one row of bq - fixed offsets from one pointer - and a[i .. i+3] is one
 * aligned 16-byte load; no index arithmetic and no register moves remain once unrolled. */
BULK_HD void bg_col4_lane(bg_word acc[12], const bg_word *a, const bg_word *bq, int q, int k0,
                          int ilo, int ihi)
{
    bg_cc f = {0};
    for (int c = 0; c < 12; c++) acc[c] = 0;
    int j = k0 - ilo + BG_PAD; /* padded index of b_{k0 - i} */
    bg_word w0 = bq[bg_bpad_pos(j, q)], w1 = bq[bg_bpad_pos(j + 1, q)];
    bg_word w2 = bq[bg_bpad_pos(j + 2, q)], w3 = bq[bg_bpad_pos(j + 3, q)];
    int i = ilo;
    for (; i <= ihi && (i & 3); i++) { /* up to the first multiple of 4 */
        bg_col4_mac(acc, a[i], w0, w1, w2, w3, &f);
        w3 = w2;
        w2 = w1;
        w1 = w0;
        j--;
        w0 = bq[bg_bpad_pos(j, q)]; /* j >= k0 - ihi - 1 + BG_PAD >= 0: within the padding */
    }
    /* groups: here j = 0 mod 4, row r = j / 4; the next words are b(j-1) .. b(j-4) = phases
     * 3, 2, 1, 0 of row r - 1 */
    const bg_word *row = bq + (j >> 2) - 1;
    for (; i + 3 <= ihi; i += 4, row--) {
        bg_word a0, a1, a2, a3;
#if BG_DEVICE
        uint4 av = *(const uint4 *)(a + i); /* i = 0 mod 4, a 16-byte aligned */
        a0 = av.x, a1 = av.y, a2 = av.z, a3 = av.w;
#else
        a0 = a[i], a1 = a[i + 1], a2 = a[i + 2], a3 = a[i + 3];
#endif
        bg_word n3 = row[3 * q], n2 = row[2 * q], n1 = row[q], n0 = row[0];
        bg_col4_mac(acc, a0, w0, w1, w2, w3, &f);
        bg_col4_mac(acc, a1, n3, w0, w1, w2, &f);
        bg_col4_mac(acc, a2, n2, n3, w0, w1, &f);
        bg_col4_mac(acc, a3, n1, n2, n3, w0, &f);
        w3 = n3;
        w2 = n2;
        w1 = n1;
        w0 = n0;
        j -= 4;
    }
    for (; i <= ihi; i++) { /* the rest */
        bg_col4_mac(acc, a[i], w0, w1, w2, w3, &f);
        w3 = w2;
        w2 = w1;
        w1 = w0;
        j--;
        w0 = bq[bg_bpad_pos(j, q)];
    }
}

/* W = sum_c col_c 2^(32c) (7 words): low four words to L, high three to H. */
BULK_HD void bg_col4_finish(const bg_word acc[12], bg_word L[4], bg_word H[3])
{
    uint64_t w[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int c = 0; c < 4; c++)
        for (int e = 0; e < 3; e++) w[c + e] += acc[3 * c + e]; /* each w < 2^34 */
    uint64_t carry = 0;
    for (int k = 0; k < 7; k++) {
        uint64_t t = w[k] + carry;
        w[k] = (uint32_t)t;
        carry = t >> 32;
    }
    for (int k = 0; k < 4; k++) L[k] = (bg_word)w[k];
    for (int k = 0; k < 3; k++) H[k] = (bg_word)w[4 + k];
}

/* L += Hprev (a 3-word number); returns the carry out of the 4 words (0 or 1). */
BULK_HD bg_word bg_add_h(bg_word L[4], const bg_word Hp[3])
{
    uint64_t c = 0;
    for (int k = 0; k < 4; k++) {
        uint64_t t = (uint64_t)L[k] + (k < 3 ? Hp[k] : 0) + c;
        L[k] = (bg_word)t;
        c = t >> 32;
    }
    return (bg_word)c;
}

/* Carry lookahead over the 32 lanes of a warp in one integer addition: lane l generates a carry
 * (bit l of G) or propagates one (bit l of P, its 128 bits all ones). With A = G | P and B = G,
 * the carries of A + B + cin are exactly the lanes' carries in. Returns the carry-in mask (bit l:
 * lane l receives a carry) and the carry out of lane 31 in *cout. */
BULK_HD uint32_t bg_warp_carries(uint32_t G, uint32_t P, uint32_t cin, uint32_t *cout)
{
    uint64_t A = (uint64_t)(G | P), B = G;
    uint64_t S = A + B + cin;
    uint64_t C = S ^ A ^ B; /* bit l = carry into bit l */
    *cout = (uint32_t)(C >> 32) & 1;
    return (uint32_t)C;
}

/* The same over a group of `width` <= 32 lanes (G, P < 2^width): carry out at bit `width`. */
BULK_HD uint32_t bg_lane_carries(uint32_t G, uint32_t P, uint32_t cin, int width, uint32_t *cout)
{
    uint64_t A = (uint64_t)(G | P), B = G;
    uint64_t S = A + B + cin;
    uint64_t C = S ^ A ^ B;
    *cout = (uint32_t)(C >> width) & 1;
    return (uint32_t)(C & ((width < 32 ? ((uint64_t)1 << width) : ((uint64_t)1 << 32)) - 1));
}

#endif
