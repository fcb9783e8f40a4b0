/* The Collatz backend table (backend/backends.h): the operations whose implementation differs by
 * backend. The public functions (verify_run.c, delays.c, records.c) check their arguments, then
 * call through bulk_cz_backend(ctx) (ctx->gpu's table on a CUDA context, else ctx->cpu's) and
 * never name a backend's function; which ranges and kinds go to the GPU stays their decision.
 *
 * Instances: bulk_collatz_cpu_backend (collatz/cpu_backend.c; every context) and
 * bulk_collatz_cuda_backend (collatz/cuda/cg_backend.cu; only in builds with CUDA, reached only
 * through backend/backends.c). Every entry gives the same results on every backend for the same
 * engine and arguments. The engine's own context (e->ctx) supplies the tuning (cz.* keys,
 * bulk_collatz_cuda_set_opts); the context passed in supplies the backend, its GPU state
 * (ctx->cuda->collatz) and receives the last error. Arguments are checked by the public function
 * before the call (the CUDA entries check again: tests call them directly).
 *
 * Thread-safety: a context is used by one thread at a time (bulk.h), so one call at a time runs
 * per context; two contexts run at the same time, on one device or several, sharing nothing. */
#ifndef BULK_COLLATZ_COLLATZ_BACKEND_H
#define BULK_COLLATZ_COLLATZ_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "backend/context.h"
#include "backend/report.h"
#include "bulk/collatz.h"
#include "collatz/cuda/collatz_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bulk_cuda_state;

struct bulk_collatz_backend {
    /* Verifies [first, last] (1 <= first <= last) into *out. CPU: on the calling thread only
     * (bulk_collatz_verify_chunk; ctx is not used, so the context's worker threads may call it
     * at once). CUDA: spread over the context's devices (one host thread each). */
    int (*verify_chunk)(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                        bulk_u128 last, bulk_collatz_verify_result *out);
    /* delays, delay_stats and records report to pr (NULL: nobody listens): its done is
     * stepped to done0 + the numbers finished, and once pr is cancelled they stop with
     * BULK_ERR_CANCELLED (records then hand back no list). The CPU entries step as they go; the
     * CUDA ones once, at the end of the call. */

    /* out[i] = delay(first + i), i < count (engine with a > 0). */
    int (*delays)(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first, uint64_t count,
                  uint32_t *out, bulk_progress_run *pr, double done0);
    /* Per batch of `batch` numbers from first: the sum, minimum and maximum delay. */
    int (*delay_stats)(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                       uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                       uint32_t *max, bulk_progress_run *pr, double done0);
    /* Records of `kind` in [first, last]; *recs malloc'ed (free() it), *count its length. The
     * CUDA entry does BULK_COLLATZ_DELAY only (other kinds: BULK_ERR_UNSUPPORTED; the public
     * function sends them to the CPU). */
    int (*records)(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                   bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs, size_t *count,
                   bulk_progress_run *pr, double done0);
    /* What the context's last verify_chunk, delays, delay_stats or records call did (devices,
     * kernel, escapes, times; zeros before the first). CUDA only: NULL in the CPU table (the
     * CPU paths keep no statistics). */
    void (*last_stats)(const bulk_ctx *ctx, bulk_collatz_cuda_stats *s);
    /* Frees the Collatz part of a context's GPU state (cs->collatz: the devices' table caches,
     * streams, pinned buffers) and sets it to NULL; a later call builds it again. NULL cs or
     * NULL cs->collatz: nothing to do. Called by the context's close. CUDA only: NULL in the CPU
     * table (the CPU paths keep nothing between calls). */
    void (*release)(struct bulk_cuda_state *cs);
    /* Verify with pre-drop peaks (an engine with bulk_collatz_engine_set_peaks) of [first, last]
     * into *out, where the caller merges *out into a result that already holds the numbers
     * below first, whose largest pre-drop peak is *floor (NULL or 0: none yet): out keeps only
     * what beats it (peak and peak_n when larger than floor, the hits above it), which merged
     * gives exactly the result of the whole range. *seed (NULL or 0: none; used without a
     * floor) is a value the range's maximum is expected to reach, from a sample (verify_run.c
     * peak_seed); the entry checks that it was reached and else finds its threshold another way.
     * CUDA: the escape threshold of the kernels follows the running maximum (peak.h vlim) and
     * the host finishes the escaped numbers with their peaks (cg_verify.cu). NULL in the CPU
     * table: its verify_chunk computes the peaks. */
    int (*verify_chunk_peaks)(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                              bulk_u128 last, const bulk_collatz_wide *floor,
                              const bulk_collatz_wide *seed, bulk_collatz_verify_result *out);
    /* The full-glide verify (an engine without peaks, not in convergence mode) of [first, last]
     * into *out, which also lists every n of the range whose glide exceeds floor: *hits
     * (malloc'ed, free() it; ascending n, value.limb[0] the glide), *count of them, at most max
     * (more: BULK_ERR_OVERFLOW, and no list). floor must be at least 2 (k + kx) (no number the
     * sieve eliminates reaches it) and below 2^32 - 1: else BULK_ERR_ARG. CUDA: the kernels send
     * those numbers to the host, which finishes them exactly (cg_verify.cu); the glide records'
     * search (records_gpu.c). NULL in the CPU table. */
    int (*verify_chunk_glides)(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                               bulk_u128 last, uint64_t floor, size_t max,
                               bulk_collatz_record **hits, size_t *count,
                               bulk_collatz_verify_result *out);
};

extern const struct bulk_collatz_backend bulk_collatz_cpu_backend;
/* Defined only in builds with CUDA (backend/backends.c is the one place that names it). */
extern const struct bulk_collatz_backend bulk_collatz_cuda_backend;

/* The table a public function calls: the CUDA one on a CUDA context, else the CPU one. */
static inline const struct bulk_collatz_backend *bulk_cz_backend(const bulk_ctx *ctx)
{
    return ctx->gpu ? ctx->gpu->collatz : ctx->cpu->collatz;
}

/* The CPU table's entries that are not public functions (arguments already checked by the
 * public function): delays.c, records.c. */
int bulk_cz_cpu_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                       uint64_t count, uint32_t *out, bulk_progress_run *pr, double done0);
int bulk_cz_cpu_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                            uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                            uint32_t *max, bulk_progress_run *pr, double done0);
int bulk_cz_cpu_records(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                        bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs,
                        size_t *count, bulk_progress_run *pr, double done0);

#ifdef __cplusplus
}
#endif
#endif
