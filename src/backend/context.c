/* Opening a context: choosing the backend and the thread count. */
#include "backend/context.h"
#include "backend/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef BULK_HAVE_CUDA
#define BULK_CUDA_BUILT 1
#else
#define BULK_CUDA_BUILT 0
#endif

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
                         BULK_CUDA_BUILT ? "no CUDA device found" : "this build has no CUDA backend");
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
        c->cuda->devices = devices;
    }
    *ctx = c;
    return BULK_OK;
}

void bulk_ctx_close(bulk_ctx *ctx)
{
    if (!ctx) return;
    free(ctx->cuda); /* each module's release of its part comes with its backend table */
    pthread_mutex_destroy(&ctx->progress_lock);
    free(ctx);
}
bulk_backend bulk_ctx_backend(const bulk_ctx *ctx) { return ctx->backend; }
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
