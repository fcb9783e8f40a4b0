/* The fast CPU engines of glide and delay records (records_glide.c, records_delay.c): the entries
 * that the CPU records driver (records.c) hands those kinds to. Same contract as
 * bulk_cz_cpu_records (collatz_backend.h): the records of [first, last] relative to `first` (a
 * value that beats every smaller n of the range; of equal values the smallest n), in increasing
 * n; *recs malloc'ed (free() it) or NULL with *count = 0; progress to pr (when not NULL) as
 * done0 + numbers done; arguments checked by the caller. The lists equal those of the per-number
 * path (bulk_cz_glide_of, bulk_cz_delay_of and a running maximum) for every thread count. */
#ifndef BULK_COLLATZ_RECORDS_FAST_H
#define BULK_COLLATZ_RECORDS_FAST_H

#include <stddef.h>
#include <stdlib.h>

#include "backend/report.h"
#include "bulk/collatz.h"
#include "common/u128.h"

/* A records list being built and the running maximum of its range (delays and glides fit one
 * word). */
struct cz_rlist {
    bulk_collatz_record *recs;
    size_t n, cap;
    int have;
    uint64_t best;
};

/* Appends (n, v) as the next record and makes v the running maximum; BULK_ERR_NOMEM. */
static inline int cz_rlist_push(struct cz_rlist *l, u128 n, uint64_t v)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        bulk_collatz_record *r = realloc(l->recs, nc * sizeof *r);
        if (!r) return BULK_ERR_NOMEM;
        l->recs = r;
        l->cap = nc;
    }
    l->recs[l->n++] = (bulk_collatz_record){ { (uint64_t)n, (uint64_t)(n >> 64) }, { { v, 0, 0, 0 } } };
    l->best = v;
    l->have = 1;
    return BULK_OK;
}

/* Glide records: 1 is never one (glide(1) is undefined). Any engine (the sieve is the module's
 * own, built once per process). */
int bulk_cz_records_glide(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                          bulk_u128 last, bulk_collatz_record **recs, size_t *count,
                          bulk_progress_run *pr, double done0);
/* Delay records (engine with a > 0). origin <= first: the first number of the run this slice
 * belongs to; a class is excluded when a predecessor from origin on has a larger delay, so with
 * origin < first the list holds every record of [origin, last] in the slice, maybe not every
 * record of the slice alone (bulk_collatz_records_part_run). */
int bulk_cz_records_delay(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 origin, bulk_u128 first,
                          bulk_u128 last, bulk_collatz_record **recs, size_t *count,
                          bulk_progress_run *pr, double done0);

/* D[q] = delay(2^M nH + r) for every class q = list[i], i < nlist, and any member r of it, for
 * 1 <= nH < 2^64 (delays.c, the one-word class loop of `delays`); 0 or a negative status. */
int bulk_cz_delays_classes(const bulk_collatz_engine *e, uint64_t nH, uint32_t *D, const uint32_t *list,
                           uint32_t nlist);

#endif
