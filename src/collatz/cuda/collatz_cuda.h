/* The CUDA backend of the Collatz engine (seed 004 sections 5-6, seed 003 sections 4-9): the
 * types its callers share with it, in builds with and without CUDA alike.
 *
 * Its entry points are the table bulk_collatz_cuda_backend (collatz/collatz_backend.h; built only
 * with CUDA, reached through a CUDA context's ctx->gpu->collatz). They give bit-identical results
 * to the CPU engine's for the same engine (same d, k, a): the kernels run the per-number logic of
 * cg_core.h, which mirrors collatz_core.h step for step, and every number whose value would leave
 * 128 bits is finished on the host by the engine's exact path while the GPU goes on (seed 004
 * section 5.1). The context's devices are used (one host thread each); results do not depend on
 * their number. */
#ifndef BULK_COLLATZ_CUDA_COLLATZ_CUDA_H
#define BULK_COLLATZ_CUDA_COLLATZ_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/collatz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tuning knobs of one context (the cz.* keys of bulk_ctx_set_tune, or bulk_collatz_cuda_set_opts;
 * 0 always means "choose"). The CUDA entry points read those of the engine's context. */
enum {
    BULK_CZ_CUDA_MEM_AUTO = 0,   /* B, C, J in shared memory when they fit, else global */
    BULK_CZ_CUDA_MEM_SHARED = 1, /* force shared (BULK_ERR_ARG when 2^d entries do not fit) */
    BULK_CZ_CUDA_MEM_GLOBAL = 2  /* force global (read through L1/L2) */
};
enum {
    BULK_CZ_CUDA_KERNEL_AUTO = 0, /* FAST when d <= 20, else CORE */
    BULK_CZ_CUDA_KERNEL_FAST = 1, /* 4 x 32-bit limbs, PTX carry chains, packed 32-bit tables */
    BULK_CZ_CUDA_KERNEL_CORE = 2  /* the engine's own collatz_core.h functions (64-bit limbs) */
};
enum {
    BULK_CZ_CUDA_LAYOUT_AUTO = 0,       /* UNIFORM */
    BULK_CZ_CUDA_LAYOUT_FLAT_BATCH = 3, /* lane loop (k_flat): a lane takes its next number when one
                                           ends, idle lanes refill together when >= refill_lanes of a
                                           warp are idle; record replays, incremental setup */
    BULK_CZ_CUDA_LAYOUT_UNIFORM = 4     /* every trip the same code (cg_verify_uni.h); FLAT_BATCH where
                                           it does not apply (d > 16 or n < 2^(3d+2)) */
};
/* The fast delay kernels' loop (docs/collatz-gpu.md "Delay loops"). */
enum {
    BULK_CZ_CUDA_DELAY_AUTO = 0, /* V5 */
    BULK_CZ_CUDA_DELAY_V3 = 1,   /* one step per warp trip, two/four-limb branches, a block per batch */
    BULK_CZ_CUDA_DELAY_V4X2 = 3, /* delay_unroll three-limb steps per trip, deferred A loads, a warp
                                    per piece of a batch, two numbers interleaved per lane (the
                                    loop of V5 where V5 does not apply: d > 17, batches < 32) */
    BULK_CZ_CUDA_DELAY_V5 = 4    /* rounds of delay_unroll steps with no test, 32-bit packed
                                    entries, 3 limbs, two numbers per lane (cg_delay5.h,
                                    cg_delay6.h; d <= 17, else V4X2) */
};
/* The tuning keys cz.layout = batch | uniform, cz.refill = 1..32 and cz.delay = v3 | v4x2 | v5
 * set verify_layout, refill_lanes and delay_loop (docs/architecture.md "Tuning"). */
