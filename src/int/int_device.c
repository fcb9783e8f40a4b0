/* The public device-resident API (bulk/int_device.h): argument checks on the context, then the
 * context's GPU int table (int/int_backend.h). A context without a device has no table:
 * BULK_ERR_NO_BACKEND. */
#include "backend/context.h"
#include "backend/report.h"
#include "int/int_backend.h"

/* The GPU int table of ctx, or NULL with *st set. */
static const bulk_int_backend *gpu_ints(const bulk_ctx *ctx, const char *fn, int *st)
{
    if (!ctx) {
        *st = bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx is NULL", fn);
        return NULL;
    }
    if (!ctx->gpu || !ctx->gpu->ints) {
        *st = bulk_fail(ctx, BULK_ERR_NO_BACKEND, "%s: the context has no GPU (backend %s)", fn,
                        bulk_backend_name(ctx->backend));
        return NULL;
    }
    *st = BULK_OK;
    return ctx->gpu->ints;
}

#define GPU_INTS(fn)                                                                               \
    int st_;                                                                                       \
    const bulk_int_backend *g_ = gpu_ints(ctx, fn, &st_);                                          \
    if (!g_) return st_

int bulk_int_dev_alloc(bulk_ctx *ctx, bulk_int_dev **out, size_t n, size_t limbs)
{
    if (out) *out = NULL;
    GPU_INTS("bulk_int_dev_alloc");
    return g_->dev_alloc(ctx, out, n, limbs);
}

void bulk_int_dev_free(bulk_int_dev *x)
{
    if (x) x->be->dev_free(x);
}

size_t bulk_int_dev_count(const bulk_int_dev *x) { return x ? x->n : 0; }
size_t bulk_int_dev_limbs(const bulk_int_dev *x) { return x ? x->limbs : 0; }

int bulk_int_dev_upload(bulk_ctx *ctx, bulk_int_dev *x, const bulk_limb_t *host)
{
    GPU_INTS("bulk_int_dev_upload");
    return g_->dev_upload(ctx, x, host);
}

int bulk_int_dev_download(bulk_ctx *ctx, const bulk_int_dev *x, bulk_limb_t *host)
{
    GPU_INTS("bulk_int_dev_download");
    return g_->dev_download(ctx, x, host);
}

int bulk_int_dev_sync(bulk_ctx *ctx)
{
    GPU_INTS("bulk_int_dev_sync");
    return g_->dev_sync(ctx);
}

int bulk_int_dev_add(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    GPU_INTS("bulk_int_dev_add");
    return g_->dev_add(ctx, r, a, b);
}

int bulk_int_dev_sub(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    GPU_INTS("bulk_int_dev_sub");
    return g_->dev_sub(ctx, r, a, b);
}

int bulk_int_dev_mul(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    GPU_INTS("bulk_int_dev_mul");
    return g_->dev_mul(ctx, r, a, b);
}

int bulk_int_dev_sqr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a)
{
    GPU_INTS("bulk_int_dev_sqr");
    return g_->dev_sqr(ctx, r, a);
}

int bulk_int_dev_mul_lo(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                        const bulk_int_dev *b)
{
    GPU_INTS("bulk_int_dev_mul_lo");
    return g_->dev_mul_lo(ctx, r, a, b);
}

int bulk_int_dev_shl(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits)
{
    GPU_INTS("bulk_int_dev_shl");
    return g_->dev_shl(ctx, r, a, bits);
}

int bulk_int_dev_shr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits)
{
    GPU_INTS("bulk_int_dev_shr");
    return g_->dev_shr(ctx, r, a, bits);
}

int bulk_int_dev_divmod(bulk_ctx *ctx, bulk_int_dev *q, bulk_int_dev *r, const bulk_int_dev *a,
                        const bulk_int_dev *d, int8_t *err_host)
{
    GPU_INTS("bulk_int_dev_divmod");
    return g_->dev_divmod(ctx, q, r, a, d, err_host);
}

int bulk_int_dev_gcd(bulk_ctx *ctx, bulk_int_dev *g, const bulk_int_dev *a, const bulk_int_dev *b)
{
    GPU_INTS("bulk_int_dev_gcd");
    return g_->dev_gcd(ctx, g, a, b);
}

int bulk_int_dev_powmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *base,
                        const bulk_int_dev *exp, const bulk_int_dev *m, int8_t *err_host)
{
    GPU_INTS("bulk_int_dev_powmod");
    return g_->dev_powmod(ctx, r, base, exp, m, err_host);
}
