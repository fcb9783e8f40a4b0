/* powmod on the GPU with a group of TPI lanes per instance (src/int/cuda/core/mont_coop.h):
 * each lane holds L words of the modulus, the accumulator and the operands in registers, the
 * sliding window's table of odd powers sits in shared memory. The per-lane steps are the
 * BULK_HD functions of mont_coop.h; this file adds only the exchanges (shuffles, ballots),
 * exactly as tests/int_gpu/test_int_gpu_mont_core.c simulates them for one group against GMP,
 * and the warp's loop around the groups (tested on the device: test_int_gpu_powmod).
 *
 * Why a group: one thread per instance keeps 3 numbers of W bits in registers, which spills
 * from 2048 bits on (2.3e4/s at 2048 bits on the H100 against CGBN's 1.28e6 with 512-bit
 * exponents); with L words per lane a lane needs about 4 L + 16 registers whatever the width. */
#include "int/cuda/num/mont_coop.cuh"
#include "backend/cuda/smem_limit.cuh"

namespace {

const int kCoopThreads = 128; /* 128 / TPI instances per block */

/* One instance per group of TPI lanes; shared memory per instance: the BG_MC_SLOTS numbers of
 * the window's odd powers, N = TPI L words each, word j of lane l of slot k at (k L + j) TPI + l
 * (a group's lanes read consecutive words), instances TPI words apart beyond that (the groups of
 * a warp start in different banks).
 *
 * Control flow is the same for the whole warp, so that its exchanges name all 32 lanes
 * (warp_group): a group with nothing to do (an instance past n, an even or unit modulus, a
 * walk already finished) computes on a stand-in modulus and stores nothing. The steps are
 * mont_coop.h's schedule, in three parts:
 *   - set-up, the same for every group: 2^N R mod m by doublings (as many as the warp's
 *     longest; a group with fewer keeps its value), five squarings to R^2, slot 0 = base R,
 *     base^2 R, slots 1 .. 7;
 *   - before the first product of the walk, per group and without exchanges: the leading
 *     squarings of 1 are skipped and the first multiplication is a copy of its slot;
 *   - one product per turn of the warp's loop: a squaring, a multiplication by a slot, or the
 *     last product by 1 (out of Montgomery form), after which the group stores its result. */
template <int L, int TPI>
__global__ void __launch_bounds__(kCoopThreads) powmod_coop_kernel(bg_limb *R, const bg_limb *B,
                                                                  const bg_limb *E, const bg_limb *M,
                                                                  size_t n, int limbs, int8_t *err,
                                                                  int *bad)
{
    extern __shared__ bg_word sm[];
    const int N = L * TPI, nw = 2 * limbs, gib = threadIdx.x / TPI;
    const size_t inst = (size_t)blockIdx.x * (kCoopThreads / TPI) + gib;
    const bool in = inst < n;
    const group<TPI> g = warp_group<TPI>();
    const size_t at = (in ? inst : 0) * limbs; /* a group past n reads nothing through it */
    const bg_word *mg = (const bg_word *)(M + at), *bgl = (const bg_word *)(B + at);
    const bg_word *eg = (const bg_word *)(E + at);
    bg_word *out = (bg_word *)(R + at);
    bg_word *slot = sm + (size_t)gib * (BG_MC_SLOTS * N + TPI) + g.gl;
    const int w0 = g.gl * L;
    bg_word m[L], acc[L], b[L];
    int nz = 0, hi_nz = 0;
#pragma unroll
    for (int j = 0; j < L; j++) {
        m[j] = in && w0 + j < nw ? mg[w0 + j] : 0;
        nz |= m[j] != 0;
        hi_nz |= (w0 + j > 0) && m[j] != 0;
    }
    const bg_word m0 = __shfl_sync(g.gm, m[0], 0, TPI);
    const bool unit = g.ballot(hi_nz) == 0 && m0 <= 1;
    const bool live = in && (m0 & 1) && !unit;
    if (in && !live) { /* even or zero m: BULK_ERR_EVEN_MODULUS; m = 1: 0 */
#pragma unroll
        for (int j = 0; j < L; j++)
            if (w0 + j < nw) out[w0 + j] = 0;
        if (g.gl == 0 && !(m0 & 1) && bad) atomicExch(bad, 1);
    }
    if (in && g.gl == 0 && err) err[inst] = (int8_t)(m0 & 1 ? 0 : BULK_ERR_EVEN_MODULUS);
    if (!live) { /* the stand-in: 2^(32 N) - 1, odd and full width */
#pragma unroll
        for (int j = 0; j < L; j++) m[j] = 0xffffffffu;
        nz = 1;
    }
    const bg_word minv = bg_mont_minv(live ? m0 : 0xffffffffu);
    /* x = 2^(bitlen(m) - 1), doubled to 2^N R mod m (bg_mc_doublings) */
    int toplane = 31 - __clz((int)g.ballot(nz)), mybits = 0;
#pragma unroll
    for (int j = 0; j < L; j++)
        if (m[j]) mybits = 32 * (w0 + j) + 32 - __clz((int)m[j]);
    const int mbits = __shfl_sync(g.gm, mybits, toplane, TPI);
    mc_pow2<L>(acc, mbits - 1, w0);
    mc_doublings<L, TPI>(acc, m, bg_mc_doublings(N, mbits), g);
#pragma unroll 1
    for (int i = 0; i < 5; i++) mc_mul<L, TPI>(acc, acc, acc, m, minv, g); /* R^2 mod m */
#pragma unroll
    for (int j = 0; j < L; j++) b[j] = live && w0 + j < nw ? bgl[w0 + j] : 0;
    mc_mul<L, TPI>(b, b, acc, m, minv, g); /* base R (base may exceed m: base < R) */
#pragma unroll
    for (int j = 0; j < L; j++) slot[j * TPI] = b[j];
    mc_mul<L, TPI>(acc, b, b, m, minv, g); /* base^2 R */
#pragma unroll 1
    for (int k = 1; k < BG_MC_SLOTS; k++) {
        mc_mul<L, TPI>(b, b, acc, m, minv, g);
#pragma unroll
        for (int j = 0; j < L; j++) slot[(k * L + j) * TPI] = b[j];
    }
    __syncwarp(g.gm);
    /* the walk: acc = 1 until its first multiplication, which is a copy */
    bg_expwalk w = {-1, 0, -1};
    int op = 0, idx = 0;
    if (live) {
        bg_expwalk_init(&w, eg, 1, nw);
        do op = bg_expwalk_next(&w, eg, 1, &idx);
        while (op == 1);
    }
    if (op == 2) {
#pragma unroll
        for (int j = 0; j < L; j++) acc[j] = slot[(idx * L + j) * TPI];
    } else if (live) { /* a zero exponent: 1 (m > 1) */
#pragma unroll
        for (int j = 0; j < L; j++)
            if (w0 + j < nw) out[w0 + j] = (bg_word)(w0 + j == 0);
    }
    bool walking = op == 2;
#pragma unroll 1
    while (__any_sync(g.gm, walking)) {
        op = walking ? bg_expwalk_next(&w, eg, 1, &idx) : 1; /* 0: the last product, by 1 */
#pragma unroll
        for (int j = 0; j < L; j++)
            b[j] = op == 2 ? slot[(idx * L + j) * TPI] : op == 0 ? (bg_word)(w0 + j == 0) : acc[j];
        mc_mul<L, TPI>(acc, acc, b, m, minv, g);
        if (walking && op == 0) {
#pragma unroll
            for (int j = 0; j < L; j++)
                if (w0 + j < nw) out[w0 + j] = acc[j];
            walking = false;
        }
    }
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
