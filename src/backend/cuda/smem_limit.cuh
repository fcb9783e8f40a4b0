/* Raising a kernel's dynamic shared memory limit where contexts share the process. The limit
 * (cudaFuncAttributeMaxDynamicSharedMemorySize) is an attribute of the kernel in the process, per
 * device, not of a context or stream: two contexts that each set it to their own size before
 * their launch can interleave, and the launch that needs the larger size then fails with
 * "invalid argument". bulk_cuda_smem_at_least raises the limit of kernel f on the current device
 * to at least `bytes` and never lowers it, under one process-wide lock, so every launch after it
 * with at most `bytes` is allowed whatever other threads do. Returns the CUDA status. */
#ifndef BULK_BACKEND_CUDA_SMEM_LIMIT_CUH
#define BULK_BACKEND_CUDA_SMEM_LIMIT_CUH
#include <cuda_runtime.h>
#include <stddef.h>

cudaError_t bulk_cuda_smem_at_least(const void *f, size_t bytes);

#endif
