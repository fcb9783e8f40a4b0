/* Multiplication on the GPU: full product, low half (mul_lo) and square (b = a).
 *
 * Kernels chosen by size from measured thresholds (choose() below):
 *  - even/odd rows, one instance per thread (limbs <= 20, W <= 1280 bits; products, squares,
 *    low halves): bg_mul_rows_eo / bg_sqr_rows_eo / bg_mullo_rows_eo, one IMAD.WIDE.U32.X per
 *    word product, operands staged through shared memory (coalesced global access), b read
 *    from shared memory row by row, finished words stored as they complete. Capacities 1, 2,
 *    4, 8, 12, 16, 20 limbs; a width between two is padded with zero words up to the next.
 *  - sum-rotate (seed 000; full products from 21 limbs, W up to 16384 bits): a group of
 *    G = 8, 16 or 32 lanes per instance, P words of a per lane, exactly the (G P)^2 word
 *    products; finished columns leave through the group's first lane.
 *  - Karatsuba over the batch from 32768 bits (even widths): three batched half-size products.
 *  - the warp-column kernel (larger W, and odd widths above sum-rotate): one block per
 *    instance, each warp computes 128 consecutive product columns (4 per lane, bg_col4_lane),
 *    and the column sums are turned into words by a carry-lookahead over lanes
 *    (bg_warp_carries) and over warps (a serial scan of the warps' generate/propagate masks in
 *    shared memory) - seed 002's scan-based carry propagation with the lanes of a warp as the
 *    digits.
 *  - the batched NTT (int_cuda_ntt.cu, the intntt area) where bg_ntt_preferred() says so.
 * BULK_CUDA_MUL=teo|sr|cols|kara|ntt forces one of these where it holds the width (tests and
 * benchmarks); the measurements behind the thresholds: docs/perf/int-gpu.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_cuda_internal.cuh"
#include "int/cuda/int_gpu_core.h"
#include "int/cuda/int_cuda_ntt.cuh" /* K_NTT: intntt's batched NTT */

