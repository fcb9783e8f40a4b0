/* Bit-parallel CKY on the CPU (seed 001 section 7.2) and the dispatch to CUDA.
 *
 * Strings are bucketed by length; each bucket is cut into groups of up to 256 strings (4
 * words per non-terminal and cell, so the compiler can use vector registers) or 64 when the
 * bucket is small. A group is one unit of parallel work: its whole CKY table lives in the
 * worker's scratch, cells stored by increasing substring length (bulk_cky_cell), so that the
 * split loop of seed 001's algorithm reads two finished cells and accumulates into a third.
 * Results depend only on the strings (each string's answer is computed once). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/context.h"
#include "backend/report.h"
#include "cky/cky_core.h"
#include "cky/cky_backend.h"
#include "cky/cky_cuda.h"
#include "cky/grammar.h"
#include "common/parallel.h"

enum { MAX_LANES = 4 };

typedef struct cky_group {
    size_t first;   /* into ids[] */
    uint32_t count; /* strings in the group, <= 64 * MAX_LANES */
    uint32_t n;     /* their common length, >= 1 */
} cky_group;

typedef struct cky_job {
    const bulk_grammar *g;
    uint8_t *accept;
    const int32_t *syms;
    const size_t *offsets;
    const size_t *ids;
    const cky_group *groups;
    uint64_t **scratch;
    size_t *scratch_words;
    int status;
    bulk_progress_run *pr;
    size_t done; /* strings answered, atomically */
} cky_job;

/* All splits of one cell: W = OR over l of U_l (x)_G V_l, one rule slice at a time so that
 * the slice's (A, C) pairs are read from cache for every split. */
__attribute__((flatten)) static void cell4(uint64_t *W, const uint64_t *const *U, const uint64_t *const *V, size_t splits,
                                           const bulk_grammar *g)
{
    for (uint32_t k = 0; k < g->nslice; k++)
        for (size_t l = 0; l < splits; l++)
            bulk_cky_combine(W, 4, U[l], 4, V[l], 4, 4, g->blist, g->slice[k], g->slice[k + 1], g->bstart, g->ac);
}

__attribute__((flatten)) static void cell1(uint64_t *W, const uint64_t *const *U, const uint64_t *const *V, size_t splits,
                                           const bulk_grammar *g)
{
    for (uint32_t k = 0; k < g->nslice; k++)
        for (size_t l = 0; l < splits; l++)
            bulk_cky_combine(W, 1, U[l], 1, V[l], 1, 1, g->blist, g->slice[k], g->slice[k + 1], g->bstart, g->ac);
}

static int all_zero(const uint64_t *x, size_t n)
{
    uint64_t o = 0;
    for (size_t i = 0; i < n; i++) o |= x[i];
    return o == 0;
}

static void parse_group(cky_job *j, const cky_group *gr, int worker)
{
    const bulk_grammar *g = j->g;
    const size_t n = gr->n, nnt = g->nnt;
    const int lanes = gr->count > 64 ? 4 : 1;
    const size_t cellw = nnt * (size_t)lanes;
    /* a table too large to size at all is out of memory, never a wrapped product */
    if (n > ((size_t)1 << 31) || (cellw && n * (n + 1) / 2 > SIZE_MAX / sizeof(uint64_t) / cellw)) {
        __atomic_store_n(&j->status, BULK_ERR_NOMEM, __ATOMIC_RELAXED);
        return;
    }
    const size_t cells = n * (n + 1) / 2;
    if (j->scratch_words[worker] < cells * cellw) {
        free(j->scratch[worker]);
        j->scratch[worker] = malloc(cells * cellw * sizeof(uint64_t));
        j->scratch_words[worker] = j->scratch[worker] ? cells * cellw : 0;
        if (!j->scratch[worker]) {
            __atomic_store_n(&j->status, BULK_ERR_NOMEM, __ATOMIC_RELAXED);
            return;
        }
    }
    uint64_t *T = j->scratch[worker];
    memset(T, 0, n * cellw * sizeof *T); /* row 1: the unary rules */
    for (uint32_t s = 0; s < gr->count; s++) {
        const int32_t *x = j->syms + j->offsets[j->ids[gr->first + s]];
        const uint64_t bit = 1ull << (s % 64);
        const size_t lane = s / 64;
        for (size_t i = 0; i < n; i++) {
            uint32_t t = (uint32_t)x[i];
            uint64_t *cell = T + i * cellw; /* bulk_cky_cell(n, i, 1) == i */
            for (uint32_t u = g->ustart[t]; u < g->ustart[t + 1]; u++) cell[(size_t)g->ulist[u] * lanes + lane] |= bit;
        }
    }
    /* the operand cells of each split, and per cell whether any string has any non-terminal in
     * it: a split with an empty operand contributes nothing and is left out */
    const uint64_t **Us = malloc(sizeof *Us * 2 * n + cells), **Vs = Us + n;
    if (!Us) {
        __atomic_store_n(&j->status, BULK_ERR_NOMEM, __ATOMIC_RELAXED);
        return;
    }
    unsigned char *live = (unsigned char *)(Vs + n);
    for (size_t i = 0; i < n; i++) live[i] = !all_zero(T + i * cellw, cellw);
    for (size_t len = 2; len <= n; len++)
        for (size_t i = 0; i + len <= n; i++) {
            size_t c = bulk_cky_cell(n, i, len), splits = 0;
            uint64_t *W = T + c * cellw;
            memset(W, 0, cellw * sizeof *W);
            for (size_t l = 1; l < len; l++) {
                size_t cu = bulk_cky_cell(n, i, l), cv = bulk_cky_cell(n, i + l, len - l);
                if (!live[cu] || !live[cv]) continue;
                Us[splits] = T + cu * cellw;
                Vs[splits++] = T + cv * cellw;
            }
            if (lanes == 4) cell4(W, Us, Vs, splits, g);
            else cell1(W, Us, Vs, splits, g);
            live[c] = splits && !all_zero(W, cellw);
        }
    free(Us);
    const uint64_t *top = T + bulk_cky_cell(n, 0, n) * cellw; /* start symbol = non-terminal 0 */
    for (uint32_t s = 0; s < gr->count; s++) j->accept[j->ids[gr->first + s]] = (uint8_t)((top[s / 64] >> (s % 64)) & 1);
}

