/* Opening a context: choosing the backend and the thread count. */
#include "backend/context.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bulk_backend_parse(const char *name, bulk_backend *out)
{
    if (!name || !out) return BULK_ERR_ARG;
    if (strcmp(name, "auto") == 0) *out = BULK_BACKEND_AUTO;
    else if (strcmp(name, "cpu") == 0) *out = BULK_BACKEND_CPU;
    else if (strcmp(name, "cuda") == 0) *out = BULK_BACKEND_CUDA;
    else return BULK_ERR_ARG;
    return BULK_OK;
}

const char *bulk_backend_name(bulk_backend b)
{
    switch (b) {
    case BULK_BACKEND_AUTO: return "auto";
    case BULK_BACKEND_CPU: return "cpu";
    case BULK_BACKEND_CUDA: return "cuda";
    }
    return "unknown";
}

int bulk_cuda_device_count(void)
{
    static int cached = -1; /* probing initialises the driver: do it once */
    if (cached < 0) cached = bulk_cuda_probe_devices();
    return cached;
}

static int default_threads(void)
{
    const char *env = getenv("BULK_THREADS");
    if (env && *env) {
        long v = strtol(env, NULL, 10);
        if (v > 0 && v <= 4096) return (int)v;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int bulk_ctx_open(bulk_ctx **ctx, bulk_backend want, int threads)
{
    if (!ctx) return BULK_ERR_ARG;
    *ctx = NULL;
    if (want == BULK_BACKEND_AUTO) {
        const char *env = getenv("BULK_BACKEND");
        if (env && *env && bulk_backend_parse(env, &want) != BULK_OK) return BULK_ERR_ARG;
    }
    int devices = 0;
    if (want != BULK_BACKEND_CPU) devices = bulk_cuda_device_count();
    if (want == BULK_BACKEND_CUDA && devices == 0) return BULK_ERR_NO_BACKEND;
    if (want == BULK_BACKEND_AUTO) want = devices > 0 ? BULK_BACKEND_CUDA : BULK_BACKEND_CPU;

    struct bulk_ctx *c = calloc(1, sizeof *c);
    if (!c) return BULK_ERR_NOMEM;
    c->backend = want;
    c->threads = threads > 0 ? threads : default_threads();
    c->cuda_devices = want == BULK_BACKEND_CUDA ? devices : 0;
    *ctx = c;
    return BULK_OK;
}

void bulk_ctx_close(bulk_ctx *ctx) { free(ctx); }
bulk_backend bulk_ctx_backend(const bulk_ctx *ctx) { return ctx->backend; }
int bulk_ctx_threads(const bulk_ctx *ctx) { return ctx->threads; }
