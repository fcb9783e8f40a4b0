/* The CUDA Collatz backend's host plumbing: options in force, statistics, errors, the per-device
 * table cache and the one-host-thread-per-GPU runner (multi-GPU: any number of visible devices). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collatz/cuda/cg_host.h"
#include "collatz/cuda/cg_plan.h"

/* ---- options and statistics ------------------------------------------------------------- */
/* One run at a time: the table cache and the devices' streams belong to the run in progress
 * (concurrent calls from several host threads are serialized by cg_run_devices). */
static pthread_mutex_t g_run_lock = PTHREAD_MUTEX_INITIALIZER;
static thread_local bulk_collatz_cuda_stats t_stats;
static thread_local char t_error[512];

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

bulk_collatz_cuda_stats *cg_stats(void) { return &t_stats; }

extern "C" void bulk_collatz_cuda_last_stats(bulk_collatz_cuda_stats *s) { *s = t_stats; }

double cg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cg_note_error(cudaError_t err, const char *what, const char *file, int line)
{
    if (t_error[0]) return; /* keep the first: later ones are usually consequences */
    snprintf(t_error, sizeof t_error, "CUDA error '%s' in %s (%s:%d)", cudaGetErrorString(err),
             what, file, line);
}

const char *cg_take_error(void) { return t_error; }

int cg_devices(const bulk_collatz_engine *e)
{
    int n = bulk_cuda_device_count();
    bulk_collatz_cuda_opts o = cg_opts(e);
    if (o.devices > 0 && o.devices < n) n = o.devices;
    return n;
}

/* ---- the table cache ---------------------------------------------------------------------- */
#define CG_MAX_DEVICES 64
static cg_dev g_dev[CG_MAX_DEVICES];

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
    CG_CHECK(cudaMalloc((void **)dst, count * sizeof(T) + 16));
    CG_CHECK(cudaMemcpy(*dst, src, count * sizeof(T), cudaMemcpyHostToDevice));
    return BULK_OK;
}

