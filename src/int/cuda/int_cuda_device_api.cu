/* The device-resident API (bulk/int_device.h): arrays that stay in GPU memory between calls.
 * The int backend table's dev_* entries (int/int_backend.h; the public wrappers are in
 * int_device.c). Every call sets the context's device, checks shapes, then queues the launcher
 * on cudaStreamPerThread; only download, sync and the calls that must return a per-instance
 * status wait for the GPU. */
#include <stdlib.h>

#include <new>

#include "backend/report.h"
#include "bulk/int_device.h"
#include "int/int_backend.h"
#include "int/cuda/int_cuda_internal.cuh"

namespace {

const cudaStream_t kStream = cudaStreamPerThread;

/* A CUDA context, whose device becomes the calling thread's. */
int check(bulk_ctx *ctx)
{
    if (!ctx) return BULK_ERR_ARG;
    if (bulk_ctx_backend(ctx) != BULK_BACKEND_CUDA) return BULK_ERR_NO_BACKEND;
    BULK_CUDA_CHECK(ctx, cudaSetDevice(ctx->cuda->device));
    return BULK_OK;
}

bool same(const bulk_int_dev *x, size_t n, size_t limbs)
{
    return x && x->n == n && x->limbs == limbs;
}

/* Runs launch(bad) and turns a raised device flag into `status` (waits for the GPU). */
template <typename F> int with_flag(F launch, int status)
{
    int *bad = NULL;
    BULK_CUDA_CHECK(NULL, cudaMallocAsync((void **)&bad, sizeof(int), kStream));
    int h = 0, rc = BULK_OK;
    if (cudaMemsetAsync(bad, 0, sizeof(int), kStream) != cudaSuccess) rc = BULK_ERR_CUDA;
    if (rc == BULK_OK) rc = launch(bad);
    if (rc == BULK_OK &&
        cudaMemcpyAsync(&h, bad, sizeof(int), cudaMemcpyDeviceToHost, kStream) != cudaSuccess)
        rc = BULK_ERR_CUDA;
    if (cudaFreeAsync(bad, kStream) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    if (cudaStreamSynchronize(kStream) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    if (rc == BULK_OK && h) rc = status;
    return rc;
}

/* Per-instance codes to the host when asked for. */
int fetch_err(int8_t *err_host, const int8_t *err_dev, size_t n)
{
    if (!err_host) return BULK_OK;
    BULK_CUDA_CHECK(NULL, cudaMemcpyAsync(err_host, err_dev, n, cudaMemcpyDeviceToHost, kStream));
    BULK_CUDA_CHECK(NULL, cudaStreamSynchronize(kStream));
    return BULK_OK;
}

} // namespace

extern "C" {

int bulk_int_cuda_dev_alloc(bulk_ctx *ctx, bulk_int_dev **out, size_t n, size_t limbs)
{
    if (!out) return BULK_ERR_ARG;
    *out = NULL;
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (limbs == 0 || limbs > ((size_t)1 << 20) || (n && n > SIZE_MAX / 8 / limbs)) return BULK_ERR_ARG;
    bulk_int_dev *x = new (std::nothrow) bulk_int_dev;
    if (!x) return BULK_ERR_NOMEM;
    x->n = n;
    x->limbs = limbs;
    x->p = NULL;
    x->device = ctx->cuda->device;
    x->be = &bulk_int_cuda_backend;
    if (n && cudaMalloc((void **)&x->p, n * limbs * sizeof(bg_limb)) != cudaSuccess) {
        cudaGetLastError();
        delete x;
        return BULK_ERR_NOMEM;
    }
    *out = x;
    return BULK_OK;
}

void bulk_int_cuda_dev_free(bulk_int_dev *x)
{
    if (!x) return;
    if (x->p) {
        cudaSetDevice(x->device);
        cudaStreamSynchronize(kStream); /* queued work may still read it */
        cudaFree(x->p);
    }
    delete x;
}

int bulk_int_cuda_dev_upload(bulk_ctx *ctx, bulk_int_dev *x, const bulk_limb_t *host)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!x || (!host && x->n)) return BULK_ERR_ARG;
    if (x->n == 0) return BULK_OK;
    BULK_CUDA_CHECK(ctx, cudaMemcpyAsync(x->p, host, x->n * x->limbs * sizeof(bg_limb), cudaMemcpyHostToDevice,
                             kStream));
    BULK_CUDA_CHECK(ctx, cudaStreamSynchronize(kStream)); /* the host buffer may be reused at once */
    return BULK_OK;
}

int bulk_int_cuda_dev_download(bulk_ctx *ctx, const bulk_int_dev *x, bulk_limb_t *host)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!x || (!host && x->n)) return BULK_ERR_ARG;
    if (x->n == 0) return BULK_OK;
    BULK_CUDA_CHECK(ctx, cudaMemcpyAsync(host, x->p, x->n * x->limbs * sizeof(bg_limb), cudaMemcpyDeviceToHost,
                             kStream));
    BULK_CUDA_CHECK(ctx, cudaStreamSynchronize(kStream));
    return BULK_OK;
}

int bulk_int_cuda_dev_sync(bulk_ctx *ctx)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    BULK_CUDA_CHECK(ctx, cudaStreamSynchronize(kStream));
    BULK_CUDA_CHECK(ctx, cudaGetLastError());
    return BULK_OK;
}

static int addsub(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b,
                  int sub)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!a || !same(b, a->n, a->limbs) || !same(r, a->n, a->limbs)) return BULK_ERR_ARG;
    return bg_launch_addsub(r->p, NULL, a->p, b->p, a->n, a->limbs, sub, kStream);
}

int bulk_int_cuda_dev_add(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    return addsub(ctx, r, a, b, 0);
}

