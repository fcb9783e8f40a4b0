/* Exact multiplication of large integers on the GPU by a three-prime number-theoretic
 * transform (NTT): internal C-callable API (contract for callers: the comments below and
 * docs/int-gpu.md, section "NTT multiplication").
 *
 * Method: operands are read as 32-bit words; each word is one coefficient. The product's
 * coefficients (convolution sums, < N 2^64 for a transform of N points) are computed exactly
 * modulo the primes 3 * 2^30 + 1, 13 * 2^28 + 1, 15 * 2^27 + 1 (product > 2^94 > 2^27 * 2^64,
 * so every N <= 2^27 is exact), recombined by Garner's CRT into 96-bit values and carried into
 * the result on the device. Modular arithmetic and the transform steps are BULK_HD functions of
 * src/int/cuda/ntt_gpu_core.h (tested on the CPU against naive references).
 *
 * Two shapes:
 *  - batched (many instances of one width, bulk_int_mul on a CUDA context): one block per
 *    instance, the transforms in shared memory; reached through the multiplication choice of
 *    int_cuda_mul.cu (the tuning int.mul=ntt forces it) via bg_launch_mul_ntt below;
 *  - single large products (bulk_int_cuda_mul_big*): multi-kernel transforms over global
 *    memory (radix-2 passes down to blocks of 4096 points, the rest in shared memory), for
 *    the product and remainder trees of batch GCD.
 *
 * Reached from C only through the int backend table (int/int_backend.h: mul_big, raw_*,
 * ntt_batch), whose entries these are. */
#ifndef BULK_INT_CUDA_INT_CUDA_NTT_H
#define BULK_INT_CUDA_INT_CUDA_NTT_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/int.h"
#include "int/int_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* BULK_INT_CUDA_NTT_MAX_LIMBS (int/int_backend.h): the largest na + nb of a big product. */

/* r (na + nb limbs) = a * b, all in host memory (plain malloc'd memory is fine; pinned is
 * faster). na, nb >= 1, na + nb <= BULK_INT_CUDA_NTT_MAX_LIMBS; r must not overlap a or b;
 * a == b (same pointer and na == nb) is a square and saves one transform per prime. Synchronous:
 * returns when r is written. Runs on `device` (made the calling thread's), queued on
 * cudaStreamPerThread, so several host threads may call it at once (each needs its own device
 * memory). Device memory: about bulk_int_cuda_mul_big_bytes(na, nb) bytes from the
 * stream-ordered pool, returned before the call ends.
 * Returns BULK_OK; BULK_ERR_ARG (size 0, too large, NULL); BULK_ERR_NOMEM (device memory short:
 * r untouched, fall back to the CPU); BULK_ERR_CUDA (a CUDA call failed); BULK_ERR_NO_BACKEND
 * (no such device). On any error r is unspecified except for NOMEM. */
int bulk_int_cuda_mul_big(int device, bulk_limb_t *r, const bulk_limb_t *a, size_t na, const bulk_limb_t *b,
                          size_t nb);

/* The same with r, a, b in device memory (cudaMalloc'd or from bulk_int_cuda_dev_alloc); r
 * disjoint from a and b. Queued on cudaStreamPerThread and waited for before returning. */
int bulk_int_cuda_mul_big_dev(int device, bulk_limb_t *r, const bulk_limb_t *a, size_t na,
                              const bulk_limb_t *b, size_t nb);

/* Device memory (bytes) one bulk_int_cuda_mul_big call takes, operands and result included;
 * bulk_int_cuda_mul_big_dev takes this minus the 8 (2 na + 2 nb) bytes of operands and result. */
size_t bulk_int_cuda_mul_big_bytes(size_t na, size_t nb);

/* Device memory on `device` for callers in C that keep operands on the device between products
 * (a tree level): bytes from the device's stream-ordered pool on cudaStreamPerThread. *p = NULL
 * and BULK_ERR_NOMEM / BULK_ERR_NO_BACKEND on failure. Copies are synchronous. */
int bulk_int_cuda_raw_alloc(int device, void **p, size_t bytes);
int bulk_int_cuda_raw_free(int device, void *p);
int bulk_int_cuda_raw_put(int device, void *dst, const void *src, size_t bytes); /* host -> device */
int bulk_int_cuda_raw_get(int device, void *dst, const void *src, size_t bytes); /* device -> host */

/* Batched products of one width through the NTT (limbs <= bulk_int_cuda_ntt_batch_max_limbs()),
 * host memory, same layout and contract as bulk_int_mul (r: 2 * limbs per instance), on the
 * device of ctx (a CUDA context). For tests
 * and benchmarks; bulk_int_mul on a CUDA context reaches the same kernels when the size choice
 * (or the tuning int.mul=ntt) picks them. */
int bulk_int_cuda_mul_ntt_batch(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                                size_t n, size_t limbs);
/* The widest instance (limbs) the batched NTT kernel takes. */
size_t bulk_int_cuda_ntt_batch_max_limbs(void);

#ifdef __cplusplus
}
#endif
#endif
