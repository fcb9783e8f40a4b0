/* CPU evaluation of a combinational and-inverter graph on 64 input vectors per word (BPBC,
 * seed 001 chapter 5), on all context threads (the CPU circuit table), and the dispatch through
 * the context's circuit table.
 *
 * Work split: the nwords columns are cut into blocks of `bw` words; a worker evaluates all
 * gates of the circuit on one block before moving on, keeping the block's signal array
 * (maxvar+1) x bw words in its private scratch. bw is chosen so that this array stays near
 * the size of a fast cache, since every gate reads two earlier signals at unpredictable
 * distances. Results do not depend on the thread count (each column is computed once). */
#include <stdlib.h>
#include <string.h>

#include "backend/context.h"
#include "backend/report.h"
#include "circuit/circuit_core.h"
#include "circuit/circuit_backend.h"
#include "bulk/circuit.h"
#include "common/parallel.h"

typedef struct eval_job {
    const bulk_circuit *c;
    uint64_t *out;
    const uint64_t *in;
    size_t nwords, bw;
    uint64_t **scratch; /* per worker: (maxvar+1) * bw words */
    bulk_progress_run *pr;
    size_t words_done; /* atomically */
} eval_job;

static void eval_range(void *arg, size_t begin, size_t end, int worker)
{
    eval_job *j = arg;
    const bulk_circuit *c = j->c;
    const size_t bw = j->bw, nw = j->nwords;
    uint64_t *val = j->scratch[worker];
    const uint32_t first_gate = c->inputs + c->latches + 1;
    for (size_t blk = begin; blk < end && !bulk_progress_cancelled(j->pr); blk++) {
        size_t w0 = blk * bw, n = nw - w0 < bw ? nw - w0 : bw;
        memset(val, 0, bw * sizeof *val); /* variable 0: constant false */
        for (uint32_t i = 0; i < c->inputs; i++) {
            memcpy(val + (size_t)(i + 1) * bw, j->in + (size_t)i * nw + w0, n * sizeof *val);
            if (n < bw) memset(val + (size_t)(i + 1) * bw + n, 0, (bw - n) * sizeof *val);
        }
        const uint32_t *rhs = c->and_rhs;
        for (uint32_t g = 0; g < c->ands; g++) {
            uint32_t var = first_gate + g, r0 = rhs[2 * g], r1 = rhs[2 * g + 1];
            for (size_t w = 0; w < bw; w++) bulk_circuit_and_step(val, bw, w, var, r0, r1);
        }
        for (uint32_t o = 0; o < c->outputs; o++)
            for (size_t w = 0; w < n; w++)
                j->out[(size_t)o * nw + w0 + w] = bulk_circuit_lit_word(val, bw, c->out[o], w);
        size_t done = __atomic_add_fetch(&j->words_done, n, __ATOMIC_RELAXED);
        bulk_progress_step(j->pr, 64.0 * (double)done, 0);
    }
}

/* The evaluation of checked arguments on the context's backend, reporting to pr. */
static int eval_run(bulk_ctx *ctx, const bulk_circuit *c, uint64_t *out, const uint64_t *in, size_t nwords,
                    bulk_progress_run *pr)
{
    if (nwords == 0) return BULK_OK;
    const bulk_backend_tables *be = ctx->gpu ? ctx->gpu : ctx->cpu;
    return be->circuit->eval(ctx, c, out, in, nwords, pr);
}

/* The CPU table's eval (arguments checked by bulk_circuit_eval). */
static int cpu_eval(bulk_ctx *ctx, const bulk_circuit *c, uint64_t *out, const uint64_t *in, size_t nwords,
                    bulk_progress_run *pr)
{
    size_t vars = (size_t)c->maxvar + 1;
    /* 16 words per signal when the signal array fits 256 KiB, fewer (down to 1) otherwise */
    size_t bw = 16;
    while (bw > 1 && vars * bw * sizeof(uint64_t) > (256u << 10)) bw /= 2;
    if (bw > nwords) bw = nwords;
    int threads = ctx->threads;
    size_t blocks = (nwords + bw - 1) / bw;
    if ((size_t)threads > blocks) threads = (int)blocks;
    eval_job j = { c, out, in, nwords, bw, calloc((size_t)threads, sizeof(uint64_t *)), pr, 0 };
    if (!j.scratch) return BULK_ERR_NOMEM;
    int st = BULK_OK;
    for (int t = 0; t < threads; t++)
        if (!(j.scratch[t] = malloc(vars * bw * sizeof(uint64_t)))) st = BULK_ERR_NOMEM;
    if (st == BULK_OK) bulk_parallel_for(threads, blocks, 1, eval_range, &j);
    for (int t = 0; t < threads; t++) free(j.scratch[t]);
    free(j.scratch);
    if (st == BULK_OK && bulk_progress_cancelled(pr)) st = BULK_ERR_CANCELLED;
    return st;
}

const bulk_circuit_backend bulk_circuit_cpu_backend = {
    .eval = cpu_eval,
    .bitslice_add = circuit_cpu_bitslice_add,
};

int bulk_circuit_eval(bulk_ctx *ctx, const bulk_circuit *c, uint64_t *out, const uint64_t *in, size_t nwords)
{
    static const char fn[] = "bulk_circuit_eval";
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx is NULL", fn);
    if (!c) return bulk_fail(ctx, BULK_ERR_ARG, "%s: c is NULL", fn);
    if (nwords && !out && c->outputs) return bulk_fail(ctx, BULK_ERR_ARG, "%s: out is NULL with nwords %zu", fn, nwords);
    if (nwords && !in && c->inputs) return bulk_fail(ctx, BULK_ERR_ARG, "%s: in is NULL with nwords %zu", fn, nwords);
    if (c->latches)
        return bulk_fail(ctx, BULK_ERR_UNSUPPORTED, "%s: the circuit has %u latches: only combinational circuits "
                         "are evaluated", fn, c->latches);
    bulk_progress_run pr;
    int st = bulk_progress_start(&pr, ctx, "circuit.eval", "vectors", 64.0 * (double)nwords);
    if (st == BULK_OK) st = eval_run(ctx, c, out, in, nwords, &pr);
    if (st == BULK_OK) st = bulk_progress_end(&pr);
    if (st == BULK_ERR_CANCELLED) return bulk_fail(ctx, st, "%s: cancelled by the progress callback", fn);
    if (st == BULK_ERR_NOMEM) return bulk_fail(ctx, st, "%s: %zu words: out of memory", fn, nwords);
    return st; /* a backend failure (BULK_ERR_CUDA) has recorded its own message */
}
