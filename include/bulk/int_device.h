/* Device-resident bulk integers: upload once, chain operations on the GPU, download once.
 *
 * A bulk_int_dev is an array of n instances of `limbs` 64-bit limbs in GPU memory, in the same
 * layout as bulk/int.h (instance i at [i * limbs, (i + 1) * limbs), least significant limb
 * first). The operations mirror bulk/int.h with device arrays in place of host pointers; all
 * arrays of one call must have the same n, and the widths stated per function (checked:
 * BULK_ERR_ARG otherwise). Work is queued in order on the calling thread's CUDA stream
 * (cudaStreamPerThread), so a chain
 * such as mul -> divmod -> gcd needs no host round trip; the functions that report
 * per-instance errors (divmod, powmod, invmod) wait for their own result to return the status.
 *
 * Needs a context on the CUDA backend (BULK_ERR_NO_BACKEND otherwise, and always in builds
 * without CUDA). Results equal those of bulk/int.h on any backend. */
#ifndef BULK_INT_DEVICE_H
#define BULK_INT_DEVICE_H

#include "bulk/int.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bulk_int_dev bulk_int_dev;

/* Allocates n * limbs limbs of device memory (contents undefined). */
BULK_API int bulk_int_dev_alloc(bulk_ctx *ctx, bulk_int_dev **out, size_t n, size_t limbs);
BULK_API void bulk_int_dev_free(bulk_int_dev *x);
BULK_API size_t bulk_int_dev_count(const bulk_int_dev *x);
BULK_API size_t bulk_int_dev_limbs(const bulk_int_dev *x);

/* Copies n * limbs limbs from / to host memory (waits for queued work first on download). */
BULK_API int bulk_int_dev_upload(bulk_ctx *ctx, bulk_int_dev *x, const bulk_limb_t *host);
BULK_API int bulk_int_dev_download(bulk_ctx *ctx, const bulk_int_dev *x, bulk_limb_t *host);
/* Waits until all queued work of the context is done; reports a failed kernel. */
BULK_API int bulk_int_dev_sync(bulk_ctx *ctx);

/* r = a +/- b mod 2^W (r, a, b: limbs each; r may be a or b). */
BULK_API int bulk_int_dev_add(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                              const bulk_int_dev *b);
BULK_API int bulk_int_dev_sub(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                              const bulk_int_dev *b);
/* r (2 * limbs) = a * b; r (2 * limbs) = a^2; r (limbs) = a * b mod 2^W. */
BULK_API int bulk_int_dev_mul(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                              const bulk_int_dev *b);
BULK_API int bulk_int_dev_sqr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a);
BULK_API int bulk_int_dev_mul_lo(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                                 const bulk_int_dev *b);
/* r = a << bits, a >> bits (r, a: same limbs; r may be a). */
BULK_API int bulk_int_dev_shl(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits);
BULK_API int bulk_int_dev_shr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits);
/* q (a's limbs, optional) and r (d's limbs, optional) of a / d; a has d's limbs or twice that.
 * err_host (optional, n bytes of host memory) receives the per-instance codes. */
BULK_API int bulk_int_dev_divmod(bulk_ctx *ctx, bulk_int_dev *q, bulk_int_dev *r,
                                 const bulk_int_dev *a, const bulk_int_dev *d, int8_t *err_host);
/* g = gcd(a, b) (all the same limbs). */
BULK_API int bulk_int_dev_gcd(bulk_ctx *ctx, bulk_int_dev *g, const bulk_int_dev *a,
                              const bulk_int_dev *b);
/* r = base^exp mod m (all the same limbs; odd m). err_host as for divmod. */
BULK_API int bulk_int_dev_powmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *base,
                                 const bulk_int_dev *exp, const bulk_int_dev *m, int8_t *err_host);
/* r = a^-1 mod m (all the same limbs; r neither a nor m), the contract of bulk_int_invmod:
 * m = 0 gives BULK_ERR_DIVZERO, gcd(a, m) != 1 BULK_ERR_NOT_INVERTIBLE (r = 0 for those
 * instances), m = 1 gives r = 0; the return value is the code of the lowest-numbered failing
 * instance. err_host as for divmod. Waits for its result. */
BULK_API int bulk_int_dev_invmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                                 const bulk_int_dev *m, int8_t *err_host);

#ifdef __cplusplus
}
#endif
#endif
