/* The CUDA integer entry points (int/cuda/int_cuda.h) and the device-resident API
 * (bulk/int_device.h) in a build without CUDA: no device, so BULK_ERR_NO_BACKEND everywhere.
 * With CUDA the real ones come from src/int/cuda/ *.cu and this file compiles to nothing. */
#include "bulk/int_device.h"
#include "int/cuda/int_cuda.h"

typedef int bulk_int_cuda_absent_unit; /* keeps the unit non-empty when CUDA is built */

#ifndef BULK_HAVE_CUDA

size_t bulk_int_cuda_max_limbs(int op)
{
    (void)op;
    return 0;
}

const char *bulk_int_cuda_mul_kernel(const bulk_ctx *ctx, size_t limbs)
{
    (void)ctx, (void)limbs;
    return "none";
}

int bulk_int_cuda_peaks(double *imad_per_s, double *bytes_per_s, char *name)
{
    (void)imad_per_s, (void)bytes_per_s, (void)name;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_add(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *carry, const bulk_limb_t *a,
                      const bulk_limb_t *b, size_t n, size_t limbs)
{
    (void)ctx, (void)r, (void)carry, (void)a, (void)b, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_sub(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *borrow, const bulk_limb_t *a,
                      const bulk_limb_t *b, size_t n, size_t limbs)
{
    (void)ctx, (void)r, (void)borrow, (void)a, (void)b, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_mul(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs)
{
    (void)ctx, (void)r, (void)a, (void)b, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_sqr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t n, size_t limbs)
{
    (void)ctx, (void)r, (void)a, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_mul_lo(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a,
                         const bulk_limb_t *b, size_t n, size_t limbs)
{
    (void)ctx, (void)r, (void)a, (void)b, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_cmp(bulk_ctx *ctx, int8_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs)
{
    (void)ctx, (void)r, (void)a, (void)b, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_shl(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
                      size_t limbs)
{
    (void)ctx, (void)r, (void)a, (void)bits, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_shr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits, size_t n,
                      size_t limbs)
{
    (void)ctx, (void)r, (void)a, (void)bits, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_divmod(bulk_ctx *ctx, bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a,
                         size_t a_limbs, const bulk_limb_t *d, size_t n, size_t limbs,
                         int8_t *err)
{
    (void)ctx, (void)q, (void)r, (void)a, (void)a_limbs, (void)d, (void)n, (void)limbs, (void)err;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_gcd(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b,
                      size_t n, size_t limbs)
{
    (void)ctx, (void)g, (void)a, (void)b, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_powmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *base,
                         const bulk_limb_t *exp, const bulk_limb_t *m, size_t n, size_t limbs,
                         int8_t *err)
{
    (void)ctx, (void)r, (void)base, (void)exp, (void)m, (void)n, (void)limbs, (void)err;
    return BULK_ERR_NO_BACKEND;
}

/* ---- bulk/int_device.h ---- */

int bulk_int_dev_alloc(bulk_ctx *ctx, bulk_int_dev **out, size_t n, size_t limbs)
{
    (void)ctx, (void)n, (void)limbs;
    if (out) *out = NULL;
    return BULK_ERR_NO_BACKEND;
}

void bulk_int_dev_free(bulk_int_dev *x) { (void)x; }
size_t bulk_int_dev_count(const bulk_int_dev *x) { (void)x; return 0; }
size_t bulk_int_dev_limbs(const bulk_int_dev *x) { (void)x; return 0; }

int bulk_int_dev_upload(bulk_ctx *ctx, bulk_int_dev *x, const bulk_limb_t *host)
{
    (void)ctx, (void)x, (void)host;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_download(bulk_ctx *ctx, const bulk_int_dev *x, bulk_limb_t *host)
{
    (void)ctx, (void)x, (void)host;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_sync(bulk_ctx *ctx)
{
    (void)ctx;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_add(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    (void)ctx, (void)r, (void)a, (void)b;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_sub(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    (void)ctx, (void)r, (void)a, (void)b;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_mul(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    (void)ctx, (void)r, (void)a, (void)b;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_sqr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a)
{
    (void)ctx, (void)r, (void)a;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_mul_lo(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                        const bulk_int_dev *b)
{
    (void)ctx, (void)r, (void)a, (void)b;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_shl(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits)
{
    (void)ctx, (void)r, (void)a, (void)bits;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_shr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits)
{
    (void)ctx, (void)r, (void)a, (void)bits;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_divmod(bulk_ctx *ctx, bulk_int_dev *q, bulk_int_dev *r, const bulk_int_dev *a,
                        const bulk_int_dev *d, int8_t *err_host)
{
    (void)ctx, (void)q, (void)r, (void)a, (void)d, (void)err_host;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_gcd(bulk_ctx *ctx, bulk_int_dev *g, const bulk_int_dev *a, const bulk_int_dev *b)
{
    (void)ctx, (void)g, (void)a, (void)b;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_dev_powmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *base,
                        const bulk_int_dev *exp, const bulk_int_dev *m, int8_t *err_host)
{
    (void)ctx, (void)r, (void)base, (void)exp, (void)m, (void)err_host;
    return BULK_ERR_NO_BACKEND;
}

#endif
