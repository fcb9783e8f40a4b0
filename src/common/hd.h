/* BULK_HD marks the pure step functions of the *_core.h headers: `static inline` in C, and
 * `__host__ __device__` inline under nvcc, so the CPU backend, the GPU kernels and the tests
 * all compile the one copy. */
#ifndef BULK_COMMON_HD_H
#define BULK_COMMON_HD_H

#if defined(__CUDACC__)
#define BULK_HD static __host__ __device__ __forceinline__
#else
#define BULK_HD static inline
#endif

#endif
