/* The public device-resident API (bulk/int_device.h): argument checks on the context, then the
 * context's GPU int table (int/int_backend.h). A context without a device has no table:
 * BULK_ERR_NO_BACKEND. */
#include <stdint.h>

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

/* x is a set of n instances of `limbs` limbs; else the failure names `what`. */
static int shape(const bulk_ctx *ctx, const char *fn, const char *what, const bulk_int_dev *x, size_t n,
                 size_t limbs)
{
    if (!x) return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s is NULL", fn, what);
    if (x->n != n || x->limbs != limbs)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s holds %zu x %zu limbs: expected %zu x %zu", fn, what, x->n,
                         x->limbs, n, limbs);
    return BULK_OK;
}

/* A result must not be one of its operands. */
static int apart(const bulk_ctx *ctx, const char *fn, const char *rname, const bulk_int_dev *r, const char *oname,
                 const bulk_int_dev *o)
{
    if (r && r == o) return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s is %s: results may not overlap operands", fn, rname, oname);
    return BULK_OK;
}

/* The arguments of r = f(a) or r = f(a, b) (b NULL and has_b 0 for one operand): a given; b of
 * a's shape; r (named rname) of a->n instances of rmul * a->limbs limbs; when `disjoint` (the
 * products), r neither a nor b. */
static int operands(const bulk_ctx *ctx, const char *fn, const char *rname, const bulk_int_dev *r,
                    const bulk_int_dev *a, const bulk_int_dev *b, int has_b, size_t rmul, int disjoint)
{
    int st;
    if (!a) return bulk_fail(ctx, BULK_ERR_ARG, "%s: a is NULL", fn);
    if (has_b && (st = shape(ctx, fn, "b", b, a->n, a->limbs)) != BULK_OK) return st;
    if ((st = shape(ctx, fn, rname, r, a->n, rmul * a->limbs)) != BULK_OK) return st;
    if (disjoint && (st = apart(ctx, fn, rname, r, "a", a)) != BULK_OK) return st;
    if (disjoint && has_b && (st = apart(ctx, fn, rname, r, "b", b)) != BULK_OK) return st;
    return BULK_OK;
}

#define REQUIRE_OK(call)                                                                           \
    do {                                                                                           \
        int c_ = (call);                                                                           \
        if (c_ != BULK_OK) return c_;                                                              \
    } while (0)

#define GPU_INTS(fn)                                                                               \
    int st_;                                                                                       \
    const bulk_int_backend *g_ = gpu_ints(ctx, fn, &st_);                                          \
    if (!g_) return st_

int bulk_int_dev_alloc(bulk_ctx *ctx, bulk_int_dev **out, size_t n, size_t limbs)
{
    if (out) *out = NULL;
    GPU_INTS("bulk_int_dev_alloc");
    if (!out) return bulk_fail(ctx, BULK_ERR_ARG, "bulk_int_dev_alloc: out is NULL");
    if (limbs == 0 || limbs > ((size_t)1 << 20) || (n && n > SIZE_MAX / 8 / limbs))
        return bulk_fail(ctx, BULK_ERR_ARG, "bulk_int_dev_alloc: %zu x %zu limbs: limbs must be 1..2^20 and the "
                         "array must fit the address space", n, limbs);
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
    if (!x) return bulk_fail(ctx, BULK_ERR_ARG, "bulk_int_dev_upload: x is NULL");
    if (!host && x->n) return bulk_fail(ctx, BULK_ERR_ARG, "bulk_int_dev_upload: host is NULL for %zu instances", x->n);
    return g_->dev_upload(ctx, x, host);
}

int bulk_int_dev_download(bulk_ctx *ctx, const bulk_int_dev *x, bulk_limb_t *host)
{
    GPU_INTS("bulk_int_dev_download");
    if (!x) return bulk_fail(ctx, BULK_ERR_ARG, "bulk_int_dev_download: x is NULL");
    if (!host && x->n) return bulk_fail(ctx, BULK_ERR_ARG, "bulk_int_dev_download: host is NULL for %zu instances", x->n);
    return g_->dev_download(ctx, x, host);
}

int bulk_int_dev_sync(bulk_ctx *ctx)
{
    GPU_INTS("bulk_int_dev_sync");
    return g_->dev_sync(ctx);
}

int bulk_int_dev_add(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    static const char fn[] = "bulk_int_dev_add";
    GPU_INTS(fn);
    REQUIRE_OK(operands(ctx, fn, "r", r, a, b, 1, 1, 0));
    return g_->dev_add(ctx, r, a, b);
}

int bulk_int_dev_sub(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    static const char fn[] = "bulk_int_dev_sub";
    GPU_INTS(fn);
    REQUIRE_OK(operands(ctx, fn, "r", r, a, b, 1, 1, 0));
    return g_->dev_sub(ctx, r, a, b);
}

int bulk_int_dev_mul(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    static const char fn[] = "bulk_int_dev_mul";
    GPU_INTS(fn);
    REQUIRE_OK(operands(ctx, fn, "r", r, a, b, 1, 2, 1));
    return g_->dev_mul(ctx, r, a, b);
}

