/* The word update of bit-packed Life-like automata, shared by the CPU backend (64-bit words) and
 * the CUDA kernels (32-bit words): the BPBC adders of seed 001 sections 6.2-6.3, rearranged so
 * that each row's horizontal sum is computed once and reused by the three rows it touches.
 *
 * Per word of cells C with left-shifted L (bit i = cell i-1) and right-shifted R (bit i = cell
 * i+1) neighbours, the "row sum" (s1 s0) = L + C + R in 0..3 is one full adder. The sum9 of a cell
 * (its 8 neighbours plus itself) is the sum of the row sums of the rows above, at and below it:
 * three 2-bit numbers added by two full adders and a half adder into bits (w8 w4 z0 x0), 0..9.
 * With sum9 the rule is: alive' = self ? S(sum9 - 1) : B(sum9), an arbitrary function of 5 bits.
 *
 * Logic operations per word per generation (two-input ops; LOP3-class GPU instructions in
 * brackets):
 *   neighbour shifts  6 [2 funnel shifts]: L = c << 1 | prev >> 63, R = c >> 1 | next << 63
 *   row sum           5 [2]
 *   sum9 adder       13 [6]  (w8, needed only by the generic rule: +1 [1])
 *   Conway's rule     5 [2]
 *   any rule         about 19 multiplexers [19]
 * so Conway's Life costs 29 two-input ops per word (12 LOP3/SHF on the GPU, plus one AND with the
 * boundary mask there). Seed 001's SINGLE-WORD takes 34 per word and DOUBLE-WORD 59 per two,
 * because they add the 8 neighbours afresh for every word.
 *
 * The functions are defined for both word sizes by LIFE_CORE_DEFINE(T, suffix). */
#ifndef BULK_BPBC_LIFE_CORE_H
#define BULK_BPBC_LIFE_CORE_H

#include <stdint.h>

#include "common/hd.h"

/* sel ? a : b, bitwise (one LOP3). */
#define LIFE_MUX(sel, a, b) ((b) ^ ((sel) & ((a) ^ (b))))

/* The logic as statement macros over any word type T that has the bitwise operators (scalar
 * words, GCC vector types): the BULK_HD functions below and the CPU's explicit vector loops all
 * expand these, so there is one copy of the formulas. */

/* (s1 s0) = l + c + r per bit: a full adder. */
#define LIFE_SUM3(T, l, c, r, s0, s1)                                                              \
    do {                                                                                            \
        T lsum_t_ = (l) ^ (c);                                                                      \
        (s0) = lsum_t_ ^ (r);                                                                       \
        (s1) = ((l) & (c)) | (lsum_t_ & (r));                                                       \
    } while (0)

/* (w8 w4 z0 x0) = (a1 a0) + (b1 b0) + (c1 c0) per bit, each pair at most 3. The bit-0 column is a
 * full adder with carry k; the bit-1 column adds a1, b1, c1 and k: a full adder (y1 y0), then a
 * half adder of y0 and k. */
#define LIFE_SUM9(T, a0, a1, b0, b1, c0, c1, x0, z0, w4, w8)                                       \
    do {                                                                                            \
        T ls9_t_ = (a0) ^ (b0);                                                                     \
        (x0) = ls9_t_ ^ (c0);                                                                       \
        T ls9_k_ = ((a0) & (b0)) | (ls9_t_ & (c0));                                                 \
        T ls9_u_ = (a1) ^ (b1);                                                                     \
        T ls9_y0_ = ls9_u_ ^ (c1);                                                                  \
        T ls9_y1_ = ((a1) & (b1)) | (ls9_u_ & (c1));                                                \
        T ls9_yk_ = ls9_y0_ & ls9_k_;                                                               \
        (z0) = ls9_y0_ ^ ls9_k_;                                                                    \
        (w4) = ls9_y1_ ^ ls9_yk_;                                                                   \
        (w8) = ls9_y1_ & ls9_yk_;                                                                   \
    } while (0)

/* Conway's B3/S23 from sum9: born at 3, survives at sum9 3 or 4. sum9 is 3 = (x0 z0 w4) 110 or
 * 4 = 001 (8 and 9 have z0 = w4 = 0, so w8 is not needed): alive' = [x0 = z0 != w4] and
 * (x0 or self). */
