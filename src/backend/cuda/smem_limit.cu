/* bulk_cuda_smem_at_least (backend/cuda/smem_limit.cuh). */
#include <pthread.h>

#include "backend/cuda/smem_limit.cuh"

static pthread_mutex_t g_smem_lock = PTHREAD_MUTEX_INITIALIZER;

cudaError_t bulk_cuda_smem_at_least(const void *f, size_t bytes)
{
    pthread_mutex_lock(&g_smem_lock);
    cudaFuncAttributes a;
    cudaError_t err = cudaFuncGetAttributes(&a, f);
    if (err == cudaSuccess && (size_t)a.maxDynamicSharedSizeBytes < bytes)
        err = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    pthread_mutex_unlock(&g_smem_lock);
    return err;
}
