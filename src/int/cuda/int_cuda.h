/* The CUDA backend of bulk/int.h: C-callable entry points behind the public wrappers.
 *
 * Each bulk_int_cuda_OP takes the same arguments as the public bulk_int_OP (host-memory
 * arrays, same layout and aliasing rules; arguments already checked by the wrapper) and
 * returns a bulk status. Batches are streamed through the GPU in chunks sized from the free
 * device memory, two CUDA streams and pinned staging buffers overlapping the copies of one
 * chunk with the kernels of the other, so n may exceed the device memory.
 *
 * Built from src/int/cuda/ *.cu when CUDA is, and reached only through the int backend table
 * (int/int_backend.h, filled in int_cuda_backend.cu). Each sets the context's device before its
 * work. Sizes: every operation accepts 1 <= limbs <= 8192
 * (524288 bits); bulk_int_cuda_max_limbs(op) says up to which width the GPU is the better
 * choice for each (0: not on the GPU), and the public wrappers route wider calls to the CPU. */
#ifndef BULK_INT_CUDA_INT_CUDA_H
#define BULK_INT_CUDA_INT_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/int.h"
#include "int/int_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest limbs the CUDA backend takes for `op` (0 when it has no kernel for it). The wrappers route to the CPU above it. */
size_t bulk_int_cuda_max_limbs(int op);

/* The two ceilings of METHOD.md, measured on the context's device (for the benchmarks): 32-bit
 * multiply-adds per second (a kernel of independent IMAD chains filling every SM) and device
 * memory bandwidth in bytes per second (a large device-to-device copy, bytes read + written).
 * name (at least 256 bytes) gets the device name. BULK_ERR_NO_BACKEND without a device. */
int bulk_int_cuda_peaks(bulk_ctx *ctx, double *imad_per_s, double *bytes_per_s, char *name);

/* The multiplication kernel the CUDA backend uses at this width under ctx's tuning (NULL: the
 * defaults): "teo" (even/odd rows per thread), "sr" (sum-rotate), "cols" (warp-column), "kara"
 * (Karatsuba over the batch), "ntt", or "none" beyond the widest width
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
int bulk_int_cuda_trial(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a, size_t n,
                        size_t limbs, const struct bulk_prime_table *t);
int bulk_int_cuda_sprp2(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *m, size_t n,
                        size_t limbs);
int bulk_int_cuda_lucas(bulk_ctx *ctx, bulk_limb_t *u, bulk_limb_t *v, bulk_limb_t *qk,
                        const bulk_limb_t *m, const int64_t *d, size_t n, size_t limbs);

/* invmod: the first failing instance's code is returned, with the message bulk_int_invmod's
 * CPU loop gives (int_api_div.c). */
int bulk_int_cuda_invmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *m,
                         size_t n, size_t limbs, int8_t *err);

/* bulk/int_device.h on the context's device (int_cuda_device_api.cu). */
int bulk_int_cuda_dev_alloc(bulk_ctx *ctx, bulk_int_dev **out, size_t n, size_t limbs);
void bulk_int_cuda_dev_free(bulk_int_dev *x);
int bulk_int_cuda_dev_upload(bulk_ctx *ctx, bulk_int_dev *x, const bulk_limb_t *host);
int bulk_int_cuda_dev_download(bulk_ctx *ctx, const bulk_int_dev *x, bulk_limb_t *host);
int bulk_int_cuda_dev_sync(bulk_ctx *ctx);
int bulk_int_cuda_dev_add(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b);
int bulk_int_cuda_dev_sub(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b);
int bulk_int_cuda_dev_mul(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b);
int bulk_int_cuda_dev_sqr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a);
int bulk_int_cuda_dev_mul_lo(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                             const bulk_int_dev *b);
int bulk_int_cuda_dev_shl(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits);
int bulk_int_cuda_dev_shr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits);
int bulk_int_cuda_dev_divmod(bulk_ctx *ctx, bulk_int_dev *q, bulk_int_dev *r, const bulk_int_dev *a,
                             const bulk_int_dev *d, int8_t *err_host);
int bulk_int_cuda_dev_gcd(bulk_ctx *ctx, bulk_int_dev *g, const bulk_int_dev *a, const bulk_int_dev *b);
int bulk_int_cuda_dev_powmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *base,
                             const bulk_int_dev *exp, const bulk_int_dev *m, int8_t *err_host);
int bulk_int_cuda_dev_invmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                             const bulk_int_dev *m, int8_t *err_host);

/* The context's int GPU state (ctx->cuda->ints), freed (int_cuda_host.cu). */
void bulk_int_cuda_release(struct bulk_cuda_state *cs);

#ifdef __cplusplus
}
#endif
#endif
