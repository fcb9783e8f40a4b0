/* divmod, gcd and powmod on the GPU: one instance per thread over the column-major layout.
 *
 * These algorithms index their words with run-time values (lengths that shrink, windows,
 * quotient positions), so their numbers cannot live in registers. Each sub-batch is transposed
 * into column-major 32-bit words (word j of instance i at j * npad + i) in device scratch; the
 * threads of a warp then touch consecutive addresses whenever they touch the same word index,
 * which is almost always (seed 001 ch. 3: the semi-oblivious bulk execution), and every step
 * is the shared code of int_gpu_core.h that the CPU tests check against GMP. Results are
 * transposed back into the users' layout. */
#ifndef BULK_INT_CUDA_NUM_NUM_COLS_CUH
#define BULK_INT_CUDA_NUM_NUM_COLS_CUH

#include "int/cuda/int_cuda_internal.cuh"
#include "int/cuda/int_gpu_core.h"

/* The column-major transposition and scratch of the per-thread families (gcd, divmod, powmod),
 * one copy per file. */
namespace {

const int kThreads = 128;
const size_t kScratchBudget = (size_t)768 << 20; /* bytes of column scratch per sub-batch */

unsigned grid_for(size_t n) { return (unsigned)((n + kThreads - 1) / kThreads); }

/* col (words >= 2 limbs words per instance, stride npad; zeros above 2 limbs) <- src
 * (instance-major limbs) */
__global__ void to_cols_kernel(bg_word *col, const bg_limb *src, size_t n, size_t npad,
                               size_t limbs, size_t words)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (size_t j = 0; j < limbs; j++) {
        bg_limb v = src[i * limbs + j];
        col[(2 * j) * npad + i] = (bg_word)v;
        col[(2 * j + 1) * npad + i] = (bg_word)(v >> 32);
    }
    for (size_t j = 2 * limbs; j < words; j++) col[j * npad + i] = 0;
}

__global__ void from_cols_kernel(bg_limb *dst, const bg_word *col, size_t n, size_t npad,
                                 size_t limbs)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (size_t j = 0; j < limbs; j++)
        dst[i * limbs + j] =
            (bg_limb)col[(2 * j) * npad + i] | ((bg_limb)col[(2 * j + 1) * npad + i] << 32);
}

/* Sub-batch size for `words` column words per instance: within the budget, a multiple of 32. */
size_t sub_batch(size_t n, size_t words)
{
    size_t b = kScratchBudget / (words * sizeof(bg_word));
    b = b / 32 * 32;
    if (b < 32) b = 32;
    return b < n ? b : n;
}

size_t pad32(size_t n) { return (n + 31) / 32 * 32; }

/* The grid of a persistent kernel (blocks_per_sm blocks of kThreads on every SM of the current
 * device), with the kernel's shared-memory carveout asked to be minimal so that the resident
 * threads' column words stay in L1 (a hint: a refusal is ignored). */
template <typename K> unsigned persistent_grid(K kernel, int blocks_per_sm)
{
    int dev = 0, sms = 132;
    if (cudaGetDevice(&dev) == cudaSuccess)
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 0);
    cudaGetLastError();
    return (unsigned)(sms * blocks_per_sm);
}

/* Scratch from the stream-ordered pool; freed with cudaFreeAsync on the same stream. */
int scratch_alloc(bg_word **p, size_t words, cudaStream_t st)
{
    return bg_scratch_alloc((void **)p, words * sizeof(bg_word), st);
}

int to_cols(bg_word *col, const bg_limb *src, size_t n, size_t npad, size_t limbs, cudaStream_t st,
            size_t words = 0)
{
    to_cols_kernel<<<grid_for(n), kThreads, 0, st>>>(col, src, n, npad, limbs, words);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

int from_cols(bg_limb *dst, const bg_word *col, size_t n, size_t npad, size_t limbs,
              cudaStream_t st)
{
    from_cols_kernel<<<grid_for(n), kThreads, 0, st>>>(dst, col, n, npad, limbs);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

} // namespace

#endif
