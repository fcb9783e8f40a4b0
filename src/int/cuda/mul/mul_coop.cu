/* Multiplication with a group of TPI lanes per instance (core/mul_coop.h), 1281 .. 4096 bits;
 * the size choice is in int_cuda_mul.cu. */
#include "int/cuda/num/mont_coop.cuh"
#include "int/cuda/core/mul_coop.h"
#include "int/cuda/mul/mul_internal.cuh"

namespace {

const int kCoopMulThreads = 128; /* 128 / TPI instances a block */

/* One instance per group of TPI lanes, L words of a per lane in registers (N = TPI L words, the
 * width nw = 2 l zero-padded up to it), b in the group's row of shared memory (row i reads
 * word i, the same address for the whole group: a broadcast; against a shuffle from the owning
 * lane's registers the rate was the same, 1.62e9/s at 2048 bits, at 76 registers instead of
 * 92). Lane 0 stores the product's word i at row i into the row's other half; rows are 2 N + 1
 * words, so the groups of a warp hit different banks. After the rows each lane writes words
 * l L .. of the low half from shared memory and of the high half from its registers. vec: the
 * operands and the result are 16-byte aligned and nw = N, so every lane moves its words as
 * 16-byte vectors. A group leaves as a whole (instances past n), and every exchange names only
 * its own lanes. */
template <int L, int TPI>
__global__ void __launch_bounds__(kCoopMulThreads) mul_coop_kernel(bg_limb *r, const bg_limb *a,
                                                                   const bg_limb *b, size_t n,
                                                                   int l, int vec)
{
    extern __shared__ bg_word sm[];
    const int N = L * TPI, nw = 2 * l, gib = threadIdx.x / TPI;
    const size_t inst = (size_t)blockIdx.x * (kCoopMulThreads / TPI) + gib;
    if (inst >= n) return;
    const group<TPI> g = this_group<TPI>();
    const bg_word *ag = (const bg_word *)(a + inst * l), *bg = (const bg_word *)(b + inst * l);
    bg_word *out = (bg_word *)(r + inst * 2 * l), *lo = sm + gib * (2 * N + 1), *yb = lo + N;
    const int w0 = g.gl * L;
    bg_word x[L];
    if (vec) {
#pragma unroll
        for (int j = 0; j < L; j += 4) {
            const uint4 u = *(const uint4 *)(ag + w0 + j), v = *(const uint4 *)(bg + w0 + j);
            x[j] = u.x, x[j + 1] = u.y, x[j + 2] = u.z, x[j + 3] = u.w;
            yb[w0 + j] = v.x, yb[w0 + j + 1] = v.y, yb[w0 + j + 2] = v.z, yb[w0 + j + 3] = v.w;
        }
    } else {
#pragma unroll
        for (int j = 0; j < L; j++) {
            x[j] = w0 + j < nw ? ag[w0 + j] : 0;
            yb[w0 + j] = w0 + j < nw ? bg[w0 + j] : 0;
        }
    }
    __syncwarp(g.gm);
    bg_word t[L + 2], o[L + 2];
#pragma unroll
    for (int j = 0; j < L + 2; j++) t[j] = o[j] = 0;
#pragma unroll 1
    for (int s = 0; s < TPI; s++) {
#pragma unroll
        for (int k = 0; k < L; k++) { /* L even: the accumulators are back in place */
            const bg_word bi = yb[s * L + k]; /* one address for the group: a broadcast */
            bg_mc_row_mul(t, o, x, bi, L);
            const bg_word d = __shfl_down_sync(g.gm, t[0], 1, TPI);
            if (g.gl == 0) lo[s * L + k] = t[0];
            bg_mc_shift(t, o, g.gl == TPI - 1 ? 0 : d, L);
        }
    }
    bg_mc_merge(t, t, o, L);
    const bg_word up = __shfl_up_sync(g.gm, t[L], 1, TPI);
    int p, cout;
    const int c = bg_mc_norm1(t, g.gl == 0 ? 0 : up, L, &p);
    const uint32_t cin = bg_mc_lookahead(g.ballot(c), g.ballot(p), TPI, &cout);
    bg_lc_inc(t, (int)((cin >> g.gl) & 1), L);
    __syncwarp(g.gm);
    if (vec) {
#pragma unroll
        for (int j = 0; j < L; j += 4) {
            *(uint4 *)(out + w0 + j) = make_uint4(lo[w0 + j], lo[w0 + j + 1], lo[w0 + j + 2],
                                                  lo[w0 + j + 3]);
            *(uint4 *)(out + N + w0 + j) = make_uint4(t[j], t[j + 1], t[j + 2], t[j + 3]);
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < L; j++) {
        if (w0 + j < 2 * nw) out[w0 + j] = lo[w0 + j];
        if (N + w0 + j < 2 * nw) out[N + w0 + j] = t[j];
    }
}

template <int L, int TPI>
int launch_coop(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st)
{
    const int per = kCoopMulThreads / TPI;
    const size_t smem = sizeof(bg_word) * (size_t)per * (2 * L * TPI + 1);
    const int vec = 2 * l == L * TPI && ((uintptr_t)r | (uintptr_t)a | (uintptr_t)b) % 16 == 0;
    const unsigned grid = (unsigned)((n + per - 1) / per);
    mul_coop_kernel<L, TPI><<<grid, kCoopMulThreads, smem, st>>>(r, a, b, n, l, vec);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

} // namespace

namespace bgmul {

/* 4 lanes of 16 words up to 2048 bits, 8 up to 4096: measured on one H200 (device-resident,
 * 2^20 and 2^18 instances) against 8 lanes of 8 words at 2048 bits (1.41e9/s against
 * 1.62e9) and 16 of 8 at 4096 (3.64e8 against 4.16e8); docs/perf/int-gpu-groups.md "Cooperative
 * products at 2048 and 4096 bits". */
int launch_coop(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st)
{
    if (l <= 32) return ::launch_coop<16, 4>(r, a, b, n, l, st);
    return ::launch_coop<16, 8>(r, a, b, n, l, st);
}

} // namespace bgmul
