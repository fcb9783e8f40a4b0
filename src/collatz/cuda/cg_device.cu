/* The CUDA Collatz backend's host plumbing: the context's Collatz GPU state and its release,
 * options in force, the per-device table cache and the one-host-thread-per-GPU runner (multi-GPU:
 * any number of the context's devices). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/cuda/smem_limit.cuh"
#include "collatz/cuda/cg_host.h"
#include "collatz/cuda/cg_plan.h"

/* ---- the context's state and options ------------------------------------------------------ */
int cg_state(bulk_ctx *ctx, bulk_collatz_cuda_state **out)
{
    if (!ctx || !ctx->cuda)
        return bulk_fail(ctx, BULK_ERR_NO_BACKEND, "the CUDA Collatz backend needs a CUDA context");
    if (!ctx->cuda->collatz) {
        ctx->cuda->collatz = (bulk_collatz_cuda_state *)calloc(1, sizeof *ctx->cuda->collatz);
        if (!ctx->cuda->collatz) return bulk_fail(ctx, BULK_ERR_NOMEM, "the CUDA Collatz state: out of memory");
    }
    *out = ctx->cuda->collatz;
    return BULK_OK;
}

bulk_collatz_cuda_opts cg_opts(const bulk_collatz_engine *e)
{
    bulk_collatz_cuda_opts o;
    bulk_collatz_cuda_get_opts(e->ctx, &o);
    if (!o.threads_per_block) o.threads_per_block = 256;
    if (!o.rows_per_thread) o.rows_per_thread = 8;
    if (!o.launch_numbers) o.launch_numbers = (uint64_t)1 << 27;
    if (!o.wave_numbers) o.wave_numbers = (uint64_t)1 << 33;
    if (!o.escape_capacity) o.escape_capacity = 1u << 20;
    if (o.verify_layout == BULK_CZ_CUDA_LAYOUT_AUTO) o.verify_layout = CG_DEFAULT_LAYOUT;
    /* numbers end sooner with record replays: more lanes wait for a shared refill */
    if (!o.refill_lanes) o.refill_lanes = CG_REFILL_LANES_REC;
    if (o.delay_loop == BULK_CZ_CUDA_DELAY_AUTO) o.delay_loop = CG_DEFAULT_DELAY_LOOP;
    if (!o.delay_unroll) o.delay_unroll = CG_DELAY_UNROLL;
    return o;
}

extern "C" void bulk_collatz_cuda_last_stats(const bulk_ctx *ctx, bulk_collatz_cuda_stats *s)
{
    if (ctx && ctx->cuda && ctx->cuda->collatz) *s = ctx->cuda->collatz->stats;
    else memset(s, 0, sizeof *s);
}

double cg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cg_devices(const bulk_ctx *ctx, const bulk_collatz_engine *e)
{
    if (!ctx || !ctx->cuda) return 0;
    const int first = ctx->cuda->device, count = bulk_cuda_device_count();
    if (first < 0 || first >= count || first >= CG_MAX_DEVICES) return 0;
    int n = ctx->cuda->devices > 0 ? ctx->cuda->devices : count - first;
    if (n > count - first) n = count - first;
    if (n > CG_MAX_DEVICES - first) n = CG_MAX_DEVICES - first;
    bulk_collatz_cuda_opts o = cg_opts(e);
    if (o.devices > 0 && o.devices < n) n = o.devices;
    return n;
}

/* Kernels' dynamic shared memory limits are attributes of the process (per device), shared by
 * every context: raised only, under one lock (backend/cuda/smem_limit.cuh). */
int cg_smem_limit(const void *f, size_t bytes)
{
    BULK_CUDA_CHECK(NULL, bulk_cuda_smem_at_least(f, bytes));
    return BULK_OK;
}

/* ---- the table cache ---------------------------------------------------------------------- */

