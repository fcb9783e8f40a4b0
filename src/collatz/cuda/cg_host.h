/* Host-side plumbing shared by the .cu files of the CUDA Collatz backend (CUDA C++ only): the
 * context's Collatz GPU state (per-device table caches, the drivers' buffers, the last call's
 * statistics), the options in force, and the one-host-thread-per-GPU runner.
 *
 * Errors: every CUDA call goes through BULK_CUDA_CHECK (backend/cuda/cuda_check.cuh). Code that
 * runs on a device's worker thread (cg_run_devices) records with ctx NULL, i.e. for its own
 * thread, so that two devices failing at once never write one context's message together; the
 * runner carries the first failure (in device order) into the calling context's last error. */
#ifndef BULK_COLLATZ_CUDA_CG_HOST_H
#define BULK_COLLATZ_CUDA_CG_HOST_H

#include <cuda_runtime.h>

/* collatz_internal.h has no C++ guard of its own: its functions are C functions */
extern "C" {
#include "backend/context.h"
#include "backend/report.h"
#include "collatz/collatz_internal.h"
}
#include "backend/cuda/cuda_check.cuh"
#include "collatz/collatz_backend.h"
#include "collatz/cuda/cg_core.h"
#include "collatz/cuda/collatz_cuda.h"

/* The verify layout that verify_layout = AUTO (and no cz.layout tuning) resolves to:
 * UNIFORM (k_uni, two trips per pass, the first record in the dip trip; FLAT_BATCH where it does
 * not apply). H200, k = 37, d = 12, n near 2^68: FLAT_BATCH 16 + records + incremental setup
 * 1.976e12, UNIFORM 3.402e12, UNIFORM with two trips per pass 4.202e12 numbers/s, all identical
 * (docs/perf/collatz-gpu.md "Uniform trips, V5 and the generated sieve measured"). */
#define CG_DEFAULT_LAYOUT BULK_CZ_CUDA_LAYOUT_UNIFORM

/* The delay loop that delay_loop = AUTO (and no cz.delay tuning) resolves to: V5 (d <= 17;
 * V4X2 beyond) with its default of 8 steps per round and checkpoints (docs/perf/collatz-gpu-delays.md
 * "Delays V5"): kernel rates from 2^64 2.81e10 (d = 12) .. 3.40e10 (d = 16) numbers/s at a = 24,
 * batch 1024, 1.38-1.66x V4X2 at every point; the CLI's d = 14, a = 20, batch 2^20: 3.12e10
 * (1.62x), `bulk collatz delays --stats` 0.95 s for 2^34 numbers instead of 1.29 s. */
#define CG_DEFAULT_DELAY_LOOP BULK_CZ_CUDA_DELAY_V5

/* FLAT_BATCH (where UNIFORM does not apply) replays by record lows with refill_lanes
 * CG_REFILL_LANES_REC and the tables in global memory (AUTO): H200, k = 32, d = 12: 1.594e12
 * numbers/s against refill 12 with T-step replays 1.421e12 (docs/perf/collatz-gpu.md "Record
 * replays"). */
#define CG_REFILL_LANES_REC 16

/* Tables of one engine on one device. BC (packed) and BM (dip test) exist when d <= 20, B and C
 * (64-bit) always,
 * A when a > 0. S (Sr, Sc, Sj) is resident whole when it fits (s_whole), else the verify driver
 * streams it in slices through its own buffers. Cached per context and device for one
 * (d, k, a, conv): the tables and the sieve are functions of those alone. */
typedef struct cg_dev {
    int dev, valid;
    int d, k, a, conv; /* conv: the sieve of a convergence-mode engine (other entries) */
    uint64_t *BC, *BM, *B, *C;
    uint8_t *J;
    uint16_t *A;
    uint32_t *ROFF; /* record-replay tables (d <= 20) */
    uint64_t *REC;
    uint8_t *RST;
    uint64_t *Sr, *Sc;
    uint8_t *Sj;
    uint64_t s_k;
    int s_whole;
    int smem_optin; /* the device's largest dynamic shared memory per block, bytes */
    int sms;
} cg_dev;

/* Device numbers the state has slots for. */
#define CG_MAX_DEVICES 64

/* The verify and delays drivers' per-device streams, events and buffers (cg_verify_run.cuh,
 * cg_delays.cu), kept between calls. */
struct cg_vcache;
struct cg_dcache;

/* The Collatz part of a context's GPU state (ctx->cuda->collatz; backend/cuda_state.h): made by
 * the first call on the context (cg_state), freed by the table's release. Slots are indexed by
 * device number and NULL until that device is used; during a call each is touched only by its
 * device's worker thread. One call at a time per context (a context is used by one thread at a
 * time, bulk.h), so nothing here needs a lock; two contexts never share any of it. */
