/* Pairwise sums by BPBC (seed 001 section 5.1) and the inputs of one row of its Table 5.1
 * (the benchmark bench/bpbc times them).
 *
 * bulk_bitslice_add runs the ripple-carry recurrence directly on bit planes (the circuit of
 * adder.c, without interpreting gates). The CPU version works on blocks of 64 columns so the
 * carries of a block stay in a small array and every plane is streamed once. */
#include <stdlib.h>
#include <string.h>

#include "backend/context.h"
#include "backend/report.h"
#include "circuit/circuit_core.h"
#include "circuit/circuit_backend.h"
#include "bulk/circuit.h"
#include "common/parallel.h"
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
    static const char fn[] = "bulk_bitslice_add";
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx is NULL", fn);
    if (k < 1) return bulk_fail(ctx, BULK_ERR_ARG, "%s: k %u: must be at least 1", fn, k);
    if (nwords && (!sum || !a || !b))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s is NULL with nwords %zu", fn, !sum ? "sum" : !a ? "a" : "b", nwords);
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
