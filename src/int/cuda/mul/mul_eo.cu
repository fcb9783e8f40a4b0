/* Multiplication by the even/odd rows, one instance per thread (up to 20 limbs: products,
 * squares, low halves); the size choice is in int_cuda_mul.cu. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/mul/mul_internal.cuh"
#include "backend/cuda/smem_limit.cuh"

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
        BULK_CUDA_CHECK(NULL, bulk_cuda_smem_at_least((const void *)mul_eo_kernel<L, BS, M>, smem));
    unsigned grid = (unsigned)((n + BS - 1) / BS);
    mul_eo_kernel<L, BS, M><<<grid, BS, smem, st>>>(r, a, b, n, l);
    BULK_CUDA_CHECK_LAUNCH(NULL);
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

} // namespace

namespace bgmul {

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

} // namespace bgmul
