/* Bit-parallel CKY on the GPU, the first kernel (seed 001 section 7.4 as written): one thread
 * parses 64 strings of one length; bit s of every word belongs to string s of the thread's
 * column. The CKY tables of all threads are in global memory in the column-wise arrangement —
 * the word of non-terminal a in cell c for column w at (c * nnt + a) * cols + w — so the
 * threads of a warp always touch consecutive words. Like the seed's local-memory row cache,
 * the two operands of the current split (U and V) are kept close to the thread: in shared
 * memory when 2 * nnt words per thread fit (blocks of one warp), otherwise they are read from
 * global memory directly. The rules are applied grouped by left-hand side with the OR kept in
 * a register, so W is written once per non-terminal and split. No thread reads another's
 * column: no barrier is needed.
 *
 * Each thread works through all 5456 (cell, split) pairs of a length-32 string alone, one
 * dependent load after another: the kernel is latency-bound (2.94 us per string for 64
 * non-terminals and 8192 rules on an H200). cky_block.cu is the default; this one stays as
 * the fallback for grammars whose staging area does not fit a block's shared memory and as
 * the baseline of the benchmark. */
#include "cky/cky_core.h"
#include "cky/cuda/cky_gpu.cuh"
#include "backend/cuda/smem_limit.cuh"

/* One thread per 64 strings; the body is bulk_cky_thread (cky_core.h), which the CPU tests
 * also run. With use_shared each thread gets a 2 * nnt-word slice of shared memory at stride
 * blockDim.x (bank-conflict free: a warp's threads read consecutive words). */
__global__ static void cky_thread_kernel(uint64_t *T, const int32_t *__restrict__ str, uint8_t *acc, uint32_t n,
                                         uint32_t nnt, size_t cols, size_t nstr, int use_shared,
                                         const uint32_t *__restrict__ astart, const uint32_t *__restrict__ bc,
                                         const uint32_t *__restrict__ ustart, const uint32_t *__restrict__ ulist)
{
    extern __shared__ uint64_t sh[];
    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= cols) return; /* no barriers follow: each thread touches only its own column */
    bulk_cky_thread(T, cols, w, str, acc, n, nnt, nstr, use_shared ? sh + threadIdx.x : NULL, blockDim.x, astart, bc,
                    ustart, ulist);
}

cudaError_t cky_thread_launch(uint64_t *T, const int32_t *str, uint8_t *acc, uint32_t n, size_t nstr, int use_shared,
                              const cky_dev_grammar *dg, cudaStream_t s)
{
    size_t cols = (nstr + 63) / 64;
    unsigned block = use_shared ? CKY_THREAD_SH_BLOCK : CKY_THREAD_GL_BLOCK;
    size_t smem = use_shared ? 2 * (size_t)dg->nnt * CKY_THREAD_SH_BLOCK * sizeof(uint64_t) : 0;
    if (use_shared) {
        /* raise-only: another context's grammar may need more at the same time */
        cudaError_t e = bulk_cuda_smem_at_least((const void *)cky_thread_kernel, smem);
        if (e != cudaSuccess) return e;
    }
    cky_thread_kernel<<<(unsigned)((cols + block - 1) / block), block, smem, s>>>(
        T, str, acc, n, dg->nnt, cols, nstr, use_shared, dg->astart, dg->bc, dg->ustart, dg->ulist);
    return cudaGetLastError();
}
