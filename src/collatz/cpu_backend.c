/* The CPU instance of the Collatz backend table (collatz/collatz_backend.h). Every context has
 * it; the entries are the CPU paths of the public functions (delays.c, records.c) and the
 * one-thread verify of a chunk (verify.c). */
#include "collatz/collatz_backend.h"
#include "collatz/collatz_internal.h"

/* The unchecked twin of bulk_collatz_verify_chunk (no context: it runs on the calling thread
 * alone; the public functions have checked the arguments). */
static int cpu_verify_chunk(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                            bulk_u128 last, bulk_collatz_verify_result *out)
{
    (void)ctx;
    return bulk_cz_verify_chunk(e, first, last, out);
}

const struct bulk_collatz_backend bulk_collatz_cpu_backend = {
    .verify_chunk = cpu_verify_chunk,
    .delays = bulk_cz_cpu_delays,
    .delay_stats = bulk_cz_cpu_delay_stats,
    .records = bulk_cz_cpu_records,
    .last_stats = NULL, /* the CPU paths keep no statistics */
    .release = NULL,    /* nor state between calls */
    .verify_chunk_peaks = NULL, /* verify_chunk computes the peaks itself */
    .verify_chunk_glides = NULL, /* the CPU runs glide records on its own engine (records_fast.h) */
};
