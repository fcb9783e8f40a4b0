/* The strong probable-prime test to base 2 on the GPU (bg_launch_sprp2): a group of TPI lanes
 * per instance, the walk of core/sprp2_coop.h in Montgomery form with every number in
 * registers (L words per lane; no shared memory), the shapes of the Lucas kernel (bg_lc_shape:
 * 4 lanes of 2 .. 8 words, then 8 .. 32 lanes of 6 or 8). The per-lane steps are mont_coop.h's;
 * this file adds only the walk, exactly as tests/int_gpu/sprp2_sim.h simulates it against GMP.
 *
 * Why: isprime's base-2 test of the survivors of trial division is the largest part of its
 * device path (docs/perf/int-gpu-groups.md); done whole here it needs no exponent or base from the
 * host, and no squarings of the strong test on the host threads. */
#include "int/cuda/core/lucas_coop.h"
#include "int/cuda/core/sprp2_coop.h"
#include "int/cuda/num/mont_coop.cuh"

namespace {

const int kSprpThreads = 128; /* 128 / TPI instances per block */

/* The largest v over the warp (every lane calls it). */
__device__ __forceinline__ int warp_max(int v)
{
#pragma unroll
    for (int k = 16; k; k >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, k));
    return v;
}

/* One instance per group (lane l: words l L ..). out[i] = 1 when m_i is a strong probable
 * prime to base 2, else 0 (also for an even m or m < 3, not the caller's contract).
 *
 * Control flow is the same for the whole warp, so that its exchanges name all 32 lanes
 * (warp_group): a group past n, or with an m outside the test, computes on a stand-in
 * modulus and stores nothing (or 0); the loops run as long as the warp's longest:
 *   - the doublings to R mod m, a group with fewer keeping its value;
 *   - d's bits from the warp's highest, starting from 1 (R mod m): above a group's own top
 *     bit, 1 squared is 1 and there is no doubling, and at its top bit 1 squared and doubled
 *     is 2 (as sprp2_sim.h's `extra` leading bits); the doubling of a one bit is done on a
 *     copy and taken by the groups whose bit is one;
 *   - the squarings after the power, while some group of the warp still tests. */
template <int L, int TPI>
__global__ void __launch_bounds__(kSprpThreads) sprp2_coop_kernel(uint8_t *out, const bg_limb *M,
                                                                  size_t n, int limbs)
{
    const int N = L * TPI, nw = 2 * limbs, gib = threadIdx.x / TPI;
    const size_t inst = (size_t)blockIdx.x * (kSprpThreads / TPI) + gib;
    const bool in = inst < n;
    const group<TPI> g = warp_group<TPI>();
    const bg_word *mg = (const bg_word *)(M + (in ? inst : 0) * limbs);
    const int w0 = g.gl * L;
    bg_word m[L], one[L], mone[L], x[L];
    const bool live = mc_load_odd<L, TPI>(m, mg, nw, w0, 3, g) && in;
    int r = 1, mbits = 32 * N, dbits = 0;
    if (live) {
        dbits = bg_sp_exp(mg, nw, &r, &mbits);
    } else { /* the stand-in: 2^(32 N) - 1, and no bits of d */
#pragma unroll
        for (int j = 0; j < L; j++) m[j] = 0xffffffffu;
    }
    const bg_word minv = bg_mont_minv(__shfl_sync(g.gm, m[0], 0, TPI));
    mc_pow2<L>(one, mbits - 1, w0);
    mc_doublings<L, TPI>(one, m, bg_sp_one_doublings(N, mbits), g); /* R mod m: 1 */
#pragma unroll
    for (int j = 0; j < L; j++) x[j] = 0;
    mc_sub<L, TPI>(mone, x, one, m, g); /* m - R mod m: -1 */
#pragma unroll
    for (int j = 0; j < L; j++) x[j] = one[j];
#pragma unroll 1
    for (int i = warp_max(dbits) - 1; i >= 0; i--) {
        mc_mul<L, TPI>(x, x, x, m, minv, g);
        mc_double_if<L, TPI>(x, m, i < dbits && bg_sp_bit(mg, r + i), g);
    }
    /* both comparisons in every group: a short-circuit would leave some groups out of the
     * second one's ballot */
    const int is_one0 = mc_equal<L, TPI>(x, one, g), is_mone0 = mc_equal<L, TPI>(x, mone, g);
    int pass = is_one0 || is_mone0;
    int testing = live && !pass;
#pragma unroll 1
    for (int j = 1; __any_sync(g.gm, testing && j < r); j++) {
        mc_mul<L, TPI>(x, x, x, m, minv, g);
        const int is_mone = mc_equal<L, TPI>(x, mone, g), is_one = mc_equal<L, TPI>(x, one, g);
        if (testing && j < r) {
            if (is_mone) pass = 1;
            if (is_mone || is_one) testing = 0; /* 1 without -1 before it: composite */
        } else {
            testing = 0;
        }
    }
    if (in && g.gl == 0) out[inst] = (uint8_t)(live && pass);
}

template <int L, int TPI>
int launch(uint8_t *out, const bg_limb *m, size_t n, size_t limbs, cudaStream_t st)
{
    const size_t per_block = kSprpThreads / TPI, max_blocks = 0x7fffffff;
    for (size_t done = 0; done < n; done += per_block * max_blocks) {
        size_t cnt = n - done < per_block * max_blocks ? n - done : per_block * max_blocks;
        unsigned blocks = (unsigned)((cnt + per_block - 1) / per_block);
        sprp2_coop_kernel<L, TPI><<<blocks, kSprpThreads, 0, st>>>(out + done, m + done * limbs,
                                                                  cnt, (int)limbs);
        BULK_CUDA_CHECK_LAUNCH(NULL);
    }
    return BULK_OK;
}

/* The shapes bg_lc_shape gives (as the Lucas kernel's). */
template <int TPI>
int launch_l(int L, uint8_t *out, const bg_limb *m, size_t n, size_t limbs, cudaStream_t st)
{
    if constexpr (TPI == 4) {
        if (L == 2) return launch<2, TPI>(out, m, n, limbs, st);
        if (L == 4) return launch<4, TPI>(out, m, n, limbs, st);
    }
    if (L == 6) return launch<6, TPI>(out, m, n, limbs, st);
    if (L == 8) return launch<8, TPI>(out, m, n, limbs, st);
    return BULK_ERR_INTERNAL;
}

} // namespace

int bg_launch_sprp2(uint8_t *out, const bg_limb *m, size_t n, size_t limbs, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    int tpi, L;
    if (!bg_lc_shape((int)(2 * limbs), &tpi, &L)) return BULK_ERR_UNSUPPORTED;
    switch (tpi) {
    case 4: return launch_l<4>(L, out, m, n, limbs, st);
    case 8: return launch_l<8>(L, out, m, n, limbs, st);
    case 16: return launch_l<16>(L, out, m, n, limbs, st);
    case 32: return launch_l<32>(L, out, m, n, limbs, st);
    default: return BULK_ERR_INTERNAL;
    }
}
