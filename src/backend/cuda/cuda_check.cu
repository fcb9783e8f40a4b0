/* Recording a failed CUDA call (backend/cuda/cuda_check.cuh). */
#include "backend/cuda/cuda_check.cuh"

extern "C" {
#include "backend/report.h"
}

int bulk_cuda_fail(const bulk_ctx *ctx, cudaError_t err, const char *call, const char *file, int line)
{
    cudaGetLastError(); /* clears a non-sticky error; a sticky one stays, as CUDA defines */
    const int st = err == cudaErrorMemoryAllocation ? BULK_ERR_NOMEM : BULK_ERR_CUDA;
    return bulk_fail(ctx, st, "CUDA: %s (%s:%d): %s", call, file, line, cudaGetErrorString(err));
}
