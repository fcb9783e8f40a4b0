/* Opening a context: choosing the backend and the thread count. */
#include "backend/context.h"
#include "backend/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collatz/collatz_backend.h" /* the tables with a release */
#include "int/int_backend.h"

int bulk_backend_parse(const char *name, bulk_backend *out)
{
    if (!name || !out) return bulk_fail(NULL, BULK_ERR_ARG, "bulk_backend_parse: %s is NULL", name ? "out" : "name");
    if (strcmp(name, "auto") == 0) *out = BULK_BACKEND_AUTO;
    else if (strcmp(name, "cpu") == 0) *out = BULK_BACKEND_CPU;
    else if (strcmp(name, "cuda") == 0) *out = BULK_BACKEND_CUDA;
    else return bulk_fail(NULL, BULK_ERR_ARG, "bulk_backend_parse: '%s': use auto, cpu or cuda", name);
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

/* BULK_THREADS: unset or empty -> 0; 0..4096 -> itself (0: all online CPUs); else -1. */
static int env_threads(void)
{
    const char *env = getenv("BULK_THREADS");
    if (!env || !*env) return 0;
    char *end;
    errno = 0;
    long v = strtol(env, &end, 10);
    const int digits = *env >= '0' && *env <= '9'; /* no sign, no blanks */
    return !digits || errno || *end || v > 4096 ? -1 : (int)v;
}

int bulk_ctx_open(bulk_ctx **ctx, bulk_backend want, int threads)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "bulk_ctx_open: ctx is NULL");
    *ctx = NULL;
    /* an invalid value is refused even where it would not be used, so that it never hides */
    const char *env = getenv("BULK_BACKEND");
    bulk_backend env_backend = BULK_BACKEND_AUTO;
    if (env && *env && bulk_backend_parse(env, &env_backend) != BULK_OK)
        return bulk_fail(NULL, BULK_ERR_ARG, "bulk_ctx_open: BULK_BACKEND='%s': use auto, cpu or cuda", env);
    const int env_t = env_threads();
    if (env_t < 0)
        return bulk_fail(NULL, BULK_ERR_ARG, "bulk_ctx_open: BULK_THREADS='%s': use a count 0..4096 (0: all CPUs)",
                         getenv("BULK_THREADS"));
    if (want != BULK_BACKEND_AUTO && want != BULK_BACKEND_CPU && want != BULK_BACKEND_CUDA)
        return bulk_fail(NULL, BULK_ERR_ARG, "bulk_ctx_open: backend %d: use AUTO, CPU or CUDA", (int)want);
    bulk_tune tune;
    const char *env_tune = getenv("BULK_TUNE");
    char why[400];
    if (bulk_tune_parse(env_tune, &tune, why, sizeof why) != BULK_OK)
        return bulk_fail(NULL, BULK_ERR_ARG, "bulk_ctx_open: BULK_TUNE: %s", why);
    if (want == BULK_BACKEND_AUTO) want = env_backend;
    int devices = 0;
    if (want != BULK_BACKEND_CPU) devices = bulk_cuda_device_count();
    if (want == BULK_BACKEND_CUDA && devices == 0)
        return bulk_fail(NULL, BULK_ERR_NO_BACKEND, "bulk_ctx_open: backend cuda: %s",
                         bulk_cuda_tables() ? "no CUDA device found" : "this build has no CUDA backend");
    if (want == BULK_BACKEND_AUTO) want = devices > 0 ? BULK_BACKEND_CUDA : BULK_BACKEND_CPU;

    struct bulk_ctx *c = calloc(1, sizeof *c);
    if (!c) return bulk_fail(NULL, BULK_ERR_NOMEM, "bulk_ctx_open: out of memory");
    pthread_mutex_init(&c->progress_lock, NULL);
    c->backend = want;
    if (threads <= 0) threads = env_t;
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    c->threads = threads;
    c->cuda_devices = want == BULK_BACKEND_CUDA ? devices : 0;
    c->tune = tune;
    c->cpu = bulk_cpu_tables();
    if (want == BULK_BACKEND_CUDA) {
        c->gpu = bulk_cuda_tables();
        c->cuda = calloc(1, sizeof *c->cuda);
        if (!c->cuda) {
            bulk_ctx_close(c);
            return bulk_fail(NULL, BULK_ERR_NOMEM, "bulk_ctx_open: out of memory");
        }
        c->cuda->device = 0;
        c->cuda->devices = devices; /* all of them until bulk_ctx_set_device picks one */
    }
    *ctx = c;
    return BULK_OK;
}

/* Frees what each module keeps in the context's GPU state (each table's release; the modules
 * whose GPU code keeps nothing between calls have none). */
static void release_gpu_state(bulk_ctx *ctx)
{
    if (!ctx->cuda || !ctx->gpu) return;
    if (ctx->gpu->ints && ctx->gpu->ints->release) ctx->gpu->ints->release(ctx->cuda);
    if (ctx->gpu->collatz && ctx->gpu->collatz->release) ctx->gpu->collatz->release(ctx->cuda);
}

void bulk_ctx_close(bulk_ctx *ctx)
{
    if (!ctx) return;
    release_gpu_state(ctx);
    free(ctx->cuda);
    pthread_mutex_destroy(&ctx->progress_lock);
    free(ctx);
}
bulk_backend bulk_ctx_backend(const bulk_ctx *ctx) { return ctx->backend; }

int bulk_ctx_set_device(bulk_ctx *ctx, int device)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "bulk_ctx_set_device: ctx is NULL");
    if (!ctx->cuda)
        return bulk_fail(ctx, BULK_ERR_ARG, "bulk_ctx_set_device: the context is on the %s backend, not cuda",
                         bulk_backend_name(ctx->backend));
    if (device < 0 || device >= ctx->cuda_devices)
        return bulk_fail(ctx, BULK_ERR_ARG, "bulk_ctx_set_device: device %d: use 0..%d", device,
                         ctx->cuda_devices - 1);
    if (device != ctx->cuda->device) release_gpu_state(ctx); /* it lives on the old device */
    ctx->cuda->device = device;
    ctx->cuda->devices = 1;
    return BULK_OK;
}

int bulk_ctx_device(const bulk_ctx *ctx) { return ctx && ctx->cuda ? ctx->cuda->device : -1; }
int bulk_ctx_threads(const bulk_ctx *ctx) { return ctx->threads; }

int bulk_ctx_set_tune(bulk_ctx *ctx, const char *tune)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "bulk_ctx_set_tune: ctx is NULL");
    char why[400];
    if (bulk_tune_parse(tune, &ctx->tune, why, sizeof why) != BULK_OK)
        return bulk_fail(ctx, BULK_ERR_ARG, "bulk_ctx_set_tune: %s", why);
    return BULK_OK;
}

int bulk_tune_check(const char *tune, char *msg, size_t msg_size)
{
    bulk_tune t;
    return bulk_tune_parse(tune, &t, msg, msg_size);
}

const bulk_tune *bulk_ctx_tune(const bulk_ctx *ctx)
{
    static const bulk_tune defaults = {.int_ntt_min = -1, .gcd_gpu_ntt = -1, .gcd_batched_rem = -1,
                                       .gcd_batched_mul = -1, .gcd_batched_min = -1};
    return ctx ? &ctx->tune : &defaults;
}
