/* Pre-drop peaks inside verify (peak.h, struct cz_peaks): the running maximum and its smallest
 * n, the hits above the engine's above value, the exact replays of the numbers whose states
 * came near the threshold, the prefix-bound check of each block, and the merge of results.
 *
 * Why a block's sieved numbers need no iteration: each drops below itself within L halvings, so
 * its pre-drop peak is below the prefix bound of L (bulk_cz_prefix_bound); when that bound could
 * beat the threshold the whole block is run again number by number (only where the maximum is
 * still small: the first blocks of a chunk near 1). The survivors' values up to their state
 * after L halvings are under the same bound. */
#include <stdlib.h>
#include <string.h>

#include "collatz/peak.h"

static inline u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static inline bulk_u128 from128(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

static void wide_dec(bulk_collatz_wide *w)
{
    for (int i = 0; i < BULK_COLLATZ_WIDE_LIMBS; i++)
        if (w->limb[i]--) return;
    memset(w, 0, sizeof *w); /* 0 - 1: keep 0 */
}

/* the largest peak of the numbers before the next one: r's maximum or the floor below it */
static bulk_collatz_wide max_so_far(const struct cz_peaks *p)
{
    return cz_wide_cmp(&p->floor, &p->r->peak) > 0 ? p->floor : p->r->peak;
}

/* t and vlim from the running maximum, bs and the above value */
static void limits(struct cz_peaks *p)
{
    const struct bulk_collatz_engine *e = p->e;
    bulk_collatz_wide t = max_so_far(p);
    if (cz_wide_cmp(&p->seed, &t) > 0) t = p->seed;
    wide_dec(&t);
    if (e->have_above) {
        const bulk_collatz_wide *h = cz_wide_cmp(&e->above, &p->bs) > 0 ? &e->above : &p->bs;
        if (cz_wide_cmp(h, &t) < 0) t = *h;
    }
    p->t = t;
    p->vlim = cz_state_limit(e, cz_wide_sat128(&t));
}

void bulk_cz_peaks_init(struct cz_peaks *p, const struct bulk_collatz_engine *e, bulk_collatz_verify_result *r)
{
    memset(p, 0, sizeof *p);
    p->e = e;
    p->r = r;
    p->vlim = ~(u128)0;
    if (e->peaks) limits(p);
}

void bulk_cz_peaks_init_floor(struct cz_peaks *p, const struct bulk_collatz_engine *e, bulk_collatz_verify_result *r,
                              const bulk_collatz_wide *floor, const bulk_collatz_wide *seed)
{
    bulk_cz_peaks_init(p, e, r);
    if (!e->peaks) return;
    /* the hits need more than every smaller number's peak, the floor among them */
    if (floor) p->floor = p->bs = *floor;
    if (seed) p->seed = *seed;
    limits(p);
}

void bulk_cz_peaks_free(struct cz_peaks *p)
{
    free(p->cand);
    p->cand = NULL;
}

void bulk_cz_peaks_block_begin(struct cz_peaks *p)
{
    if (!p->e->peaks) return;
    p->bs = max_so_far(p);
    p->ncand = 0;
    limits(p);
}

static void found(struct cz_peaks *p, u128 n, const bulk_collatz_wide *pk)
{
    bulk_collatz_verify_result *r = p->r;
    const int c = cz_wide_cmp(pk, &r->peak);
    if (cz_is_zero(r->peak_n) || c > 0 || (c == 0 && n < to128(r->peak_n))) {
        r->peak = *pk;
        r->peak_n = from128(n);
    }
    if (p->e->have_above && cz_wide_cmp(pk, &p->e->above) > 0 && cz_wide_cmp(pk, &p->bs) > 0) {
        if (p->ncand == p->capcand) {
            size_t nc = p->capcand ? 2 * p->capcand : 16;
            bulk_collatz_record *q = realloc(p->cand, nc * sizeof *q);
            if (!q) {
                p->status = BULK_ERR_NOMEM;
                return;
            }
            p->cand = q;
            p->capcand = nc;
        }
        p->cand[p->ncand].n = from128(n);
        p->cand[p->ncand].value = *pk;
        p->ncand++;
    }
    limits(p);
}

void bulk_cz_peaks_exact(struct cz_peaks *p, u128 n, u128 v0, int from_n)
{
    if (!p->e->peaks) return;
    bulk_collatz_wide pk;
    const int r = from_n ? bulk_cz_predrop(p->e, n, &p->t, &pk) : bulk_cz_predrop_from(p->e, n, v0, &p->t, &pk);
    if (r < 0) p->status = r;
    else if (r) found(p, n, &pk);
}

static int by_n(const void *a, const void *b)
{
    const u128 x = to128(((const bulk_collatz_record *)a)->n), y = to128(((const bulk_collatz_record *)b)->n);
    return x < y ? -1 : x > y;
}

/* Appends the strict prefix maxima of recs[0..n) (sorted by n, duplicates of one n allowed)
 * above *h to r's hits. */
static void add_hits(bulk_collatz_verify_result *r, bulk_collatz_record *recs, size_t n, bulk_collatz_wide h)
{
    for (size_t i = 0; i < n; i++) {
        if (cz_wide_cmp(&recs[i].value, &h) <= 0) continue;
        h = recs[i].value;
        if (r->n_peak_hits < BULK_COLLATZ_PEAK_KEEP) r->peak_hits[r->n_peak_hits++] = recs[i];
        else r->peak_hits_lost++;
    }
}

int bulk_cz_peaks_block_end(struct cz_peaks *p, u128 base, int L)
{
    const struct bulk_collatz_engine *e = p->e;
    if (!e->peaks || p->status) return p->status;
    const u128 last = base + (((u128)1 << L) - 1);
    if (L > 0 && !cz_wide_le128(bulk_cz_prefix_bound(L, last), &p->t)) {
        for (u128 n = base;; n++) {
            bulk_cz_peaks_exact(p, n, 0, 1);
            if (n == last || p->status) break;
        }
    } else if (L == 0) {
        bulk_cz_peaks_exact(p, base, 0, 1);
    }
    return bulk_cz_peaks_flush(p);
}

int bulk_cz_peaks_flush(struct cz_peaks *p)
{
    const struct bulk_collatz_engine *e = p->e;
    if (e->peaks && e->have_above && p->ncand) {
        qsort(p->cand, p->ncand, sizeof *p->cand, by_n);
        add_hits(p->r, p->cand, p->ncand, cz_wide_cmp(&e->above, &p->bs) > 0 ? e->above : p->bs);
    }
    p->ncand = 0;
    return p->status;
}

void bulk_cz_peaks_merge(bulk_collatz_verify_result *into, const bulk_collatz_verify_result *from)
{
    if (!cz_is_zero(from->peak_n)) {
        const int c = cz_wide_cmp(&from->peak, &into->peak);
        if (cz_is_zero(into->peak_n) || c > 0 || (c == 0 && cz_lt(from->peak_n, into->peak_n))) {
            into->peak = from->peak;
            into->peak_n = from->peak_n;
        }
    }
    if (!from->n_peak_hits && !from->peak_hits_lost) return;
    /* a hit stays when no smaller n of either part has a peak at least as large; the parts'
     * hits are their prefix maxima, so that is a prefix maximum of the union */
    bulk_collatz_record all[2 * BULK_COLLATZ_PEAK_KEEP];
    size_t n = 0;
    for (uint32_t i = 0; i < into->n_peak_hits; i++) all[n++] = into->peak_hits[i];
    for (uint32_t i = 0; i < from->n_peak_hits; i++) all[n++] = from->peak_hits[i];
    qsort(all, n, sizeof *all, by_n);
    const uint32_t lost = into->peak_hits_lost + from->peak_hits_lost;
    into->n_peak_hits = 0;
    into->peak_hits_lost = lost;
    bulk_collatz_wide zero;
    memset(&zero, 0, sizeof zero);
    add_hits(into, all, n, zero);
}

int bulk_collatz_engine_set_peaks(bulk_collatz_engine *e, const bulk_collatz_wide *above)
{
    if (!e) return bulk_fail(NULL, BULK_ERR_ARG, "bulk_collatz_engine_set_peaks: e: is NULL");
    e->peaks = 1;
    e->have_above = above != NULL;
    if (above) e->above = *above;
    else memset(&e->above, 0, sizeof e->above);
    return BULK_OK;
}
