/* The C entry points of the GPU NTT multiplication (contract: int_cuda_ntt.h): the batched
 * products from host memory, the single large products (device pointers, or host memory
 * through two pinned staging slots), and the device memory helpers. The kernels are in
 * int_cuda_ntt.cu. */
#include <mutex>
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_cuda_ntt.cuh"
#include "int/cuda/int_cuda_ntt.h"

namespace {

/* Makes `device` the calling thread's (BULK_ERR_NO_BACKEND when there is no such device). */
int use_device(int device)
{
    int c = 0;
    if (cudaGetDeviceCount(&c) != cudaSuccess || device < 0 || device >= c) {
        cudaGetLastError();
        return BULK_ERR_NO_BACKEND;
    }
    BULK_CUDA_CHECK(NULL, cudaSetDevice(device));
    return BULK_OK;
}

} // namespace

extern "C" size_t bulk_int_cuda_ntt_batch_max_limbs(void) { return BG_NTT_MAX_LIMBS; }

extern "C" int bulk_int_cuda_mul_ntt_batch(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a,
                                           const bulk_limb_t *b, size_t n, size_t limbs)
{
    if (!ctx || !ctx->cuda || !r || !a || !b || limbs == 0 || limbs > BG_NTT_MAX_LIMBS) return BULK_ERR_ARG;
    if (n == 0) return BULK_OK;
    int rc = use_device(ctx->cuda->device);
    if (rc != BULK_OK) return rc;
    const cudaStream_t st = cudaStreamPerThread;
    const size_t in = n * limbs * sizeof(bg_limb);
    bg_limb *d = NULL;
    if (bg_scratch_alloc((void **)&d, 4 * in, st) != BULK_OK) return BULK_ERR_NOMEM;
    bg_limb *da = d, *db = d + n * limbs, *dr = d + 2 * n * limbs;
    const bool sq = a == b;
    if (cudaMemcpyAsync(da, a, in, cudaMemcpyHostToDevice, st) != cudaSuccess ||
        (!sq && cudaMemcpyAsync(db, b, in, cudaMemcpyHostToDevice, st) != cudaSuccess))
        rc = BULK_ERR_CUDA;
    if (rc == BULK_OK) rc = bg_launch_mul_ntt(dr, da, sq ? da : db, n, limbs, st);
    if (rc == BULK_OK && cudaMemcpyAsync(r, dr, 2 * in, cudaMemcpyDeviceToHost, st) != cudaSuccess)
        rc = BULK_ERR_CUDA;
    if (cudaFreeAsync(d, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    if (cudaStreamSynchronize(st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

extern "C" size_t bulk_int_cuda_mul_big_bytes(size_t na, size_t nb)
{
    return bg_mul_big_scratch_bytes(na, nb) + 16 * (na + nb);
}

namespace {

/* The argument checks of both big-product entry points, then whether there is a device. */
int big_args(int device, const bulk_limb_t *r, const bulk_limb_t *a, size_t na, const bulk_limb_t *b,
             size_t nb)
{
    if (!r || !a || !b || na == 0 || nb == 0 || na + nb > BULK_INT_CUDA_NTT_MAX_LIMBS)
        return BULK_ERR_ARG;
    return use_device(device);
}

} // namespace

extern "C" int bulk_int_cuda_mul_big_dev(int device, bulk_limb_t *r, const bulk_limb_t *a, size_t na,
                                         const bulk_limb_t *b, size_t nb)
{
    int rc = big_args(device, r, a, na, b, nb);
    if (rc != BULK_OK) return rc;
    const cudaStream_t st = cudaStreamPerThread;
    rc = bg_mul_big_on(r, a, na, b, nb, st);
    if (cudaStreamSynchronize(st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

namespace {

/* Pinned staging for the host variant's copies. Copies from pageable memory ran at ~3 GB/s on
 * the H200 machine (a 2^20 x 2^20-limb product took 11.3 ms with its copies, 1.4 ms without;
 * docs/perf/int-gpu.md "NTT multiplication"); through two pinned slots the host memcpy of one chunk overlaps the DMA of the
 * other. The slots are allocated once per process (on the first device that asks) and shared
 * by all calling threads under a mutex; copies below kStageMin, and every copy when the slots
 * could not be had or another device is current, go the plain way. They stay per process, not
 * per context: the big products take a device, not a context (the batch GCD trees call them
 * from many worker threads, with no context in reach), the mutex and the slots' events make
 * every caller's copies safe against every other's, and 16 MiB of pinned memory per process is
 * what the copies need whatever the number of contexts. */
const size_t kStageBytes = (size_t)8 << 20, kStageMin = (size_t)256 << 10;

struct stage {
    std::mutex mu;
    bool tried = false, ok = false;
    int dev = -1;
    void *slot[2] = {NULL, NULL};
    cudaEvent_t ev[2];
} g_stage;

/* With g_stage.mu held: whether the slots are usable on the current device. */
bool stage_ready()
{
    int dev = -1;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    if (!g_stage.tried) {
        g_stage.tried = true;
        g_stage.dev = dev;
        g_stage.ok = cudaMallocHost(&g_stage.slot[0], kStageBytes) == cudaSuccess &&
                     cudaMallocHost(&g_stage.slot[1], kStageBytes) == cudaSuccess &&
                     cudaEventCreateWithFlags(&g_stage.ev[0], cudaEventDisableTiming) == cudaSuccess &&
                     cudaEventCreateWithFlags(&g_stage.ev[1], cudaEventDisableTiming) == cudaSuccess;
        if (!g_stage.ok) cudaGetLastError();
    }
    return g_stage.ok && dev == g_stage.dev;
}

/* dst (device) = src (host), bytes, queued on st through the slots (g_stage.mu held). */
int staged_h2d(void *dst, const void *src, size_t bytes, cudaStream_t st)
{
    for (size_t off = 0, c = 0; off < bytes; off += kStageBytes, c++) {
        const size_t len = bytes - off < kStageBytes ? bytes - off : kStageBytes;
        const int k = (int)(c & 1);
        BULK_CUDA_CHECK(NULL, cudaEventSynchronize(g_stage.ev[k])); /* the slot's last DMA has read it */
        memcpy(g_stage.slot[k], (const char *)src + off, len);
        BULK_CUDA_CHECK(NULL, cudaMemcpyAsync((char *)dst + off, g_stage.slot[k], len, cudaMemcpyHostToDevice, st));
        BULK_CUDA_CHECK(NULL, cudaEventRecord(g_stage.ev[k], st));
    }
    return BULK_OK;
}

/* Queues the DMA of chunk q of src (device, bytes) into its slot, and the slot's event. */
int stage_queue_d2h(const void *src, size_t bytes, size_t q, cudaStream_t st)
{
    const size_t off = q * kStageBytes;
    const size_t len = bytes - off < kStageBytes ? bytes - off : kStageBytes;
    /* another caller's H2D DMA (queued on its own stream before it released the mutex) may
     * still be reading this slot: wait for the slot's last DMA on the GPU before overwriting */
    BULK_CUDA_CHECK(NULL, cudaStreamWaitEvent(st, g_stage.ev[q & 1], 0));
    BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(g_stage.slot[q & 1], (const char *)src + off, len,
                             cudaMemcpyDeviceToHost, st));
    BULK_CUDA_CHECK(NULL, cudaEventRecord(g_stage.ev[q & 1], st));
    return BULK_OK;
}

/* dst (host) = src (device), after the work queued on st (g_stage.mu held): the DMA of chunk
 * c + 1 is queued before the host copies chunk c out (its slot held chunk c - 1, copied out
 * already). */
int staged_d2h(void *dst, const void *src, size_t bytes, cudaStream_t st)
{
    const size_t nc = (bytes + kStageBytes - 1) / kStageBytes;
    int rc = stage_queue_d2h(src, bytes, 0, st);
    for (size_t c = 0; c < nc && rc == BULK_OK; c++) {
        if (c + 1 < nc) rc = stage_queue_d2h(src, bytes, c + 1, st);
        if (rc != BULK_OK) break;
        const size_t off = c * kStageBytes;
        const size_t len = bytes - off < kStageBytes ? bytes - off : kStageBytes;
        BULK_CUDA_CHECK(NULL, cudaEventSynchronize(g_stage.ev[c & 1]));
        memcpy((char *)dst + off, g_stage.slot[c & 1], len);
    }
    return rc;
}

} // namespace

extern "C" int bulk_int_cuda_mul_big(int device, bulk_limb_t *r, const bulk_limb_t *a, size_t na,
                                     const bulk_limb_t *b, size_t nb)
{
    int rc = big_args(device, r, a, na, b, nb);
    if (rc != BULK_OK) return rc;
    const cudaStream_t st = cudaStreamPerThread;
    const bool sq = a == b && na == nb;
    bg_limb *d = NULL;
    if (bg_scratch_alloc((void **)&d, (na + (sq ? 0 : nb) + na + nb) * sizeof(bg_limb), st) != BULK_OK)
        return BULK_ERR_NOMEM;
    bg_limb *da = d, *db = sq ? d : d + na, *dr = d + na + (sq ? 0 : nb);
    const size_t ba = na * sizeof(bg_limb), bb = nb * sizeof(bg_limb), br = ba + bb;
    /* the slots are held only while copying: another caller's copies wait on the events of
     * ours, so its memcpy into a slot never overtakes our DMA from it */
    bool staged = br >= kStageMin;
    if (staged) {
        std::lock_guard<std::mutex> lock(g_stage.mu);
        staged = stage_ready();
        if (staged) rc = staged_h2d(da, a, ba, st);
        if (staged && rc == BULK_OK && !sq) rc = staged_h2d(db, b, bb, st);
    }
    if (!staged && (cudaMemcpyAsync(da, a, ba, cudaMemcpyHostToDevice, st) != cudaSuccess ||
                    (!sq && cudaMemcpyAsync(db, b, bb, cudaMemcpyHostToDevice, st) != cudaSuccess)))
        rc = BULK_ERR_CUDA;
    if (rc == BULK_OK) rc = bg_mul_big_on(dr, da, na, db, nb, st);
    if (rc == BULK_OK && staged) {
        std::lock_guard<std::mutex> lock(g_stage.mu);
        rc = staged_d2h(r, dr, br, st);
    } else if (rc == BULK_OK && cudaMemcpyAsync(r, dr, br, cudaMemcpyDeviceToHost, st) != cudaSuccess) {
        rc = BULK_ERR_CUDA;
    }
    if (cudaFreeAsync(d, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    if (cudaStreamSynchronize(st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

extern "C" int bulk_int_cuda_raw_alloc(int device, void **p, size_t bytes)
{
    if (!p) return BULK_ERR_ARG;
    *p = NULL;
    int rc = use_device(device);
    if (rc != BULK_OK) return rc;
    if (bg_scratch_alloc(p, bytes ? bytes : 1, cudaStreamPerThread) != BULK_OK) return BULK_ERR_NOMEM;
    BULK_CUDA_CHECK(NULL, cudaStreamSynchronize(cudaStreamPerThread));
    return BULK_OK;
}

extern "C" int bulk_int_cuda_raw_free(int device, void *p)
{
    BULK_CUDA_CHECK(NULL, cudaSetDevice(device));
    if (!p) return BULK_OK;
    BULK_CUDA_CHECK(NULL, cudaFreeAsync(p, cudaStreamPerThread));
    BULK_CUDA_CHECK(NULL, cudaStreamSynchronize(cudaStreamPerThread));
    return BULK_OK;
}

extern "C" int bulk_int_cuda_raw_put(int device, void *dst, const void *src, size_t bytes)
{
    BULK_CUDA_CHECK(NULL, cudaSetDevice(device));
    BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, cudaStreamPerThread));
    BULK_CUDA_CHECK(NULL, cudaStreamSynchronize(cudaStreamPerThread));
    return BULK_OK;
}

extern "C" int bulk_int_cuda_raw_get(int device, void *dst, const void *src, size_t bytes)
{
    BULK_CUDA_CHECK(NULL, cudaSetDevice(device));
    BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, cudaStreamPerThread));
    BULK_CUDA_CHECK(NULL, cudaStreamSynchronize(cudaStreamPerThread));
    return BULK_OK;
}
