/* Host side of the CUDA CKY parser: checks the strings (bulk_cky_prepare), puts the grammar on
 * the device in the forms the kernels read, buckets the strings by length (a CKY table has one
 * shape per length), cuts each bucket into chunks whose tables fit in half of the free device
 * memory, and runs the chosen kernel (cky_block.cu by default, cky_thread.cu as the fallback
 * and the baseline) on each chunk. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/context.h"
#include "backend/cuda/cuda_check.cuh"
#include "cky/cky_backend.h"
#include "cky/cky_cuda.h"
#include "cky/cuda/cky_gpu.cuh"
#include "cky/grammar.h"
extern "C" {
#include "common/parallel.h" /* a C header without C++ guards */
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The rule words of cky_block.cu (see cky_dev_grammar): per A, its rules padded to a multiple
 * of 4. rstart gets nnt + 1 entries; returns the word array (4 * rstart[nnt] words) or NULL. */
static uint32_t *block_rules(const bulk_grammar *g, uint32_t *rstart)
{
    const uint32_t nnt = g->nnt, pad = (nnt * CKY_LANES) | (((2 * nnt + 1) * CKY_LANES) << 16);
    rstart[0] = 0;
    for (uint32_t a = 0; a < nnt; a++) rstart[a + 1] = rstart[a] + (g->astart[a + 1] - g->astart[a] + 3) / 4;
    uint32_t *w = (uint32_t *)malloc(sizeof(uint32_t) * 4 * ((size_t)rstart[nnt] + 1));
    if (!w) return NULL;
    for (uint32_t a = 0; a < nnt; a++) {
        uint32_t k = 4 * rstart[a];
        for (uint32_t r = g->astart[a]; r < g->astart[a + 1]; r++)
            w[k++] = (g->bc[2 * r] * CKY_LANES) | ((nnt + 1 + g->bc[2 * r + 1]) * CKY_LANES) << 16;
        while (k < 4 * rstart[a + 1]) w[k++] = pad;
    }
    return w;
}

/* The by-B form of the same rules (cky_dev_grammar.rules_b); rstart gets nnt + 1 entries in
 * uint4 units. Returns the word array or NULL. */
static uint32_t *block_rules_byb(const bulk_grammar *g, uint32_t *rstart)
{
    const uint32_t nnt = g->nnt, row = CKY_LANES * sizeof(uint32_t), pad = (2 * nnt + 1) * row;
    rstart[0] = 0;
    for (uint32_t a = 0; a < nnt; a++) {
        uint32_t words = 0;
        for (uint32_t r = g->astart[a]; r < g->astart[a + 1]; r++)
            words += 1 + (r == g->astart[a] || g->bc[2 * r] != g->bc[2 * r - 2]);
        rstart[a + 1] = rstart[a] + (words + 3) / 4;
    }
    uint32_t *w = (uint32_t *)malloc(sizeof(uint32_t) * 4 * ((size_t)rstart[nnt] + 1));
    if (!w) return NULL;
    for (uint32_t a = 0; a < nnt; a++) {
        uint32_t k = 4 * rstart[a];
        for (uint32_t r = g->astart[a]; r < g->astart[a + 1]; r++) {
            if (r == g->astart[a] || g->bc[2 * r] != g->bc[2 * r - 2]) w[k++] = g->bc[2 * r] * row;
            w[k++] = (nnt + 1 + g->bc[2 * r + 1]) * row;
        }
        while (k < 4 * rstart[a + 1]) w[k++] = pad;
    }
    return w;
}

/* Copies strings ids[b .. e) (all of length n) into out, one after the other, as sym_bytes-byte
 * symbols. */
struct gather_job {
    const int32_t *syms;
    const size_t *offsets, *ids;
    size_t n;
    int sym_bytes;
    uint8_t *out;
};

static void gather_range(void *arg, size_t b, size_t e, int worker)
{
    const gather_job *j = (const gather_job *)arg;
    (void)worker;
    for (size_t s = b; s < e; s++) {
        const int32_t *x = j->syms + j->offsets[j->ids[s]];
        if (j->sym_bytes == 1)
            for (size_t k = 0; k < j->n; k++) j->out[s * j->n + k] = (uint8_t)x[k];
        else
            memcpy(j->out + s * j->n * sizeof(int32_t), x, j->n * sizeof(int32_t));
    }
}

