/* Delay, glide and path (peak) records of a range. The range is cut into chunks; each chunk
 * finds its own records (values beating every earlier value of the chunk) on one thread, and
 * the chunk lists are filtered in order against the running maximum: a record of the range is
 * always a record of its chunk, so the result is exact and independent of the thread count. */
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz/collatz_backend.h"
#include "collatz/records_fast.h"
#include "collatz/peak.h"
#include "common/parallel.h"


static inline u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static inline bulk_u128 from128(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

/* glide(n) (n >= 2) exactly; negative status on failure */
int bulk_cz_glide_of(const bulk_collatz_engine *e, cz_u128 n, u128 *out)
{
    int64_t g = cz_glide_from_mb(n, n, 0, e->d, e->B, e->C, e->J, e->MB);
    if (g < 0) {
        uint64_t eg;
        int st = bulk_cz_exact_glide128(n, &eg);
        if (st) return st;
        g = (int64_t)eg;
    }
    *out = (u128)g;
    return BULK_OK;
}

/* peak(n) exactly: table steps with the MX bound (collatz_core.h) down to 2^a, then table P.
 * A peak beyond 128 bits is reported as BULK_ERR_OVERFLOW. */
int bulk_cz_peak_of(const bulk_collatz_engine *e, cz_u128 n, u128 *out)
{
    cz_u128 v = n, pk = n;
    while (v.hi || (v.lo >> e->a)) {
        if (!cz_peak_step(&v, &pk, e->d, e->B, e->C, e->J, e->MX)) {
            uint64_t w[2] = { n.lo, n.hi }, p[2];
            int st = bulk_cz_exact(w, 2, 0, NULL, NULL, p, 2, NULL);
            if (st) return st;
            *out = ((u128)p[1] << 64) | p[0];
            return BULK_OK;
        }
    }
    u128 r = to128(pk);
    if (e->P[v.lo] > r) r = e->P[v.lo];
    *out = r;
    return BULK_OK;
}

struct rchunk {
    bulk_collatz_record *recs;
    size_t n, cap;
    int status;
};

struct rjob {
    const bulk_collatz_engine *e;
    bulk_collatz_kind kind;
    u128 first, last, size; /* chunk size */
    struct rchunk *chunks;
};

static void records_range(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct rjob *j = arg;
    for (size_t c = begin; c < end; c++) {
        struct rchunk *rc = &j->chunks[c];
        u128 lo = j->first + (u128)c * j->size, hi = lo + j->size - 1;
        if (hi > j->last || hi < lo) hi = j->last;
        u128 best = 0;
        int have = 0;
        for (u128 x = lo;; x++) {
            cz_u128 n = from128(x);
            u128 val = 0;
            int st = BULK_OK;
            if (j->kind == BULK_COLLATZ_DELAY) {
                int64_t dl = bulk_cz_delay_of(j->e, n);
                if (dl < 0) st = (int)dl;
                else val = (u128)dl;
            } else if (j->kind == BULK_COLLATZ_GLIDE) {
                if (x == 1) goto next; /* glide(1) is not defined: never a glide record */
                st = bulk_cz_glide_of(j->e, n, &val);
            } else {
                st = bulk_cz_peak_of(j->e, n, &val);
            }
            if (st) {
                rc->status = st;
                return;
            }
            if (!have || val > best) {
                if (rc->n == rc->cap) {
                    size_t nc = rc->cap ? 2 * rc->cap : 16;
                    bulk_collatz_record *r = realloc(rc->recs, nc * sizeof *r);
                    if (!r) {
                        rc->status = BULK_ERR_NOMEM;
                        return;
                    }
                    rc->recs = r;
                    rc->cap = nc;
                }
                rc->recs[rc->n++] = (bulk_collatz_record){ n, cz_wide_of128(val) };
                best = val;
                have = 1;
            }
        next:
            if (x == hi) break;
        }
    }
}

int bulk_cz_records(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                    bulk_u128 origin, bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs,
                    size_t *count, bulk_progress_run *pr, double done0)
{
    *recs = NULL;
    *count = 0;
    /* path records from pre-drop peaks on the CPU, every backend (records_path.c) */
    if (kind == BULK_COLLATZ_PATH)
        return bulk_cz_path_records(ctx, e, origin, first, last, NULL, 0, recs, count, pr, done0);
    /* delay records on a CUDA context: the GPU twin (glide and path records stay on the CPU);
     * it lists the records of [first, last] itself, which holds every record of the run */
    if (ctx->gpu && kind == BULK_COLLATZ_DELAY)
        return ctx->gpu->collatz->records(ctx, e, kind, first, last, recs, count, pr, done0);
    /* on the CPU with the run's origin for the exclusions (the CPU table's entry passes first) */
    if (kind == BULK_COLLATZ_DELAY)
        return bulk_cz_records_delay(ctx, e, origin, first, last, recs, count, pr, done0);
    return ctx->cpu->collatz->records(ctx, e, kind, first, last, recs, count, pr, done0);
}

int bulk_cz_cpu_records(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                        bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs,
                        size_t *count, bulk_progress_run *pr, double done0)
{
    /* glide and delay records: the sieve and merge-class engines (records_glide.c, records_delay.c) */
    if (kind == BULK_COLLATZ_GLIDE) return bulk_cz_records_glide(ctx, e, first, last, recs, count, pr, done0);
    if (kind == BULK_COLLATZ_DELAY) return bulk_cz_records_delay(ctx, e, first, first, last, recs, count, pr, done0);
    *recs = NULL;
    *count = 0;
    u128 lo = to128(first), hi = to128(last), len = hi - lo + 1;
    u128 size = (u128)1 << 20;
    u128 nch = len == 0 ? ((u128)1 << 108) : (len + size - 1) / size;
    int threads = bulk_ctx_threads(ctx);
    size_t wave = (size_t)threads * 16;
    struct rchunk *chunks = calloc(wave, sizeof *chunks);
    bulk_collatz_record *out = NULL;
    size_t n = 0, cap = 0;
    if (!chunks) return BULK_ERR_NOMEM;
    int st = BULK_OK, have = 0;
    u128 best = 0;
    for (u128 c0 = 0; c0 < nch && st == BULK_OK; c0 += wave) {
        size_t m = (size_t)(nch - c0 < wave ? nch - c0 : wave);
        struct rjob j = { e, kind, lo + c0 * size, hi, size, chunks };
        memset(chunks, 0, m * sizeof *chunks);
        bulk_parallel_for(threads, m, 1, records_range, &j);
        for (size_t c = 0; c < m; c++) {
            if (chunks[c].status) st = chunks[c].status;
            for (size_t i = 0; i < chunks[c].n && st == BULK_OK; i++) {
                const bulk_collatz_wide *w = &chunks[c].recs[i].value;
                u128 v = ((u128)w->limb[1] << 64) | w->limb[0]; /* delays and glides: 64 bits */
                if (have && v <= best) continue;
                if (n == cap) {
                    size_t nc = cap ? 2 * cap : 64;
                    bulk_collatz_record *r = realloc(out, nc * sizeof *r);
                    if (!r) {
                        st = BULK_ERR_NOMEM;
                        break;
                    }
                    out = r;
                    cap = nc;
                }
                out[n++] = chunks[c].recs[i];
                best = v;
                have = 1;
            }
            free(chunks[c].recs);
        }
        u128 done = (c0 + m) * size;
        if (st == BULK_OK && pr && bulk_progress_step(pr, done0 + (double)(done < len ? done : len), 0) != BULK_OK)
            st = BULK_ERR_CANCELLED;
    }
    free(chunks);
    if (st != BULK_OK) {
        free(out);
        return st;
    }
    *recs = out;
    *count = n;
    return BULK_OK;
}

int bulk_collatz_records(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                         bulk_u128 first, bulk_u128 last, bulk_collatz_record **recs,
                         size_t *count)
{
    static const char fn[] = "bulk_collatz_records";
    int st = bulk_cz_records_check(ctx, fn, e, kind, first, last);
    if (st) return st;
    if (!recs || !count) return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: is NULL", fn, !recs ? "recs" : "count");
    u128 len = to128(last) - to128(first) + 1;
    if (len == 0 || len > ((u128)1 << 60))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: last: the range is too long to enumerate (more than 2^60 numbers)", fn);
    *recs = NULL;
    *count = 0;
    bulk_progress_run pr;
    st = bulk_progress_start(&pr, ctx, "collatz.records", "numbers", (double)len);
    if (st == BULK_OK) st = bulk_cz_records(ctx, e, kind, first, first, last, recs, count, &pr, 0);
    if (st == BULK_OK) st = bulk_progress_end(&pr);
    if (st == BULK_OK) return st;
    free(*recs);
    *recs = NULL;
    *count = 0;
    if (st == BULK_ERR_CANCELLED) return bulk_fail(ctx, st, "%s: range: cancelled by the progress callback", fn);
    if (st == BULK_ERR_OVERFLOW) return bulk_fail(ctx, st, "%s: range: a peak passes 2^256", fn);
    return bulk_cz_fail_status(ctx, st, fn, "range");
}

int bulk_cz_records_check(const bulk_ctx *ctx, const char *fn, const bulk_collatz_engine *e,
                          bulk_collatz_kind kind, bulk_u128 first, bulk_u128 last)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", fn);
    if (!e) return bulk_fail(ctx, BULK_ERR_ARG, "%s: e: is NULL", fn);
    if (kind != BULK_COLLATZ_DELAY && kind != BULK_COLLATZ_GLIDE && kind != BULK_COLLATZ_PATH)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: kind %d: is not DELAY, GLIDE or PATH", fn, (int)kind);
    if (kind != BULK_COLLATZ_GLIDE && e->a == 0)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: e: delay and path records need the tables A and P (a > 0)", fn);
    if (cz_is_zero(first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: first: must be at least 1", fn);
    if (cz_lt(last, first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: last: is below first", fn);
    return BULK_OK;
}
