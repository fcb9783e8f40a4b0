// Host emulation of the few CUDA features the Life kernel uses: a warp is 32 threads that meet
// at a barrier at every shuffle.
#pragma once
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <vector>
struct dim3 { unsigned x = 0, y = 0, z = 0; };
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim;
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(x)
inline pthread_barrier_t emu_bar;
inline uint32_t emu_xch[32];
inline long emu_shuffles = 0;
inline uint32_t emu_shfl(uint32_t v, int off)
{
    int lane = threadIdx.x & 31;
    emu_xch[lane] = v;
    pthread_barrier_wait(&emu_bar);
    int s = lane + off;
    uint32_t r = (s < 0 || s > 31) ? v : emu_xch[s];
    if (lane == 0) emu_shuffles++;
    pthread_barrier_wait(&emu_bar);
    return r;
}
inline uint32_t __shfl_up_sync(unsigned, uint32_t v, int d) { return emu_shfl(v, -d); }
inline uint32_t __shfl_down_sync(unsigned, uint32_t v, int d) { return emu_shfl(v, d); }
inline uint32_t __funnelshift_l(uint32_t lo, uint32_t hi, unsigned s)
{
    return (uint32_t)(((((uint64_t)hi << 32) | lo) << (s & 31)) >> 32);
}
inline uint32_t __funnelshift_r(uint32_t lo, uint32_t hi, unsigned s)
{
    return (uint32_t)((((uint64_t)hi << 32) | lo) >> (s & 31));
}
template <class T> inline T __ldg(const T *p) { return *p; }
typedef int cudaError_t;
#define cudaSuccess 0
typedef void *cudaEvent_t;
enum { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost };
enum { cudaDevAttrMultiProcessorCount, cudaDevAttrClockRate };
inline cudaError_t cudaMalloc(void **p, size_t n) { *p = malloc(n); return *p ? 0 : 1; }
inline cudaError_t cudaFree(void *p) { free(p); return 0; }
inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, int) { memcpy(d, s, n); return 0; }
inline cudaError_t cudaGetLastError() { return 0; }
inline cudaError_t cudaDeviceSynchronize() { return 0; }
inline const char *cudaGetErrorString(cudaError_t) { return "emu"; }
inline cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = (void *)1; return 0; }
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return 0; }
inline cudaError_t cudaEventRecord(cudaEvent_t) { return 0; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return 0; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) { *ms = 1; return 0; }
inline cudaError_t cudaGetDevice(int *d) { *d = 0; return 0; }
inline int emu_sms = 2;
inline cudaError_t cudaDeviceGetAttribute(int *v, int a, int) { *v = a == cudaDevAttrMultiProcessorCount ? emu_sms : 1000; return 0; }
struct cudaDeviceProp { char name[256]; int multiProcessorCount; };
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) { strcpy(p->name, "emu"); p->multiProcessorCount = emu_sms; return 0; }

template <class F, class A, class B, class G>
void emu_launch(F fn, unsigned blocks, unsigned threads, A a, B b, G g)
{
    blockDim.x = threads;
    pthread_barrier_init(&emu_bar, NULL, 32);
    for (unsigned blk = 0; blk < blocks; blk++)
        for (unsigned w = 0; w < threads / 32; w++) {
            std::vector<std::thread> ts;
            for (unsigned l = 0; l < 32; l++)
                ts.emplace_back([=] {
                    threadIdx.x = w * 32 + l;
                    blockIdx.x = blk;
                    fn(a, b, g);
                });
            for (auto &t : ts) t.join();
        }
    pthread_barrier_destroy(&emu_bar);
}
template <class F> inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, F, int, size_t) { *n = 1; return 0; }