int bulk_int_dev_sqr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a)
{
    static const char fn[] = "bulk_int_dev_sqr";
    GPU_INTS(fn);
    REQUIRE_OK(operands(ctx, fn, "r", r, a, NULL, 0, 2, 1));
    return g_->dev_sqr(ctx, r, a);
}

int bulk_int_dev_mul_lo(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                        const bulk_int_dev *b)
{
    static const char fn[] = "bulk_int_dev_mul_lo";
    GPU_INTS(fn);
    REQUIRE_OK(operands(ctx, fn, "r", r, a, b, 1, 1, 1));
    return g_->dev_mul_lo(ctx, r, a, b);
}

int bulk_int_dev_shl(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits)
{
    static const char fn[] = "bulk_int_dev_shl";
    GPU_INTS(fn);
    REQUIRE_OK(operands(ctx, fn, "r", r, a, NULL, 0, 1, 0));
    return g_->dev_shl(ctx, r, a, bits);
}

int bulk_int_dev_shr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits)
{
    static const char fn[] = "bulk_int_dev_shr";
    GPU_INTS(fn);
    REQUIRE_OK(operands(ctx, fn, "r", r, a, NULL, 0, 1, 0));
    return g_->dev_shr(ctx, r, a, bits);
}

int bulk_int_dev_divmod(bulk_ctx *ctx, bulk_int_dev *q, bulk_int_dev *r, const bulk_int_dev *a,
                        const bulk_int_dev *d, int8_t *err_host)
{
    GPU_INTS("bulk_int_dev_divmod");
    static const char fn[] = "bulk_int_dev_divmod";
    REQUIRE_OK(shape(ctx, fn, "a", a, a ? a->n : 0, a ? a->limbs : 0));
    if (!d) return bulk_fail(ctx, BULK_ERR_ARG, "%s: d is NULL", fn);
    if (d->n != a->n || (a->limbs != d->limbs && a->limbs != 2 * d->limbs))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: a holds %zu x %zu limbs, d %zu x %zu: d must have as many instances "
                         "and as many or half as many limbs", fn, a->n, a->limbs, d->n, d->limbs);
    if (q) REQUIRE_OK(shape(ctx, fn, "q", q, a->n, a->limbs));
    if (r) REQUIRE_OK(shape(ctx, fn, "r", r, a->n, d->limbs));
    REQUIRE_OK(apart(ctx, fn, "q", q, "a", a));
    REQUIRE_OK(apart(ctx, fn, "q", q, "d", d));
    REQUIRE_OK(apart(ctx, fn, "r", r, "a", a));
    REQUIRE_OK(apart(ctx, fn, "r", r, "d", d));
    REQUIRE_OK(apart(ctx, fn, "q", q, "r", r));
    return g_->dev_divmod(ctx, q, r, a, d, err_host);
}

int bulk_int_dev_gcd(bulk_ctx *ctx, bulk_int_dev *g, const bulk_int_dev *a, const bulk_int_dev *b)
{
    static const char fn[] = "bulk_int_dev_gcd";
    GPU_INTS(fn);
    REQUIRE_OK(operands(ctx, fn, "g", g, a, b, 1, 1, 0));
    return g_->dev_gcd(ctx, g, a, b);
}

int bulk_int_dev_powmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *base,
                        const bulk_int_dev *exp, const bulk_int_dev *m, int8_t *err_host)
{
    GPU_INTS("bulk_int_dev_powmod");
    static const char fn[] = "bulk_int_dev_powmod";
    REQUIRE_OK(shape(ctx, fn, "base", base, base ? base->n : 0, base ? base->limbs : 0));
    REQUIRE_OK(shape(ctx, fn, "exp", exp, base->n, base->limbs));
    REQUIRE_OK(shape(ctx, fn, "m", m, base->n, base->limbs));
    REQUIRE_OK(shape(ctx, fn, "r", r, base->n, base->limbs));
    REQUIRE_OK(apart(ctx, fn, "r", r, "base", base));
    REQUIRE_OK(apart(ctx, fn, "r", r, "exp", exp));
    REQUIRE_OK(apart(ctx, fn, "r", r, "m", m));
    return g_->dev_powmod(ctx, r, base, exp, m, err_host);
}

int bulk_int_dev_invmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *m,
                        int8_t *err_host)
{
    static const char fn[] = "bulk_int_dev_invmod";
    GPU_INTS(fn);
    REQUIRE_OK(shape(ctx, fn, "a", a, a ? a->n : 0, a ? a->limbs : 0));
    REQUIRE_OK(shape(ctx, fn, "m", m, a->n, a->limbs));
    REQUIRE_OK(shape(ctx, fn, "r", r, a->n, a->limbs));
    REQUIRE_OK(apart(ctx, fn, "r", r, "a", a));
    REQUIRE_OK(apart(ctx, fn, "r", r, "m", m));
    return g_->dev_invmod(ctx, r, a, m, err_host);
}
