/* Shared parts of the CPU-only Collatz GPU twin tests (test_collatz_gpu_delay5.c,
 * test_collatz_gpu_delay6.c): the start (the replayable seed, the sanitizer switch
 * BULK_SANITIZED=1 that shrinks the largest loops, a two-thread CPU context) and an engine with
 * the kernels' tables. */
#ifndef BULK_TESTS_COLLATZ_GPU_CZ_CPU_TEST_H
#define BULK_TESTS_COLLATZ_GPU_CZ_CPU_TEST_H

#include "test_util.h"

#include "backend/context.h"
#include "collatz/collatz_internal.h"
#include "collatz/cuda/cg_delay5.h"
#include "collatz/cuda/cg_plan.h"

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

/* A test's main: open, run(ctx, &rs, small), close, the verdict (exit code). */
static int cz_cpu_test_main(int argc, char **argv, void (*run)(bulk_ctx *ctx, uint64_t *rs, int small))
{
    uint64_t rs;
    int small;
    bulk_ctx *ctx;
    if (cz_cpu_test_open(argc, argv, &rs, &small, &ctx)) return 1;
    run(ctx, &rs, small);
    bulk_ctx_close(ctx);
    return test_finish();
}

/* A CPU engine (d, k = 4, a) and the kernels' tables of it: BC (cg_pack_tables, cg_delay's) and
 * the V5 packed entries CJ[L] = j | C << 5 with J[L] = d + j (checked: B[L] = 3^j). */
struct cz_tabs {
    bulk_collatz_engine *e;
    uint64_t *BC;
    uint32_t *CJ;
};

/* 0 on success; else the failure was reported by CHECK and nothing is left allocated. */
static int cz_tabs_new(struct cz_tabs *t, bulk_ctx *ctx, int d, int a)
{
    memset(t, 0, sizeof *t);
    int st = bulk_collatz_engine_new(&t->e, ctx, d, 4, a);
    CHECK(st == BULK_OK, "engine d=%d a=%d: %d", d, a, st);
    if (st) return 1;
    const size_t n = (size_t)1 << d;
    t->BC = malloc(n * sizeof *t->BC);
    t->CJ = malloc(n * sizeof *t->CJ);
    if (!t->BC || !t->CJ) {
        fprintf(stderr, "out of memory (d=%d)\n", d);
        exit(1);
    }
    cg_pack_tables(d, t->e->B, t->e->C, t->BC, NULL);
    for (size_t L = 0; L < n; L++) {
        CHECK(t->e->B[L] == bulk_cz_pow3[t->e->J[L] - d], "B = 3^(J - d) at L=%zu", L);
        t->CJ[L] = cg5_entry((unsigned)(t->e->J[L] - d), t->e->C[L]);
    }
    return 0;
}

static void cz_tabs_free(struct cz_tabs *t)
{
    free(t->BC);
    free(t->CJ);
    bulk_collatz_engine_free(t->e);
    memset(t, 0, sizeof *t);
}

#endif
