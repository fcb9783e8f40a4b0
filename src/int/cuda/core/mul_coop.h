/* Cooperative products: a group of TPI lanes per instance, each lane owning L consecutive
 * 32-bit words of a and of b (lane l: words l L .. l L + L - 1), for full products at widths
 * where one thread per instance runs out of registers or shared memory (2048 and 4096 bits).
 * The rows, accumulators and normalisation are those of the cooperative Montgomery product
 * (mont_coop.h) without the q m half; the kernel (mul/mul_coop.cu) joins these per-lane steps
 * with warp shuffles and ballots, and tests/int_gpu/test_int_gpu_mont_core.c runs the same
 * steps for simulated lanes against GMP.
 *
 * The product a b (N = TPI L words each), one row per word b_i, i = 0 .. N - 1:
 *   bi = b word i (the kernel keeps b in shared memory, one word read by the whole group);
 *   every lane adds a_l bi (bg_mc_row_mul: o_0 folded into e_0, the odd words' products into o,
 *   the even words' into e, one fused multiply-add per word product);
 *   lane 0's word 0 (e_0) is column i of the product and final - no later row reaches it, and
 *   the carries of the columns below went up through the accumulators - so it is the product's
 *   word i, stored by lane 0; then the number is divided by 2^32 (bg_mc_shift: each lane hands
 *   e_0 to the lane below, the top lane takes 0).
 * After the N rows the lanes' segments hold the high half (word N + l L + j in lane l), in the
 * redundant form of mont_coop.h, resolved once by bg_mc_merge, bg_mc_norm1 and a carry
 * lookahead over the group (bg_mc_lookahead, bg_lc_inc); the top lane's carry out is zero (the
 * product is below D^(2N)). Bounds: a row adds less than D X to e + o D (X = D^L), half of what
 * a Montgomery row adds, so mont_coop.h's bounds (e < 3 X, o < 2 X between rows) hold. Per row
 * and lane: L fused multiply-adds, one shared-memory read (bi), one shuffle (the shifted word),
 * one store (lane 0's) and about 8 other instructions: 25.6 instructions at L = 16 (SASS, nvcc
 * 13, sm_90), against the 32 cycles the FMA pipe needs for the 16 wide multiply-adds. */
#ifndef BULK_INT_CUDA_CORE_MUL_COOP_H
#define BULK_INT_CUDA_CORE_MUL_COOP_H

#include "int/cuda/core/mont_coop.h"

/* One row of the product: e + o += a bi (a of L words, L even; e, o of L + 2 words within the
 * bounds above): bg_mc_row without the m q chains. Leaves o[0] = 0, so that e[0] is the
 * lane's word 0. */
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

/* ---- one Karatsuba step over three cooperative half products --------------------------------
 *
 * a = a1 X + a0, b = b1 X + b0 (X = D^H, H words each half): p0 = a0 b0, p2 = a1 b1 and
 * pm = |a0 - a1| |b1 - b0|, three products of H words (a group of lanes each), and
 *   a b = p0 + (p0 + p2 + s pm) X + p2 X^2,   s = -1 when exactly one of a0 - a1, b1 - b0 is
 * negative, else +1 (the middle term is a0 b1 + a1 b0, never negative). Words H .. 4H - 1 of
 * the product are cut into 3H / BG_KC_CHUNK chunks; each chunk's words are first summed without
 * the carries of the chunks below (bg_kc_chunk), then every chunk adds the carry of the one
 * below (bg_kc_add) until no carry is left below the top chunk. The top chunk's carries out are
 * dropped: the product is below D^(4H), so its words taken mod D^16 come out right whatever the
 * order the carries arrive in (they sum to zero above it). 25 % fewer word products than the
 * schoolbook rows, for the sums and one more pass over the words. */
#define BG_KC_CHUNK 16

/* floor(x / D) for |x| < 2^62, without relying on the shift of a negative number. */
BULK_HD int64_t bg_kc_floor(int64_t x) { return (x - (int64_t)(bg_word)x) / ((int64_t)1 << 32); }

/* w[0 .. BG_KC_CHUNK) = chunk c of the product's words from H (words H + 16 c ..), the carries
 * of the chunks below not yet counted; neg: s = -1. Returns the chunk's carry out, -1 .. 4 (a
 * word gathers at most four terms below D and one subtracted). p0, p2, pm: 2H words each. */
BULK_HD int bg_kc_chunk(bg_word *w, const bg_word *p0, const bg_word *p2, const bg_word *pm,
                        int neg, int H, int c)
{
    int64_t carry = 0;
    BG_UNROLL
    for (int j = 0; j < BG_KC_CHUNK; j++) {
        const int k = BG_KC_CHUNK * c + j;
        int64_t acc = carry;
        if (k < H) acc += p0[H + k];
        if (k < 2 * H) acc += (int64_t)p0[k] + p2[k] + (neg ? -(int64_t)pm[k] : (int64_t)pm[k]);
        if (k >= H) acc += p2[k - H];
        w[j] = (bg_word)acc;
        carry = bg_kc_floor(acc);
    }
    return (int)carry;
}

/* w[0 .. BG_KC_CHUNK) += cin (-1 .. 4, the carry of the chunk below); returns the carry out
 * (-1 .. 1). */
BULK_HD int bg_kc_add(bg_word *w, int cin)
{
    int64_t carry = cin;
    BG_UNROLL
    for (int j = 0; j < BG_KC_CHUNK; j++) {
        const int64_t acc = (int64_t)w[j] + carry;
        w[j] = (bg_word)acc;
        carry = bg_kc_floor(acc);
    }
    return (int)carry;
}

#endif
