/* Bit-parallel CKY on the GPU (seed 001 section 7.4). One thread parses 64 strings of one
 * length: bit s of every word belongs to string s of the thread's column. The CKY tables of
 * all threads are in global memory in the column-wise arrangement — the word of non-terminal
 * a in cell c for column w at (c * nnt + a) * cols + w — so the threads of a warp always
 * touch consecutive words. Like the seed's local-memory row cache, the two operands of the
 * current split (U and V) are kept close to the thread: in shared memory when 2 * nnt words per
 * thread fit (blocks of one warp), otherwise they are read from global memory directly. The
 * rules are applied grouped by left-hand side with the OR kept in a register, so W is written
 * once per non-terminal and split. No thread reads another's column: no barrier is needed. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "bpbc/circuit/cuda/cuda_check.cuh"
#include "bpbc/cky/cky_core.h"
#include "bpbc/cky/cky_cuda.h"
#include "bpbc/cky/grammar.h"

enum { SH_BLOCK = 32, GL_BLOCK = 128 };

/* One thread per 64 strings; the body is bulk_cky_thread (cky_core.h), which the CPU tests
 * also run. With use_shared each thread gets a 2 * nnt-word slice of shared memory at stride
 * blockDim.x (bank-conflict free: a warp's threads read consecutive words). */
__global__ static void cky_kernel(uint64_t *T, const int32_t *__restrict__ str, uint8_t *acc, uint32_t n, uint32_t nnt,
                                  size_t cols, size_t nstr, int use_shared, const uint32_t *__restrict__ astart,
                                  const uint32_t *__restrict__ bc, const uint32_t *__restrict__ ustart,
                                  const uint32_t *__restrict__ ulist)
{
    extern __shared__ uint64_t sh[];
    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= cols) return; /* no barriers follow: each thread touches only its own column */
    bulk_cky_thread(T, cols, w, str, acc, n, nnt, nstr, use_shared ? sh + threadIdx.x : NULL, blockDim.x, astart, bc,
                    ustart, ulist);
}

