/* The batched NTT multiplication as the multiplication choice of int_cuda_mul.cu sees it
 * (device pointers, a stream; contract of the launchers in int_cuda_internal.cuh). */
#ifndef BULK_INT_CUDA_INT_CUDA_NTT_CUH
#define BULK_INT_CUDA_INT_CUDA_NTT_CUH

#include "int/cuda/int_cuda_internal.cuh"

/* The widest instance the batched NTT kernel takes (limbs): 8192 (a transform of 32768 points,
 * one block per instance). */
#define BG_NTT_MAX_LIMBS 8192

/* r (2 limbs per instance) = a * b for n instances of `limbs` (1 .. BG_NTT_MAX_LIMBS), all in
 * device memory, queued on st; b == a is a square. One block per instance; device scratch
 * from the pool in sub-batches of at most 512 MiB. */
int bg_launch_mul_ntt(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs,
                      cudaStream_t st);

/* Whether the size choice should take the NTT for a full product (sqr: a square) of this width:
 * true only where the H200 benchmarks measured it faster than the other kernels
 * (int_cuda_ntt.cu, kNttMinLimbs, kNttMinLimbsSqr; docs/int-gpu.md "NTT multiplication").
 * The tuning int.ntt_min=limbs in t overrides both thresholds (benchmarks; 0: never). */
bool bg_ntt_preferred(int limbs, bool sqr, const bulk_tune *t);

/* The single large product r (na + nb limbs) = a (na) * b (nb) on the device, queued on st
 * (int_cuda_ntt.cu; 1 <= na + nb <= BULK_INT_CUDA_NTT_MAX_LIMBS, r apart from a and b; b == a
 * with nb == na is a square), and the device scratch it takes from the pool in bytes. */
int bg_mul_big_on(bg_limb *r, const bg_limb *a, size_t na, const bg_limb *b, size_t nb,
                  cudaStream_t st);
size_t bg_mul_big_scratch_bytes(size_t na, size_t nb);

#endif
