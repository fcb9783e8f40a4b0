/* Cooperative products: a group of TPI lanes per instance, each lane owning L consecutive
 * 32-bit words of a and of b (lane l: words l L .. l L + L - 1), for full products at widths
 * where one thread per instance runs out of registers or shared memory (2048 and 4096 bits).
 * The rows, accumulators and normalisation are those of the cooperative Montgomery product
 * (mont_coop.h) without the q m half; the kernel (mul/mul_coop.cu) joins these per-lane steps
 * with warp shuffles and ballots, and tests/int_gpu/test_int_gpu_mont_core.c runs the same
 * steps for simulated lanes against GMP. The row itself is mont_coop.h's bg_mc_row_mul.
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

/* ---- one Karatsuba step over three cooperative half products --------------------------------
 *
 * a = a1 X + a0, b = b1 X + b0 (X = D^H, H words each half, a multiple of BG_KC_CHUNK):
 * p0 = a0 b0, p2 = a1 b1 and pm = |a0 - a1| |b1 - b0|, three products of H words (a group of
 * lanes each), and
 *   a b = p0 + (p0 + p2 + s pm) X + p2 X^2,   s = -1 when exactly one of a0 - a1, b1 - b0 is
 * negative, else +1 (the middle term is a0 b1 + a1 b0, never negative). Words H .. 4H - 1 of
 * the product are cut into 3H / BG_KC_CHUNK chunks; chunk c (words H + 16 c ..) is, before the
 * carries of the chunks below, x + p0[16 c ..] + p2[16 c ..] + s pm[16 c ..] with x = p0's high
 * half (c < H / 16) or p2's low half (H / 16 <= c < 2H / 16), and p2's high half alone above
 * (bg_kc_sum4 and bg_kc_add, one carry chain per term); then every chunk adds the carry of the
 * one below (bg_kc_add) until no carry is left below the top chunk. The top chunk's carries out
 * are dropped: the product is below D^(4H), so its words taken mod D^16 come out right whatever
 * the order the carries arrive in (they sum to zero above it). 25 % fewer word products than
 * the schoolbook rows, for the differences and the pass over the chunks. */
#define BG_KC_CHUNK 16

/* w += cin (a small signed carry, sign-extended over the chunk); returns the carry out. */
BULK_HD int bg_kc_add(bg_word *w, int cin)
{
    const bg_word ext = cin < 0 ? 0xffffffffu : 0;
    bg_cc f = {0};
    w[0] = bg_add_cc(w[0], (bg_word)cin, &f);
    BG_UNROLL
    for (int j = 1; j < BG_KC_CHUNK; j++) w[j] = bg_addc_cc(w[j], ext, &f);
    return (int)bg_addc(0, 0, &f) - (cin < 0);
}

/* w = x + y + z + (neg ? -u : u) over BG_KC_CHUNK words; returns the carry out (-1 .. 3). */
BULK_HD int bg_kc_sum4(bg_word *w, const bg_word *x, const bg_word *y, const bg_word *z,
                       const bg_word *u, int neg)
{
    bg_cc f = {0};
    w[0] = bg_add_cc(x[0], y[0], &f);
    BG_UNROLL
    for (int j = 1; j < BG_KC_CHUNK; j++) w[j] = bg_addc_cc(x[j], y[j], &f);
    int c = (int)bg_addc(0, 0, &f);
    bg_cc g = {0};
    w[0] = bg_add_cc(w[0], z[0], &g);
    BG_UNROLL
    for (int j = 1; j < BG_KC_CHUNK; j++) w[j] = bg_addc_cc(w[j], z[j], &g);
    c += (int)bg_addc(0, 0, &g);
    bg_cc h = {0};
    if (neg) {
        w[0] = bg_sub_cc(w[0], u[0], &h);
        BG_UNROLL
        for (int j = 1; j < BG_KC_CHUNK; j++) w[j] = bg_subc_cc(w[j], u[j], &h);
        return c - (int)(bg_subc(0, 0, &h) & 1);
    }
    w[0] = bg_add_cc(w[0], u[0], &h);
    BG_UNROLL
    for (int j = 1; j < BG_KC_CHUNK; j++) w[j] = bg_addc_cc(w[j], u[j], &h);
    return c + (int)bg_addc(0, 0, &h);
}

#endif