struct bulk_collatz_cuda_state {
    cg_dev *dev[CG_MAX_DEVICES];          /* the tables on each device */
    struct cg_vcache *vc[CG_MAX_DEVICES]; /* the verify driver's resources */
    struct cg_dcache *dc[CG_MAX_DEVICES]; /* the delays driver's resources */
    bulk_collatz_cuda_stats stats;        /* the context's last call (the table's last_stats) */
};

/* The context's Collatz GPU state, made on first use. BULK_ERR_NO_BACKEND (message set) when ctx
 * is not a CUDA context, BULK_ERR_NOMEM. */
int cg_state(bulk_ctx *ctx, bulk_collatz_cuda_state **out);

/* One device's share of a call (cg_run_devices): share g of G on device `dev` (current on the
 * worker's thread), the context's state, and the share's own statistics (merged into the
 * context's after every share has ended). */
struct cg_worker {
    bulk_collatz_cuda_state *cs;
    int g, G, dev;
    bulk_collatz_cuda_stats stats;
};

/* Makes sure w's device holds e's tables (need_S: the sieve; need_A: the delay table), on w's
 * thread. The upload's seconds go to w's statistics. */
int cg_dev_prepare(cg_worker &w, const bulk_collatz_engine *e, int need_S, int need_A, cg_dev **out);

/* The options in force for e (its context's, defaults filled in). */
bulk_collatz_cuda_opts cg_opts(const bulk_collatz_engine *e);

/* GPUs to use for e on ctx: the context's devices (ctx->cuda->device onwards: `devices` of them,
 * all from `device` on when 0), at most opts.devices when > 0. 0 when none. */
int cg_devices(const bulk_ctx *ctx, const bulk_collatz_engine *e);

/* Runs fn(w, arg) for the shares g = 0..G-1 of the call on ctx, each on its own host thread with
 * device ctx->cuda->device + g current; returns the first non-OK status (in g order), BULK_OK
 * otherwise, with that share's message in ctx's last error. The shares' statistics are added to
 * cs->stats. */
typedef int (*cg_dev_fn)(cg_worker &w, void *arg);
int cg_run_devices(bulk_ctx *ctx, bulk_collatz_cuda_state *cs, int G, cg_dev_fn fn, void *arg);

/* Sets kernel f's dynamic shared memory limit to at least `bytes` on the calling thread's device.
 * The attribute belongs to the process, not to a context: two contexts launching f at once must
 * never lower it under each other, so it only grows (under one process-wide lock). */
int cg_smem_limit(const void *f, size_t bytes);

/* Frees the delay driver's resources of one device (cg_delays.cu; that device current). */
void cg_delays_free(struct cg_dcache *c);
/* The same for the verify driver (cg_verify.cu). */
void cg_verify_free(struct cg_vcache *c);

/* The entries of the table bulk_collatz_cuda_backend (collatz/collatz_backend.h). */
extern "C" {
int bulk_collatz_cuda_verify_chunk(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                   bulk_u128 last, bulk_collatz_verify_result *out);
int bulk_collatz_cuda_verify_chunk_peaks(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                         bulk_u128 last, const bulk_collatz_wide *floor,
                                         const bulk_collatz_wide *seed, bulk_collatz_verify_result *out);
int bulk_collatz_cuda_verify_chunk_glides(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                          bulk_u128 last, uint64_t floor, size_t max,
                                          bulk_collatz_record **hits, size_t *count,
                                          bulk_collatz_verify_result *out);
int bulk_collatz_cuda_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                             uint64_t count, uint32_t *out);
int bulk_collatz_cuda_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                  uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                                  uint32_t *max);
int bulk_collatz_cuda_records(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                              bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs,
                              size_t *count);
void bulk_collatz_cuda_last_stats(const bulk_ctx *ctx, bulk_collatz_cuda_stats *s);
void bulk_collatz_cuda_release(struct bulk_cuda_state *cs);
}

/* Host wall clock, seconds. */
double cg_now(void);

/* Shared-memory bytes of the tables of d bits for the fast (BC + BM + J) and the core
 * (B + C + J) kernels, plus the 3^j table. */
static inline size_t cg_smem_tables(int d, int kernel)
{
    size_t n = (size_t)1 << d;
    (void)kernel;
    return n * 17 + 41 * sizeof(uint64_t);
}

/* Kernel variant and table placement actually used for engine e under the options: the kernel
 * (FAST needs d <= 20) and the memory (SHARED when it fits the device, unless forced).
 * BULK_ERR_ARG (message for the calling thread) when the options ask for something impossible. */
int cg_choose(const bulk_collatz_engine *e, const cg_dev *dv, int *kernel, int *shared_tables);

#endif
