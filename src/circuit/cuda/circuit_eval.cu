/* CUDA evaluation of an and-inverter graph by BPBC (seed 001 section 5.2): one thread per
 * 64-bit column word, signals in the column-wise arrangement of figure 5.2 (the word of
 * variable v for thread w at v * cols + w), so every load and store of a warp is coalesced;
 * the gate list is read uniformly by all threads (broadcast through the read-only cache).
 * Columns are processed in chunks so that the signal array stays within a memory budget. */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "circuit/circuit_core.h"
#include "backend/context.h"
#include "backend/cuda/cuda_check.cuh"
#include "circuit/circuit_backend.h"

__global__ static void eval_kernel(uint64_t *val, uint64_t *out, const uint32_t *__restrict__ rhs,
                                   const uint32_t *__restrict__ outs, uint32_t first_gate, uint32_t ands,
                                   uint32_t noutputs, size_t cols)
{
    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= cols) return;
    val[w] = 0; /* variable 0 */
    for (uint32_t g = 0; g < ands; g++)
        bulk_circuit_and_step(val, cols, w, first_gate + g, __ldg(&rhs[2 * g]), __ldg(&rhs[2 * g + 1]));
    for (uint32_t o = 0; o < noutputs; o++) out[(size_t)o * cols + w] = bulk_circuit_lit_word(val, cols, __ldg(&outs[o]), w);
}

extern "C" int circuit_cuda_eval(bulk_ctx *ctx, const bulk_circuit *c, uint64_t *out, const uint64_t *in,
                                 size_t nwords, bulk_progress_run *pr)
{
    (void)pr; /* one launch: the wrapper's start and end calls are the progress */
    BULK_CUDA_CHECK(ctx, cudaSetDevice(ctx->cuda->device));
    int st = BULK_OK;
    uint64_t *d_val = NULL, *d_out = NULL;
    uint32_t *d_rhs = NULL, *d_outs = NULL;
    size_t vars = (size_t)c->maxvar + 1;
    /* chunk: at most ~1 GiB of signal words, at least one warp's worth of columns */
    size_t chunk = ((size_t)1 << 27) / vars;
    if (chunk < 256) chunk = 256;
    if (chunk > nwords) chunk = nwords;
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&d_val, vars * chunk * sizeof(uint64_t)), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&d_out, (c->outputs ? c->outputs : 1) * chunk * sizeof(uint64_t)), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&d_rhs, (c->ands ? 2 * c->ands : 1) * sizeof(uint32_t)), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&d_outs, (c->outputs ? c->outputs : 1) * sizeof(uint32_t)), st);
    if (c->ands) BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(d_rhs, c->and_rhs, 2 * c->ands * sizeof(uint32_t), cudaMemcpyHostToDevice), st);
    if (c->outputs) BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(d_outs, c->out, c->outputs * sizeof(uint32_t), cudaMemcpyHostToDevice), st);
    for (size_t w0 = 0; w0 < nwords; w0 += chunk) {
        size_t cols = nwords - w0 < chunk ? nwords - w0 : chunk;
        if (c->inputs)
            BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy2D(d_val + cols, cols * sizeof(uint64_t), in + w0, nwords * sizeof(uint64_t),
                                   cols * sizeof(uint64_t), c->inputs, cudaMemcpyHostToDevice), st);
        unsigned threads = 128;
        unsigned blocks = (unsigned)((cols + threads - 1) / threads);
        eval_kernel<<<blocks, threads>>>(d_val, d_out, d_rhs, d_outs, c->inputs + c->latches + 1, c->ands,
                                         c->outputs, cols);
        BULK_CUDA_CHECK_GOTO(ctx, cudaGetLastError(), st);
        if (c->outputs)
            BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy2D(out + w0, nwords * sizeof(uint64_t), d_out, cols * sizeof(uint64_t),
                                   cols * sizeof(uint64_t), c->outputs, cudaMemcpyDeviceToHost), st);
    }
    BULK_CUDA_CHECK_GOTO(ctx, cudaDeviceSynchronize(), st);
fail:
    cudaFree(d_val);
    cudaFree(d_out);
    cudaFree(d_rhs);
    cudaFree(d_outs);
    return st;
}
