/* The CUDA Collatz backend for the GPU tests: a CUDA context, whose Collatz GPU state the runs
 * use, and its backend table (collatz/collatz_backend.h). The engines stay on the tests' CPU
 * context, whose tuning (bulk_collatz_cuda_set_opts, bulk_ctx_set_tune) the CUDA paths read. */
#ifndef BULK_TESTS_CZ_GPU_TEST_H
#define BULK_TESTS_CZ_GPU_TEST_H
#include <stdio.h>

#include "backend/context.h"
#include "collatz/collatz_backend.h"

static bulk_ctx *cz_gpu_ctx;
#define CZ_GPU (cz_gpu_ctx->gpu->collatz)

/* 0 with cz_gpu_ctx open; 77 (ctest: skipped) without a CUDA device; 1 when one is there but no
 * CUDA context opens. */
static int cz_gpu_open(const char *what)
{
    if (bulk_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device (%s not run)\n", what);
        return 77;
    }
    if (bulk_ctx_open(&cz_gpu_ctx, BULK_BACKEND_CUDA, 0) != BULK_OK || !cz_gpu_ctx->gpu) {
        fprintf(stderr, "cannot open a CUDA context: %s\n", bulk_ctx_last_error(NULL));
        return 1;
    }
    return 0;
}

/* Frees the context's Collatz GPU state (twice: a second release finds nothing and must not
 * fail), then closes the context. */
static void cz_gpu_close(void)
{
    CZ_GPU->release(cz_gpu_ctx->cuda);
    CZ_GPU->release(cz_gpu_ctx->cuda);
    bulk_ctx_close(cz_gpu_ctx);
    cz_gpu_ctx = NULL;
}
#endif
