/* Delay records on the merge classes of `delays` (delays.c), with the exclusions below.
 *
 * In an aligned block n = 2^M nH + r (nH >= 1) the residues with equal state (j, c) after M
 * halvings form a class whose members all have the delay M + j + delay(3^j nH + c). Only the
 * smallest member of a class inside the range can be a record (the others tie with it, and of
 * equal delays the smallest n is the record), so a block is its classes in the order of their
 * smallest members, and a class is followed only when it is not excluded:
 *
 * Predecessors. When a number m > 1 reaches y (y on m's trajectory, y != m), delay(m) > delay(y).
 *  (A) y = 2 mod 3: m = (2y - 1) / 3 is odd and 3m + 1 = 2y, so m -> 2y -> y (m ~ 2y/3);
 *      y = 4 mod 9: m = (8y - 5) / 9 is odd, m -> 3m + 1 = 2 (4y - 1)/3 -> (4y - 1)/3 (odd)
 *      -> 4y -> 2y -> y (m ~ 8y/9).
 *  (B) y = 4 mod 6: m = (y - 1) / 3 is odd and 3m + 1 = y (m ~ y/3).
 * If any member y of a class (in the block, inside the range or not) has such an m with
 * origin <= m < s, s the class's smallest member in the range, then delay(s) = delay(y) < delay(m)
 * and no member of the class in the range is a record (origin: the range's first number, or
 * that of the run a slice [first, last] belongs to). m < s holds for every member when
 * nH >= 8: m <= (8/9) y + 1 <= (8/9)(2^M nH + 2^M) <= 2^M nH <= s. origin <= m holds when
 * (2/3) 2^M nH - 1 >= origin for (A) (m >= (2/3) y - 1/3), when 2^M nH / 3 - 1 >= origin for (B).
 * So ranges from 1 exclude from n = 2^(M+3) on; a window [F, L] with L < 1.5 F excludes nothing
 * (the predecessors lie below F, and a number of the window may well be a record of it). Which
 * members hit (A) or (B) depends on n mod 9 and the parity of r: per class, a 9-bit mask over
 * 2^M nH mod 9 says whether some member is hit; (A) leaves 29.2% of the classes for each of the
 * nine values (measured), and (B) removes none of those.
 *
 * Numbers below 2^M and parts of blocks at the ends: parts by the same classes, scanned from
 * their first residue (the smallest member inside the part); n < 2^M one by one. The blocks of a
 * wave run on the context's threads, then are read in order against the running maximum, so the
 * list equals the per-number path's for every thread count. Blocks with nH >= 2^64 follow their
 * classes one by one (two-word states, bulk_cz_delay_of; members one by one when the state
 * passes 2^128). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz/records_fast.h"
#include "common/parallel.h"

/* The class tables of M = BULK_CZ_MERGE_BITS bits depend on M only (delays.c builds them the
 * same way for every engine): the classes in the order of their smallest member, that member,
 * and the exclusion masks (bit o: some member r has (o + r) mod 9 in (A), or r even and
 * (o + r) mod 3 = 1 for (B)). Built once per process from the first engine's classes. */
static struct {
    int status; /* 1: not built */
    uint32_t ncls; /* of the classes they were built from */
    uint32_t *by_min, *smin;
    uint16_t *maskA, *maskB;
} dt = { 1, 0, NULL, NULL, NULL, NULL };
static pthread_mutex_t dt_lock = PTHREAD_MUTEX_INITIALIZER;

static int dt_build(const bulk_collatz_engine *e)
{
    const uint32_t size = 1u << e->M, nc = e->ncls;
    uint32_t *by_min = malloc(nc * sizeof *by_min), *smin = malloc(nc * sizeof *smin);
    uint16_t *mA = calloc(nc, sizeof *mA), *mB = calloc(nc, sizeof *mB);
    uint8_t *seen = calloc(nc, 1);
    if (!by_min || !smin || !mA || !mB || !seen) {
        free(by_min);
        free(smin);
        free(mA);
        free(mB);
        free(seen);
        return BULK_ERR_NOMEM;
    }
    uint32_t k = 0;
    for (uint32_t r = 0; r < size; r++) {
        const uint32_t q = e->cls[r];
        if (!seen[q]) {
            seen[q] = 1;
            by_min[k++] = q;
            smin[q] = r;
        }
        for (unsigned o = 0; o < 9; o++) {
            const unsigned t = (o + r % 9) % 9;
            if (t == 2 || t == 4 || t == 5 || t == 8) mA[q] |= (uint16_t)(1u << o);
            if (!(r & 1) && t % 3 == 1) mB[q] |= (uint16_t)(1u << o);
        }
    }
    free(seen);
    dt.ncls = nc;
    dt.by_min = by_min;
    dt.smin = smin;
    dt.maskA = mA;
    dt.maskB = mB;
    return BULK_OK;
}

