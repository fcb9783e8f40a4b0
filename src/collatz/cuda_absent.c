/* The CUDA Collatz backend's entry points for a build without CUDA (the file's body is compiled
 * only then): every run reports BULK_ERR_NO_BACKEND (the options live on the context,
 * collatz/cuda_opts.c, in both builds). */
#ifndef BULK_HAVE_CUDA
#include <string.h>

#include "collatz/cuda/collatz_cuda.h"

void bulk_collatz_cuda_last_stats(bulk_collatz_cuda_stats *s) { memset(s, 0, sizeof *s); }

int bulk_collatz_cuda_verify_chunk(const bulk_collatz_engine *e, bulk_u128 first, bulk_u128 last,
                                   bulk_collatz_verify_result *out)
{
    (void)e;
    (void)first;
    (void)last;
    (void)out;
    return BULK_ERR_NO_BACKEND;
}

int bulk_collatz_cuda_delays(const bulk_collatz_engine *e, bulk_u128 first, uint64_t count,
                             uint32_t *out)
{
    (void)e;
    (void)first;
    (void)count;
    (void)out;
    return BULK_ERR_NO_BACKEND;
}

int bulk_collatz_cuda_delay_stats(const bulk_collatz_engine *e, bulk_u128 first, uint64_t batch,
                                  uint64_t nbatches, uint64_t *sum, uint32_t *min, uint32_t *max)
{
    (void)e;
    (void)first;
    (void)batch;
    (void)nbatches;
    (void)sum;
    (void)min;
    (void)max;
    return BULK_ERR_NO_BACKEND;
}

int bulk_collatz_cuda_records(const bulk_collatz_engine *e, bulk_collatz_kind kind,
                              bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs,
                              size_t *count)
{
    (void)e;
    (void)kind;
    (void)first;
    (void)last;
    (void)recs;
    (void)count;
    return BULK_ERR_NO_BACKEND;
}

void bulk_collatz_cuda_release(void) {}

#else
/* ISO C forbids an empty translation unit. */
typedef int bulk_collatz_cuda_absent_unused;
#endif
