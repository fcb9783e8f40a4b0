/* CUDA pairwise sums (seed 001 sections 5.1 and 5.3): the naive kernel adds one uint32 pair
 * per thread; the bitwise kernel runs the k-bit ripple-carry recurrence on one 64-bit column
 * per thread, planes in the column-wise arrangement (plane i of column w at i * cols + w). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/circuit_core.h"
#include "circuit/circuit_cuda.h"
#include "circuit/cuda/cuda_check.cuh"

__global__ static void naive_kernel(uint32_t *c, const uint32_t *a, const uint32_t *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ static void bitwise_kernel(uint64_t *s, const uint64_t *a, const uint64_t *b, unsigned k, size_t cols)
{
    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= cols) return;
    uint64_t carry = 0;
    for (unsigned i = 0; i < k; i++)
        s[(size_t)i * cols + w] = bulk_ripple_add_step(a[(size_t)i * cols + w], b[(size_t)i * cols + w], &carry);
    s[(size_t)k * cols + w] = carry;
}

extern "C" int bulk_cuda_bitslice_add(uint64_t *sum, const uint64_t *a, const uint64_t *b, unsigned k, size_t nwords)
{
    int st = BULK_OK;
    uint64_t *da = NULL, *db = NULL, *ds = NULL;
    size_t bytes = (size_t)k * nwords * sizeof(uint64_t);
    BPBC_CUDA(cudaMalloc(&da, bytes));
    BPBC_CUDA(cudaMalloc(&db, bytes));
    BPBC_CUDA(cudaMalloc(&ds, bytes + nwords * sizeof(uint64_t)));
    BPBC_CUDA(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    BPBC_CUDA(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    bitwise_kernel<<<(unsigned)((nwords + 127) / 128), 128>>>(ds, da, db, k, nwords);
    BPBC_CUDA(cudaGetLastError());
    BPBC_CUDA(cudaMemcpy(sum, ds, bytes + nwords * sizeof(uint64_t), cudaMemcpyDeviceToHost));
fail:
    cudaFree(da);
    cudaFree(db);
    cudaFree(ds);
    return st;
}

extern "C" int bulk_cuda_bench_pairsum(unsigned k, size_t pairs, int reps, uint64_t seed, double *naive_ms,
                                       double *bitwise_ms)
{
    int st = BULK_OK;
    size_t nw = pairs / 64;
    uint32_t *a = (uint32_t *)malloc(pairs * 4), *b = (uint32_t *)malloc(pairs * 4), *c = (uint32_t *)malloc(pairs * 4);
    uint64_t *pa = (uint64_t *)calloc(k * nw, 8), *pb = (uint64_t *)calloc(k * nw, 8), *ps = (uint64_t *)calloc((k + 1) * nw, 8);
    uint32_t *da = NULL, *db = NULL, *dc = NULL;
    uint64_t *dpa = NULL, *dpb = NULL, *dps = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float ms;
    if (!a || !b || !c || !pa || !pb || !ps) {
        st = BULK_ERR_NOMEM;
        goto fail;
    }
    bulk_pairsum_inputs(a, b, pa, pb, k, pairs, seed);
    BPBC_CUDA(cudaMalloc(&da, pairs * 4));
    BPBC_CUDA(cudaMalloc(&db, pairs * 4));
    BPBC_CUDA(cudaMalloc(&dc, pairs * 4));
    BPBC_CUDA(cudaMalloc(&dpa, k * nw * 8));
    BPBC_CUDA(cudaMalloc(&dpb, k * nw * 8));
    BPBC_CUDA(cudaMalloc(&dps, (k + 1) * nw * 8));
    BPBC_CUDA(cudaMemcpy(da, a, pairs * 4, cudaMemcpyHostToDevice));
    BPBC_CUDA(cudaMemcpy(db, b, pairs * 4, cudaMemcpyHostToDevice));
    BPBC_CUDA(cudaMemcpy(dpa, pa, k * nw * 8, cudaMemcpyHostToDevice));
    BPBC_CUDA(cudaMemcpy(dpb, pb, k * nw * 8, cudaMemcpyHostToDevice));
    BPBC_CUDA(cudaEventCreate(&e0));
    BPBC_CUDA(cudaEventCreate(&e1));
    *naive_ms = *bitwise_ms = 1e300;
    for (int r = 0; r <= reps; r++) { /* round 0 warms up */
        BPBC_CUDA(cudaEventRecord(e0));
        naive_kernel<<<(unsigned)((pairs + 255) / 256), 256>>>(dc, da, db, pairs);
        BPBC_CUDA(cudaEventRecord(e1));
        BPBC_CUDA(cudaEventSynchronize(e1));
        BPBC_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        if (r && ms < *naive_ms) *naive_ms = ms;
        BPBC_CUDA(cudaEventRecord(e0));
        bitwise_kernel<<<(unsigned)((nw + 31) / 32), 32>>>(dps, dpa, dpb, k, nw);
        BPBC_CUDA(cudaEventRecord(e1));
        BPBC_CUDA(cudaEventSynchronize(e1));
        BPBC_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        if (r && ms < *bitwise_ms) *bitwise_ms = ms;
    }
    BPBC_CUDA(cudaGetLastError());
    BPBC_CUDA(cudaMemcpy(c, dc, pairs * 4, cudaMemcpyDeviceToHost));
    BPBC_CUDA(cudaMemcpy(ps, dps, (k + 1) * nw * 8, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < pairs && st == BULK_OK; i++) {
        uint32_t s = 0;
        for (unsigned j = 0; j < k + 1 && j < 32; j++) s |= (uint32_t)((ps[j * nw + i / 64] >> (i % 64)) & 1) << j;
        if (s != (uint32_t)(a[i] + b[i]) || c[i] != (uint32_t)(a[i] + b[i])) st = BULK_ERR_INTERNAL;
    }
fail:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dpa), cudaFree(dpb), cudaFree(dps);
    free(a), free(b), free(c), free(pa), free(pb), free(ps);
    return st;
}
