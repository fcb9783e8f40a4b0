/* Path records from pre-drop peaks (peak.h, bulk_cz_path_records).
 *
 * Why pre-drop peaks suffice: n's trajectory first drops below n to some v < n, and the peak of
 * everything after that is v's peak. When v lies in the range (always once n >= 2 first, as the
 * value before the drop is >= n and halves into v >= n / 2), v's peak is at most the running
 * maximum of the smaller numbers, so n beats that maximum exactly when its pre-drop peak does.
 * With --above V the caller vouches that V bounds the peaks below first, and pre-drop peaks
 * decide everywhere.
 *
 * The range is cut into chunks (one sieve block each) that threads run in waves; a chunk lists
 * its numbers whose peak beats the threshold (the running maximum when its wave started) and
 * every earlier number of the chunk, and the lists are filtered in order against the running
 * maximum: a record of the range is always one of its chunk, so the result is exact for any
 * thread count. Inside a chunk, the rest of a block of 2^k numbers from the first number on
 * which the block's prefix bound (bulk_cz_prefix_bound) does not beat the chunk's threshold runs
 * only the sieve's survivors: every other number drops below itself within k halvings, so its
 * pre-drop peak lies inside the bound. The survivors start from their state after k halvings
 * and run the glide loop with a state limit (cold_hot: most never come near the threshold); only
 * the others are replayed exactly (bulk_cz_predrop_from), and those whose peak beats the block's
 * threshold are collected, ordered by n and filtered, since the stored sieve is not in the
 * order of n. Where the engine's bound still beats the threshold (from 1 the first 2^k numbers,
 * which have no sieve start; the first numbers of a chunk with a small threshold) a plain sieve
 * of 16 bits does the same with its far smaller bound, and the numbers it cannot take run one
 * by one.
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

#include "collatz/cpu/glide_fast.h"
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

/* A sieve of k bits: the s survivors n = 2^k nH + r[i] with their states 3^j[i] nH + c[i] after
 * k halvings (the engine's stored sieve, or the small one of records_path). */
struct psieve {
    int k, rows; /* rows: skip the rows n = 2, 4, 5, 8 mod 9 (convergence mode) */
    uint64_t s;
    const uint64_t *r, *c;
    const uint8_t *j;
};

/* The small sieve of SMALL_K bits: blocks where the engine's prefix bound still beats the
 * threshold (near 1, the first numbers of a window) run through it instead of one by one. */
#define SMALL_K 16

struct small_walk {
    uint64_t *r, *c;
    uint8_t *j;
    uint64_t n;
};

static void small_node(struct small_walk *w, int i, int j, uint64_t p, uint64_t c)
{
    if (i == SMALL_K) {
        w->r[w->n] = p;
        w->c[w->n] = c;
        w->j[w->n] = (uint8_t)j;
        w->n++;
        return;
    }
    for (int bit = 0; bit < 2; bit++) {
        int jj = j;
        uint64_t cc = c;
        if (!cz_sieve_child(i, &jj, &cc, bit)) small_node(w, i + 1, jj, p | ((uint64_t)bit << i), cc);
    }
}

/* The small sieve into *s (free s->r, s->c and s->j). */
static int small_sieve(struct psieve *s)
{
    const size_t cap = (size_t)1 << SMALL_K;
    struct small_walk w = { malloc(cap * sizeof *w.r), malloc(cap * sizeof *w.c), malloc(cap), 0 };
    *s = (struct psieve){ SMALL_K, 0, 0, w.r, w.c, w.j };
    if (!w.r || !w.c || !w.j) return BULK_ERR_NOMEM;
    small_node(&w, 0, 0, 0, 0);
    s->s = w.n;
    return BULK_OK;
}

struct pjob {
    const struct bulk_collatz_engine *e;
    struct psieve big, small; /* the engine's sieve (k = 0: none) and the small one */
    u128 first, lo, hi, size; /* the run's first; this wave's numbers; chunk size */
    u128 slow_end;            /* numbers below it take the whole trajectory's peak */
    bulk_collatz_wide t0;     /* the running maximum when the wave started */
    struct plist *lists;
};

static int by_n(const void *a, const void *b)
{
    const u128 x = to128(((const bulk_collatz_record *)a)->n), y = to128(((const bulk_collatz_record *)b)->n);
    return x < y ? -1 : x > y;
}

static inline int bitlen128(u128 v) { return v >> 64 ? 128 - __builtin_clzll((uint64_t)(v >> 64)) : 64 - __builtin_clzll((uint64_t)v | 1); }
static inline int ctz128(u128 v) { return (uint64_t)v ? __builtin_ctzll((uint64_t)v) : 64 + __builtin_ctzll((uint64_t)(v >> 64)); }

