/* Per-worker state of a job over instances on the context's threads (int_parallel.h), shared
 * by the wrappers that need scratch memory per instance (int_api_div.c, int_api_prime.c).
 *
 * Scratch: each worker allocates one area of scratch_limbs limbs on its first range and keeps
 * it for the call (indexed by the worker id, which bulk_parallel_for never gives to two
 * concurrent ranges), so the per-instance loops do not call malloc. A failed allocation leaves
 * that range's instances untouched and makes the call's result BULK_ERR_NOMEM.
 *
 * Failures: each worker keeps its lowest failing instance and that instance's status; the
 * job's result is the status of the lowest failing instance over all workers, the same
 * whatever the thread count. */
#ifndef BULK_INT_INT_WORKERS_H
#define BULK_INT_INT_WORKERS_H

#include <stdatomic.h>
#include <stddef.h>

#include "backend/context.h"
#include "bulk/int.h"

typedef struct bulk_int_workers {
    int threads;
    size_t scratch_limbs;
    bulk_limb_t **scratch; /* one area per worker (NULL until its first range) */
    size_t *first_bad;     /* per worker: lowest failing instance (SIZE_MAX: none) */
    int *first_code;       /* per worker: its status */
    atomic_int nomem;
} bulk_int_workers;

/* For the context's threads; BULK_OK or BULK_ERR_NOMEM (then free it all the same). */
int bulk_int_workers_init(bulk_int_workers *w, const bulk_ctx *ctx, size_t scratch_limbs);
/* The scratch area of `worker`, allocated on first use; NULL when that failed (recorded). */
bulk_limb_t *bulk_int_workers_scratch(bulk_int_workers *w, int worker);
/* Records that instance i, run by `worker`, failed with status st. */
static inline void bulk_int_workers_fail(bulk_int_workers *w, int worker, size_t i, int st)
{
    if (i < w->first_bad[worker]) {
        w->first_bad[worker] = i;
        w->first_code[worker] = st;
    }
}
/* After the run: BULK_ERR_NOMEM when a scratch allocation failed, else the status of the
 * lowest failing instance (written to *first) or BULK_OK (*first = SIZE_MAX). */
int bulk_int_workers_result(const bulk_int_workers *w, size_t *first);
void bulk_int_workers_free(bulk_int_workers *w);

#endif
