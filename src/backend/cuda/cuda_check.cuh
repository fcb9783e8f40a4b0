/* The one way library code checks a CUDA call. On failure the context's last error (the calling
 * thread's when ctx is NULL) gets "CUDA: <call> (<file>:<line>): <CUDA's text>", a non-sticky
 * error is cleared so later calls are not blamed for it, and the status is BULK_ERR_NOMEM for
 * an allocation failure, BULK_ERR_CUDA for anything else.
 *
 *   BULK_CUDA_CHECK(ctx, call)          returns that status from the enclosing function;
 *   BULK_CUDA_CHECK_GOTO(ctx, call, st) stores it in `st` and jumps to the function's `fail:`
 *                                       label (for functions that free what they allocated);
 *   BULK_CUDA_CHECK_LAUNCH(ctx)         after a kernel launch: a bad configuration shows here (a
 *                                       fault in the kernel shows later, at the next sync).
 * Code without a context in reach (kernel launchers called by the entry points) passes NULL. */
#ifndef BULK_BACKEND_CUDA_CUDA_CHECK_CUH
#define BULK_BACKEND_CUDA_CUDA_CHECK_CUH
#include <cuda_runtime.h>

#include "bulk/bulk.h"

int bulk_cuda_fail(const bulk_ctx *ctx, cudaError_t err, const char *call, const char *file, int line);

#define BULK_CUDA_CHECK(ctx, call)                                                                 \
    do {                                                                                           \
        cudaError_t bulk_cuda_e_ = (call);                                                         \
        if (bulk_cuda_e_ != cudaSuccess)                                                           \
            return bulk_cuda_fail((ctx), bulk_cuda_e_, #call, __FILE__, __LINE__);                \
    } while (0)

#define BULK_CUDA_CHECK_GOTO(ctx, call, st)                                                        \
    do {                                                                                           \
        cudaError_t bulk_cuda_e_ = (call);                                                         \
        if (bulk_cuda_e_ != cudaSuccess) {                                                         \
            (st) = bulk_cuda_fail((ctx), bulk_cuda_e_, #call, __FILE__, __LINE__);                 \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)

#define BULK_CUDA_CHECK_LAUNCH(ctx) BULK_CUDA_CHECK(ctx, cudaGetLastError())

#endif
