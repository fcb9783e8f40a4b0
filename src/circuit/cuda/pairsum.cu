/* CUDA pairwise sums (seed 001 sections 5.1 and 5.3): the naive kernel adds one uint32 pair
 * per thread; the bitwise kernel runs the k-bit ripple-carry recurrence on one 64-bit column
 * per thread, planes in the column-wise arrangement (plane i of column w at i * cols + w). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/circuit_core.h"
#include "backend/context.h"
#include "backend/cuda/cuda_check.cuh"
#include "circuit/circuit_backend.h"

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

static int cuda_bitslice_add(bulk_ctx *ctx, uint64_t *sum, const uint64_t *a, const uint64_t *b, unsigned k,
                             size_t nwords)
{
    BULK_CUDA_CHECK(ctx, cudaSetDevice(ctx->cuda->device));
    int st = BULK_OK;
    uint64_t *da = NULL, *db = NULL, *ds = NULL;
    size_t bytes = (size_t)k * nwords * sizeof(uint64_t);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&da, bytes), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&db, bytes), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&ds, bytes + nwords * sizeof(uint64_t)), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice), st);
    bitwise_kernel<<<(unsigned)((nwords + 127) / 128), 128>>>(ds, da, db, k, nwords);
    BULK_CUDA_CHECK_GOTO(ctx, cudaGetLastError(), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(sum, ds, bytes + nwords * sizeof(uint64_t), cudaMemcpyDeviceToHost), st);
fail:
    cudaFree(da);
    cudaFree(db);
    cudaFree(ds);
    return st;
}

extern "C" int bulk_cuda_bench_pairsum(bulk_ctx *ctx, unsigned k, size_t pairs, int reps, uint64_t seed,
                                       double *naive_ms, double *bitwise_ms)
{
    BULK_CUDA_CHECK(ctx, cudaSetDevice(ctx->cuda->device));
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
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&da, pairs * 4), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&db, pairs * 4), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&dc, pairs * 4), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&dpa, k * nw * 8), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&dpb, k * nw * 8), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&dps, (k + 1) * nw * 8), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(da, a, pairs * 4, cudaMemcpyHostToDevice), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(db, b, pairs * 4, cudaMemcpyHostToDevice), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(dpa, pa, k * nw * 8, cudaMemcpyHostToDevice), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(dpb, pb, k * nw * 8, cudaMemcpyHostToDevice), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaEventCreate(&e0), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaEventCreate(&e1), st);
    *naive_ms = *bitwise_ms = 1e300;
    for (int r = 0; r <= reps; r++) { /* round 0 warms up */
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventRecord(e0), st);
        naive_kernel<<<(unsigned)((pairs + 255) / 256), 256>>>(dc, da, db, pairs);
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventRecord(e1), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventSynchronize(e1), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventElapsedTime(&ms, e0, e1), st);
        if (r && ms < *naive_ms) *naive_ms = ms;
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventRecord(e0), st);
        bitwise_kernel<<<(unsigned)((nw + 31) / 32), 32>>>(dps, dpa, dpb, k, nw);
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventRecord(e1), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventSynchronize(e1), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventElapsedTime(&ms, e0, e1), st);
        if (r && ms < *bitwise_ms) *bitwise_ms = ms;
    }
    BULK_CUDA_CHECK_GOTO(ctx, cudaGetLastError(), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(c, dc, pairs * 4, cudaMemcpyDeviceToHost), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(ps, dps, (k + 1) * nw * 8, cudaMemcpyDeviceToHost), st);
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

extern "C" const bulk_circuit_backend bulk_circuit_cuda_backend = {
    circuit_cuda_eval,
    cuda_bitslice_add,
};