#define LIFE_CONWAY(self, x0, z0, w4) (~((x0) ^ (z0)) & ((x0) ^ (w4)) & ((x0) | (self)))

/* Any rule: tab[10 s + n] is all ones when a cell in state s with sum9 = n is alive next. A
 * multiplexer tree over x0, z0, w4, w8 and self (sum9 <= 9 prunes it). When tab holds constants
 * the compiler folds the tree down to the rule's own formula. */
#define LIFE_GENERIC_HALF(T, t, x0, z0, w4, w8, q)                                                 \
    do {                                                                                            \
        T lg_m0_ = LIFE_MUX(x0, (t)[1], (t)[0]);                                                    \
        T lg_m1_ = LIFE_MUX(x0, (t)[3], (t)[2]);                                                    \
        T lg_m2_ = LIFE_MUX(x0, (t)[5], (t)[4]);                                                    \
        T lg_m3_ = LIFE_MUX(x0, (t)[7], (t)[6]);                                                    \
        T lg_m4_ = LIFE_MUX(x0, (t)[9], (t)[8]);                                                    \
        T lg_p0_ = LIFE_MUX(z0, lg_m1_, lg_m0_);                                                    \
        T lg_p1_ = LIFE_MUX(z0, lg_m3_, lg_m2_);                                                    \
        T lg_lo_ = LIFE_MUX(w4, lg_p1_, lg_p0_);                                                    \
        (q) = LIFE_MUX(w8, lg_m4_, lg_lo_);                                                         \
    } while (0)
#define LIFE_GENERIC(T, self, x0, z0, w4, w8, tab, out)                                            \
    do {                                                                                            \
        T lg_q0_, lg_q1_;                                                                           \
        LIFE_GENERIC_HALF(T, (tab), x0, z0, w4, w8, lg_q0_);                                        \
        LIFE_GENERIC_HALF(T, (tab) + 10, x0, z0, w4, w8, lg_q1_);                                   \
        (out) = LIFE_MUX(self, lg_q1_, lg_q0_);                                                     \
    } while (0)

#define LIFE_CORE_DEFINE(T, S)                                                                      \
    BULK_HD void life_sum3_##S(T l, T c, T r, T *s0, T *s1) { LIFE_SUM3(T, l, c, r, *s0, *s1); }     \
    BULK_HD void life_sum9_##S(T a0, T a1, T b0, T b1, T c0, T c1, T *x0, T *z0, T *w4, T *w8)     \
    {                                                                                               \
        LIFE_SUM9(T, a0, a1, b0, b1, c0, c1, *x0, *z0, *w4, *w8);                                   \
    }                                                                                               \
    BULK_HD T life_conway_##S(T self, T x0, T z0, T w4) { return LIFE_CONWAY(self, x0, z0, w4); }  \
    BULK_HD T life_generic_##S(T self, T x0, T z0, T w4, T w8, const T *tab)                       \
    {                                                                                               \
        T out;                                                                                      \
        LIFE_GENERIC(T, self, x0, z0, w4, w8, tab, out);                                            \
        return out;                                                                                 \
    }                                                                                               \
    /* Fills tab[20] for life_generic from birth/survive masks. */                                 \
    BULK_HD void life_rule_table_##S(unsigned birth, unsigned survive, T *tab)                     \
    {                                                                                               \
        for (int n = 0; n < 10; n++) {                                                              \
            tab[n] = (n <= 8 && ((birth >> n) & 1)) ? (T)~(T)0 : (T)0;                              \
            tab[10 + n] = (n >= 1 && ((survive >> (n - 1)) & 1)) ? (T)~(T)0 : (T)0;                  \
        }                                                                                           \
    }

LIFE_CORE_DEFINE(uint64_t, 64)
LIFE_CORE_DEFINE(uint32_t, 32)

/* ---- seed 001's algorithms, kept as the peers the benchmark compares with (Conway only) ---- */

/* Algorithm SINGLE-WORD (seed 001 section 6.2): the next state of word i from its eight
 * neighbour words a..h (up-left, up, up-right, left, right, down-left, down, down-right, each
 * shifted so that bit k is that neighbour of cell k), 34 operations. The seed's step 12 reads
 * "X <- [A-D]0 and [E-H]1"; the carry out of bit 0 is [A-D]0 and [E-H]0, which is what is used. */