/* The grammar on the device in the form the chosen kernel reads, and the host arrays built for
 * it; grammar_free releases both (NULL members are skipped). */
struct grammar_upload {
    uint32_t *h_rules, *h_rstart, *h_tmask, *h_rules_b, *h_rstart_b;
    uint32_t *d_astart, *d_bc, *d_ustart, *d_ulist, *d_rules, *d_rstart, *d_tmask, *d_rules_b, *d_rstart_b;
};

static void grammar_free(grammar_upload *u)
{
    cudaFree(u->d_astart), cudaFree(u->d_bc), cudaFree(u->d_ustart), cudaFree(u->d_ulist);
    cudaFree(u->d_rules), cudaFree(u->d_rstart), cudaFree(u->d_tmask), cudaFree(u->d_rules_b), cudaFree(u->d_rstart_b);
    free(u->h_rules), free(u->h_rstart), free(u->h_tmask), free(u->h_rules_b), free(u->h_rstart_b);
}

/* What one parse call launches: the kernel family and its flags, the device limits, and the
 * grammar as the kernels read it. */
struct launch_plan {
    int block, early, byb, pair;
    size_t nnt, budget;
    int smem_max, gather_bytes, threads;
    cky_dev_grammar dg;
    cudaEvent_t e0, e1;
};

/* Uploads g for the plan's kernel family (block: the rule words of both rule forms and the
 * terminal masks; thread: the plain CNF arrays) and fills lp->dg and lp->gather_bytes. */
static int upload_grammar(bulk_ctx *ctx, const bulk_grammar *g, launch_plan *lp, grammar_upload *u)
{
    int st = BULK_OK;
    const size_t nnt = lp->nnt, tw = (nnt + 31) / 32;
    cky_dev_grammar &dg = lp->dg;
    if (lp->block) {
        u->h_rstart = (uint32_t *)malloc(sizeof(uint32_t) * (nnt + 1));
        u->h_rstart_b = (uint32_t *)malloc(sizeof(uint32_t) * (nnt + 1));
        u->h_tmask = (uint32_t *)calloc((size_t)g->nterm * tw + 1, sizeof(uint32_t));
        if (!u->h_rstart || !u->h_rstart_b || !u->h_tmask || !(u->h_rules = block_rules(g, u->h_rstart)) ||
            !(u->h_rules_b = block_rules_byb(g, u->h_rstart_b)))
            return BULK_ERR_NOMEM;
        for (uint32_t t = 0; t < g->nterm; t++)
            for (uint32_t x = g->ustart[t]; x < g->ustart[t + 1]; x++)
                u->h_tmask[(size_t)t * tw + g->ulist[x] / 32] |= 1u << (g->ulist[x] % 32);
        const size_t nr = 4 * ((size_t)u->h_rstart[nnt] + 1), nrb = 4 * ((size_t)u->h_rstart_b[nnt] + 1);
        const size_t nmask = (size_t)g->nterm * tw + 1;
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_rules, sizeof(uint32_t) * nr), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_rstart, sizeof(uint32_t) * (nnt + 1)), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_tmask, sizeof(uint32_t) * nmask), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_rules, u->h_rules, sizeof(uint32_t) * nr, cudaMemcpyHostToDevice), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_rstart, u->h_rstart, sizeof(uint32_t) * (nnt + 1), cudaMemcpyHostToDevice), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_tmask, u->h_tmask, sizeof(uint32_t) * nmask, cudaMemcpyHostToDevice), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_rules_b, sizeof(uint32_t) * nrb), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_rstart_b, sizeof(uint32_t) * (nnt + 1)), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_rules_b, u->h_rules_b, sizeof(uint32_t) * nrb, cudaMemcpyHostToDevice), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_rstart_b, u->h_rstart_b, sizeof(uint32_t) * (nnt + 1), cudaMemcpyHostToDevice), st);
        BULK_CUDA_CHECK_GOTO(ctx, cky_block_prepare(lp->early, lp->byb, lp->pair, cky_block_smem((uint32_t)nnt, lp->pair)), st);
        dg.rules = (const uint4 *)u->d_rules, dg.rstart = u->d_rstart, dg.tmask = u->d_tmask;
        dg.rules_b = (const uint4 *)u->d_rules_b, dg.rstart_b = u->d_rstart_b;
        lp->gather_bytes = g->nterm <= 256 ? 1 : 4; /* the block kernel also reads 1-byte symbols */
    } else {
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_astart, (nnt + 1) * sizeof(uint32_t)), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_bc, (2 * g->nbin + 1) * sizeof(uint32_t)), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_ustart, (g->nterm + 1) * sizeof(uint32_t)), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&u->d_ulist, (g->nun + 1) * sizeof(uint32_t)), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_astart, g->astart, (nnt + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice), st);
        if (g->nbin) BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_bc, g->bc, 2 * g->nbin * sizeof(uint32_t), cudaMemcpyHostToDevice), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_ustart, g->ustart, (g->nterm + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice), st);
        if (g->nun) BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(u->d_ulist, g->ulist, g->nun * sizeof(uint32_t), cudaMemcpyHostToDevice), st);
        dg.astart = u->d_astart, dg.bc = u->d_bc, dg.ustart = u->d_ustart, dg.ulist = u->d_ulist;
    }
