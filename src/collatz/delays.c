/* Delays of consecutive numbers (seed 004 Algorithm 2) and their batch statistics (seed 003),
 * on the context's threads. Per-index outputs and per-batch reductions: thread-count free. */
#include "collatz/collatz_internal.h"
#include "common/parallel.h"

/* delay(n), n >= 1: table A below 2^a, tables B, C, J above, the exact path on overflow.
 * Returns the delay, or a negative status. */
static inline int64_t delay_of(const bulk_collatz_engine *e, cz_u128 n)
{
    if (n.hi == 0 && (n.lo >> e->a) == 0) return e->A[n.lo];
    int64_t dl = cz_delay(n, e->d, e->a, e->B, e->C, e->J, e->A);
    if (dl >= 0) return dl;
    uint64_t w[2] = { n.lo, n.hi }, exact = 0;
    int st = bulk_cz_exact(w, 2, 0, &exact, NULL, NULL, 0, NULL);
    return st == BULK_OK ? (int64_t)exact : st;
}

int64_t bulk_cz_delay_of(const bulk_collatz_engine *e, cz_u128 n) { return delay_of(e, n); }

struct djob {
    const bulk_collatz_engine *e;
    cz_u128 first;
    uint64_t batch;
    uint32_t *out;
    uint64_t *sum;
    uint32_t *min, *max;
    int status; /* written only on failure; every failure is the same kind */
};

static void delays_range(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct djob *j = arg;
    for (size_t i = begin; i < end; i++) {
        int64_t dl = delay_of(j->e, cz_add64(j->first, i));
        if (dl < 0 || dl > UINT32_MAX) {
            j->status = dl < 0 ? (int)dl : BULK_ERR_OVERFLOW;
            dl = 0;
        }
        j->out[i] = (uint32_t)dl;
    }
}

static int check_range(const bulk_collatz_engine *e, bulk_u128 first, uint64_t count)
{
    if (!e || e->a == 0 || cz_is_zero(first)) return BULK_ERR_ARG;
    /* first + count - 1 must not pass 2^128 - 1 */
    cz_u128 lastv = cz_add64(first, count ? count - 1 : 0);
    if (cz_lt(lastv, first)) return BULK_ERR_ARG;
    return BULK_OK;
}

int bulk_collatz_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                        uint64_t count, uint32_t *out)
{
    if (!ctx || (!out && count)) return BULK_ERR_ARG;
    int st = check_range(e, first, count);
    if (st) return st;
    struct djob j = { e, first, 0, out, NULL, NULL, NULL, BULK_OK };
    bulk_parallel_for(bulk_ctx_threads(ctx), count, 4096, delays_range, &j);
    return j.status;
}

static void stats_range(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct djob *j = arg;
    for (size_t b = begin; b < end; b++) {
        cz_u128 n = cz_add(j->first, cz_make((uint64_t)b * j->batch,
                                             (uint64_t)(((unsigned __int128)b * j->batch) >> 64)));
        uint64_t sum = 0;
        uint32_t mn = UINT32_MAX, mx = 0;
        for (uint64_t i = 0; i < j->batch; i++, n = cz_add64(n, 1)) {
            int64_t dl = delay_of(j->e, n);
            if (dl < 0 || dl > UINT32_MAX) {
                j->status = dl < 0 ? (int)dl : BULK_ERR_OVERFLOW;
                dl = 0;
            }
            sum += (uint64_t)dl;
            if ((uint32_t)dl < mn) mn = (uint32_t)dl;
            if ((uint32_t)dl > mx) mx = (uint32_t)dl;
        }
        j->sum[b] = sum;
        j->min[b] = mn;
        j->max[b] = mx;
    }
}

int bulk_collatz_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                             uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                             uint32_t *max)
{
    if (!ctx || batch == 0 || (nbatches && (!sum || !min || !max))) return BULK_ERR_ARG;
    unsigned __int128 count = (unsigned __int128)batch * nbatches;
    if (count >> 64) return BULK_ERR_ARG;
    int st = check_range(e, first, (uint64_t)count);
    if (st) return st;
    struct djob j = { e, first, batch, NULL, sum, min, max, BULK_OK };
    bulk_parallel_for(bulk_ctx_threads(ctx), nbatches, 1, stats_range, &j);
    return j.status;
}