BULK_HD uint64_t life_single_word_64(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f,
                                     uint64_t g, uint64_t h, uint64_t i)
{
    uint64_t ab1 = a & b, ab0 = a ^ b, cd1 = c & d, cd0 = c ^ d;
    uint64_t ef1 = e & f, ef0 = e ^ f, gh1 = g & h, gh0 = g ^ h;
    uint64_t ad0 = ab0 ^ cd0, ad1 = ab1 ^ cd1 ^ (ab0 & cd0), ad2 = ab1 & cd1;
    uint64_t eh0 = ef0 ^ gh0, eh1 = ef1 ^ gh1 ^ (ef0 & gh0), eh2 = ef1 & gh1;
    uint64_t ah0 = ad0 ^ eh0, x = ad0 & eh0, y = ad1 ^ eh1, ah1 = x ^ y;
    uint64_t ah23 = ad2 | eh2 | (ad1 & eh1) | (x & y);
    uint64_t z = ~ah23 & ah1, i2 = ~ah0 & z, i3 = ah0 & z;
    return (i & i2) | i3;
}

/* Algorithm DOUBLE-WORD (seed 001 section 6.3): words k (upper) and l (lower) of two adjacent
 * rows at once, 59 operations for both: a, b, c are the up-left, up and up-right of k; d, e the
 * left and right of k; i, j the left and right of l; f, g, h the down-left, down and down-right
 * of l. The sum of d, e, i, j is shared. */
BULK_HD void life_double_word_64(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f,
                                 uint64_t g, uint64_t h, uint64_t i, uint64_t j, uint64_t *k, uint64_t *l)
{
    /* two 2-bit sums (p1 p0) + (q1 q0) -> (r2 r1 r0); neither is 3 */
#define LIFE_ADD22(p1, p0, q1, q0, r2, r1, r0)                                                      \
    do {                                                                                            \
        (r0) = (p0) ^ (q0);                                                                         \
        (r1) = (p1) ^ (q1) ^ ((p0) & (q0));                                                         \
        (r2) = (p1) & (q1);                                                                         \
    } while (0)
    /* 3-bit sums (p2 p1 p0) + (q2 q1 q0) of at most 4 each -> (23, 1, 0) as SINGLE-WORD's
     * steps 11-15, then the new state as steps 16-19 */
#define LIFE_ADD33_NEXT(p2, p1, p0, q2, q1, q0, self, out)                                          \
    do {                                                                                            \
        uint64_t s0_ = (p0) ^ (q0), x_ = (p0) & (q0), y_ = (p1) ^ (q1), s1_ = x_ ^ y_;              \
        uint64_t s23_ = (p2) | (q2) | ((p1) & (q1)) | (x_ & y_);                                    \
        uint64_t z_ = ~s23_ & s1_;                                                                  \
        (out) = ((self) & ~s0_ & z_) | (s0_ & z_);                                                  \
    } while (0)
    uint64_t kk = *k, ll = *l;
    uint64_t de1 = d & e, de0 = d ^ e, ij1 = i & j, ij0 = i ^ j;
    uint64_t ab1 = a & b, ab0 = a ^ b, cl1 = c & ll, cl0 = c ^ ll;
    uint64_t fg1 = f & g, fg0 = f ^ g, hk1 = h & kk, hk0 = h ^ kk;
    uint64_t m2, m1, m0, u2, u1, u0, w2, w1, w0;
    LIFE_ADD22(de1, de0, ij1, ij0, m2, m1, m0);
    LIFE_ADD22(ab1, ab0, cl1, cl0, u2, u1, u0);
    LIFE_ADD22(fg1, fg0, hk1, hk0, w2, w1, w0);
    LIFE_ADD33_NEXT(u2, u1, u0, m2, m1, m0, kk, *k);
    LIFE_ADD33_NEXT(w2, w1, w0, m2, m1, m0, ll, *l);
#undef LIFE_ADD22
#undef LIFE_ADD33_NEXT
}

/* Rule masks of Conway's Life. */
#define LIFE_CONWAY_BIRTH 0x008u   /* B3 */
#define LIFE_CONWAY_SURVIVE 0x00cu /* S23 */

#endif
