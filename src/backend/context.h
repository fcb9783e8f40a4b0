/* The context behind the opaque bulk_ctx: which backend runs, and how many CPU threads. */
#ifndef BULK_BACKEND_CONTEXT_H
#define BULK_BACKEND_CONTEXT_H
#include <pthread.h>

#include "bulk/bulk.h"
#include "backend/backends.h"
#include "backend/cuda_state.h"
#include "backend/tune.h"

struct bulk_ctx {
    bulk_backend backend; /* never AUTO once opened */
    int threads;          /* >= 1: CPU worker threads */
    int cuda_devices;     /* CUDA devices visible (0 on the CPU backend) */
    /* integer method overrides (bulk_int_set_methods); 0 = AUTO */
    int int_mul_method, int_div_method, int_gcd_method;
    bulk_tune tune;       /* bulk_ctx_set_tune / BULK_TUNE (backend/tune.h) */
    char error[512];      /* bulk_ctx_last_error (backend/report.c) */
    bulk_progress_fn progress_fn; /* bulk_ctx_set_progress; NULL: none */
    void *progress_user;
    pthread_mutex_t progress_lock; /* serialises calls into progress_fn */
    const bulk_backend_tables *cpu; /* always */
    const bulk_backend_tables *gpu; /* the CUDA tables on the CUDA backend, else NULL */
    bulk_cuda_state *cuda;          /* the context's GPU state on the CUDA backend, else NULL */
};

#ifdef __cplusplus
extern "C" {
#endif
/* The context's tuning; the defaults for NULL. */
const bulk_tune *bulk_ctx_tune(const bulk_ctx *ctx);
#ifdef __cplusplus
}
#endif

#endif
