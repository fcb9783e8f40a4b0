/* Path and glide records on a CUDA context, from the GPU verify (collatz_backend.h:
 * verify_chunk_peaks and verify_chunk_glides), for the slices of a records run (runs.c) that
 * start with a running maximum.
 *
 * Path records. From 2 origin on (everywhere with --above) n is a record exactly when its
 * pre-drop peak beats the running maximum `best` and every smaller n of the slice
 * (records_path.c). That is the hit list of a verify with peaks whose floor is best and whose
 * above value is 0 (hits above max(0, best)); the GPU verify finds it at its own rate, in
 * convergence mode too where that is valid (the convergence-mode rule of records_path.c: with
 * --above or from 1). Each hit is then checked on the CPU: its pre-drop peak again, from n
 * itself (bulk_cz_predrop).
 *
 * Glide records. n is a record exactly when its glide beats best (the maximum before the slice)
 * and every smaller n of the slice. The full-glide verify lists every n whose glide exceeds a
 * floor (verify_chunk_glides: the kernels send those numbers to the host, which finishes them
 * exactly); with the floor best, walking that list in order gives the records, at the verify's
 * rate wherever the list is short. The floor must exceed every glide that the sieve eliminates
 * (2 K), so the GPU takes a slice once best is that high; a list longer than HITS (a floor far
 * below the slice's glides) cuts the slice into PARTS parts searched in order, the floor rising
 * with each record. Slices of fewer than LEAF numbers run on the CPU engine of glide records. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_backend.h"
#include "collatz/peak.h"
#include "collatz/records_fast.h"

static inline u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static inline bulk_u128 from128(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

/* The glide search (see the top): at most HITS numbers listed per GPU call (2^22: some seconds
 * of the host's exact redo), else PARTS parts; ranges of fewer than LEAF numbers on the CPU
 * threads (2^28: about 20 ms on the 16 cores of a GPU host, a GPU call's fixed cost). */
#define HITS ((size_t)1 << 22)
#define PARTS 16
#define LEAF ((u128)1 << 28)

/* Path records go to the GPU where at most one number in 2^20 escapes to the host (below that,
 * near 1 with its small maxima, the host's share would outlast the CPU engine's run). */
#define MIN_ESCAPE 20.0

/* log2 of 1 / the fraction of numbers up to n that the GPU verify escapes to the host when the
 * maximum is t: a state reaches t / (MX bound of one table operation) with probability about
 * that over t (cg_verify.cu escape_ratio: the walk of log v drifts down, its excursions above y
 * fall off as 1/y), and the host finishes each escape on one thread. */
static double escape_log2(const bulk_collatz_engine *e, const bulk_collatz_wide *t, u128 n)
{
    double lt = 0;
    for (int i = BULK_COLLATZ_WIDE_LIMBS; i-- > 0;)
        if (t->limb[i]) {
            lt = 64.0 * i + log2((double)t->limb[i]);
            break;
        }
    return lt - log2((double)n) + e->d - log2((double)e->MXmax);
}

int bulk_cz_records_gpu_takes(const bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                              bulk_u128 origin, bulk_u128 from, const bulk_collatz_wide *best, int above)
{
    if (!ctx->gpu || !e->Sr || !best) return 0;
    const u128 f = to128(from), o = to128(origin);
    if (kind == BULK_COLLATZ_PATH) {
        static const bulk_collatz_wide zero;
        if (!ctx->gpu->collatz->verify_chunk_peaks || cz_wide_cmp(best, &zero) == 0) return 0;
        /* pre-drop peaks decide (from 2 origin on, or everywhere with above); a
         * convergence-mode engine only where its sieve is valid */
        if (!above && (o >> 127 || f < 2 * o)) return 0;
        if (e->conv && !above && o != 1) return 0;
        /* the slice's numbers (up to the end of its wave) escape at most once in 2^MIN_ESCAPE
         * (else the CPU engine is faster: near 1, where the maximum is small against n) */
        const int w = bulk_cz_gpu_wave_shift(e);
        const u128 end = w < 127 && (f >> w) < ((u128)1 << (127 - w)) ? ((f >> w) + 1) << w : ~(u128)0;
        return escape_log2(e, best, end) >= MIN_ESCAPE;
    }
    /* glides: the full-glide mode, a maximum above every glide the sieve eliminates (at most
     * 2 K: K halvings and at most K odd steps) */
    return kind == BULK_COLLATZ_GLIDE && ctx->gpu->collatz->verify_chunk_glides && !e->conv &&
           best->limb[1] == 0 && best->limb[0] >= 2 * (uint64_t)(e->k + e->kx) && best->limb[0] < UINT32_MAX;
}