fail:
    return st;
}

/* The buffers of one string length's launches (reallocated per length, freed by the caller). */
struct length_buffers {
    void *d_T, *d_str;
    uint8_t *d_acc, *hstr, *hacc;
};

static void length_free(length_buffers *b)
{
    cudaFree(b->d_T), cudaFree(b->d_str), cudaFree(b->d_acc);
    free(b->hstr), free(b->hacc);
    memset(b, 0, sizeof *b);
}

/* Parses the cnt strings bids[] of length n, in launches as large as the plan's budget allows,
 * writing accept[] and adding to sx's times. */
static int parse_length(bulk_ctx *ctx, const launch_plan *lp, const int32_t *syms, const size_t *offsets,
                        const size_t *bids, size_t cnt, size_t n, uint8_t *accept, length_buffers *b,
                        bulk_cky_gpu_stats *sx)
{
    int st = BULK_OK;
    const size_t cells = n * (n + 1) / 2, unit = lp->block ? CKY_GROUP : 64, nnt = lp->nnt;
    const size_t per_unit =
        lp->block ? cells * (nnt * CKY_LANES + 1) * sizeof(uint32_t) : cells * nnt * sizeof(uint64_t);
    const size_t units_all = (cnt + unit - 1) / unit, units_max = lp->budget / per_unit;
    if (units_max == 0) return BULK_ERR_NOMEM;
    const size_t chunk = (units_all < units_max ? units_all : units_max) * unit; /* strings per launch */
    length_free(b);
    b->hstr = (uint8_t *)malloc(chunk * n * sizeof(int32_t));
    b->hacc = (uint8_t *)malloc(chunk);
    if (!b->hstr || !b->hacc) return BULK_ERR_NOMEM;
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&b->d_T, (chunk / unit) * per_unit), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&b->d_str, chunk * n * sizeof(int32_t)), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc(&b->d_acc, chunk), st);
    for (size_t f = 0; f < cnt; f += chunk) {
        const size_t m = cnt - f < chunk ? cnt - f : chunk;
        /* the strings of the chunk, one after the other: gathered (as bytes when the kernel
         * takes them), on all threads; int32 symbols that already lie one after the other
         * go straight from syms */
        double t0 = now_ms();
        const int32_t *src = syms + offsets[bids[f]];
        int sym_bytes = lp->gather_bytes;
        bool contiguous = lp->gather_bytes == 4;
        for (size_t s = 1; s < m && contiguous; s++) contiguous = offsets[bids[f + s]] == offsets[bids[f]] + s * n;
        if (!contiguous) {
            gather_job gj = { syms, offsets, bids + f, n, sym_bytes, b->hstr };
            src = (const int32_t *)b->hstr;
            if (lp->threads > 1 && m * n >= ((size_t)1 << 20)) bulk_parallel_for(lp->threads, m, 4096, gather_range, &gj);
            else gather_range(&gj, 0, m, 0);
        }
        sx->gather_ms += now_ms() - t0;
        t0 = now_ms();
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(b->d_str, src, m * n * (size_t)sym_bytes, cudaMemcpyHostToDevice), st);
        sx->copy_ms += now_ms() - t0;
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventRecord(lp->e0), st);
        if (lp->block)
            BULK_CUDA_CHECK_GOTO(ctx, cky_block_launch((uint32_t *)b->d_T, b->d_str, sym_bytes, b->d_acc, (uint32_t)n, m,
                                                       lp->early, lp->byb, lp->pair, &lp->dg, 0), st);
        else {
            const int use_shared = 2 * nnt * CKY_THREAD_SH_BLOCK * sizeof(uint64_t) <= (size_t)lp->smem_max;
            BULK_CUDA_CHECK_GOTO(ctx, cky_thread_launch((uint64_t *)b->d_T, (const int32_t *)b->d_str, b->d_acc,
                                                        (uint32_t)n, m, use_shared, &lp->dg, 0), st);
        }
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventRecord(lp->e1), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaEventSynchronize(lp->e1), st);
        {
            float ms = 0;
            BULK_CUDA_CHECK_GOTO(ctx, cudaEventElapsedTime(&ms, lp->e0, lp->e1), st);
            sx->kernel_ms += ms;
        }
        t0 = now_ms();
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(b->hacc, b->d_acc, m, cudaMemcpyDeviceToHost), st);
        sx->copy_ms += now_ms() - t0;
        for (size_t s = 0; s < m; s++) accept[bids[f + s]] = b->hacc[s];
    }
