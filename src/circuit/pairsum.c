/* Pairwise sums by BPBC (seed 001 section 5.1) and the timing of one row of its Table 5.1.
 *
 * bulk_bitslice_add runs the ripple-carry recurrence directly on bit planes (the circuit of
 * adder.c, without interpreting gates). The CPU version works on blocks of 64 columns so the
 * carries of a block stay in a small array and every plane is streamed once. */
#include <stdlib.h>
#include <string.h>

#include "backend/context.h"
#include "circuit/circuit_core.h"
#include "circuit/circuit_backend.h"
#include "bulk/circuit.h"
#include "common/parallel.h"
#include "progress_line.h"
#include "splitmix.h"

enum { ADD_BLOCK = 64 };

typedef struct add_job {
    uint64_t *sum;
    const uint64_t *a, *b;
    unsigned k;
    size_t nwords;
} add_job;

static void add_range(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    const add_job *j = arg;
    const size_t nw = j->nwords;
    for (size_t blk = begin; blk < end; blk++) {
        size_t w0 = blk * ADD_BLOCK, n = nw - w0 < ADD_BLOCK ? nw - w0 : ADD_BLOCK;
        uint64_t carry[ADD_BLOCK] = { 0 };
        for (unsigned i = 0; i < j->k; i++) {
            const uint64_t *x = j->a + (size_t)i * nw + w0, *y = j->b + (size_t)i * nw + w0;
            uint64_t *s = j->sum + (size_t)i * nw + w0;
            for (size_t w = 0; w < n; w++) s[w] = bulk_ripple_add_step(x[w], y[w], &carry[w]);
        }
        memcpy(j->sum + (size_t)j->k * nw + w0, carry, n * sizeof(uint64_t));
    }
}

int bulk_bitslice_add(bulk_ctx *ctx, uint64_t *sum, const uint64_t *a, const uint64_t *b, unsigned k,
                      size_t nwords)
{
    if (!ctx || k < 1 || (nwords && (!sum || !a || !b))) return BULK_ERR_ARG;
    if (nwords == 0) return BULK_OK;
    const bulk_backend_tables *be = ctx->gpu ? ctx->gpu : ctx->cpu;
    return be->circuit->bitslice_add(ctx, sum, a, b, k, nwords);
}

int circuit_cpu_bitslice_add(bulk_ctx *ctx, uint64_t *sum, const uint64_t *a, const uint64_t *b, unsigned k,
                             size_t nwords)
{
    add_job j = { sum, a, b, k, nwords };
    bulk_parallel_for(ctx->threads, (nwords + ADD_BLOCK - 1) / ADD_BLOCK, 4, add_range, &j);
    return BULK_OK;
}

/* The naive method of Table 5.1: one 32-bit addition per pair. `noinline` keeps the timed
 * loop from being merged with the check. */
__attribute__((noinline)) static void naive_add(uint32_t *c, const uint32_t *a, const uint32_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

void bulk_pairsum_inputs(uint32_t *a, uint32_t *b, uint64_t *pa, uint64_t *pb, unsigned k, size_t pairs,
                         uint64_t seed)
{
    const size_t nw = pairs / 64;
    const uint32_t mask = k == 32 ? 0xffffffffu : (1u << k) - 1;
    for (size_t i = 0; i < pairs; i++) {
        uint64_t r = bulk_splitmix64(&seed);
        a[i] = (uint32_t)r & mask;
        b[i] = (uint32_t)(r >> 32) & mask;
        for (unsigned j = 0; j < k; j++) {
            pa[j * nw + i / 64] |= (uint64_t)((a[i] >> j) & 1) << (i % 64);
            pb[j * nw + i / 64] |= (uint64_t)((b[i] >> j) & 1) << (i % 64);
        }
    }
}

int bulk_circuit_bench_pairsum(bulk_ctx *ctx, unsigned k, size_t pairs, int reps, uint64_t seed,
                               bulk_pairsum_timing *t)
{
    if (!ctx || !t || k < 1 || k > 32 || pairs == 0 || pairs % 64 || reps < 1) return BULK_ERR_ARG;
    memset(t, 0, sizeof *t);
    const bulk_backend_tables *be = ctx->gpu ? ctx->gpu : ctx->cpu;
    return be->circuit->bench_pairsum(ctx, k, pairs, reps, seed, t);
}

int circuit_cpu_bench_pairsum(bulk_ctx *ctx, unsigned k, size_t pairs, int reps, uint64_t seed,
                              bulk_pairsum_timing *t)
{
    size_t nw = pairs / 64;
    uint32_t *a = malloc(pairs * 4), *b = malloc(pairs * 4), *c = malloc(pairs * 4);
    uint64_t *pa = calloc(k * nw, 8), *pb = calloc(k * nw, 8), *ps = calloc((k + 1) * nw, 8);
    int st = BULK_ERR_NOMEM;
    if (!a || !b || !c || !pa || !pb || !ps) goto done;
    bulk_pairsum_inputs(a, b, pa, pb, k, pairs, seed);
    t->naive_ms = t->bitwise_ms = t->bitwise_threads_ms = 1e300;
    add_job j = { ps, pa, pb, k, nw };
    size_t blocks = (nw + ADD_BLOCK - 1) / ADD_BLOCK;
    for (int r = 0; r < reps; r++) {
        double t0 = bulk_now();
        naive_add(c, a, b, pairs);
        double t1 = bulk_now();
        add_range(&j, 0, blocks, 0);
        double t2 = bulk_now();
        bulk_parallel_for(ctx->threads, blocks, 4, add_range, &j);
        double t3 = bulk_now();
        if ((t1 - t0) * 1e3 < t->naive_ms) t->naive_ms = (t1 - t0) * 1e3;
        if ((t2 - t1) * 1e3 < t->bitwise_ms) t->bitwise_ms = (t2 - t1) * 1e3;
        if ((t3 - t2) * 1e3 < t->bitwise_threads_ms) t->bitwise_threads_ms = (t3 - t2) * 1e3;
    }
    st = BULK_OK;
    for (size_t i = 0; i < pairs && st == BULK_OK; i++) {
        uint32_t s = 0;
        for (unsigned jb = 0; jb < k + 1 && jb < 32; jb++) s |= (uint32_t)((ps[jb * nw + i / 64] >> (i % 64)) & 1) << jb;
        if (s != c[i]) st = BULK_ERR_INTERNAL;
    }
done:
    free(a), free(b), free(c), free(pa), free(pb), free(ps);
    return st;
}