typedef struct bulk_collatz_cuda_opts {
    int table_mem;             /* BULK_CZ_CUDA_MEM_* */
    int kernel;                /* BULK_CZ_CUDA_KERNEL_* */
    int devices;               /* use the first `devices` of the context's GPUs (0: all of them) */
    int threads_per_block;     /* 0: 256 (a multiple of 32, at most 512) */
    int rows_per_thread;       /* verify, ROWS layout: rows per thread per unit (0: 8) */
    uint64_t launch_numbers;   /* numbers per kernel launch (0: 2^27) */
    uint64_t wave_numbers;     /* numbers per wave (escapes are drained per wave; 0: 2^33) */
    uint64_t s_slice_entries;  /* S entries resident per slice (0: all when they fit) */
    uint32_t escape_capacity;  /* escapes kept per wave (0: 2^20; more -> the chunk reruns) */
    int verify_layout;         /* BULK_CZ_CUDA_LAYOUT_* (fast kernel's level-k rows) */
    int refill_lanes;          /* FLAT_BATCH: idle lanes that trigger a refill (0: 16; 1..32) */
    int delay_loop;            /* fast delay kernels: BULK_CZ_CUDA_DELAY_* (0: auto) */
    int delay_unroll;          /* V4X2 / V5 delay loops: table steps per trip or round, 4 or 8 (0: 8) */
} bulk_collatz_cuda_opts;

/* The options of ctx (its tuning's cz part); set_opts replaces them all (BULK_ERR_ARG for
 * values out of range, nothing changed). Engines made on ctx use them from their next call. */
void bulk_collatz_cuda_get_opts(const bulk_ctx *ctx, bulk_collatz_cuda_opts *o);
int bulk_collatz_cuda_set_opts(bulk_ctx *ctx, const bulk_collatz_cuda_opts *o);

/* 1 when every field of o is in range (the one check of set_opts, with and without CUDA). */
static inline int bulk_collatz_cuda_opts_valid(const bulk_collatz_cuda_opts *o)
{
    return o && o->table_mem >= 0 && o->table_mem <= 2 && o->kernel >= 0 && o->kernel <= 2 &&
           o->devices >= 0 && o->threads_per_block >= 0 && o->threads_per_block <= 512 &&
           (o->threads_per_block & 31) == 0 && o->rows_per_thread >= 0 && o->rows_per_thread <= 64 &&
           (o->verify_layout == BULK_CZ_CUDA_LAYOUT_AUTO || o->verify_layout == BULK_CZ_CUDA_LAYOUT_FLAT_BATCH ||
            o->verify_layout == BULK_CZ_CUDA_LAYOUT_UNIFORM) &&
           o->refill_lanes >= 0 && o->refill_lanes <= 32 &&
           (o->delay_loop == BULK_CZ_CUDA_DELAY_AUTO || o->delay_loop == BULK_CZ_CUDA_DELAY_V3 ||
            o->delay_loop == BULK_CZ_CUDA_DELAY_V4X2 || o->delay_loop == BULK_CZ_CUDA_DELAY_V5) &&
           (o->delay_unroll == 0 || o->delay_unroll == 4 || o->delay_unroll == 8);
}

/* What a context's last call of the CUDA backend did (the table's last_stats; for benchmarks and
 * the overflow-share report). */
typedef struct bulk_collatz_cuda_stats {
    int devices;            /* GPUs used */
    int table_mem;          /* BULK_CZ_CUDA_MEM_SHARED or _GLOBAL as used */
    int kernel;             /* BULK_CZ_CUDA_KERNEL_FAST or _CORE as used */
    double seconds;         /* wall time of the call */
    double upload_seconds;  /* tables and S to the devices (0 when cached) */
    double escape_seconds;  /* host time on escaped numbers (overlaps the GPU) */
    double tail_seconds;    /* host time on escapes after the GPU had finished */
    uint64_t escapes;       /* numbers finished on the host's exact path */
    uint64_t launches;      /* kernel launches, all devices */
    uint64_t reruns;        /* waves rerun because the escape buffer was full */
    double kernel_seconds;  /* delays: sum of the kernels' own times (CUDA events), all devices */
    int delay_loop;         /* delays: BULK_CZ_CUDA_DELAY_* as used (fast kernel) */
    uint64_t classes;       /* delays: class trajectories run by the merge-class path (0: not used) */
    int cpu_fallback;       /* verify in convergence mode ran on the CPU (no k_uni for its rows) */
} bulk_collatz_cuda_stats;

#ifdef __cplusplus
}
#endif
#endif
