/* The CUDA instance of the Collatz backend table (collatz/collatz_backend.h): the entry points of
 * cg_verify.cu, cg_delays.cu and cg_records.cu, and the context state's statistics and release
 * (cg_device.cu). The GPU runs a call whole, so the progress of delays, delay_stats and records
 * is stepped once, when the call has finished. */
#include <stdlib.h>

#include "collatz/cuda/cg_host.h"

/* st, or BULK_ERR_CANCELLED when stepping pr to `done` finds it cancelled. */
static int stepped(int st, bulk_progress_run *pr, double done)
{
    if (st == BULK_OK && pr && bulk_progress_step(pr, done, 0) != BULK_OK) st = BULK_ERR_CANCELLED;
    return st;
}

static int cuda_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first, uint64_t count,
                       uint32_t *out, bulk_progress_run *pr, double done0)
{
    return stepped(bulk_collatz_cuda_delays(ctx, e, first, count, out), pr, done0 + (double)count);
}

static int cuda_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                            uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                            uint32_t *max, bulk_progress_run *pr, double done0)
{
    int st = bulk_collatz_cuda_delay_stats(ctx, e, first, batch, nbatches, sum, min, max);
    return stepped(st, pr, done0 + (double)batch * (double)nbatches);
}

static int cuda_records(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                        bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs, size_t *count,
                        bulk_progress_run *pr, double done0)
{
    const double len = ((double)last.hi - (double)first.hi) * 18446744073709551616.0 +
                       ((double)last.lo - (double)first.lo) + 1.0;
    int st = stepped(bulk_collatz_cuda_records(ctx, e, kind, first, last, recs, count), pr, done0 + len);
    if (st == BULK_ERR_CANCELLED) {
        free(*recs);
        *recs = NULL;
        *count = 0;
    }
    return st;
}

/* (C++17 has no designated initializers: the members in their order) */
extern "C" const struct bulk_collatz_backend bulk_collatz_cuda_backend = {
    bulk_collatz_cuda_verify_chunk, /* verify_chunk */
    cuda_delays,                    /* delays */
    cuda_delay_stats,               /* delay_stats */
    cuda_records,                   /* records */
    bulk_collatz_cuda_last_stats,   /* last_stats */
    bulk_collatz_cuda_release,      /* release */
    bulk_collatz_cuda_verify_chunk_peaks, /* verify_chunk_peaks */
    bulk_collatz_cuda_verify_chunk_glides, /* verify_chunk_glides */
};