int cg_dev_prepare(int dev, const bulk_collatz_engine *e, int need_S, int need_A, cg_dev **out,
                   double *upload_s)
{
    if (dev < 0 || dev >= CG_MAX_DEVICES) return BULK_ERR_ARG;
    cg_dev *dv = &g_dev[dev]; /* only device dev's own host thread touches this slot */
    double t0 = cg_now();
    if (dv->valid && (dv->d != e->d || dv->k != e->k || dv->a != e->a || dv->conv != e->conv)) dev_free(dv);
    if (!dv->valid) {
        dv->dev = dev;
        dv->d = e->d;
        dv->k = e->k;
        dv->a = e->a;
        dv->conv = e->conv;
        CG_CHECK(cudaDeviceGetAttribute(&dv->smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        CG_CHECK(cudaDeviceGetAttribute(&dv->sms, cudaDevAttrMultiProcessorCount, dev));
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
        CG_CHECK(cudaMemGetInfo(&freeb, &totalb));
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
    *upload_s += cg_now() - t0;
    *out = dv;
    return BULK_OK;
}

extern "C" void bulk_collatz_cuda_release(void)
{
    pthread_mutex_lock(&g_run_lock);
    int n = bulk_cuda_device_count();
    for (int i = 0; i < n && i < CG_MAX_DEVICES; i++) {
        if (!g_dev[i].valid && !cg_delays_cached(i) && !cg_verify_cached(i)) continue; /* no context made for nothing */
        if (cudaSetDevice(i) != cudaSuccess) continue;
        cg_delays_release(i);
        cg_verify_release(i);
        if (g_dev[i].valid) dev_free(&g_dev[i]);
    }
    pthread_mutex_unlock(&g_run_lock);
}

int cg_choose(const bulk_collatz_engine *e, const cg_dev *dv, int *kernel, int *shared_tables)
{
    bulk_collatz_cuda_opts o = cg_opts(e);
    int k = o.kernel;
    if (k == BULK_CZ_CUDA_KERNEL_AUTO) k = e->d <= CG_MAX_FAST_D ? BULK_CZ_CUDA_KERNEL_FAST : BULK_CZ_CUDA_KERNEL_CORE;
    if (k == BULK_CZ_CUDA_KERNEL_FAST && e->d > CG_MAX_FAST_D) {
        bulk_cz_set_error("the fast CUDA kernel needs d <= %d (d = %d)", CG_MAX_FAST_D, e->d);
        return BULK_ERR_ARG;
    }
    /* room for the tables plus the block's reduction scratch (1 KB) */
    int fits = cg_smem_tables(e->d, k) + 1024 <= (size_t)dv->smem_optin;
    int sh;
    if (o.table_mem == BULK_CZ_CUDA_MEM_SHARED) {
        if (!fits) {
            bulk_cz_set_error("tables of d = %d do not fit in shared memory (%zu of %d bytes)",
                              e->d, cg_smem_tables(e->d, k), dv->smem_optin);
            return BULK_ERR_ARG;
        }
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
    int g, status;
    char error[512];
    bulk_collatz_cuda_stats stats;
};

static void *run_one(void *p)
{
    struct runner *r = (struct runner *)p;
    t_error[0] = 0;
    memset(&t_stats, 0, sizeof t_stats);
    cudaError_t err = cudaSetDevice(r->g);
    if (err != cudaSuccess) {
        cg_note_error(err, "cudaSetDevice", __FILE__, __LINE__);
        r->status = BULK_ERR_CUDA;
    } else {
        r->status = r->fn(r->g, r->arg);
    }
    snprintf(r->error, sizeof r->error, "%s", t_error[0] ? t_error : bulk_collatz_last_error());
    r->stats = t_stats;
    return NULL;
}

int cg_run_devices(int G, cg_dev_fn fn, void *arg)
{
    struct runner *rs = (struct runner *)calloc((size_t)G, sizeof *rs);
    pthread_t *th = (pthread_t *)calloc((size_t)G, sizeof *th);
    int *started = (int *)calloc((size_t)G, sizeof *started);
    if (!rs || !th || !started) {
        free(rs);
        free(th);
        free(started);
        return BULK_ERR_NOMEM;
    }
    /* always a fresh thread per device, also for one device: the device's thread-local state
     * (current device, statistics, error text) never mixes with the caller's */
    int st = BULK_OK;
    pthread_mutex_lock(&g_run_lock);
    for (int g = 0; g < G; g++) {
        rs[g].fn = fn;
        rs[g].arg = arg;
        rs[g].g = g;
        if (pthread_create(&th[g], NULL, run_one, &rs[g]) == 0) started[g] = 1;
        else st = BULK_ERR_NOMEM;
    }
    for (int g = 0; g < G; g++)
        if (started[g]) pthread_join(th[g], NULL);
    pthread_mutex_unlock(&g_run_lock);
    if (st != BULK_OK) bulk_cz_set_error("cannot start a host thread per GPU");
    bulk_collatz_cuda_stats *s = cg_stats();
    for (int g = 0; g < G; g++) {
        if (!started[g]) continue;
        s->escape_seconds += rs[g].stats.escape_seconds;
        s->tail_seconds += rs[g].stats.tail_seconds;
        s->upload_seconds += rs[g].stats.upload_seconds;
        s->escapes += rs[g].stats.escapes;
        s->launches += rs[g].stats.launches;
        s->reruns += rs[g].stats.reruns;
        s->kernel_seconds += rs[g].stats.kernel_seconds;
        s->classes += rs[g].stats.classes;
        if (rs[g].stats.delay_loop) s->delay_loop = rs[g].stats.delay_loop;
        if (rs[g].stats.kernel) s->kernel = rs[g].stats.kernel;
        if (rs[g].stats.table_mem) s->table_mem = rs[g].stats.table_mem;
        if (rs[g].status != BULK_OK && st == BULK_OK) {
            st = rs[g].status;
            if (rs[g].error[0]) bulk_cz_set_error("GPU %d: %s", g, rs[g].error);
        }
    }
    free(rs);
    free(th);
    free(started);
    return st;
}
