/* Multiplication by strips of even/odd rows, one instance per thread (2048 and 4096 bits:
 * bg_mul_strips); the size choice is in int_cuda_mul.cu. */
#include "int/cuda/mul/mul_internal.cuh"
#include "int/cuda/core/mul_strip.h"
#include "backend/cuda/smem_limit.cuh"

namespace {

/* One instance per thread: a's rows and the result's rows (b staged in the result's upper half,
 * the contract of bg_mul_strips) in shared memory at odd strides, so the threads of a warp
 * reading word j of their own rows hit distinct banks. NW: the compiled width in words (64:
 * 2048 bits, 128: 4096 bits); a width l below it is zero-padded. Shared memory per thread:
 * (NW + 1) + (2 NW + 1) words (776 bytes at 2048 bits, 1544 at 4096). Registers: a strip of 32
 * words of b and the live windows of the two accumulators, as in the 1024-bit even/odd
 * kernel. BS threads (instances) a block. */
template <int NW, int BS>
__global__ void __launch_bounds__(BS) mul_strip_kernel(bg_limb *r, const bg_limb *a,
                                                       const bg_limb *b, size_t n, int l)
{
    extern __shared__ bg_word sh[];
    const int SA = NW + 1, SR = 2 * NW + 1, G = 8; /* G: limbs of each operand in flight */
    bg_word *sa = sh, *sr = sh + BS * SA;
    const size_t first = (size_t)blockIdx.x * BS;
    const int cnt = (int)(n - first < (size_t)BS ? n - first : BS), tot = cnt * l;
    const bg_limb *ga = a + first * (size_t)l, *gb = b + first * (size_t)l;
    const uint32_t m = eo_magic((uint32_t)l); /* l = 1: 0, and the instance is k itself */
    for (int k0 = threadIdx.x; k0 < tot; k0 += G * BS) { /* G loads of each operand in flight */
        bg_limb va[G], vb[G];
#pragma unroll
        for (int t = 0; t < G; t++) {
            const int k = k0 + t * BS;
            if (k < tot) {
                va[t] = ga[k];
                vb[t] = gb[k];
            }
        }
#pragma unroll
        for (int t = 0; t < G; t++) {
            const int k = k0 + t * BS, inst = l > 1 ? eo_div(k, m) : k, j = k - inst * l;
            if (k >= tot) break;
            sa[inst * SA + 2 * j] = (bg_word)va[t];
            sa[inst * SA + 2 * j + 1] = (bg_word)(va[t] >> 32);
            sr[inst * SR + NW + 2 * j] = (bg_word)vb[t];
            sr[inst * SR + NW + 2 * j + 1] = (bg_word)(vb[t] >> 32);
        }
    }
    bg_word *ma = sa + threadIdx.x * SA, *mr = sr + threadIdx.x * SR;
    for (int j = 2 * l; j < NW; j++) ma[j] = mr[NW + j] = 0; /* a width below NW */
    __syncthreads();
    if ((int)threadIdx.x < cnt) bg_mul_strips(mr, ma, NW);
    __syncthreads();
    const int ol = 2 * l, otot = cnt * ol;
    const uint32_t mo = eo_magic((uint32_t)ol);
    bg_limb *g = r + first * (size_t)ol;
    for (int k0 = threadIdx.x; k0 < otot; k0 += G * BS) {
#pragma unroll
        for (int t = 0; t < G; t++) {
            const int k = k0 + t * BS, inst = eo_div(k, mo), j = k - inst * ol;
            if (k >= otot) break;
            g[k] = (bg_limb)sr[inst * SR + 2 * j] | ((bg_limb)sr[inst * SR + 2 * j + 1] << 32);
        }
    }
}

template <int NW, int BS>
int launch_strip(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st)
{
    const size_t smem = sizeof(bg_word) * (size_t)BS * ((NW + 1) + (2 * NW + 1));
    if (smem > 48 * 1024)
        BULK_CUDA_CHECK(NULL, bulk_cuda_smem_at_least((const void *)mul_strip_kernel<NW, BS>, smem));
    const unsigned grid = (unsigned)((n + BS - 1) / BS);
    mul_strip_kernel<NW, BS><<<grid, BS, smem, st>>>(r, a, b, n, l);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

} // namespace

namespace bgmul {

int launch_strip(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st)
{
    if (l <= 32) return ::launch_strip<64, 64>(r, a, b, n, l, st);
    return ::launch_strip<128, 32>(r, a, b, n, l, st);
}

} // namespace bgmul