static void dev_free(cg_dev *dv)
{
    cudaFree(dv->BC);
    cudaFree(dv->BM);
    cudaFree(dv->B);
    cudaFree(dv->C);
    cudaFree(dv->J);
    cudaFree(dv->A);
    cudaFree(dv->ROFF);
    cudaFree(dv->REC);
    cudaFree(dv->RST);
    cudaFree(dv->Sr);
    cudaFree(dv->Sc);
    cudaFree(dv->Sj);
    int dev = dv->dev;
    memset(dv, 0, sizeof *dv);
    dv->dev = dev;
}

template <typename T> static int upload(T **dst, const T *src, size_t count)
{
    BULK_CUDA_CHECK(NULL, cudaMalloc((void **)dst, count * sizeof(T) + 16));
    BULK_CUDA_CHECK(NULL, cudaMemcpy(*dst, src, count * sizeof(T), cudaMemcpyHostToDevice));
    return BULK_OK;
}

int cg_dev_prepare(cg_worker &w, const bulk_collatz_engine *e, int need_S, int need_A, cg_dev **out)
{
    const int dev = w.dev;
    if (dev < 0 || dev >= CG_MAX_DEVICES) return BULK_ERR_ARG;
    /* only device dev's own worker thread touches this slot */
    if (!w.cs->dev[dev] && !(w.cs->dev[dev] = (cg_dev *)calloc(1, sizeof(cg_dev)))) return BULK_ERR_NOMEM;
    cg_dev *dv = w.cs->dev[dev];
    double t0 = cg_now();
    if (dv->valid && (dv->d != e->d || dv->k != e->k || dv->a != e->a || dv->conv != e->conv)) {
        /* another kind of engine: everything the context keeps on this device for the last one
         * goes first (its tables, and the drivers' engine-sized buffers: the j-sorted sieve,
         * generated slices), so the new engine's uploads see the device's memory as a fresh
         * context would (the choices above 60% or half of the free memory depend on it) */
        dev_free(dv);
        if (w.cs->vc[dev]) cg_verify_free(w.cs->vc[dev]);
        if (w.cs->dc[dev]) cg_delays_free(w.cs->dc[dev]);
    }
    if (!dv->valid) {
        dv->dev = dev;
        dv->d = e->d;
        dv->k = e->k;
        dv->a = e->a;
        dv->conv = e->conv;
        BULK_CUDA_CHECK(NULL, cudaDeviceGetAttribute(&dv->smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        BULK_CUDA_CHECK(NULL, cudaDeviceGetAttribute(&dv->sms, cudaDevAttrMultiProcessorCount, dev));
        size_t n = (size_t)1 << e->d;
        int st;
        if (e->d <= CG_MAX_FAST_D) {
            uint64_t *bc = (uint64_t *)malloc(n * sizeof *bc), *bm = (uint64_t *)malloc(n * sizeof *bm);
            if (!bc || !bm) {
                free(bc);
                free(bm);
                return BULK_ERR_NOMEM;
            }
            cg_pack_tables(e->d, e->B, e->C, bc, bm);
            st = upload(&dv->BC, bc, n);
            if (!st) st = upload(&dv->BM, bm, n);
            free(bc);
            free(bm);
            if (st) return st;
            /* record-replay tables (FLAT_BATCH): ~4.4 x 9 bytes per L at d = 12 */
            const uint64_t nrec = cg_rec_total(e->d);
            uint32_t *roff = (uint32_t *)malloc((n + 1) * sizeof *roff);
            uint64_t *rec = (uint64_t *)malloc(nrec * sizeof *rec + 8);
            uint8_t *rst = (uint8_t *)malloc(nrec + 1);
            if (!roff || !rec || !rst) {
                free(roff);
                free(rec);
                free(rst);
                return BULK_ERR_NOMEM;
            }
            cg_rec_tables(e->d, roff, rec, rst);
            st = upload(&dv->ROFF, roff, n + 1);
            if (!st) st = upload(&dv->REC, rec, nrec);
            if (!st) st = upload(&dv->RST, rst, nrec);
            free(roff);
            free(rec);
            free(rst);
            if (st) return st;
        }
        if ((st = upload(&dv->B, e->B, n)) || (st = upload(&dv->C, e->C, n)) ||
            (st = upload(&dv->J, e->J, n)))
            return st;
        dv->valid = 1;
    }
    if (need_A && e->a > 0 && !dv->A) {
        int st = upload(&dv->A, e->A, (size_t)1 << e->a);
        if (st) return st;
    }
    if (need_S && !dv->s_whole) {
        /* resident whole when it takes at most 60% of the free memory and no slice size is
         * forced; otherwise the verify driver streams it */
        size_t freeb = 0, totalb = 0;
        BULK_CUDA_CHECK(NULL, cudaMemGetInfo(&freeb, &totalb));
        bulk_collatz_cuda_opts o = cg_opts(e);
        double bytes = (double)e->s_k * 17.0;
        if (o.s_slice_entries == 0 && bytes <= 0.6 * (double)freeb) {
            int st;
            if ((st = upload(&dv->Sr, e->Sr, e->s_k)) || (st = upload(&dv->Sc, e->Sc, e->s_k)) ||
                (st = upload(&dv->Sj, e->Sj, e->s_k)))
                return st;
            dv->s_k = e->s_k;
            dv->s_whole = 1;
        }
    }
    w.stats.upload_seconds += cg_now() - t0;
    *out = dv;
    return BULK_OK;
}

extern "C" void bulk_collatz_cuda_release(struct bulk_cuda_state *state)
{
    if (!state || !state->collatz) return;
    bulk_collatz_cuda_state *cs = state->collatz;
    int prev = -1;
    const int have_prev = cudaGetDevice(&prev) == cudaSuccess;
    for (int i = 0; i < CG_MAX_DEVICES; i++) {
        if (!cs->dev[i] && !cs->vc[i] && !cs->dc[i]) continue; /* no CUDA context made for nothing */
        /* a device that cannot be made current has no resources left to free */
        const int current = cudaSetDevice(i) == cudaSuccess;
        if (cs->dc[i]) {
            if (current) cg_delays_free(cs->dc[i]);
            free(cs->dc[i]);
        }
        if (cs->vc[i]) {
            if (current) cg_verify_free(cs->vc[i]);
            free(cs->vc[i]);
        }
        if (cs->dev[i]) {
            if (current) dev_free(cs->dev[i]);
            free(cs->dev[i]);
        }
    }
    if (have_prev) cudaSetDevice(prev); /* the caller's thread keeps its current device */
    cudaGetLastError();
    free(cs);
    state->collatz = NULL;
}

int cg_choose(const bulk_collatz_engine *e, const cg_dev *dv, int *kernel, int *shared_tables)
{
    bulk_collatz_cuda_opts o = cg_opts(e);
    int k = o.kernel;
    if (k == BULK_CZ_CUDA_KERNEL_AUTO) k = e->d <= CG_MAX_FAST_D ? BULK_CZ_CUDA_KERNEL_FAST : BULK_CZ_CUDA_KERNEL_CORE;
    if (k == BULK_CZ_CUDA_KERNEL_FAST && e->d > CG_MAX_FAST_D)
        return bulk_fail(NULL, BULK_ERR_ARG, "the fast CUDA kernel needs d <= %d (d = %d)", CG_MAX_FAST_D, e->d);
    /* room for the tables plus the block's reduction scratch (1 KB) */
    int fits = cg_smem_tables(e->d, k) + 1024 <= (size_t)dv->smem_optin;
    int sh;
    if (o.table_mem == BULK_CZ_CUDA_MEM_SHARED) {
        if (!fits)
            return bulk_fail(NULL, BULK_ERR_ARG, "tables of d = %d do not fit in shared memory (%zu of %d bytes)",
                             e->d, cg_smem_tables(e->d, k), dv->smem_optin);
        sh = 1;
    } else if (o.table_mem == BULK_CZ_CUDA_MEM_GLOBAL) {
        sh = 0;
    } else {
        /* measured preference (seed 004 Table 4 found the same): shared while the tables
         * leave room for two blocks per multiprocessor */
        sh = 2 * (cg_smem_tables(e->d, k) + 1024) <= (size_t)dv->smem_optin + 1024;
    }
    *kernel = k;
    *shared_tables = sh;
    return BULK_OK;
}

/* ---- one host thread per GPU ------------------------------------------------------------- */
struct runner {
    cg_dev_fn fn;
    void *arg;
    cg_worker w;
    int status;
    char error[512];
};

static void *run_one(void *p)
{
    struct runner *r = (struct runner *)p;
    const cudaError_t err = cudaSetDevice(r->w.dev);
    if (err != cudaSuccess) r->status = bulk_cuda_fail(NULL, err, "cudaSetDevice", __FILE__, __LINE__);
    else r->status = r->fn(r->w, r->arg);
    /* this thread's message (a CUDA check's, or the backend's own) */
    snprintf(r->error, sizeof r->error, "%s", bulk_ctx_last_error(NULL));
    return NULL;
}

/* Adds a share's statistics to the call's. */
static void add_stats(bulk_collatz_cuda_stats *s, const bulk_collatz_cuda_stats *w)
{
    s->escape_seconds += w->escape_seconds;
    s->tail_seconds += w->tail_seconds;
    s->upload_seconds += w->upload_seconds;
    s->escapes += w->escapes;
    s->launches += w->launches;
    s->reruns += w->reruns;
    s->kernel_seconds += w->kernel_seconds;
    s->classes += w->classes;
    if (w->delay_loop) s->delay_loop = w->delay_loop;
    if (w->kernel) s->kernel = w->kernel;
    if (w->table_mem) s->table_mem = w->table_mem;
}

int cg_run_devices(bulk_ctx *ctx, bulk_collatz_cuda_state *cs, int G, cg_dev_fn fn, void *arg)
{
    struct runner *rs = (struct runner *)calloc((size_t)G, sizeof *rs);
    pthread_t *th = (pthread_t *)calloc((size_t)G, sizeof *th);
    int *started = (int *)calloc((size_t)G, sizeof *started);
    if (!rs || !th || !started) {
        free(rs);
        free(th);
        free(started);
        return bulk_fail(ctx, BULK_ERR_NOMEM, "the GPU runner: out of memory");
    }
    /* always a fresh thread per device, also for one device: the device's thread-local state
     * (current device, error text) never mixes with the caller's */
    int st = BULK_OK;
    for (int g = 0; g < G; g++) {
        rs[g].fn = fn;
        rs[g].arg = arg;
        rs[g].w.cs = cs;
        rs[g].w.g = g;
        rs[g].w.G = G;
        rs[g].w.dev = ctx->cuda->device + g;
        if (pthread_create(&th[g], NULL, run_one, &rs[g]) == 0) started[g] = 1;
        else st = BULK_ERR_NOMEM;
    }
    for (int g = 0; g < G; g++)
        if (started[g]) pthread_join(th[g], NULL);
    if (st != BULK_OK) bulk_fail(ctx, st, "cannot start a host thread per GPU");
    for (int g = 0; g < G; g++) {
        if (!started[g]) continue;
        add_stats(&cs->stats, &rs[g].w.stats);
        if (rs[g].status != BULK_OK && st == BULK_OK) {
            st = rs[g].status;
            if (rs[g].error[0]) bulk_fail(ctx, st, "GPU %d: %s", rs[g].w.dev, rs[g].error);
        }
    }
    free(rs);
    free(th);
    free(started);
    return st;
}
