/* The CUDA backend of bulk/int.h: C-callable entry points behind the public wrappers.
 *
 * Each bulk_int_cuda_OP takes the same arguments as the public bulk_int_OP (host-memory
 * arrays, same layout and aliasing rules; arguments already checked by the wrapper) and
 * returns a bulk status. Batches are streamed through the GPU in chunks sized from the free
 * device memory, two CUDA streams and pinned staging buffers overlapping the copies of one
 * chunk with the kernels of the other, so n may exceed the device memory.
 *
 * Built from src/int/cuda/ *.cu when CUDA is; src/int/cuda_absent.c gives the same functions
 * returning BULK_ERR_NO_BACKEND otherwise. Sizes: every operation accepts 1 <= limbs <= 8192
 * (524288 bits); bulk_int_cuda_max_limbs(op) says up to which width the GPU is the better
 * choice for each (0: not on the GPU), and the public wrappers route wider calls to the CPU. */
#ifndef BULK_INT_CUDA_INT_CUDA_H
#define BULK_INT_CUDA_INT_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/int.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operation identifiers for bulk_int_cuda_max_limbs. */
enum bulk_int_cuda_op {
    BULK_INT_CUDA_ADD, BULK_INT_CUDA_SUB, BULK_INT_CUDA_MUL, BULK_INT_CUDA_SQR,
    BULK_INT_CUDA_MUL_LO, BULK_INT_CUDA_CMP, BULK_INT_CUDA_SHL, BULK_INT_CUDA_SHR,
    BULK_INT_CUDA_DIVMOD, BULK_INT_CUDA_GCD, BULK_INT_CUDA_POWMOD
};

/* The largest limbs the CUDA backend takes for `op` (0 when it has no kernel for it, e.g.
 * without CUDA). The wrappers route to the CPU above it. */
size_t bulk_int_cuda_max_limbs(int op);

/* The two ceilings of METHOD.md, measured on device 0 (for the benchmarks): 32-bit
 * multiply-adds per second (a kernel of independent IMAD chains filling every SM) and device
 * memory bandwidth in bytes per second (a large device-to-device copy, bytes read + written).
 * name (at least 256 bytes) gets the device name. BULK_ERR_NO_BACKEND without a device. */
int bulk_int_cuda_peaks(double *imad_per_s, double *bytes_per_s, char *name);

/* The multiplication kernel the CUDA backend uses at this width under ctx's tuning (NULL: the
 * defaults): "teo" (even/odd rows per thread), "sr" (sum-rotate), "cols" (warp-column), "kara"
 * (Karatsuba over the batch), "ntt", or "none" without CUDA or beyond the widest width
 * (benchmarks, logs). */
const char *bulk_int_cuda_mul_kernel(const bulk_ctx *ctx, size_t limbs);

int bulk_int_cuda_add(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *carry, const bulk_limb_t *a,
                      const bulk_limb_t *b, size_t n, size_t limbs);
int bulk_int_cuda_sub(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *borrow, const bulk_limb_t *a,
                      const bulk_limb_t *b, size_t n, size_t limbs);
int bulk_int_cuda_mul(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs);
int bulk_int_cuda_sqr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t n,
                      size_t limbs);
int bulk_int_cuda_mul_lo(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a,
                         const bulk_limb_t *b, size_t n, size_t limbs);
int bulk_int_cuda_cmp(bulk_ctx *ctx, int8_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs);
int bulk_int_cuda_shl(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits,
                      size_t n, size_t limbs);
int bulk_int_cuda_shr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits,
                      size_t n, size_t limbs);
int bulk_int_cuda_divmod(bulk_ctx *ctx, bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a,
                         size_t a_limbs, const bulk_limb_t *d, size_t n, size_t limbs,
                         int8_t *err);
int bulk_int_cuda_gcd(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs);
int bulk_int_cuda_powmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *base,
                         const bulk_limb_t *exp, const bulk_limb_t *m, size_t n, size_t limbs,
                         int8_t *err);

#ifdef __cplusplus
}
#endif
#endif