static int dt_need(const bulk_collatz_engine *e)
{
    int st = bulk_cz_need_classes(e);
    if (st) return st;
    pthread_mutex_lock(&dt_lock);
    if (dt.status == 1) dt.status = dt_build(e);
    st = dt.status;
    pthread_mutex_unlock(&dt_lock);
    /* every engine has classes of BULK_CZ_MERGE_BITS bits, built the same way */
    return st == BULK_OK && dt.ncls != e->ncls ? BULK_ERR_INTERNAL : st;
}

/* A block (or the part [first, last] of one) of 2^M numbers from base = 2^M nH. */
struct dblock {
    u128 base, first, last;
    uint32_t n;     /* classes followed */
    uint32_t *list; /* them, in the order of their smallest member inside the part */
    uint32_t *rs;   /* that member's residue */
    uint32_t *D;    /* delays by class (ncls entries) */
    uint32_t max;   /* largest delay of the listed classes */
    int status;
};

struct djob {
    const bulk_collatz_engine *e;
    u128 origin; /* the run's first number: predecessors must not lie below it */
    struct dblock *b;
    uint8_t *seen; /* ncls bytes per worker, for parts */
};

static inline int excluded(uint32_t q, int useA, int useB, uint16_t bit)
{
    return (useA && (dt.maskA[q] & bit)) || (useB && (dt.maskB[q] & bit));
}

/* The classes of block b to follow, into b->list and b->rs. */
static void block_list(const bulk_collatz_engine *e, u128 origin, struct dblock *b, uint8_t *seen)
{
    const u128 nH = b->base >> e->M, size = (u128)1 << e->M;
    const uint16_t bit = (uint16_t)(1u << (unsigned)(b->base % 9));
    /* (A): (2/3) base - 1 >= origin; (B): base / 3 - 1 >= origin; both need nH >= 8 */
    const int useA = nH >= 8 && 2 * (b->base / 3) >= origin + 1;
    const int useB = nH >= 8 && b->base / 3 >= origin + 1;
    uint32_t n = 0;
    if (b->first == b->base && b->last == b->base + (size - 1)) {
        for (uint32_t i = 0; i < e->ncls; i++) {
            const uint32_t q = dt.by_min[i];
            if (excluded(q, useA, useB, bit)) continue;
            b->list[n] = q;
            b->rs[n++] = dt.smin[q];
        }
    } else {
        memset(seen, 0, e->ncls);
        const uint32_t r0 = (uint32_t)(b->first - b->base), r1 = (uint32_t)(b->last - b->base);
        for (uint32_t r = r0;; r++) {
            const uint32_t q = e->cls[r];
            if (!seen[q]) {
                seen[q] = 1;
                if (!excluded(q, useA, useB, bit)) {
                    b->list[n] = q;
                    b->rs[n++] = r;
                }
            }
            if (r == r1) break;
        }
    }
    b->n = n;
}

/* The delays of b's listed classes into b->D, and their maximum. */
static int block_delays(const bulk_collatz_engine *e, struct dblock *b)
{
    const u128 nH = b->base >> e->M;
    if ((nH >> 64) == 0) {
        int st = bulk_cz_delays_classes(e, (uint64_t)nH, b->D, b->list, b->n);
        if (st) return st;
    } else {
        const cz_u128 h = { (uint64_t)nH, (uint64_t)(nH >> 64) };
        for (uint32_t i = 0; i < b->n; i++) {
            const uint32_t q = b->list[i];
            cz_u128 v = { 0, 0 };
            int64_t dl, add = 0;
            if (cz_muladd(&v, bulk_cz_pow3[e->cls_j[q]], h, e->cls_c[q])) {
                add = e->M + e->cls_j[q];
            } else { /* the state passes 2^128: the member itself */
                const u128 n = b->base | b->rs[i];
                v = (cz_u128){ (uint64_t)n, (uint64_t)(n >> 64) };
            }
            dl = bulk_cz_delay_of(e, v);
            if (dl < 0) return (int)dl;
            if (dl + add >= UINT32_MAX) return BULK_ERR_OVERFLOW;
            b->D[q] = (uint32_t)(dl + add);
        }
    }
    uint32_t mx = 0;
    for (uint32_t i = 0; i < b->n; i++)
        if (b->D[b->list[i]] > mx) mx = b->D[b->list[i]];
    b->max = mx;
    return BULK_OK;
}