fail:
    return st;
}

/* The kernel family for `variant` (AUTO: by-B with two splits a pass and early exit) that fits
 * the device's shared memory; BULK_ERR_ARG for a variant out of range. */
static int choose_variant(int variant, size_t nnt, int smem_max, launch_plan *lp)
{
    /* the rule words hold (2 nnt + 1) * 32 in 16 bits */
    const bool fits = nnt <= 1023 && cky_block_smem((uint32_t)nnt, 0) <= (size_t)smem_max;
    if (variant == BULK_CKY_GPU_AUTO) variant = BULK_CKY_GPU_BYB2;
    if (variant <= BULK_CKY_GPU_AUTO || variant >= BULK_CKY_GPU_VARIANTS) return -1;
    if (variant != BULK_CKY_GPU_THREAD && !fits) variant = BULK_CKY_GPU_THREAD;
    if ((variant == BULK_CKY_GPU_BYB2_FULL || variant == BULK_CKY_GPU_BYB2) &&
        cky_block_smem((uint32_t)nnt, 1) > (size_t)smem_max)
        variant = variant == BULK_CKY_GPU_BYB2 ? BULK_CKY_GPU_BYB : BULK_CKY_GPU_BYB_FULL;
    lp->block = variant != BULK_CKY_GPU_THREAD;
    lp->early = variant == BULK_CKY_GPU_BLOCK || variant == BULK_CKY_GPU_BYB || variant == BULK_CKY_GPU_BYB2;
    lp->pair = variant == BULK_CKY_GPU_BYB2_FULL || variant == BULK_CKY_GPU_BYB2;
    lp->byb = variant == BULK_CKY_GPU_BYB || variant == BULK_CKY_GPU_BYB_FULL || lp->pair;
    return variant;
}