/* MX (vH + 1) <= tt: every value of the operation is at most the threshold tt */
static inline int op_cold(uint64_t mx, u128 vH, u128 tt)
{
    const u128 h = vH + 1, lo = (u128)(uint64_t)h * mx, hi = (u128)(uint64_t)(h >> 64) * mx;
    if (hi >> 64) return 0;
    const u128 p = lo + (hi << 64);
    return p >= lo && p <= tt;
}

/* n's trajectory from its state v (>= n, no earlier value above the threshold tt) up to its
 * first value below n, the glide loop of cz_glide_step (table operations while the dip table
 * shows no value below n inside them, then the exact run of halvings): 0 when no operation can
 * hold a value above tt (its start below vlim, or its bound MX[L] (vH + 1) at most tt; so the
 * pre-drop peak is at most tt, and no value leaves 128 bits), 1 as soon as one can (the caller
 * then computes the peak exactly). nbits = bitlen(n). */
static inline int cold_hot(const struct bulk_collatz_engine *e, u128 n, int nbits, u128 v, u128 vlim, u128 tt)
{
    const int d = e->d;
    const uint64_t mask = ((uint64_t)1 << d) - 1;
    const uint64_t *B = e->B, *C = e->C, *MB = e->MB;
    for (;;) {
        const uint64_t L = (uint64_t)v & mask;
        const u128 vH = v >> d;
        /* at vlim or above, the operation's own bound MX[L] (vH + 1) decides */
        if (__builtin_expect(v >= vlim, 0) && !op_cold(e->MX[L], vH, tt)) return 1;
        if (vH >= n || (u128)MB[L] * vH >= n) {
            v = (u128)B[L] * vH + C[L];
            continue;
        }
        if (v & 1) v = 3 * v + 1;
        const int tz = ctz128(v), delta = bitlen128(v) - nbits;
        const int sstar = delta == 0 ? 1 : ((v >> delta) < n ? delta : delta + 1);
        if (sstar <= tz) return 0;
        v >>= tz;
    }
}

/* The numbers base + r, r0 <= r <= r1, of the block base = 2^k nH (nH >= 1) through the sieve's
 * survivors, when the prefix bound of the block's last number is at most *t: the records above
 * *t go to l in order of n and raise *t. c: the caller's scratch list of candidates. */
static int sieve_block(const struct pjob *j, const struct psieve *sv, u128 nH, uint64_t r0, uint64_t r1,
                       bulk_collatz_wide *t, struct plist *l, struct plist *c)
{
    const struct bulk_collatz_engine *e = j->e;
    /* below vlim (peak.h) the cold loop needs no test against tt, nor one for overflow */
    const u128 base = nH << sv->k, tt = cz_wide_sat128(t), vlim = cz_state_limit(e, tt);
    const int nbits = bitlen128(base), fast = (nH >> 64) == 0 && cz_fast_usable(e, base);
    /* convergence mode: rows n = 2, 4, 5, 8 mod 9 lie on the trajectory of a smaller number */
    const unsigned b9 = (unsigned)(((uint64_t)base % 9 + (uint64_t)(base >> 64) % 9 * 7) % 9);
    const int part = r0 != 0 || r1 != ((uint64_t)1 << sv->k) - 1;
    const uint64_t *Sr = sv->r, *Sc = sv->c;
    const uint8_t *Sj = sv->j;
    /* skip: bit r mod 9 set for the rows left out; the entries kept are listed per tile of
     * TILE without a branch (the skipped rows are 4 of 9, in no pattern a predictor learns) */
    unsigned skip = 0;
    for (unsigned q = 0; q < 9 && sv->rows; q++) skip |= (unsigned)cz_conv_row_skip((b9 + q) % 9) << q;
    enum { TILE = 256 };
    uint32_t keep[TILE];
    int st = BULK_OK;
    c->n = 0;
    for (uint64_t x0 = 0; x0 < sv->s && st == BULK_OK; x0 += TILE) {
        const uint64_t xe = sv->s - x0 < TILE ? sv->s : x0 + TILE;
        unsigned m = 0;
        for (uint64_t x = x0; x < xe; x++) {
            const uint64_t r = Sr[x];
            keep[m] = (uint32_t)(x - x0);
            const unsigned in = part ? (r >= r0) & (r <= r1) : 1;
            m += in & ~(skip >> (r % 9)) & 1u;
        }
        for (unsigned i = 0; i < m && st == BULK_OK; i++) {
            const uint64_t x = x0 + keep[i], r = Sr[x];
            const u128 n = base | r;
            cz_u128 v;
            bulk_collatz_wide pk;
            int hit;
            if (cz_sieve_start(&v, from128(nH), bulk_cz_pow3[Sj[x]], Sc[x])) {
                /* near 2^64 and beyond verify's glide kernel (glide_fast.h) first; the rare hot
                 * numbers and those it hands back go through the cold loop's finer test */
                int hot = 0;
                if (fast && cz_fast_glide_pk(e, to128(v), n, 0, vlim, &hot) >= 0 && !hot) continue;
                if (!cold_hot(e, n, nbits, to128(v), vlim, tt)) continue;
                hit = bulk_cz_predrop_from(e, n, to128(v), t, &pk);
            } else {
                hit = bulk_cz_predrop(e, n, t, &pk); /* the state leaves 128 bits: from n itself */
            }
            if (hit < 0) st = hit;
            else if (hit) st = push(c, n, &pk);
        }
    }
    if (st == BULK_OK && c->n) {
        qsort(c->r, c->n, sizeof *c->r, by_n);
        for (size_t i = 0; i < c->n && st == BULK_OK; i++) {
            if (cz_wide_cmp(&c->r[i].value, t) <= 0) continue;
            *t = c->r[i].value;
            st = push(l, to128(c->r[i].n), t);
        }
    }
    return st;
}