int bulk_int_cuda_dev_sub(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    return addsub(ctx, r, a, b, 1);
}

static int mul(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b, int lo)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!a || !same(b, a->n, a->limbs) || !same(r, a->n, lo ? a->limbs : 2 * a->limbs))
        return BULK_ERR_ARG;
    if (r == a || r == b) return BULK_ERR_ARG; /* products must not overlap their operands */
    return bg_launch_mul(r->p, a->p, b->p, a->n, a->limbs, lo, bulk_ctx_tune(ctx), kStream);
}

int bulk_int_cuda_dev_mul(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, const bulk_int_dev *b)
{
    return mul(ctx, r, a, b, 0);
}

int bulk_int_cuda_dev_sqr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a)
{
    return mul(ctx, r, a, a, 0);
}

int bulk_int_cuda_dev_mul_lo(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                        const bulk_int_dev *b)
{
    return mul(ctx, r, a, b, 1);
}

static int shift(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits, int left)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!a || !same(r, a->n, a->limbs)) return BULK_ERR_ARG;
    return bg_launch_shift(r->p, a->p, bits, a->n, a->limbs, left, kStream);
}

int bulk_int_cuda_dev_shl(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits)
{
    return shift(ctx, r, a, bits, 1);
}

int bulk_int_cuda_dev_shr(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a, size_t bits)
{
    return shift(ctx, r, a, bits, 0);
}

int bulk_int_cuda_dev_divmod(bulk_ctx *ctx, bulk_int_dev *q, bulk_int_dev *r, const bulk_int_dev *a,
                        const bulk_int_dev *d, int8_t *err_host)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!a || !d || a->n != d->n || (a->limbs != d->limbs && a->limbs != 2 * d->limbs))
        return BULK_ERR_ARG;
    if ((q && !same(q, a->n, a->limbs)) || (r && !same(r, a->n, d->limbs))) return BULK_ERR_ARG;
    if (q == a || q == d || r == a || r == d || (q && q == r)) return BULK_ERR_ARG;
    size_t n = a->n;
    int8_t *err = NULL;
    if (err_host && n) BULK_CUDA_CHECK(ctx, cudaMallocAsync((void **)&err, n, kStream));
    rc = with_flag([&](int *bad) {
        return bg_launch_divmod(q ? q->p : NULL, r ? r->p : NULL, a->p, a->limbs, d->p, n, d->limbs,
                                err, bad, kStream);
    }, BULK_ERR_DIVZERO);
    if (err) {
        int r2 = fetch_err(err_host, err, n);
        cudaFreeAsync(err, kStream);
        if (rc == BULK_OK || rc == BULK_ERR_DIVZERO) rc = r2 != BULK_OK ? r2 : rc;
    }
    return rc;
}

int bulk_int_cuda_dev_gcd(bulk_ctx *ctx, bulk_int_dev *g, const bulk_int_dev *a, const bulk_int_dev *b)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!a || !same(b, a->n, a->limbs) || !same(g, a->n, a->limbs)) return BULK_ERR_ARG;
    return bg_launch_gcd(g->p, a->p, b->p, a->n, a->limbs, bulk_ctx_tune(ctx)->int_gcd_approx, kStream);
}

int bulk_int_cuda_dev_powmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *base,
                        const bulk_int_dev *exp, const bulk_int_dev *m, int8_t *err_host)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!base || !same(exp, base->n, base->limbs) || !same(m, base->n, base->limbs) ||
        !same(r, base->n, base->limbs))
        return BULK_ERR_ARG;
    if (r == base || r == exp || r == m) return BULK_ERR_ARG;
    size_t n = base->n;
    int8_t *err = NULL;
    if (err_host && n) BULK_CUDA_CHECK(ctx, cudaMallocAsync((void **)&err, n, kStream));
    rc = with_flag([&](int *bad) {
        return bg_launch_powmod(r->p, base->p, exp->p, m->p, n, base->limbs, err, bad,
                                bulk_ctx_tune(ctx), kStream);
    }, BULK_ERR_EVEN_MODULUS);
    if (err) {
        int r2 = fetch_err(err_host, err, n);
        cudaFreeAsync(err, kStream);
        if (rc == BULK_OK || rc == BULK_ERR_EVEN_MODULUS) rc = r2 != BULK_OK ? r2 : rc;
    }
    return rc;
}

int bulk_int_cuda_dev_invmod(bulk_ctx *ctx, bulk_int_dev *r, const bulk_int_dev *a,
                             const bulk_int_dev *m, int8_t *err_host)
{
    int rc = check(ctx);
    if (rc != BULK_OK) return rc;
    if (!a || !same(m, a->n, a->limbs) || !same(r, a->n, a->limbs)) return BULK_ERR_ARG;
    if (r == a || r == m) return BULK_ERR_ARG;
    size_t n = a->n;
    if (n == 0) return BULK_OK;
    /* two failure codes: the per-instance codes always come back, to find the first */
    int8_t *codes = err_host ? err_host : (int8_t *)malloc(n), *err = NULL;
    if (!codes) return BULK_ERR_NOMEM;
    rc = BULK_OK;
    if (cudaMallocAsync((void **)&err, n, kStream) != cudaSuccess) rc = BULK_ERR_CUDA;
    if (rc == BULK_OK)
        rc = bg_launch_invmod(r->p, a->p, m->p, n, a->limbs, err, NULL, bulk_ctx_tune(ctx), kStream);
    if (rc == BULK_OK) rc = fetch_err(codes, err, n);
    if (err) cudaFreeAsync(err, kStream);
    if (rc == BULK_OK) rc = bg_first_failure(ctx, "bulk_int_dev_invmod", codes, n);
    if (codes != err_host) free(codes);
    return rc;
}

} // extern "C"