extern "C" int bulk_cuda_cky_parse(const bulk_grammar *g, uint8_t *accept, const int32_t *syms, const size_t *offsets,
                                   size_t nstrings)
{
    int st = BULK_OK;
    uint8_t *ok = (uint8_t *)malloc(nstrings), *hacc = NULL;
    size_t *ids = NULL, *bucket = NULL;
    int32_t *hstr = NULL;
    uint32_t *d_astart = NULL, *d_bc = NULL, *d_ustart = NULL, *d_ulist = NULL;
    uint64_t *d_T = NULL;
    int32_t *d_str = NULL;
    uint8_t *d_acc = NULL;
    size_t maxlen, nnt = g->nnt, free_b = 0, total_b = 0, budget, nok = 0;
    int dev = 0, smem_max = 0;
    bool use_shared;
    if (!ok) return BULK_ERR_NOMEM;
    maxlen = bulk_cky_prepare(g, accept, ok, syms, offsets, nstrings);
    ids = (size_t *)malloc(sizeof(size_t) * nstrings);
    if (!ids) {
        st = BULK_ERR_NOMEM;
        goto fail;
    }
    for (size_t i = 0; i < nstrings; i++)
        if (ok[i]) nok++;
    if (nok == 0) goto fail; /* nothing to parse: st is BULK_OK */
    BPBC_CUDA(cudaMalloc(&d_astart, (nnt + 1) * sizeof(uint32_t)));
    BPBC_CUDA(cudaMalloc(&d_bc, (2 * g->nbin + 1) * sizeof(uint32_t)));
    BPBC_CUDA(cudaMalloc(&d_ustart, (g->nterm + 1) * sizeof(uint32_t)));
    BPBC_CUDA(cudaMalloc(&d_ulist, (g->nun + 1) * sizeof(uint32_t)));
    BPBC_CUDA(cudaMemcpy(d_astart, g->astart, (nnt + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice));
    if (g->nbin) BPBC_CUDA(cudaMemcpy(d_bc, g->bc, 2 * g->nbin * sizeof(uint32_t), cudaMemcpyHostToDevice));
    BPBC_CUDA(cudaMemcpy(d_ustart, g->ustart, (g->nterm + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice));
    if (g->nun) BPBC_CUDA(cudaMemcpy(d_ulist, g->ulist, g->nun * sizeof(uint32_t), cudaMemcpyHostToDevice));
    BPBC_CUDA(cudaGetDevice(&dev));
    BPBC_CUDA(cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    use_shared = 2 * nnt * SH_BLOCK * sizeof(uint64_t) <= (size_t)smem_max;
    if (use_shared)
        BPBC_CUDA(cudaFuncSetAttribute(cky_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)(2 * nnt * SH_BLOCK * sizeof(uint64_t))));
    BPBC_CUDA(cudaMemGetInfo(&free_b, &total_b));
    budget = free_b / 2; /* the table of one launch; strings and results are small beside it */
    bucket = (size_t *)calloc(maxlen + 2, sizeof(size_t)); /* counting sort by length */
    if (!bucket) {
        st = BULK_ERR_NOMEM;
        goto fail;
    }
    for (size_t i = 0; i < nstrings; i++)
        if (ok[i]) bucket[offsets[i + 1] - offsets[i] + 1]++;
    for (size_t n = 1; n <= maxlen + 1; n++) bucket[n] += bucket[n - 1];
    for (size_t i = 0; i < nstrings; i++)
        if (ok[i]) ids[bucket[offsets[i + 1] - offsets[i]]++] = i;
    for (size_t n = 1; n <= maxlen; n++) {
        size_t *bids = ids + bucket[n - 1], cnt = bucket[n] - bucket[n - 1]; /* bucket[n] = end of length n */
        if (!cnt) continue;
        size_t cells = n * (n + 1) / 2;
        size_t per_col = cells * nnt * sizeof(uint64_t);
        size_t cols_all = (cnt + 63) / 64, cols_max = budget / per_col;
        if (cols_max == 0) {
            st = BULK_ERR_NOMEM;
            goto fail;
        }
        size_t cols_chunk = cols_all < cols_max ? cols_all : cols_max;
        cudaFree(d_T), cudaFree(d_str), cudaFree(d_acc);
        d_T = NULL, d_str = NULL, d_acc = NULL;
        free(hstr), free(hacc);
        hstr = (int32_t *)malloc(cols_chunk * 64 * n * sizeof(int32_t));
        hacc = (uint8_t *)malloc(cols_chunk * 64);
        if (!hstr || !hacc) {
            st = BULK_ERR_NOMEM;
            goto fail;
        }
        BPBC_CUDA(cudaMalloc(&d_T, cols_chunk * per_col));
        BPBC_CUDA(cudaMalloc(&d_str, cols_chunk * 64 * n * sizeof(int32_t)));
        BPBC_CUDA(cudaMalloc(&d_acc, cols_chunk * 64));
        for (size_t f = 0; f < cnt; f += cols_chunk * 64) {
            size_t m = cnt - f < cols_chunk * 64 ? cnt - f : cols_chunk * 64;
            size_t cols = (m + 63) / 64;
            for (size_t s = 0; s < m; s++) memcpy(hstr + s * n, syms + offsets[bids[f + s]], n * sizeof(int32_t));
            BPBC_CUDA(cudaMemcpy(d_str, hstr, m * n * sizeof(int32_t), cudaMemcpyHostToDevice));
            {
                unsigned block = use_shared ? SH_BLOCK : GL_BLOCK;
                size_t smem = use_shared ? 2 * nnt * SH_BLOCK * sizeof(uint64_t) : 0;
                cky_kernel<<<(unsigned)((cols + block - 1) / block), block, smem>>>(
                    d_T, d_str, d_acc, (uint32_t)n, (uint32_t)nnt, cols, m, use_shared, d_astart, d_bc, d_ustart, d_ulist);
            }
            BPBC_CUDA(cudaGetLastError());
            BPBC_CUDA(cudaMemcpy(hacc, d_acc, m, cudaMemcpyDeviceToHost));
            for (size_t s = 0; s < m; s++) accept[bids[f + s]] = hacc[s];
        }
    }
fail:
    cudaFree(d_astart), cudaFree(d_bc), cudaFree(d_ustart), cudaFree(d_ulist);
    cudaFree(d_T), cudaFree(d_str), cudaFree(d_acc);
    free(ok), free(ids), free(bucket), free(hstr), free(hacc);
    return st;
}
