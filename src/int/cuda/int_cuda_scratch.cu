/* Device scratch for the integer launchers: the stream-ordered allocator with a release
 * threshold.
 *
 * cudaMallocAsync takes memory from the device's default pool, whose release threshold is 0:
 * every synchronisation hands the pool's free memory back to the driver, so the next call maps
 * it again. The launchers take hundreds of MiB per call (divmod's fallback scratch at 2^20
 * instances of 2048/1024 bits: 388 MiB; the approximate GCD's column copies: 640 MiB), and a
 * caller that synchronises between calls - the device-resident API's users, the benchmark -
 * paid that mapping every time. Keeping up to kKeepBytes cached in the pool makes the second
 * and later calls a pool hit. The threshold is a property of the device's default pool, set
 * once per device (2 GiB of the H200's 141 GiB stay reserved for the process between calls;
 * the host streaming API sizes its chunks from the free memory it then sees). g_threshold_set
 * stays per process, not per context: the default pool belongs to the device, every context on
 * it wants the same threshold, and the atomic exchange sets it once whichever context comes
 * first. */
#include <atomic>

#include "int/cuda/int_cuda_internal.cuh"

namespace {

const uint64_t kKeepBytes = (uint64_t)2 << 30;
const int kMaxDevices = 64;
std::atomic<int> g_threshold_set[kMaxDevices];

void keep_pool_memory()
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= kMaxDevices) {
        cudaGetLastError();
        return;
    }
    if (g_threshold_set[dev].exchange(1)) return;
    cudaMemPool_t pool;
    uint64_t keep = kKeepBytes;
    if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess ||
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess)
        cudaGetLastError(); /* a hint: without it every call maps its scratch again */
}

} // namespace

int bg_scratch_alloc(void **p, size_t bytes, cudaStream_t st)
{
    keep_pool_memory();
    if (cudaMallocAsync(p, bytes, st) != cudaSuccess) {
        cudaGetLastError();
        *p = NULL;
        return BULK_ERR_NOMEM;
    }
    return BULK_OK;
}
