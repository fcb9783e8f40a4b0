/* Path records from pre-drop peaks (peak.h, bulk_cz_path_records).
 *
 * Why pre-drop peaks suffice: n's trajectory first drops below n to some v < n, and the peak of
 * everything after that is v's peak. When v lies in the range (always once n >= 2 first, as the
 * value before the drop is >= n and halves into v >= n / 2), v's peak is at most the running
 * maximum of the smaller numbers, so n beats that maximum exactly when its pre-drop peak does.
 * With --above V the caller vouches that V bounds the peaks below first, and pre-drop peaks
 * decide everywhere.
 *
 * The range is cut into chunks that threads run in waves; a chunk lists its numbers whose peak
 * beats the threshold (the running maximum when its wave started) and every earlier number of
 * the chunk, and the lists are filtered in order against the running maximum: a record of the
 * range is always one of its chunk, so the result is exact for any thread count. Inside a
 * chunk, an aligned block of 2^k numbers whose prefix bound (bulk_cz_prefix_bound) does not beat
 * the chunk's threshold runs only the sieve's survivors: every other number drops below itself
 * within k halvings, so its pre-drop peak lies inside the bound. The survivors start from their
 * state after k halvings; those whose peak beats the block's threshold are collected, ordered by
 * n and filtered, since the stored sieve is not in the order of n.
 *
 * An engine in convergence mode (bulk_collatz_engine_set_converge) iterates about 3x fewer
 * survivors: it also leaves out the numbers whose trajectory joins that of a smaller number A
 * within the sieve's k halvings (or passes through n from A, the rows n = 2, 4, 5, 8 mod 9).
 * Their values before the join lie inside the prefix bound, and those after it are A's, at most
 * A's peak: at most the running maximum when A is in the range (by induction over the range) or
 * below first with --above V bounding the peaks there. So that sieve is used only with --above
 * or first = 1; otherwise such an engine runs every number on its own (correct, slower). */
#include <stdlib.h>
#include <string.h>

#include "collatz/peak.h"
#include "common/parallel.h"

static inline u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static inline bulk_u128 from128(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

struct plist {
    bulk_collatz_record *r;
    size_t n, cap;
    int status;
};

static int push(struct plist *l, u128 n, const bulk_collatz_wide *v)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 16;
        bulk_collatz_record *p = realloc(l->r, nc * sizeof *p);
        if (!p) return BULK_ERR_NOMEM;
        l->r = p;
        l->cap = nc;
    }
    l->r[l->n].n = from128(n);
    l->r[l->n].value = *v;
    l->n++;
    return BULK_OK;
}

struct pjob {
    const struct bulk_collatz_engine *e;
    u128 first, lo, hi, size; /* the run's first; this wave's numbers; chunk size */
    u128 slow_end;            /* numbers below it take the whole trajectory's peak */
    bulk_collatz_wide t0;     /* the running maximum when the wave started */
    int conv_ok;              /* a convergence-mode sieve may be used */
    struct plist *lists;
};

static int by_n(const void *a, const void *b)
{
    const u128 x = to128(((const bulk_collatz_record *)a)->n), y = to128(((const bulk_collatz_record *)b)->n);
    return x < y ? -1 : x > y;
}

/* One block n = 2^k nH + r through the sieve's survivors; the block's records above *t go to l
 * in order of n and raise *t. */
static int sieve_block(const struct bulk_collatz_engine *e, u128 nH, bulk_collatz_wide *t, struct plist *l)
{
    struct plist c = { NULL, 0, 0, BULK_OK };
    const u128 base = nH << e->k;
    /* convergence mode: rows n = 2, 4, 5, 8 mod 9 lie on the trajectory of a smaller number */
    const unsigned b9 = (unsigned)(((uint64_t)base % 9 + (uint64_t)(base >> 64) % 9 * 7) % 9);
    int st = BULK_OK;
    for (uint64_t x = 0; x < e->s_k && st == BULK_OK; x++) {
        if (e->conv && cz_conv_row_skip((b9 + (unsigned)(e->Sr[x] % 9)) % 9)) continue;
        const u128 n = base | e->Sr[x];
        cz_u128 v;
        bulk_collatz_wide pk;
        int r;
        if (cz_sieve_start(&v, from128(nH), bulk_cz_pow3[e->Sj[x]], e->Sc[x]))
            r = bulk_cz_predrop_from(e, n, to128(v), t, &pk);
        else
            r = bulk_cz_predrop(e, n, t, &pk); /* the state leaves 128 bits: from n itself */
        if (r < 0) st = r;
        else if (r) st = push(&c, n, &pk);
    }
    if (st == BULK_OK && c.n) {
        qsort(c.r, c.n, sizeof *c.r, by_n);
        for (size_t i = 0; i < c.n && st == BULK_OK; i++) {
            if (cz_wide_cmp(&c.r[i].value, t) <= 0) continue;
            *t = c.r[i].value;
            st = push(l, to128(c.r[i].n), t);
        }
    }
    free(c.r);
    return st;
}