static void parse_range(void *arg, size_t begin, size_t end, int worker)
{
    cky_job *j = arg;
    for (size_t k = begin; k < end && !bulk_progress_cancelled(j->pr); k++) {
        parse_group(j, &j->groups[k], worker);
        size_t done = __atomic_add_fetch(&j->done, j->groups[k].count, __ATOMIC_RELAXED);
        bulk_progress_step(j->pr, (double)done, 0);
    }
}

typedef struct prep_job {
    const bulk_grammar *g;
    uint8_t *accept, *ok;
    const int32_t *syms;
    const size_t *offsets;
    size_t *maxlen; /* per worker */
} prep_job;

static void prepare_range(void *arg, size_t begin, size_t end, int worker)
{
    const prep_job *j = arg;
    const bulk_grammar *g = j->g;
    size_t maxlen = j->maxlen[worker];
    for (size_t i = begin; i < end; i++) {
        size_t n = j->offsets[i + 1] - j->offsets[i];
        int good = 1;
        for (size_t k = 0; k < n && good; k++) {
            int32_t t = j->syms[j->offsets[i] + k];
            good = t >= 0 && (uint32_t)t < g->nterm && g->ustart[t] < g->ustart[t + 1];
        }
        j->ok[i] = (uint8_t)(good && n > 0);
        j->accept[i] = (uint8_t)(good && n == 0 && g->accepts_empty);
        if (j->ok[i] && n > maxlen) maxlen = n;
    }
    j->maxlen[worker] = maxlen;
}

/* Validates the strings: accept[i] = 0 for a string with an unknown symbol, accepts_empty for
 * the empty string; the others get ok[i] = 1. Returns the longest length among them. Runs on
 * up to `threads` threads (a GPU parse spends a good part of its host time here). */
size_t bulk_cky_prepare(const bulk_grammar *g, uint8_t *accept, uint8_t *ok, const int32_t *syms,
                        const size_t *offsets, size_t nstrings, int threads)
{
    size_t one = 0, *per = NULL, maxlen = 0;
    if (threads < 1 || nstrings < 65536) threads = 1;
    if (threads > 1) per = calloc((size_t)threads, sizeof *per);
    if (!per) threads = 1, per = &one;
    prep_job j = { g, accept, ok, syms, offsets, per };
    if (threads == 1) prepare_range(&j, 0, nstrings, 0);
    else bulk_parallel_for(threads, nstrings, 16384, prepare_range, &j);
    for (int t = 0; t < threads; t++) maxlen = per[t] > maxlen ? per[t] : maxlen;
    if (per != &one) free(per);
    return maxlen;
}

/* The parse of checked arguments on the context's backend, reporting to pr. */
static int parse_run(bulk_ctx *ctx, const bulk_grammar *g, uint8_t *accept, const int32_t *syms,
                     const size_t *offsets, size_t nstrings, bulk_progress_run *pr)
{
    if (nstrings == 0) return BULK_OK;
    const bulk_backend_tables *be = ctx->gpu ? ctx->gpu : ctx->cpu;
    return be->cky->parse(ctx, g, accept, syms, offsets, nstrings, pr);
}

