/* Failures into the last error, progress into the user's callback (backend/report.h). */
#include "backend/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backend/context.h"

static _Thread_local char thread_error[512];

int bulk_fail(const bulk_ctx *ctx, int status, const char *fmt, ...)
{
    /* The message is not part of what the const in a caller's signature protects: recording
     * why a call failed is allowed through any handle on the context. */
    char *buf = ctx ? ((bulk_ctx *)ctx)->error : thread_error;
    const size_t cap = ctx ? sizeof ctx->error : sizeof thread_error;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return status;
}

const char *bulk_ctx_last_error(const bulk_ctx *ctx) { return ctx ? ctx->error : thread_error; }

void bulk_ctx_set_progress(bulk_ctx *ctx, bulk_progress_fn fn, void *user)
{
    if (!ctx) {
        bulk_fail(NULL, BULK_ERR_ARG, "bulk_ctx_set_progress: ctx is NULL");
        return;
    }
    ctx->progress_fn = fn;
    ctx->progress_user = user;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Calls the callback under the context's lock; records a request to stop. */
static int deliver(bulk_progress_run *r, double done)
{
    bulk_ctx *c = r->ctx;
    pthread_mutex_lock(&c->progress_lock);
    if (done > r->p.done) r->p.done = done; /* steps from several threads may arrive out of order */
    double t = now_seconds(); /* __atomic_store takes a pointer to non-const */
    __atomic_store(&r->last_call, &t, __ATOMIC_RELAXED);
    if (c->progress_fn(&r->p, c->progress_user) != 0) __atomic_store_n(&r->cancelled, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&c->progress_lock);
    return __atomic_load_n(&r->cancelled, __ATOMIC_RELAXED) ? BULK_ERR_CANCELLED : BULK_OK;
}

int bulk_progress_start(bulk_progress_run *r, const bulk_ctx *ctx, const char *op, const char *unit,
                        double total)
{
    memset(r, 0, sizeof *r);
    r->p.op = op;
    r->p.unit = unit;
    r->p.total = total;
    if (!ctx || !ctx->progress_fn) return BULK_OK;
    r->ctx = (bulk_ctx *)ctx; /* the callback and its lock belong to the caller, as the error does */
    return deliver(r, 0);
}

int bulk_progress_step(bulk_progress_run *r, double done, int force)
{
    if (!r->ctx) return BULK_OK;
    if (__atomic_load_n(&r->cancelled, __ATOMIC_RELAXED)) return BULK_ERR_CANCELLED;
    double last; /* read by every stepping thread, written under the lock by the one delivering */
    __atomic_load(&r->last_call, &last, __ATOMIC_RELAXED);
    if (!force && now_seconds() - last < 0.05) return BULK_OK;
    return deliver(r, done);
}

int bulk_progress_end(bulk_progress_run *r)
{
    if (!r->ctx) return BULK_OK;
    if (__atomic_load_n(&r->cancelled, __ATOMIC_RELAXED)) return BULK_ERR_CANCELLED;
    return deliver(r, r->p.total);
}

int bulk_progress_cancelled(bulk_progress_run *r) { return r->ctx && __atomic_load_n(&r->cancelled, __ATOMIC_RELAXED); }