static void path_chunk(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct pjob *j = arg;
    const struct bulk_collatz_engine *e = j->e;
    /* a convergence-mode sieve also drops numbers proved by a smaller one, which may lie below
     * first: valid only when first = 1 or *above bounds those (pjob.conv_ok) */
    const int k = e->Sr && (!e->conv || j->conv_ok) ? e->k : 0;
    for (size_t ci = begin; ci < end; ci++) {
        struct plist *l = &j->lists[ci];
        u128 x = j->lo + (u128)ci * j->size, hi = x + j->size - 1;
        if (hi > j->hi || hi < x) hi = j->hi;
        bulk_collatz_wide t = j->t0, pk;
        for (;;) {
            int st = BULK_OK;
            const u128 blk = (u128)1 << k;
            if (k > 0 && x >= j->slow_end && x >= blk && (x & (blk - 1)) == 0 && hi - x >= blk - 1 &&
                cz_wide_le128(bulk_cz_prefix_bound(k, x + blk - 1), &t)) {
                st = sieve_block(e, x >> k, &t, l);
                x += blk - 1;
            } else {
                int r;
                if (x < j->slow_end) {
                    r = bulk_cz_peak_wide(e, x, &pk);
                    if (r == BULK_OK) r = cz_wide_cmp(&pk, &t) > 0;
                } else {
                    r = bulk_cz_predrop(e, x, &t, &pk);
                }
                if (r < 0) st = r;
                else if (r) {
                    t = pk;
                    st = push(l, x, &pk);
                }
            }
            if (st != BULK_OK) {
                l->status = st;
                break;
            }
            if (x == hi) break;
            x++;
        }
    }
}

int bulk_cz_path_records(bulk_ctx *ctx, const struct bulk_collatz_engine *e, bulk_u128 first,
                         bulk_u128 from, bulk_u128 to, const bulk_collatz_wide *best, int above,
                         bulk_collatz_record **recs, size_t *count, bulk_progress_run *pr,
                         double done0)
{
    *recs = NULL;
    *count = 0;
    const u128 f = to128(first), lo = to128(from), hi = to128(to), len = hi - lo + 1;
    /* chunks: a few sieve blocks each, so that most of a chunk runs at its threshold */
    const int kb = e->Sr ? e->k : 0;
    const u128 size = (u128)1 << (kb + 2 > 22 ? kb + 2 : 22);
    const u128 nch = len == 0 ? ((u128)1 << 100) : (len + size - 1) / size;
    const int threads = bulk_ctx_threads(ctx);
    const size_t wave = (size_t)threads * 2;
    struct plist *lists = calloc(wave, sizeof *lists);
    struct plist out = { NULL, 0, 0, BULK_OK };
    if (!lists) return BULK_ERR_NOMEM;
    bulk_collatz_wide t;
    memset(&t, 0, sizeof t);
    if (best) t = *best;
    const u128 slow_end = above ? 0 : (f >> 127) ? ~(u128)0 : 2 * f;
    int st = BULK_OK;
    for (u128 c0 = 0; c0 < nch && st == BULK_OK; c0 += wave) {
        const size_t m = (size_t)(nch - c0 < wave ? nch - c0 : wave);
        struct pjob j = { e, f, lo + c0 * size, hi, size, slow_end, t, above || f == 1, lists };
        memset(lists, 0, m * sizeof *lists);
        bulk_parallel_for(threads, m, 1, path_chunk, &j);
        for (size_t c = 0; c < m; c++) {
            if (lists[c].status && st == BULK_OK) st = lists[c].status;
            for (size_t i = 0; i < lists[c].n && st == BULK_OK; i++) {
                if (cz_wide_cmp(&lists[c].r[i].value, &t) <= 0) continue;
                t = lists[c].r[i].value;
                st = push(&out, to128(lists[c].r[i].n), &t);
            }
            free(lists[c].r);
        }
        const u128 done = (c0 + m) * size;
        if (st == BULK_OK && pr && bulk_progress_step(pr, done0 + (double)(done < len ? done : len), 0) != BULK_OK)
            st = BULK_ERR_CANCELLED;
    }
    free(lists);
    if (st != BULK_OK) {
        free(out.r);
        return st;
    }
    *recs = out.r;
    *count = out.n;
    return BULK_OK;
}