extern "C" int bulk_cuda_cky_parse_ex(bulk_ctx *ctx, const bulk_grammar *g, uint8_t *accept,
                                      const int32_t *syms, const size_t *offsets, size_t nstrings,
                                      int variant, int threads, bulk_cky_gpu_stats *stats)
{
    BULK_CUDA_CHECK(ctx, cudaSetDevice(ctx->cuda->device));
    const double t_start = now_ms();
    int st = BULK_OK;
    bulk_cky_gpu_stats sx;
    memset(&sx, 0, sizeof sx);
    uint8_t *ok = (uint8_t *)malloc(nstrings ? nstrings : 1);
    size_t *ids = NULL, *bucket = NULL, free_b = 0, total_b = 0, nok = 0, maxlen;
    grammar_upload up;
    length_buffers lb;
    launch_plan lp;
    memset(&up, 0, sizeof up);
    memset(&lb, 0, sizeof lb);
    memset(&lp, 0, sizeof lp);
    int dev = 0, clock_khz = 0;
    lp.nnt = g->nnt;
    lp.threads = threads;
    lp.gather_bytes = 4;
    lp.dg.nnt = (uint32_t)g->nnt;
    if (!ok) return BULK_ERR_NOMEM;
    double t_mark = now_ms();
    maxlen = bulk_cky_prepare(g, accept, ok, syms, offsets, nstrings, threads);
    for (size_t i = 0; i < nstrings; i++) nok += ok[i];
    if (nok == 0) goto fail; /* nothing to parse: st is BULK_OK */
    ids = (size_t *)malloc(sizeof(size_t) * nstrings);
    bucket = (size_t *)calloc(maxlen + 2, sizeof(size_t));
    if (!ids || !bucket) {
        st = BULK_ERR_NOMEM;
        goto fail;
    }

    sx.prep_ms = now_ms() - t_mark;
    t_mark = now_ms();
    dev = ctx->cuda->device;
    BULK_CUDA_CHECK_GOTO(ctx, cudaDeviceGetAttribute(&lp.smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaDeviceGetAttribute(&sx.sms, cudaDevAttrMultiProcessorCount, dev), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev), st);
    sx.clock_ghz = clock_khz * 1e-6;
    if ((sx.variant = choose_variant(variant, lp.nnt, lp.smem_max, &lp)) < 0) {
        st = BULK_ERR_ARG;
        goto fail;
    }
    if ((st = upload_grammar(ctx, g, &lp, &up)) != BULK_OK) goto fail;
    BULK_CUDA_CHECK_GOTO(ctx, cudaEventCreate(&lp.e0), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaEventCreate(&lp.e1), st);
    BULK_CUDA_CHECK_GOTO(ctx, cudaMemGetInfo(&free_b, &total_b), st);
    lp.budget = free_b / 2; /* the tables of one launch; strings and results are small beside them */

    sx.setup_ms = now_ms() - t_mark;
    t_mark = now_ms();
    /* counting sort by length: afterwards bucket[n] is the end of length n's ids */
    for (size_t i = 0; i < nstrings; i++)
        if (ok[i]) bucket[offsets[i + 1] - offsets[i] + 1]++;
    for (size_t n = 1; n <= maxlen + 1; n++) bucket[n] += bucket[n - 1];
    for (size_t i = 0; i < nstrings; i++)
        if (ok[i]) ids[bucket[offsets[i + 1] - offsets[i]]++] = i;
    sx.prep_ms += now_ms() - t_mark;
    for (size_t n = 1; n <= maxlen && st == BULK_OK; n++) {
        const size_t cnt = bucket[n] - bucket[n - 1];
        if (cnt) st = parse_length(ctx, &lp, syms, offsets, ids + bucket[n - 1], cnt, n, accept, &lb, &sx);
    }
fail:
    if (lp.e0) cudaEventDestroy(lp.e0);
    if (lp.e1) cudaEventDestroy(lp.e1);
    grammar_free(&up);
    length_free(&lb);
    free(ok), free(ids), free(bucket);
    sx.total_ms = now_ms() - t_start;
    if (stats) *stats = sx;
    return st;
}

static int cuda_parse(bulk_ctx *ctx, const bulk_grammar *g, uint8_t *accept, const int32_t *syms,
                      const size_t *offsets, size_t nstrings, bulk_progress_run *pr)
{
    (void)pr; /* one pass over the batch: the wrapper's start and end calls are the progress */
    return bulk_cuda_cky_parse_ex(ctx, g, accept, syms, offsets, nstrings, BULK_CKY_GPU_AUTO, ctx->threads,
                                  NULL);
}

extern "C" const bulk_cky_backend bulk_cky_cuda_backend = {
    cuda_parse,
};