/* The path records of [from, to] above *best (see the top). */
static int path_records(bulk_ctx *ctx, const bulk_collatz_engine *e, u128 from, u128 to,
                        const bulk_collatz_wide *best, bulk_collatz_record **recs, size_t *count)
{
    /* the caller's engine with peaks and hits above 0 (set_peaks writes only the peak fields;
     * the tables stay shared and read-only, and verify takes none of the engine's locks) */
    bulk_collatz_engine pe = *e;
    static const bulk_collatz_wide zero;
    int st = bulk_collatz_engine_set_peaks(&pe, &zero);
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    if (!r) return BULK_ERR_NOMEM;
    if (st == BULK_OK) st = ctx->gpu->collatz->verify_chunk_peaks(ctx, &pe, from128(from), from128(to), best, NULL, r);
    /* every hit beats best: a record; more than the list holds cannot happen below 2^128 (there
     * are far fewer path records), but the list would then be incomplete */
    if (st == BULK_OK && r->peak_hits_lost) st = BULK_ERR_INTERNAL;
    bulk_collatz_record *out = NULL;
    if (st == BULK_OK && r->n_peak_hits && !(out = malloc(r->n_peak_hits * sizeof *out))) st = BULK_ERR_NOMEM;
    bulk_collatz_wide t = *best;
    for (uint32_t i = 0; st == BULK_OK && i < r->n_peak_hits; i++) {
        const bulk_collatz_record *h = &r->peak_hits[i];
        bulk_collatz_wide pk;
        int beats = bulk_cz_predrop(e, to128(h->n), &t, &pk);
        if (beats < 0) st = beats;
        else if (!beats || cz_wide_cmp(&pk, &h->value) != 0) st = BULK_ERR_INTERNAL; /* the GPU and the CPU differ */
        else {
            out[i] = *h;
            t = pk;
        }
    }
    if (st != BULK_OK) {
        free(out);
        free(r);
        return st;
    }
    *recs = out;
    *count = r->n_peak_hits;
    free(r);
    return BULK_OK;
}

/* The glide records of [a, b] above l->best into l (see the top). */
static int glide_search(bulk_ctx *ctx, const bulk_collatz_engine *e, u128 a, u128 b, struct cz_rlist *l)
{
    bulk_collatz_record *h = NULL;
    size_t m = 0;
    int st;
    if (b - a < LEAF) {
        st = bulk_cz_records_glide(ctx, e, from128(a), from128(b), &h, &m, NULL, 0);
    } else {
        bulk_collatz_verify_result *r = malloc(sizeof *r);
        if (!r) return BULK_ERR_NOMEM;
        /* (the entry refuses a floor of 2^32 - 1 or more itself) */
        st = ctx->gpu->collatz->verify_chunk_glides(ctx, e, from128(a), from128(b), l->best, HITS, &h, &m, r);
        free(r);
        if (st == BULK_ERR_OVERFLOW) {
            const u128 part = (b - a) / PARTS + 1;
            st = BULK_OK;
            for (u128 x = a; st == BULK_OK; x += part) {
                const u128 y = b - x < part ? b : x + part - 1;
                st = glide_search(ctx, e, x, y, l);
                if (y == b) break;
            }
            return st;
        }
    }
    /* ascending n: a record beats the maximum so far */
    for (size_t i = 0; st == BULK_OK && i < m; i++)
        if (h[i].value.limb[0] > l->best) st = cz_rlist_push(l, to128(h[i].n), h[i].value.limb[0]);
    free(h);
    return st;
}

int bulk_cz_records_gpu(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind, bulk_u128 from,
                        bulk_u128 to, const bulk_collatz_wide *best, bulk_collatz_record **recs, size_t *count)
{
    *recs = NULL;
    *count = 0;
    const u128 a = to128(from), b = to128(to);
    if (kind == BULK_COLLATZ_PATH) return path_records(ctx, e, a, b, best, recs, count);
    /* glides fit one word; the engine without peaks (the full-glide verify alone) */
    bulk_collatz_engine ge = *e;
    ge.peaks = ge.have_above = 0;
    struct cz_rlist l = { NULL, 0, 0, 1, best->limb[0] };
    int st = glide_search(ctx, &ge, a, b, &l);
    if (st != BULK_OK) {
        free(l.recs);
        return st;
    }
    *recs = l.recs;
    *count = l.n;
    return BULK_OK;
}