/* The CPU table's parse (arguments checked by bulk_cky_parse). */
static int cpu_parse(bulk_ctx *ctx, const bulk_grammar *g, uint8_t *accept, const int32_t *syms,
                     const size_t *offsets, size_t nstrings, bulk_progress_run *pr)
{
    int st = BULK_ERR_NOMEM;
    uint8_t *ok = malloc(nstrings);
    size_t *count = NULL, *ids = NULL;
    cky_group *groups = NULL;
    cky_job j = { 0 };
    if (!ok) goto done;
    size_t maxlen = bulk_cky_prepare(g, accept, ok, syms, offsets, nstrings, ctx->threads);
    /* bucket by length (counting sort), then groups */
    count = calloc(maxlen + 2, sizeof *count);
    ids = malloc(sizeof *ids * nstrings);
    if (!count || !ids) goto done;
    for (size_t i = 0; i < nstrings; i++)
        if (ok[i]) count[offsets[i + 1] - offsets[i] + 1]++;
    size_t ngroups = 0;
    for (size_t n = 1; n <= maxlen; n++) ngroups += (count[n + 1] + 64 * MAX_LANES - 1) / (64 * MAX_LANES) + 1;
    for (size_t n = 1; n <= maxlen + 1; n++) count[n] += count[n - 1];
    size_t nok = count[maxlen + 1];
    for (size_t i = 0; i < nstrings; i++)
        if (ok[i]) ids[count[offsets[i + 1] - offsets[i]]++] = i;
    /* now count[n] = end of bucket n = start of bucket n+1; bucket n starts at count[n-1] */
    groups = malloc(sizeof *groups * (ngroups + 1));
    if (!groups) goto done;
    size_t ng = 0;
    for (size_t n = 1; n <= maxlen; n++) {
        size_t b = count[n - 1], e = count[n];
        size_t per = e - b > 64 ? 64 * MAX_LANES : 64;
        for (size_t f = b; f < e; f += per)
            groups[ng++] = (cky_group){ f, (uint32_t)(e - f < per ? e - f : per), (uint32_t)n };
    }
    bulk_progress_step(pr, (double)(nstrings - nok), 1); /* the strings answered without a parse */
    int threads = ctx->threads;
    if ((size_t)threads > ng) threads = (int)(ng ? ng : 1);
    j = (cky_job){ g, accept, syms, offsets, ids, groups, calloc((size_t)threads, sizeof(uint64_t *)),
                   calloc((size_t)threads, sizeof(size_t)), BULK_OK, pr, nstrings - nok };
    if (!j.scratch || !j.scratch_words) goto done;
    bulk_parallel_for(threads, ng, 1, parse_range, &j);
    st = j.status;
    for (int t = 0; t < threads; t++) free(j.scratch[t]);
done:
    free(j.scratch), free(j.scratch_words);
    free(ok), free(count), free(ids), free(groups);
    if (st == BULK_OK && bulk_progress_cancelled(pr)) st = BULK_ERR_CANCELLED;
    return st;
}

const bulk_cky_backend bulk_cky_cpu_backend = { .parse = cpu_parse };

int bulk_cky_parse(bulk_ctx *ctx, const bulk_grammar *g, uint8_t *accept, const int32_t *syms, const size_t *offsets,
                   size_t nstrings)
{
    static const char fn[] = "bulk_cky_parse";
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx is NULL", fn);
    if (!g) return bulk_fail(ctx, BULK_ERR_ARG, "%s: g is NULL", fn);
    if (nstrings && (!accept || !offsets))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s is NULL with nstrings %zu", fn, !accept ? "accept" : "offsets", nstrings);
    if (nstrings && !syms && offsets[nstrings])
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: syms is NULL with %zu symbols", fn, offsets[nstrings]);
    for (size_t i = 0; i < nstrings; i++)
        if (offsets[i + 1] < offsets[i])
            return bulk_fail(ctx, BULK_ERR_ARG, "%s: offsets[%zu] = %zu is below offsets[%zu] = %zu", fn, i + 1,
                             offsets[i + 1], i, offsets[i]);
    bulk_progress_run pr;
    int st = bulk_progress_start(&pr, ctx, "cky.parse", "strings", (double)nstrings);
    if (st == BULK_OK) st = parse_run(ctx, g, accept, syms, offsets, nstrings, &pr);
    if (st == BULK_OK) st = bulk_progress_end(&pr);
    if (st == BULK_ERR_CANCELLED) return bulk_fail(ctx, st, "%s: cancelled by the progress callback", fn);
    if (st == BULK_ERR_NOMEM) return bulk_fail(ctx, st, "%s: %zu strings: out of memory", fn, nstrings);
    return st; /* a backend failure (BULK_ERR_CUDA) has recorded its own message */
}
