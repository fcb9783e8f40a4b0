/* powmod on the GPU with a group of TPI lanes per instance (src/int/cuda/core/mont_coop.h):
 * each lane holds L words of the modulus, the accumulator and the operands in registers, the
 * sliding window's table of odd powers sits in shared memory. The per-lane steps are the
 * BULK_HD functions of mont_coop.h; this file adds only the exchanges (shuffles, ballots),
 * exactly as tests/int_gpu/test_int_gpu_mont_core.c simulates them against GMP.
 *
 * Why a group: one thread per instance keeps 3 numbers of W bits in registers, which spills
 * from 2048 bits on (2.3e4/s at 2048 bits on the H100 against CGBN's 1.28e6 with 512-bit
 * exponents); with L words per lane a lane needs about 4 L + 16 registers whatever the width. */
#include "int/cuda/num/mont_coop.cuh"
#include "backend/cuda/smem_limit.cuh"

namespace {

const int kCoopThreads = 128; /* 128 / TPI instances per block */

/* One instance per group of TPI lanes; shared memory per instance: the BG_MC_SLOTS numbers of
 * the schedule (the window's odd powers), N = TPI L words each, word j of lane l of slot k at
 * (k L + j) TPI + l (a group's lanes read consecutive words), instances TPI words apart beyond
 * that (the groups of a warp start in different banks). A group leaves as a whole (instances past n, even or unit moduli), and
 * every exchange names only its own lanes, so groups of one warp never wait on each other. */
template <int L, int TPI>
__global__ void __launch_bounds__(kCoopThreads) powmod_coop_kernel(bg_limb *R, const bg_limb *B,
                                                                  const bg_limb *E, const bg_limb *M,
                                                                  size_t n, int limbs, int8_t *err,
                                                                  int *bad)
{
    extern __shared__ bg_word sm[];
    const int N = L * TPI, nw = 2 * limbs, gib = threadIdx.x / TPI;
    size_t inst = (size_t)blockIdx.x * (kCoopThreads / TPI) + gib;
    if (inst >= n) return;
    const group<TPI> g = this_group<TPI>();
    const bg_word *mg = (const bg_word *)(M + inst * limbs), *bgl = (const bg_word *)(B + inst * limbs);
    const bg_word *eg = (const bg_word *)(E + inst * limbs);
    bg_word *out = (bg_word *)(R + inst * limbs);
    bg_word *slot = sm + (size_t)gib * (BG_MC_SLOTS * N + TPI) + g.gl;
    const int w0 = g.gl * L;
    bg_word m[L], acc[L];
    int nz = 0, hi_nz = 0;
#pragma unroll
    for (int j = 0; j < L; j++) {
        m[j] = w0 + j < nw ? mg[w0 + j] : 0;
        nz |= m[j] != 0;
        hi_nz |= (w0 + j > 0) && m[j] != 0;
    }
    bg_word m0 = __shfl_sync(g.gm, m[0], 0, TPI);
    bool unit = g.ballot(hi_nz) == 0 && m0 <= 1;
    if (!(m0 & 1) || unit) { /* even or zero m: BULK_ERR_EVEN_MODULUS; m = 1: 0 */
#pragma unroll
        for (int j = 0; j < L; j++)
            if (w0 + j < nw) out[w0 + j] = 0;
        if (g.gl == 0) {
            if (err) err[inst] = (int8_t)(m0 & 1 ? 0 : BULK_ERR_EVEN_MODULUS);
            if (!(m0 & 1) && bad) atomicExch(bad, 1);
        }
        return;
    }
    bg_word minv = bg_mont_minv(m0);
    /* x = 2^(bitlen(m) - 1), doubled to 2^N R mod m (bg_mc_doublings), into the last slot */
    int toplane = 31 - __clz((int)g.ballot(nz)), mybits = 0;
#pragma unroll
    for (int j = 0; j < L; j++)
        if (m[j]) mybits = 32 * (w0 + j) + 32 - __clz((int)m[j]);
    int mbits = __shfl_sync(g.gm, mybits, toplane, TPI);
#pragma unroll
    for (int j = 0; j < L; j++) acc[j] = w0 + j == (mbits - 1) >> 5 ? 1u << ((mbits - 1) & 31) : 0;
    int D = bg_mc_doublings(N, mbits);
#pragma unroll 1
    for (int i = 0; i < D; i++) mc_double<L, TPI>(acc, m, g);
#pragma unroll
    for (int j = 0; j < L; j++) slot[((BG_MC_SLOTS - 1) * L + j) * TPI] = acc[j];
    __syncwarp(g.gm);
    bg_mc_sched sc;
    bg_mc_sched_init(&sc, eg, nw);
    int sa, sb, sd;
#pragma unroll 1
    while (bg_mc_sched_next(&sc, eg, &sa, &sb, &sd)) {
        bg_word a[L], b[L];
#pragma unroll
        for (int j = 0; j < L; j++) {
            a[j] = sa == BG_MC_ACC    ? acc[j]
                   : sa == BG_MC_ONE  ? (bg_word)(w0 + j == 0)
                   : sa == BG_MC_BASE ? (w0 + j < nw ? bgl[w0 + j] : 0)
                                      : slot[(sa * L + j) * TPI];
            b[j] = sb == BG_MC_ACC   ? acc[j]
                   : sb == BG_MC_ONE ? (bg_word)(w0 + j == 0)
                   : sb >= 0         ? slot[(sb * L + j) * TPI]
                                     : 0; /* BG_MC_COPY */
        }
        if (sb != BG_MC_COPY) mc_mul<L, TPI>(a, a, b, m, minv, g);
        if (sd == BG_MC_ACC) {
#pragma unroll
            for (int j = 0; j < L; j++) acc[j] = a[j];
        } else {
            __syncwarp(g.gm); /* every lane has read the slot it may overwrite */
#pragma unroll
            for (int j = 0; j < L; j++) slot[(sd * L + j) * TPI] = a[j];
            __syncwarp(g.gm);
        }
    }
#pragma unroll
    for (int j = 0; j < L; j++)
        if (w0 + j < nw) out[w0 + j] = acc[j];
    if (g.gl == 0 && err) err[inst] = 0;
}

template <int L, int TPI>
int launch(bg_limb *r, const bg_limb *base, const bg_limb *e, const bg_limb *m, size_t n,
           size_t limbs, int8_t *err, int *bad, cudaStream_t st)
{
    const size_t per_block = kCoopThreads / TPI, max_blocks = 0x7fffffff;
    const size_t smem = per_block * (BG_MC_SLOTS * L * TPI + TPI) * sizeof(bg_word);
    /* 16 words per lane: 66 KB a block, above the 48 KB a launch gets unasked */
    if (smem > 48 * 1024)
        BULK_CUDA_CHECK(NULL, bulk_cuda_smem_at_least((const void *)powmod_coop_kernel<L, TPI>, smem));
    for (size_t done = 0; done < n; done += per_block * max_blocks) {
        size_t cnt = n - done < per_block * max_blocks ? n - done : per_block * max_blocks;
        unsigned blocks = (unsigned)((cnt + per_block - 1) / per_block);
        size_t o = done * limbs;
        powmod_coop_kernel<L, TPI><<<blocks, kCoopThreads, smem, st>>>(
            r + o, base + o, e + o, m + o, cnt, (int)limbs, err ? err + done : NULL, bad);
        BULK_CUDA_CHECK_LAUNCH(NULL);
    }
    return BULK_OK;
}

template <int TPI>
int launch_l(int L, bg_limb *r, const bg_limb *base, const bg_limb *e, const bg_limb *m, size_t n,
             size_t limbs, int8_t *err, int *bad, cudaStream_t st)
{
    switch (L) {
    case 2: return launch<2, TPI>(r, base, e, m, n, limbs, err, bad, st);
    case 4: return launch<4, TPI>(r, base, e, m, n, limbs, err, bad, st);
    case 6: return launch<6, TPI>(r, base, e, m, n, limbs, err, bad, st);
    case 8: return launch<8, TPI>(r, base, e, m, n, limbs, err, bad, st);
    case 16: return launch<16, TPI>(r, base, e, m, n, limbs, err, bad, st);
    default: return BULK_ERR_INTERNAL;
    }
}

} // namespace

int bg_launch_powmod_coop(bg_limb *r, const bg_limb *base, const bg_limb *e, const bg_limb *m,
                          size_t n, size_t limbs, int tpi, int L, int8_t *err, int *bad,
                          cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if ((size_t)tpi * L < 2 * limbs) return BULK_ERR_INTERNAL;
    switch (tpi) {
    case 4: return launch_l<4>(L, r, base, e, m, n, limbs, err, bad, st);
    case 8: return launch_l<8>(L, r, base, e, m, n, limbs, err, bad, st);
    case 16: return launch_l<16>(L, r, base, e, m, n, limbs, err, bad, st);
    case 32: return launch_l<32>(L, r, base, e, m, n, limbs, err, bad, st);
    default: return BULK_ERR_INTERNAL;
    }
}
