/* Measures the two ceilings the benchmarks compare with (METHOD.md "two numbers first"): the
 * 32-bit multiply-add rate and the device-memory bandwidth of the context's device. */
#include <stdio.h>
#include <string.h>

#include "int/cuda/int_cuda_internal.cuh"

namespace {

const int kChains = 8, kIters = 4096;

/* kChains independent multiply-add chains per thread (enough to hide the IMAD latency); the
 * result is stored so the compiler keeps the work. 2 * kChains * kIters mad.lo/mad.hi each. */
__global__ void imad_kernel(uint32_t *out, uint32_t seed)
{
    uint32_t x[kChains], y = seed | 1;
#pragma unroll
    for (int c = 0; c < kChains; c++) x[c] = threadIdx.x + c;
    for (int it = 0; it < kIters; it++) {
#pragma unroll
        for (int c = 0; c < kChains; c++) {
            uint32_t lo, hi;
            asm volatile("mad.lo.u32 %0, %1, %2, %3;" : "=r"(lo) : "r"(x[c]), "r"(y), "r"(x[c]));
            asm volatile("mad.hi.u32 %0, %1, %2, %3;" : "=r"(hi) : "r"(lo), "r"(y), "r"(lo));
            x[c] = hi;
        }
    }
    uint32_t s = 0;
#pragma unroll
    for (int c = 0; c < kChains; c++) s ^= x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

} // namespace

extern "C" int bulk_int_cuda_peaks(bulk_ctx *ctx, double *imad_per_s, double *bytes_per_s, char *name)
{
    const int dev = ctx->cuda->device;
    int sms = 0;
    BULK_CUDA_CHECK(ctx, cudaSetDevice(dev));
    cudaDeviceProp prop;
    BULK_CUDA_CHECK(ctx, cudaGetDeviceProperties(&prop, dev));
    sms = prop.multiProcessorCount;
    if (name) snprintf(name, 256, "%.200s (%d SMs)", prop.name, sms);
    cudaEvent_t e0, e1;
    BULK_CUDA_CHECK(ctx, cudaEventCreate(&e0));
    BULK_CUDA_CHECK(ctx, cudaEventCreate(&e1));
    float ms = 0;
    if (imad_per_s) {
        const int threads = 256, blocks = sms * 8;
        uint32_t *out;
        BULK_CUDA_CHECK(ctx, cudaMalloc((void **)&out, sizeof(uint32_t) * threads * blocks));
        imad_kernel<<<blocks, threads>>>(out, 12345u); /* warm up */
        BULK_CUDA_CHECK(ctx, cudaEventRecord(e0));
        imad_kernel<<<blocks, threads>>>(out, 777u);
        BULK_CUDA_CHECK(ctx, cudaEventRecord(e1));
        BULK_CUDA_CHECK(ctx, cudaEventSynchronize(e1));
        BULK_CUDA_CHECK(ctx, cudaEventElapsedTime(&ms, e0, e1));
        *imad_per_s = 2.0 * kChains * kIters * (double)threads * blocks / (ms * 1e-3);
        cudaFree(out);
    }
    if (bytes_per_s) {
        size_t bytes = (size_t)1 << 30;
        char *a, *b;
        BULK_CUDA_CHECK(ctx, cudaMalloc((void **)&a, bytes));
        BULK_CUDA_CHECK(ctx, cudaMalloc((void **)&b, bytes));
        BULK_CUDA_CHECK(ctx, cudaMemset(a, 1, bytes));
        BULK_CUDA_CHECK(ctx, cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
        BULK_CUDA_CHECK(ctx, cudaEventRecord(e0));
        for (int k = 0; k < 5; k++) BULK_CUDA_CHECK(ctx, cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
        BULK_CUDA_CHECK(ctx, cudaEventRecord(e1));
        BULK_CUDA_CHECK(ctx, cudaEventSynchronize(e1));
        BULK_CUDA_CHECK(ctx, cudaEventElapsedTime(&ms, e0, e1));
        *bytes_per_s = 5.0 * 2.0 * (double)bytes / (ms * 1e-3);
        cudaFree(a);
        cudaFree(b);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return BULK_OK;
}
