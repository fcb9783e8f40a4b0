/* The one checking macro of the bpbc CUDA code: on failure, records the status, clears the
 * error and jumps to the function's `fail:` label (which frees what was allocated). */
#ifndef BULK_BPBC_CUDA_CHECK_CUH
#define BULK_BPBC_CUDA_CHECK_CUH
#include <cuda_runtime.h>

#include "bulk/bulk.h"

#define BPBC_CUDA(call)                                                                            \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            st = e_ == cudaErrorMemoryAllocation ? BULK_ERR_NOMEM : BULK_ERR_CUDA;                 \
            cudaGetLastError();                                                                    \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)

#endif