static void blocks_run(void *arg, size_t begin, size_t end, int worker)
{
    struct djob *j = arg;
    for (size_t i = begin; i < end; i++) {
        struct dblock *b = &j->b[i];
        block_list(j->e, j->origin, b, j->seen + (size_t)worker * j->e->ncls);
        b->status = block_delays(j->e, b);
    }
}

/* The list being built, and the running maximum of the range. */
/* Appends (n, v) when v beats the running maximum. */
static int push(struct cz_rlist *l, u128 n, uint64_t v)
{
    if (l->have && v <= l->best) return BULK_OK;
    return cz_rlist_push(l, n, v);
}

int bulk_cz_records_delay(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 origin, bulk_u128 first,
                          bulk_u128 last, bulk_collatz_record **recs, size_t *count,
                          bulk_progress_run *pr, double done0)
{
    *recs = NULL;
    *count = 0;
    int st = dt_need(e);
    if (st) return st;
    const int threads = bulk_ctx_threads(ctx);
    const size_t wave = (size_t)threads;
    const u128 lo = ((u128)first.hi << 64) | first.lo, end = ((u128)last.hi << 64) | last.lo;
    const u128 size = (u128)1 << e->M;
    struct cz_rlist l = { NULL, 0, 0, 0, 0 };
    u128 cur = lo;
    /* below 2^M one by one */
    for (; cur < size && cur <= end && st == BULK_OK; cur++) {
        int64_t dl = bulk_cz_delay_of(e, (cz_u128){ (uint64_t)cur, 0 });
        st = dl < 0 ? (int)dl : push(&l, cur, (uint64_t)dl);
    }
    int done = cur > end || (cur == 0 && end != 0) || st != BULK_OK;
    struct dblock *b = calloc(wave, sizeof *b);
    uint32_t *pool = malloc(wave * 3 * (size_t)e->ncls * sizeof *pool);
    uint8_t *seen = malloc((size_t)threads * e->ncls);
    if (!done && (!b || !pool || !seen)) st = BULK_ERR_NOMEM;
    while (!done && st == BULK_OK) {
        size_t m = 0;
        u128 upto = cur;
        while (m < wave && !done) {
            struct dblock *x = &b[m];
            memset(x, 0, sizeof *x);
            x->base = cur & ~(size - 1);
            x->first = cur;
            x->last = end - x->base < size ? end : x->base + (size - 1);
            x->list = pool + m * 3 * (size_t)e->ncls;
            x->rs = x->list + e->ncls;
            x->D = x->rs + e->ncls;
            m++;
            upto = x->last;
            done = upto == end;
            cur = upto + 1;
        }
        struct djob job = { e, ((u128)origin.hi << 64) | origin.lo, b, seen };
        bulk_parallel_for(threads, m, 1, blocks_run, &job);
        for (size_t i = 0; i < m && st == BULK_OK; i++) {
            st = b[i].status;
            if (st || (l.have && b[i].max <= l.best)) continue;
            for (uint32_t k = 0; k < b[i].n && st == BULK_OK; k++)
                st = push(&l, b[i].base | b[i].rs[k], b[i].D[b[i].list[k]]);
        }
        if (st == BULK_OK && pr && bulk_progress_step(pr, done0 + (double)(upto - lo) + 1.0, 0) != BULK_OK)
            st = BULK_ERR_CANCELLED;
    }
    free(b);
    free(pool);
    free(seen);
    if (st != BULK_OK) {
        free(l.recs);
        return st;
    }
    *recs = l.recs;
    *count = l.n;
    return BULK_OK;
}
