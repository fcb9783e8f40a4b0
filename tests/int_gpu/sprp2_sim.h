/* The base-2 strong test kernel (src/int/cuda/num/sprp2_coop.cu) for TPI simulated lanes:
 * sim_sprp2 mirrors sprp2_coop_kernel line by line, every exchange of the group done by hand
 * (mont_sim.h, lucas_sim.h). Used by test_int_gpu_sprp2_core (against GMP) and as the device's
 * stand-in in test_int_prime_offload. */
#ifndef BULK_TEST_INT_GPU_SPRP2_SIM_H
#define BULK_TEST_INT_GPU_SPRP2_SIM_H

#include "int/cuda/core/sprp2_coop.h"
#include "lucas_sim.h"

/* 1 when x = y in every lane's words (mc_equal's ballot). */
static inline int sim_equal(lanes x, lanes y, int T, int L)
{
    for (int l = 0; l < T; l++)
        for (int j = 0; j < L; j++)
            if (x[l][j] != y[l][j]) return 0;
    return 1;
}

/* sprp2_coop_kernel for one instance: 1 when m (nw words) is a strong probable prime to base
 * 2, else 0 (also for an even m or m < 3). extra: zero bits walked above d's top bit, as the
 * kernel walks them for a group whose d is shorter than the longest of its warp. */
static inline int sim_sprp2(const bg_word *mw, int nw, int T, int L, int extra)
{
    static lanes m, one, mone, x;
    const int N = T * L;
    to_lanes(m, mw, nw, T, L);
    int hi_nz = 0;
    for (int l = 0; l < T; l++)
        for (int j = 0; j < L; j++) hi_nz |= (l || j) && m[l][j];
    if (!(m[0][0] & 1) || (!hi_nz && m[0][0] < 3)) return 0;
    bg_word minv = bg_mont_minv(m[0][0]);
    int r, mbits, dbits = bg_sp_exp(mw, nw, &r, &mbits);
    memset(one, 0, sizeof one);
    one[(mbits - 1) / 32 / L][(mbits - 1) / 32 % L] = 1u << ((mbits - 1) & 31);
    int nd = bg_sp_one_doublings(N, mbits);
    for (int i = 0; i < nd; i++) sim_double(one, m, T, L); /* R mod m: 1 */
    memset(x, 0, sizeof x);
    sim_sub(mone, x, one, m, T, L); /* -1 */
    memcpy(x, one, sizeof x); /* 1, squared (and doubled at a one bit) from the top */
    for (int i = dbits + extra - 1; i >= 0; i--) {
        sim_mul(x, x, x, m, minv, T, L);
        if (i < dbits && bg_sp_bit(mw, r + i)) sim_double(x, m, T, L);
    }
    int pass = sim_equal(x, one, T, L) || sim_equal(x, mone, T, L);
    int testing = !pass;
    for (int j = 1; testing && j < r; j++) {
        sim_mul(x, x, x, m, minv, T, L);
        int is_mone = sim_equal(x, mone, T, L), is_one = sim_equal(x, one, T, L);
        if (is_mone) pass = 1;
        if (is_mone || is_one) testing = 0; /* 1 without -1 before it: composite */
    }
    return pass;
}

#endif