static void path_chunk(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct pjob *j = arg;
    const struct bulk_collatz_engine *e = j->e;
    const struct psieve *sieves[2] = { &j->big, &j->small };
    struct plist cand = { NULL, 0, 0, BULK_OK };
    for (size_t ci = begin; ci < end; ci++) {
        struct plist *l = &j->lists[ci];
        u128 x = j->lo + (u128)ci * j->size, hi = x + j->size - 1;
        if (hi > j->hi || hi < x) hi = j->hi;
        bulk_collatz_wide t = j->t0, pk;
        for (;;) {
            int st = BULK_OK, done = 0;
            /* the rest of x's block (up to hi) through a sieve once no number of it that the
             * sieve drops can beat t (the numbers of the block below x were done before): the
             * engine's sieve, else the small one, else x alone */
            for (int si = 0; si < 2 && !done && x >= j->slow_end; si++) {
                const struct psieve *sv = sieves[si];
                const u128 blk = (u128)1 << sv->k, b = x & ~(blk - 1);
                const u128 last = b + (blk - 1) < hi ? b + (blk - 1) : hi;
                if (sv->k > 0 && b >= blk && cz_wide_le128(bulk_cz_prefix_bound(sv->k, last), &t)) {
                    st = sieve_block(j, sv, b >> sv->k, (uint64_t)(x - b), (uint64_t)(last - b), &t, l, &cand);
                    x = last;
                    done = 1;
                }
            }
            if (!done) {
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
    free(cand.r);
}

int bulk_cz_path_records(bulk_ctx *ctx, const struct bulk_collatz_engine *e, bulk_u128 first,
                         bulk_u128 from, bulk_u128 to, const bulk_collatz_wide *best, int above,
                         bulk_collatz_record **recs, size_t *count, bulk_progress_run *pr,
                         double done0)
{
    *recs = NULL;
    *count = 0;
    const u128 f = to128(first), lo = to128(from), hi = to128(to), len = hi - lo + 1;
    /* chunks: one sieve block each (at least 2^22 numbers), 8 per thread and wave (the piece of
     * bulk_collatz_records_run), so that a wave's last chunk leaves the other threads idle
     * for at most one block */
    const int kb = e->Sr ? e->k : 0;
    const u128 size = (u128)1 << (kb > 22 ? kb : 22);
    const u128 nch = len == 0 ? ((u128)1 << 100) : (len + size - 1) / size;
    const int threads = bulk_ctx_threads(ctx);
    const size_t wave = (size_t)threads * 8;
    struct plist *lists = calloc(wave, sizeof *lists);
    struct plist out = { NULL, 0, 0, BULK_OK };
    if (!lists) return BULK_ERR_NOMEM;
    bulk_collatz_wide t;
    memset(&t, 0, sizeof t);
    if (best) t = *best;
    struct pjob j = { .e = e, .first = f, .hi = hi, .size = size, .lists = lists };
    j.slow_end = above ? 0 : (f >> 127) ? ~(u128)0 : 2 * f;
    /* a convergence-mode sieve also drops numbers proved by a smaller one, which may lie below
     * first: valid only when first = 1 or the above value bounds those; so are the rows */
    const int conv_ok = e->conv && (above || f == 1);
    if (e->Sr && (!e->conv || conv_ok)) j.big = (struct psieve){ e->k, conv_ok, e->s_k, e->Sr, e->Sc, e->Sj };
    int st = small_sieve(&j.small);
    j.small.rows = conv_ok;
    for (u128 c0 = 0; c0 < nch && st == BULK_OK; c0 += wave) {
        const size_t m = (size_t)(nch - c0 < wave ? nch - c0 : wave);
        j.lo = lo + c0 * size;
        j.t0 = t;
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
    free((void *)j.small.r);
    free((void *)j.small.c);
    free((void *)j.small.j);
    if (st != BULK_OK) {
        free(out.r);
        return st;
    }
    *recs = out.r;
    *count = out.n;
    return BULK_OK;
}
