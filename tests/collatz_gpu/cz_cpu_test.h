/* Shared start of the CPU-only Collatz GPU twin tests (test_collatz_gpu_delay5.c,
 * test_collatz_gpu_delay6.c): the replayable seed, the sanitizer switch (BULK_SANITIZED=1 shrinks
 * the largest loops) and a two-thread CPU context. */
#ifndef BULK_TESTS_COLLATZ_GPU_CZ_CPU_TEST_H
#define BULK_TESTS_COLLATZ_GPU_CZ_CPU_TEST_H

#include "test_util.h"

#include "backend/context.h"

/* Prints the seed into *rs, sets *small under the sanitizers, opens *ctx; 0 on success, else a
 * message was printed and the test should exit 1. */
static int cz_cpu_test_open(int argc, char **argv, uint64_t *rs, int *small, bulk_ctx **ctx)
{
    *rs = test_seed(argc, argv);
    const char *san = getenv("BULK_SANITIZED");
    *small = san && *san && strcmp(san, "0") != 0;
    if (bulk_ctx_open(ctx, BULK_BACKEND_CPU, 2) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context\n");
        return 1;
    }
    return 0;
}

#endif