namespace {

/* ---- one instance per thread, even/odd rows ------------------------------------------------
 *
 * bg_mul_rows_eo: one IMAD.WIDE.U32.X per word product (nvcc 13, sm_90), against IMAD +
 * IMAD.HI.U32 + about two IADD3.X in bg_mul_rows - and on the FMA pipe 2 slots per product
 * (the wide multiply-add, like the high half, at half rate) instead of 3. Registers: a (2L
 * words) and the two accumulators' live windows (about 2L + 2 words each); b stays in shared
 * memory (one read per row) and every finished word goes straight to shared memory, so a
 * 1024-bit instance takes about 110 registers instead of the 150 of a register-array version
 * (4 blocks of 128 threads per SM instead of 3). a and b are staged together (one barrier, both
 * operands' global loads in flight at once); a's rows share the output's region (each thread
 * reads its own a row before writing its own output row). Shared memory per block: 128 x
 * ((4L + 1) + (2L + 1)) words (50 KiB at L = 16). */

const int kEoBlock = 128;

/* Global -> shared, instance-major, cnt instances of l limbs from instance `first`, as 32-bit
 * words into rows of S words (odd: the per-thread row reads hit distinct banks). LC: l when
 * known at compile time (0: run time). */
template <int LC, int BS>
__device__ __forceinline__ void eo_stage(bg_word *sh, int S, const bg_limb *src, size_t first,
                                         int cnt, int l)
{
    const int ll = LC ? LC : l;
    const bg_limb *g = src + first * (size_t)ll;
    for (int k = threadIdx.x; k < cnt * ll; k += BS) {
        int inst = k / ll, j = k - inst * ll;
        bg_limb v = g[k];
        sh[inst * S + 2 * j] = (bg_word)v;
        sh[inst * S + 2 * j + 1] = (bg_word)(v >> 32);
    }
}

/* What mul_eo_kernel computes: the full product, the square of a, the low half. */
enum eo_mode { EO_MUL, EO_SQR, EO_LO };

/* A full block at the compiled width (cnt = BS, l = L): every thread's 2L global loads
 * of a and b issued before the first shared-memory store, so the block waits for one memory
 * round trip instead of one per unrolled group of the loop in eo_stage (nvcc unrolls it by 4:
 * 8 round trips at L = 16). The loaded limbs take registers the rows need only later. */
template <int L, int BS, bool SQ>
__device__ __forceinline__ void eo_stage_full(bg_word *so, int SO, bg_word *sb, int SB,
                                              const bg_limb *a, const bg_limb *b, size_t first)
{
    const bg_limb *ga = a + first * (size_t)L, *gb = b + first * (size_t)L;
    bg_limb va[L], vb[L];
#pragma unroll
    for (int t = 0; t < L; t++) {
        va[t] = ga[t * BS + threadIdx.x];
        if (!SQ) vb[t] = gb[t * BS + threadIdx.x];
    }
#pragma unroll
    for (int t = 0; t < L; t++) {
        const int k = t * BS + threadIdx.x, inst = k / L, j = k % L;
        so[inst * SO + 2 * j] = (bg_word)va[t];
        so[inst * SO + 2 * j + 1] = (bg_word)(va[t] >> 32);
        if (SQ) continue;
        sb[inst * SB + 2 * j] = (bg_word)vb[t];
        sb[inst * SB + 2 * j + 1] = (bg_word)(vb[t] >> 32);
    }
}

/* floor(k / d) for k d < 2^32 by one high multiply with m = eo_magic(d) = ceil(2^32 / d) (for
 * a power of two exactly 2^32 / d): k m / 2^32 = k / d + k e / (d 2^32) with e = m d - 2^32
 * < d, and k e < 2^32. The run-time divisions of the staging loops are IMAD work on the pipe
 * the products need (832 bits, 13 limbs in the 16-limb capacity, ran 4.3e9/s against 5.3e9 at
 * 1024 bits with them; docs/perf/int-gpu.md "mul 1024 by even/odd rows"). */
__device__ __forceinline__ uint32_t eo_magic(uint32_t d) { return 0xffffffffu / d + 1; }
__device__ __forceinline__ int eo_div(int k, uint32_t m) { return (int)__umulhi((uint32_t)k, m); }

/* A full block below the compiled width (cnt = BS, l < L): as eo_stage_full, with the
 * thread's loads (at most L a operand, fixed trip count, guarded) in flight at once and the
 * instance of limb k by eo_div. */
template <int L, int BS, bool SQ>
__device__ __forceinline__ void eo_stage_short(bg_word *so, int SO, bg_word *sb, int SB,
                                               const bg_limb *a, const bg_limb *b, size_t first,
                                               int l)
{
    const bg_limb *ga = a + first * (size_t)l, *gb = b + first * (size_t)l;
    const int tot = BS * l;
    const uint32_t m = eo_magic((uint32_t)l);
    bg_limb va[L], vb[L];
#pragma unroll
    for (int t = 0; t < L; t++) {
        const int k = t * BS + threadIdx.x;
        if (k < tot) {
            va[t] = ga[k];
            if (!SQ) vb[t] = gb[k];
        }
    }
#pragma unroll
    for (int t = 0; t < L; t++) {
        const int k = t * BS + threadIdx.x, inst = eo_div(k, m), j = k - inst * l;
        if (k >= tot) break;
        so[inst * SO + 2 * j] = (bg_word)va[t];
        so[inst * SO + 2 * j + 1] = (bg_word)(va[t] >> 32);
        if (SQ) continue;
        sb[inst * SB + 2 * j] = (bg_word)vb[t];
        sb[inst * SB + 2 * j + 1] = (bg_word)(vb[t] >> 32);
    }
}

/* A full block is loaded by eo_stage_full (eo_stage_short below the compiled width), other
 * blocks by the loops of eo_stage. BS threads (instances) a block. M: EO_MUL r = a b (2l limbs), EO_SQR r = a^2 by bg_sqr_rows_eo (about half the products;
 * b is neither read nor staged), EO_LO r = a b mod 2^(64 l) by bg_mullo_rows_eo (l limbs). */
template <int L, int BS, int M = EO_MUL>
__global__ void __launch_bounds__(BS) mul_eo_kernel(bg_limb *r, const bg_limb *a,
                                                           const bg_limb *b, size_t n, int l)
{
    extern __shared__ bg_word sh[];
    const bool SQ = M == EO_SQR;
    const int NW = 2 * L, RW = M == EO_LO ? NW : 2 * NW, SO = RW + 1, SB = NW + 1;
    bg_word *so = sh, *sb = sh + BS * SO; /* output (and a) rows; b rows */
    size_t first = (size_t)blockIdx.x * BS;
    int cnt = (int)(n - first < (size_t)BS ? n - first : BS);
    if (l == L && cnt == BS) {
        eo_stage_full<L, BS, M == EO_SQR>(so, SO, sb, SB, a, b, first);
    } else if (cnt == BS) {
        eo_stage_short<L, BS, M == EO_SQR>(so, SO, sb, SB, a, b, first, l);
    } else if (l == L) {
        eo_stage<L, BS>(so, SO, a, first, cnt, l);
        if (!SQ) eo_stage<L, BS>(sb, SB, b, first, cnt, l);
    } else {
        eo_stage<0, BS>(so, SO, a, first, cnt, l);
        if (!SQ) eo_stage<0, BS>(sb, SB, b, first, cnt, l);
    }
    bg_word *mo = so + threadIdx.x * SO, *mb = sb + threadIdx.x * SB;
    if (!SQ)
        for (int j = 2 * l; j < NW; j++) mb[j] = 0; /* a width below L: zero words of b */
    __syncthreads();
    bg_word aw[NW];
#pragma unroll
    for (int j = 0; j < NW; j++) aw[j] = j < 2 * l ? mo[j] : 0;
    if (M == EO_SQR) bg_sqr_rows_eo(mo, aw, NW);
    else if (M == EO_LO) bg_mullo_rows_eo(mo, aw, mb, NW);
    else bg_mul_rows_eo(mo, aw, mb, NW);
    __syncthreads();
    const int ol = M == EO_LO ? l : 2 * l; /* limbs written per instance */
    bg_limb *g = r + first * (size_t)ol;
    if (l == L && cnt == BS) { /* compile-time indices: no division on the FMA pipe */
#pragma unroll
        for (int t = 0; t < RW / 2; t++) {
            const int k = t * BS + threadIdx.x, inst = k / (RW / 2), j = k % (RW / 2);
            g[k] = (bg_limb)so[inst * SO + 2 * j] | ((bg_limb)so[inst * SO + 2 * j + 1] << 32);
        }
        return;
    }
    if (cnt == BS) { /* below the compiled width: eo_div instead of a division */
        const int tot = BS * ol;
        const uint32_t m = eo_magic((uint32_t)ol);
#pragma unroll
        for (int t = 0; t < RW / 2; t++) {
            const int k = t * BS + threadIdx.x, inst = eo_div(k, m), j = k - inst * ol;
            if (k >= tot) break;
            g[k] = (bg_limb)so[inst * SO + 2 * j] | ((bg_limb)so[inst * SO + 2 * j + 1] << 32);
        }
        return;
    }
    for (int k = threadIdx.x; k < cnt * ol; k += BS) {
        int inst = k / ol, j = k - inst * ol;
        g[k] = (bg_limb)so[inst * SO + 2 * j] | ((bg_limb)so[inst * SO + 2 * j + 1] << 32);
    }
}

template <int L, int BS = kEoBlock, int M = EO_MUL>
int launch_eo(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st)
{
    const int rw = M == EO_LO ? 2 * L : 4 * L; /* result words */
    size_t smem = sizeof(bg_word) * (size_t)BS * ((rw + 1) + (M == EO_SQR ? 0 : 2 * L + 1));
    if (smem > 48 * 1024)
        BG_CHECK(cudaFuncSetAttribute(mul_eo_kernel<L, BS, M>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    unsigned grid = (unsigned)((n + BS - 1) / BS);
    mul_eo_kernel<L, BS, M><<<grid, BS, smem, st>>>(r, a, b, n, l);
    BG_CHECK_LAUNCH();
    return BULK_OK;
}

/* Products (a != b) at the 16-limb capacity run in blocks of kEo16Block = 64: half the shared
 * memory and registers a block, so twice the blocks per SM, each barrier holding two warps
 * instead of four (docs/perf/int-gpu.md "Multiplication"). Squares, low halves and the other
 * capacities: blocks of kEoBlock. */
const int kEo16Block = 64;

/* Products by even/odd rows, up to 20 limbs: mul_eo_kernel (squares by bg_sqr_rows_eo when
 * a == b, low halves by bg_mullo_rows_eo when lo); widths padded to the compiled capacities
 * 1, 2, 4, 8, 12, 16, 20 limbs. */
template <int L>
int launch_eo_any(bool lo, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l,
                  cudaStream_t st)
{
    if (lo) return launch_eo<L, kEoBlock, EO_LO>(r, a, b, n, l, st);
    if (a == b) return launch_eo<L, kEoBlock, EO_SQR>(r, a, b, n, l, st);
    return launch_eo<L, L == 16 ? kEo16Block : kEoBlock>(r, a, b, n, l, st);
}

int dispatch_eo(bool lo, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l,
                cudaStream_t st)
{
    const int cap = l <= 2 ? l : l <= 4 ? 4 : l <= 8 ? 8 : l <= 12 ? 12 : l <= 16 ? 16 : 20;
    switch (cap) {
    case 1: return launch_eo_any<1>(lo, r, a, b, n, l, st);
    case 2: return launch_eo_any<2>(lo, r, a, b, n, l, st);
    case 4: return launch_eo_any<4>(lo, r, a, b, n, l, st);
    case 8: return launch_eo_any<8>(lo, r, a, b, n, l, st);
    case 12: return launch_eo_any<12>(lo, r, a, b, n, l, st);
    case 16: return launch_eo_any<16>(lo, r, a, b, n, l, st);
    default: return launch_eo_any<20>(lo, r, a, b, n, l, st);
    }
}

/* ---- the warp-column kernel ------------------------------------------------------------------ */

__device__ __forceinline__ void load4(bg_word L[4], const bg_word *p)
{
    for (int k = 0; k < 4; k++) L[k] = p[k];
}
__device__ __forceinline__ void store4(bg_word *p, const bg_word L[4])
{
    for (int k = 0; k < 4; k++) p[k] = L[k];
}

/* r (2 limbs per instance) = a * b, one block per instance, blockDim a multiple of 32. */
__global__ void mul_cols_kernel(bg_limb *r, const bg_limb *a, const bg_limb *b, int limbs)
{
    extern __shared__ bg_word sm[];
    const int N = 2 * limbs, C = 2 * N; /* words of an operand, of the product */
    const int T = (C + BG_COLS_PER_TASK - 1) / BG_COLS_PER_TASK;
    const int q = bg_bpad_q(N);
    bg_word *sa = sm, *sb = sa + N, *sH = sb + 4 * q;
    uint32_t *sG = sH + 3 * T, *sP = sG + T;
    size_t inst = blockIdx.x;
    const bg_word *ga = (const bg_word *)(a + inst * limbs);
    const bg_word *gb = (const bg_word *)(b + inst * limbs);
    bg_word *out = (bg_word *)(r + inst * 2 * (size_t)limbs);
    for (int k = threadIdx.x; k < N; k += blockDim.x) sa[k] = ga[k];
    for (int jp = threadIdx.x; jp < N + 2 * BG_PAD; jp += blockDim.x) {
        int j = jp - BG_PAD;
        sb[bg_bpad_pos(jp, q)] = (j >= 0 && j < N) ? gb[j] : 0;
    }
    __syncthreads();

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    /* phase A: column sums; lane l adds lane l-1's overflow; lane 31's goes to the next task */
    for (int t = warp; t < T; t += nwarps) {
        int ilo, ihi;
        bg_task_range(t, N, &ilo, &ihi);
        int k0 = t * BG_COLS_PER_TASK + 4 * lane;
        bg_word acc[12], L[4], H[3], Hp[3];
        bg_col4_lane(acc, sa, sb, q, k0, ilo, ihi);
        bg_col4_finish(acc, L, H);
        for (int k = 0; k < 3; k++) {
            Hp[k] = __shfl_up_sync(0xffffffffu, H[k], 1);
            if (lane == 0) Hp[k] = 0;
        }
        bg_word g = bg_add_h(L, Hp);
        if (lane == 31)
            for (int k = 0; k < 3; k++) sH[3 * t + k] = H[k];
        if (k0 < C) store4(out + k0, L);
        uint32_t G = __ballot_sync(0xffffffffu, g != 0);
        if (lane == 0) sG[t] = G;
    }
    __syncthreads();
    /* phase B: the first lane of each task takes the previous task's overflow; masks */
    for (int t = warp; t < T; t += nwarps) {
        int k0 = t * BG_COLS_PER_TASK + 4 * lane;
        bool in = k0 < C;
        bg_word L[4] = {0, 0, 0, 0};
        if (in) load4(L, out + k0);
        bg_word g = (sG[t] >> lane) & 1;
        if (lane == 0 && t > 0) {
            g = bg_add_h(L, sH + 3 * (t - 1));
            if (in) store4(out + k0, L);
        }
        bool p = in && (L[0] & L[1] & L[2] & L[3]) == 0xffffffffu;
        uint32_t G = __ballot_sync(0xffffffffu, g != 0);
        uint32_t P = __ballot_sync(0xffffffffu, p);
        __syncwarp();
        if (lane == 0) {
            sG[t] = G;
            sP[t] = P;
        }
    }
    __syncthreads();
    /* phase C: carries in, over tasks (serial: T <= 256) then over lanes (one addition) */
    for (int t = warp; t < T; t += nwarps) {
        uint32_t cin = 0, cout;
        for (int u = 0; u < t; u++) {
            bg_warp_carries(sG[u], sP[u], cin, &cout);
            cin = cout;
        }
        uint32_t mask = bg_warp_carries(sG[t], sP[t], cin, &cout);
        int k0 = t * BG_COLS_PER_TASK + 4 * lane;
        if (((mask >> lane) & 1) && k0 < C) {
            bg_word L[4];
            load4(L, out + k0);
            for (int k = 0; k < 4; k++)
                if (++L[k] != 0) break;
            store4(out + k0, L);
        }
    }
}

size_t cols_smem_bytes(int limbs, int *threads)
{
    int N = 2 * limbs, T = (2 * N + BG_COLS_PER_TASK - 1) / BG_COLS_PER_TASK;
    *threads = 32 * (T < 8 ? T : 8);
    return sizeof(bg_word) * ((size_t)N + 4 * (size_t)bg_bpad_q(N) + 5 * (size_t)T);
}

int launch_cols(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                cudaStream_t st)
{
    int threads;
    size_t smem = cols_smem_bytes(limbs, &threads);
    if (smem > 48 * 1024)
        BG_CHECK(cudaFuncSetAttribute(mul_cols_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)smem));
    const size_t max_grid = 0x7fffffffu;
    for (size_t done = 0; done < n; done += max_grid) {
        size_t cnt = n - done < max_grid ? n - done : max_grid;
        mul_cols_kernel<<<(unsigned)cnt, threads, smem, st>>>(r + done * 2 * limbs, a + done * limbs,
                                                               b + done * limbs, limbs);
        BG_CHECK_LAUNCH();
    }
    return BULK_OK;
}

/* ---- sum-rotate: G lanes per instance, P words of a per lane -------------------------------- */

/* r (2 limbs per instance) = a * b, G P >= 2 limbs. Blocks of 4 warps, 32 / G instances per
 * warp; a group's shared memory: b padded to G P words, then the 2 G P finished columns as
 * three word arrays (low, middle, high), and one word of padding. The groups of a warp past n
 * still run (their shuffles and ballots need every lane) but load and store nothing. No
 * block-wide barrier.
 * V (P a multiple of 4; the shapes of launch_sr_vec): fewer shared-memory instructions - the H200
 * profile of the 1024-bit kernel (G = 8, P = 4) showed the L1/shared-memory pipe at 96 % with
 * the FMA pipe at 32 %: per row one b load, three column stores and three shuffles for 4
 * products. With V each group of P rows loads its b words as 16-byte vectors and the first
 * lane keeps the P finished columns in registers and stores them as 16-byte vectors after the
 * group: per row 1/4 + 3/4 shared-memory instructions instead of 4. Group regions are then
 * 7 NP + 4 words apart (16-byte aligned; 4 mod 32 words, so the groups' vectors of a warp
 * fall in distinct banks). */
template <int P, int G, bool V = false>
__global__ void __launch_bounds__(128) mul_sr_kernel(bg_limb *r, const bg_limb *a, const bg_limb *b,
                                                     size_t n, int limbs)
{
    extern __shared__ bg_word sm[];
    const int NP = G * P, N = 2 * limbs, C = 2 * N, IPW = 32 / G;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, grp = lane / G, gl = lane % G;
    size_t inst = ((size_t)blockIdx.x * (blockDim.x >> 5) + warp) * IPW + grp;
    const bool active = inst < n;
    /* group regions 7 NP + 1 words apart: the groups of a warp read b_i and store columns at
     * the same offsets, which an odd stride puts in different banks */
    const int RS = V ? 7 * NP + 4 : 7 * NP + 1;
    bg_word *sb = sm + (size_t)(warp * IPW + grp) * RS, *c0 = sb + NP, *c1 = c0 + 2 * NP;
    bg_word *c2 = c1 + 2 * NP;
    const bg_word *ga = (const bg_word *)(a + (active ? inst : 0) * limbs);
    const bg_word *gb = (const bg_word *)(b + (active ? inst : 0) * limbs);
    for (int k = gl; k < NP; k += G) sb[k] = (active && k < N) ? gb[k] : 0;
    bg_word av[P], acc[3 * P];
#pragma unroll
    for (int q = 0; q < P; q++) av[q] = (active && P * gl + q < N) ? ga[P * gl + q] : 0;
#pragma unroll
    for (int q = 0; q < 3 * P; q++) acc[q] = 0;
    __syncwarp();
    for (int i0 = 0; i0 < NP; i0 += P) {
        bg_word bq[P], f0[P], f1[P], f2[P];
        if (V) {
#pragma unroll
            for (int k = 0; k < P / 4; k++) {
                uint4 v = reinterpret_cast<const uint4 *>(sb + i0)[k];
                bq[4 * k] = v.x;
                bq[4 * k + 1] = v.y;
                bq[4 * k + 2] = v.z;
                bq[4 * k + 3] = v.w;
            }
        }
#pragma unroll
        for (int u = 0; u < P; u++) {
            const bg_word bi = V ? bq[u] : sb[i0 + u];
            bg_sr_row(acc, av, bi, u, P);
            const int ph = u % P; /* the slot of the finished column */
            if (V) {
                f0[u] = acc[3 * ph];
                f1[u] = acc[3 * ph + 1];
                f2[u] = acc[3 * ph + 2];
            } else if (gl == 0) {
                c0[i0 + u] = acc[3 * ph];
                c1[i0 + u] = acc[3 * ph + 1];
                c2[i0 + u] = acc[3 * ph + 2];
            }
#pragma unroll
            for (int e = 0; e < 3; e++) {
                bg_word t = __shfl_down_sync(0xffffffffu, acc[3 * ph + e], 1, G);
                acc[3 * ph + e] = gl < G - 1 ? t : 0;
            }
        }
        if (V && gl == 0) {
#pragma unroll
            for (int k = 0; k < P / 4; k++) {
                reinterpret_cast<uint4 *>(c0 + i0)[k] = make_uint4(f0[4 * k], f0[4 * k + 1], f0[4 * k + 2], f0[4 * k + 3]);
                reinterpret_cast<uint4 *>(c1 + i0)[k] = make_uint4(f1[4 * k], f1[4 * k + 1], f1[4 * k + 2], f1[4 * k + 3]);
                reinterpret_cast<uint4 *>(c2 + i0)[k] = make_uint4(f2[4 * k], f2[4 * k + 1], f2[4 * k + 2], f2[4 * k + 3]);
            }
        }
    }
#pragma unroll
    for (int q = 0; q < P; q++) {
        c0[NP + P * gl + q] = acc[3 * q];
        c1[NP + P * gl + q] = acc[3 * q + 1];
        c2[NP + P * gl + q] = acc[3 * q + 2];
    }
    __syncwarp();
    /* columns -> words, 4G columns at a time, carries by lookahead over the group's lanes */
    bg_word *out = (bg_word *)(r + (active ? inst : 0) * 2 * (size_t)limbs);
    const uint32_t gmask = G == 32 ? 0xffffffffu : ((1u << G) - 1);
    bg_word Hprev[3] = {0, 0, 0};
    uint32_t cin = 0;
    for (int t = 0; t * 4 * G < 2 * NP; t++) {
        int k0 = t * 4 * G + 4 * gl;
        bg_word a12[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, L[4], H[3], Hp[3];
        if (k0 < 2 * NP)
            for (int c = 0; c < 4; c++) {
                a12[3 * c] = c0[k0 + c];
                a12[3 * c + 1] = c1[k0 + c];
                a12[3 * c + 2] = c2[k0 + c];
            }
        bg_col4_finish(a12, L, H);
        for (int e = 0; e < 3; e++) {
            Hp[e] = __shfl_up_sync(0xffffffffu, H[e], 1, G);
            if (gl == 0) Hp[e] = Hprev[e];
        }
        bg_word g = bg_add_h(L, Hp);
        bool p = k0 < C && (L[0] & L[1] & L[2] & L[3]) == 0xffffffffu;
        uint32_t Gm = (__ballot_sync(0xffffffffu, g != 0) >> (grp * G)) & gmask;
        uint32_t Pm = (__ballot_sync(0xffffffffu, p) >> (grp * G)) & gmask;
        uint32_t cout, mask = bg_lane_carries(Gm, Pm, cin, G, &cout);
        if ((mask >> gl) & 1)
            for (int k = 0; k < 4; k++)
                if (++L[k] != 0) break;
        if (active && k0 < C) store4(out + k0, L);
        for (int e = 0; e < 3; e++) Hprev[e] = __shfl_sync(0xffffffffu, H[e], G - 1, G);
        cin = cout;
    }
}

const int kSrWarps = 4;

template <int P, int G, bool V = false>
int launch_sr_pg(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs, cudaStream_t st)
{
    const int rs = V ? 7 * G * P + 4 : 7 * G * P + 1; /* words per group region */
    size_t smem = sizeof(bg_word) * rs * (32 / G) * kSrWarps;
    if (smem > 48 * 1024)
        BG_CHECK(cudaFuncSetAttribute(mul_sr_kernel<P, G, V>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    size_t per_block = (size_t)kSrWarps * (32 / G);
    size_t blocks = (n + per_block - 1) / per_block;
    mul_sr_kernel<P, G, V><<<(unsigned)blocks, 32 * kSrWarps, smem, st>>>(r, a, b, n, limbs);
    BG_CHECK_LAUNCH();
    return BULK_OK;
}

/* The compiled shapes: G lanes of P words; a width is padded up to G P. (Groups of 4 and 2
 * lanes, more words per lane, timed no faster at 1024 bits: docs/perf/int-gpu.md.) */
const int kSrP[] = {2, 4, 6, 8, 12, 16};
const int kSrG[] = {8, 16, 32};
const int kNumSrP = 6, kSrAutoG = 3;

/* The shape for 13 .. 16 limbs (832 .. 1024 bits), set from the measured shape table rather
 * than the cost model: G = 8, P = 4 (2.48e9/s at 1024 bits in the H200 shape table, G = 4,
 * P = 8 2.51e9/s: equal within noise; the model's pick too; docs/perf/int-gpu.md). */
const int kSr16G = 8, kSr16P = 4;

/* The cheapest compiled shape for this width by bg_cost_sr (0 when none holds it); 13 .. 16
 * limbs: kSr16G, kSr16P. */
void sr_shape(int limbs, int *P, int *G)
{
    double best = 0;
    *P = *G = 0;
    if (limbs >= 13 && limbs <= 16) {
        *G = kSr16G;
        *P = kSr16P;
        return;
    }
    for (int gi = 0; gi < kSrAutoG; gi++)
        for (int pi = 0; pi < kNumSrP; pi++) {
            int g = kSrG[gi], p = kSrP[pi];
            if (g * p < 2 * limbs) continue;
            double c = bg_cost_sr(p, g);
            if (*P == 0 || c < best) {
                best = c;
                *P = p;
                *G = g;
            }
            break; /* larger P for this G only pads more */
        }
}

int sr_p(int limbs)
{
    int P, G;
    sr_shape(limbs, &P, &G);
    return P;
}

template <int G>
int launch_sr_g(int P, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                cudaStream_t st)
{
    switch (P) {
    case 2: return launch_sr_pg<2, G>(r, a, b, n, limbs, st);
    case 4: return launch_sr_pg<4, G>(r, a, b, n, limbs, st);
    case 6: return launch_sr_pg<6, G>(r, a, b, n, limbs, st);
    case 8: return launch_sr_pg<8, G>(r, a, b, n, limbs, st);
    case 12: return launch_sr_pg<12, G>(r, a, b, n, limbs, st);
    case 16: return launch_sr_pg<16, G>(r, a, b, n, limbs, st);
    default: return BULK_ERR_UNSUPPORTED;
    }
}

/* The vector variant (V) where compiled (8x4, 8x8, 16x4, 8x16, 16x8; G x P): measured faster
 * than the plain rows at every shape it covers (docs/perf/int-gpu.md "Multiplication"); -1
 * for the other shapes. */
int launch_sr_vec(int P, int G, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n,
                  int limbs, cudaStream_t st)
{
    if (G == 8 && P == 4) return launch_sr_pg<4, 8, true>(r, a, b, n, limbs, st);
    if (G == 8 && P == 8) return launch_sr_pg<8, 8, true>(r, a, b, n, limbs, st);
    if (G == 16 && P == 4) return launch_sr_pg<4, 16, true>(r, a, b, n, limbs, st);
    if (G == 8 && P == 16) return launch_sr_pg<16, 8, true>(r, a, b, n, limbs, st);
    if (G == 16 && P == 8) return launch_sr_pg<8, 16, true>(r, a, b, n, limbs, st);
    return -1;
}

int launch_sr(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs, cudaStream_t st)
{
    int P, G;
    sr_shape(limbs, &P, &G);
    int wr = launch_sr_vec(P, G, r, a, b, n, limbs, st);
    if (wr >= 0) return wr;
    switch (G) {
    case 8: return launch_sr_g<8>(P, r, a, b, n, limbs, st);
    case 16: return launch_sr_g<16>(P, r, a, b, n, limbs, st);
    case 32: return launch_sr_g<32>(P, r, a, b, n, limbs, st);
    default: return BULK_ERR_UNSUPPORTED;
    }
}

/* ---- choosing ----------------------------------------------------------------------------------- */

enum kernel { K_SR, K_COLS, K_KARA, K_TEO, K_NTT };

/* Measured thresholds: the kernel tables of bench_int_gpu (device-resident products/s) run by
 * `sh bench/run.sh int --gpu` on an NVIDIA H200 (132 SMs); the runs and their tables are in
 * docs/perf/int-gpu.md, the latest table in bench/results/int-gpu-h200.txt. The issue-cost
 * model below (bg_cost_sr / bg_cost_cols) only arbitrates where nothing was measured against it.
 *
 * kEoMaxLimbs: full products, squares and low halves by the even/odd rows (mul_eo_kernel) up to
 * 20 limbs. Each kernel forced, 2^20 instances: products at 256, 512, 768, 832, 1024 bits
 * 2.32e10, 1.33e10, 7.69e9, 4.30e9, 5.28e9/s against the per-thread carry-flag rows' 1.70e10,
 * 7.38e9, 3.67e9, 2.35e9, 2.13e9 and sum-rotate's 5.9e9 .. 2.59e9; squares 1.68e10 / 7.70e9
 * (512 / 1024 bits) against 1.12e10 / 3.98e9, low halves 1.73e10 / 8.83e9 against 9.55e9 /
 * 2.96e9. Every width runs one of the measured capacities (4, 8, 12, 16, 20 limbs) or 1, 2 limbs
 * (the same code). 17 .. 20 limbs by the 20-limb capacity (1088 .. 1280 bits; 168 registers,
 * 3 blocks per SM): 3.61e9 (1088 bits) and 3.63e9/s (1280 bits) against sum-rotate's 1.56e9,
 * squares 5.73e9 against 1.57e9 and low halves 6.20e9 against 1.19e9 at 1088 bits
 * (docs/perf/int-gpu.md "mul 1024 by even/odd rows"). */
const int kEoMaxLimbs = 20;
/* Karatsuba over the batch from this width up (limbs even), at every level. Measured on an
 * H200 (bench_int_gpu, 65536 bits, 16384 instances device-resident; docs/perf/int-gpu.md
 * "Divsteps gcd, staged divmod, sum-rotate vectors, Karatsuba glue") with the warp-per-instance
 * glue: warp-column 1.256e6/s; one Karatsuba
 * level (threshold 1024) 1.377e6/s, two levels (512: half products of 256 limbs by
 * sum-rotate) 1.484e6/s, three (256) 1.406e6/s. With the first, one-thread-per-instance glue
 * Karatsuba had lost to the warp-column kernel (2.18e6/s against 4.51e6/s at 512 limbs). */
const int kKaraMinLimbs = 512;

/* The Karatsuba threshold: kKaraMinLimbs, or BULK_CUDA_KARA_MIN (limbs, >= 32) for the
 * benchmark's multi-level rows; it also applies to the half products, so 1024, 512, 256 at
 * 65536 bits give one, two, three levels. */
int kara_min()
{
    const char *e = getenv("BULK_CUDA_KARA_MIN");
    int v = e ? atoi(e) : 0;
    return v >= 32 ? v : kKaraMinLimbs;
}

enum mul_kind { MK_FULL, MK_SQR, MK_LO };

/* By size: even/odd rows per thread up to kEoMaxLimbs (products, squares, low halves),
 * Karatsuba from kKaraMinLimbs (even widths), otherwise the cheaper of sum-rotate and
 * warp-column by the issue-cost model of int_gpu_core.h (bg_cost_sr / bg_cost_cols). When env
 * is set, BULK_CUDA_MUL=teo|sr|cols|kara|ntt forces one at this level (tests and benchmarks;
 * teo up to kEoMaxLimbs, sr up to 256 limbs, kara for even widths, ntt up to
 * BG_NTT_MAX_LIMBS); Karatsuba's own half products always choose by size. */
kernel choose(int limbs, bool env_ok = true, mul_kind mk = MK_FULL)
{
    const char *env = env_ok ? getenv("BULK_CUDA_MUL") : NULL;
    if (env && strcmp(env, "teo") == 0 && limbs <= kEoMaxLimbs) return K_TEO;
    if (env && strcmp(env, "sr") == 0 && sr_p(limbs)) return K_SR;
    if (env && strcmp(env, "cols") == 0) return K_COLS;
    if (env && strcmp(env, "kara") == 0 && limbs % 2 == 0) return K_KARA;
    if (env && strcmp(env, "ntt") == 0 && limbs <= BG_NTT_MAX_LIMBS) return K_NTT;
    if (limbs <= kEoMaxLimbs) return K_TEO;
    if (bg_ntt_preferred(limbs, mk == MK_SQR)) return K_NTT; /* where measured faster */
    if (limbs >= kara_min() && limbs % 2 == 0) return K_KARA;
    int P, G;
    sr_shape(limbs, &P, &G);
    if (P && bg_cost_sr(P, G) < bg_cost_cols(2 * limbs)) return K_SR;
    return K_COLS;
}

int launch_kara(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                cudaStream_t st);

/* r (2 limbs) = a * b with kernel k (b == a allowed). */
int launch_full(kernel k, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                cudaStream_t st)
{
    switch (k) {
    case K_SR: return launch_sr(r, a, b, n, limbs, st);
    case K_TEO: return dispatch_eo(false, r, a, b, n, limbs, st);
    case K_KARA: return launch_kara(r, a, b, n, limbs, st);
    case K_NTT: return bg_launch_mul_ntt(r, a, b, n, (size_t)limbs, st);
    default: return launch_cols(r, a, b, n, limbs, st);
    }
}

/* ---- Karatsuba over the batch ----------------------------------------------------------------- */

/* Karatsuba's glue, one warp per instance: every pass below adds or subtracts two long numbers
 * 32 limbs at a time, lane l on limb 32 t + l (coalesced: an instance's limbs are contiguous),
 * the carries between lanes by one lookahead addition over the warp's generate/propagate
 * ballots (bg_warp_carries) and from round to round through cin. The first version ran one
 * thread per instance serially over h limbs: a few thousand threads at the widths Karatsuba
 * serves, each walking its own cache lines (measured: one Karatsuba level lost to the
 * warp-column kernel at 65536 bits, 1.13e6/s against 1.26e6/s, though its three half products
 * alone would take about 0.8 of the warp-column time). */

/* dst[0 .. len) = x[0 .. len) + y or - y (y of ylen <= len limbs, zero-extended) + cin
 * (a borrow when sub); returns the carry (borrow) out. All 32 lanes call it; dst may be x.
 * xc, yc (optional, len limbs, ylen limbs): copies of x and y written on the way. */
__device__ uint32_t warp_addsub(bg_limb *dst, const bg_limb *x, const bg_limb *y, int len,
                                int ylen, bool sub, uint32_t cin, bg_limb *xc = NULL,
                                bg_limb *yc = NULL)
{
    const int lane = threadIdx.x & 31;
    __syncwarp(); /* the passes hand limbs between lanes through memory: order them */
    for (int base = 0; base < len; base += 32) {
        int j = base + lane;
        bool act = j < len;
        bg_limb xv = act ? x[j] : 0, yv = act && j < ylen ? y[j] : 0;
        if (xc && act) xc[j] = xv;
        if (yc && act && j < ylen) yc[j] = yv;
        bg_limb sv = sub ? xv - yv : xv + yv;
        bool g = act && (sub ? xv < yv : sv < xv);
        bool p = act && sv == (sub ? (bg_limb)0 : ~(bg_limb)0);
        uint32_t cout, mask = bg_warp_carries(__ballot_sync(0xffffffffu, g),
                                              __ballot_sync(0xffffffffu, p), cin, &cout);
        int nact = len - base < 32 ? len - base : 32;
        if (nact < 32) cout = (mask >> nact) & 1; /* inactive lanes neither generate nor pass */
        bg_limb c = (mask >> lane) & 1;
        if (act) dst[j] = sub ? sv - c : sv + c;
        cin = cout;
    }
    __syncwarp();
    return cin;
}

/* dst[0 .. len) = x[0 .. len), by the warp. */
__device__ void warp_copy(bg_limb *dst, const bg_limb *x, int len)
{
    __syncwarp();
    for (int j = threadIdx.x & 31; j < len; j += 32) dst[j] = x[j];
    __syncwarp();
}

/* SA = a0 + a1, SB = b0 + b1 (h limbs each, carries CA, CB), and the halves A0, A1, B0, B1
 * copied apart on the way (the operands of the half products), one warp per instance. */
__global__ void kara_sums_kernel(bg_limb *SA, bg_limb *SB, uint8_t *CA, uint8_t *CB, bg_limb *A0,
                                 bg_limb *A1, bg_limb *B0, bg_limb *B1, const bg_limb *a,
                                 const bg_limb *b, size_t n, int limbs)
{
    size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (i >= n) return; /* whole warps leave together: n counts warps */
    int h = limbs / 2;
    const bg_limb *x = a + i * limbs, *y = b + i * limbs;
    const size_t o = i * (size_t)h;
    uint32_t ca = warp_addsub(SA + o, x, x + h, h, h, false, 0, A0 + o, A1 + o);
    uint32_t cb = warp_addsub(SB + o, y, y + h, h, h, false, 0, B0 + o, B1 + o);
    if ((threadIdx.x & 31) == 0) {
        CA[i] = (uint8_t)ca;
        CB[i] = (uint8_t)cb;
    }
}

/* r = z0 + (z1' - z0 - z2) B^h + z2 B^2h with z1' = z1 + (ca sb + cb sa) B^h + ca cb B^2h
 * (B = 2^64), one warp per instance; T (2h + 1 limbs per instance) holds the middle term,
 * which is a0 b1 + a1 b0 >= 0 and fits. The addition into r is modulo B^4h (the product fits). */
__global__ void kara_combine_kernel(bg_limb *r, bg_limb *T, const bg_limb *Z0, const bg_limb *Z1,
                                    const bg_limb *Z2, const bg_limb *SA, const bg_limb *SB,
                                    const uint8_t *CA, const uint8_t *CB, size_t n, int h)
{
    size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (i >= n) return;
    const size_t H = (size_t)h;
    bg_limb *t = T + i * (2 * H + 1), *ri = r + i * 4 * H;
    const bg_limb *z0 = Z0 + i * 2 * H, *z1 = Z1 + i * 2 * H, *z2 = Z2 + i * 2 * H;
    warp_copy(t, z1, 2 * h);
    if ((threadIdx.x & 31) == 0) t[2 * H] = CA[i] & CB[i];
    __syncwarp();
    if (CA[i]) warp_addsub(t + H, t + H, SB + i * H, h + 1, h, false, 0);
    if (CB[i]) warp_addsub(t + H, t + H, SA + i * H, h + 1, h, false, 0);
    warp_addsub(t, t, z0, 2 * h + 1, 2 * h, true, 0);
    warp_addsub(t, t, z2, 2 * h + 1, 2 * h, true, 0);
    warp_copy(ri, z0, 2 * h);
    warp_copy(ri + 2 * H, z2, 2 * h);
    __syncwarp();
    warp_addsub(ri + H, ri + H, t, 3 * h, 2 * h + 1, false, 0);
}

/* One Karatsuba level over the whole batch (limbs even): the sums, with the halves copied
 * apart on the way (kara_sums_kernel), three batched half-size products (each choosing its own kernel, Karatsuba
 * again when still wide), the combination. Sub-batches bound the scratch to 1 GiB. */
int launch_kara(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                cudaStream_t st)
{
    const size_t h = (size_t)limbs / 2, L = (size_t)limbs, hb = h * sizeof(bg_limb);
    const size_t per = 14 * hb + 8 + 2; /* A0 A1 B0 B1 SA SB: 6h; Z0 Z1 Z2: 6h; T: 2h + 1; CA CB */
    size_t batch = ((size_t)1 << 30) / per;
    if (batch == 0) batch = 1;
    if (batch > n) batch = n;
    char *s = NULL;
    if (bg_scratch_alloc((void **)&s, batch * per, st) != BULK_OK) return BULK_ERR_NOMEM;
    bg_limb *A0 = (bg_limb *)s, *A1 = A0 + batch * h, *B0 = A1 + batch * h, *B1 = B0 + batch * h;
    bg_limb *SA = B1 + batch * h, *SB = SA + batch * h, *Z0 = SB + batch * h;
    bg_limb *Z1 = Z0 + batch * 2 * h, *Z2 = Z1 + batch * 2 * h;
    bg_limb *T = Z2 + batch * 2 * h;
    uint8_t *CA = (uint8_t *)(T + batch * (2 * h + 1)), *CB = CA + batch;
    int hl = (int)h, rc = BULK_OK;
    kernel hk = choose(hl, false);
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        const bg_limb *ad = a + done * L, *bd = b + done * L;
        unsigned grid = (unsigned)((cnt + 3) / 4); /* 4 warps of 128 threads, one per instance */
        kara_sums_kernel<<<grid, 128, 0, st>>>(SA, SB, CA, CB, A0, A1, B0, B1, ad, bd, cnt, limbs);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
        if (rc == BULK_OK) rc = launch_full(hk, Z0, A0, B0, cnt, hl, st);
        if (rc == BULK_OK) rc = launch_full(hk, Z2, A1, B1, cnt, hl, st);
        if (rc == BULK_OK) rc = launch_full(hk, Z1, SA, SB, cnt, hl, st);
        if (rc != BULK_OK) break;
        kara_combine_kernel<<<grid, 128, 0, st>>>(r + done * 2 * L, T, Z0, Z1, Z2, SA, SB, CA, CB, cnt, hl);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

} // namespace

extern "C" const char *bulk_int_cuda_mul_kernel(size_t limbs)
{
    if (limbs == 0 || limbs > BG_MAX_LIMBS_MUL) return "none";
    kernel k = choose((int)limbs);
    static const char *const names[] = {"sr", "cols", "kara", "teo", "ntt"}; /* enum order */
    return names[k];
}

int bg_launch_mul(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs, int lo,
                  cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs > BG_MAX_LIMBS_MUL) return BULK_ERR_UNSUPPORTED;
    int l = (int)limbs;
    kernel k = choose(l, true, lo ? MK_LO : a == b ? MK_SQR : MK_FULL);
    if (k == K_TEO && lo) return dispatch_eo(true, r, a, b, n, l, st);
    if (!lo) return launch_full(k, r, a, b, n, l, st);
    /* low half of a large product: full products of a sub-batch into scratch, then the low
     * halves copied out as one strided 2D copy */
    size_t per = 2 * limbs * sizeof(bg_limb);
    size_t batch = ((size_t)256 << 20) / per;
    if (batch == 0) batch = 1;
    if (batch > n) batch = n;
    bg_limb *tmp = NULL;
    if (bg_scratch_alloc((void **)&tmp, batch * per, st) != BULK_OK) return BULK_ERR_NOMEM;
    int rc = BULK_OK;
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = launch_full(k, tmp, a + done * limbs, b + done * limbs, cnt, l, st);
        if (rc == BULK_OK &&
            cudaMemcpy2DAsync(r + done * limbs, limbs * sizeof(bg_limb), tmp, per,
                              limbs * sizeof(bg_limb), cnt, cudaMemcpyDeviceToDevice, st) != cudaSuccess)
            rc = BULK_ERR_CUDA;
    }
    if (cudaFreeAsync(tmp, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}
