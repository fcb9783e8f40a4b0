/* Glide records on the sieve engine of full-glide verify (verify.c, sieve.c).
 *
 * The range is cut into pieces of aligned blocks n = 2^L nH + r (nH >= 1, L <= GK). In a block
 * the sieve of L bits splits the residues r:
 *  - an eliminated class (depth i <= L, 3^j' < 2^i after i halvings) has glide i + j' for every
 *    member (sieve.c), so every eliminated n of the block has glide at most
 *    E_L = L + jmax(L), jmax(L) = the largest j with 3^j < 2^L;
 *  - a mandatory residue has 3^j >= 2^L after L halvings and no value below n on the way, so
 *    its glide is at least L + j > E_L.
 * Hence once the running maximum of the range is at least E_L, no eliminated n of the block can
 * beat it (records need a strictly larger glide), and the block's records are among its
 * mandatory numbers, whose glides the block computes exactly from their sieve states (the fast
 * kernel, the reference path with the dip table, the exact path on overflow: verify's path).
 * Until the running maximum reaches E_L (only near the start of a range: the first mandatory
 * number already passes it) numbers are taken one by one with bulk_cz_glide_of.
 *
 * The blocks of a wave are computed on the context's threads (each block: the glides of its
 * mandatory residues in increasing r, and their maximum); then the blocks are scanned in order
 * against the running maximum: a block whose maximum does not beat it is skipped, else its
 * mandatory glides are read in order. The result is the per-number path's, for any thread count.
 *
 * From 2^GK every piece (a part of the range inside one aligned block of 2^PB, whatever its
 * alignment) uses the stored sieve of GK levels, from 2^PB that of PB levels; below 2^PB (nH >= 1
 * needs n >= 2^L) the range is cut into dyadic blocks whose sieves are walked. The stored sieves
 * are this module's own, sorted by residue and built once per process (the engine of `records`
 * carries none, and verify's stored order is the walk's, not numeric). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz/cpu/glide_fast.h"
#include "collatz/records_fast.h"
#include "common/parallel.h"

/* Sieve levels: 3524586 mandatory residues of 2^28 (1.31%; 13 bytes each, 46 MB, built once
 * per process) and, for 2^PB <= n < 2^GK, one of PB levels. Pieces hold at most 2^PB numbers (a
 * part of one aligned block of 2^PB), so that a records run's slices of 2^24 numbers per thread
 * (runs.c) split into pieces for every thread; below 2^PB dyadic blocks walk their sieves. */
#define GK 28
#define PB 24

/* A stored sieve of k levels sorted by residue: gs of GK levels for the pieces from 2^GK on,
 * gs_pb of PB levels for those from 2^PB to 2^GK. */
struct gsieve {
    int k;
    uint64_t s;
    uint32_t *r; /* mandatory residues, increasing */
    uint64_t *c; /* state after k halvings: 3^j nH + c */
    uint8_t *j;
    int status;
};
static struct gsieve gs = { GK, 0, NULL, NULL, NULL, 0 }, gs_pb = { PB, 0, NULL, NULL, NULL, 0 };
static pthread_once_t gs_once = PTHREAD_ONCE_INIT;

/* The mandatory residues of the sieve of L bits in walk order: key[n] = r << 22 | n (n < 2^22:
 * s_28 < 2^22), with their states when c, jv are not NULL; *n counted. key may be NULL. */
static void walk_residues(int L, int i, int j, uint64_t p, uint64_t c, uint64_t *key, uint64_t *cv,
                          uint8_t *jv, uint64_t *n)
{
    if (i == L) {
        if (key) key[*n] = (p << 22) | *n;
        if (cv) {
            cv[*n] = c;
            jv[*n] = (uint8_t)j;
        }
        (*n)++;
        return;
    }
    for (int bit = 0; bit < 2; bit++) {
        int jj = j;
        uint64_t cc = c;
        if (!cz_sieve_child(i, &jj, &cc, bit))
            walk_residues(L, i + 1, jj, p | ((uint64_t)bit << i), cc, key, cv, jv, n);
    }
}

/* a[0..n) sorted by bits [22, 22 + bits) (stable LSD radix sort, passes of 14 bits; qsort was
 * a fifth of the time of a records call starting below 2^24). 0 or BULK_ERR_NOMEM. */
static int sort_keys(uint64_t *a, uint64_t n, int bits)
{
    uint64_t *t = malloc((n ? n : 1) * sizeof *t);
    uint32_t *cnt = malloc((1u << 14) * sizeof *cnt);
    if (!t || !cnt) {
        free(t);
        free(cnt);
        return BULK_ERR_NOMEM;
    }
    for (int sh = 22; sh < 22 + bits; sh += 14) {
        memset(cnt, 0, (1u << 14) * sizeof *cnt);
        for (uint64_t i = 0; i < n; i++) cnt[(a[i] >> sh) & 16383]++;
        uint32_t sum = 0;
        for (uint32_t d = 0; d < (1u << 14); d++) {
            uint32_t x = cnt[d];
            cnt[d] = sum;
            sum += x;
        }
        for (uint64_t i = 0; i < n; i++) t[cnt[(a[i] >> sh) & 16383]++] = a[i];
        memcpy(a, t, n * sizeof *a);
    }
    free(t);
    free(cnt);
    return BULK_OK;
}

/* The state (j, c) of a mandatory residue r of L bits after L halvings. */
static void residue_state(int L, uint32_t r, int *j, uint64_t *c)
{
    *j = 0;
    *c = 0;
    for (int i = 0; i < L; i++) cz_sieve_child(i, j, c, (int)((r >> i) & 1));
}

/* Mandatory residues of L <= PB bits in increasing order into *out (malloc'ed), their number
 * into *n. 0 or BULK_ERR_NOMEM. */
static int sorted_residues(int L, uint32_t **out, uint64_t *n)
{
    *n = 0;
    walk_residues(L, 0, 0, 0, 0, NULL, NULL, NULL, n);
    uint64_t *key = malloc((*n ? *n : 1) * sizeof *key);
    *out = malloc((*n ? *n : 1) * sizeof **out);
    int st = key && *out ? BULK_OK : BULK_ERR_NOMEM;
    uint64_t m = 0;
    if (st == BULK_OK) walk_residues(L, 0, 0, 0, 0, key, NULL, NULL, &m);
    if (st == BULK_OK) st = sort_keys(key, m, L);
    for (uint64_t x = 0; st == BULK_OK && x < m; x++) (*out)[x] = (uint32_t)(key[x] >> 22);
    free(key);
    return st;
}

static int sieve_build(struct gsieve *g)
{
    uint64_t n = 0, m = 0;
    walk_residues(g->k, 0, 0, 0, 0, NULL, NULL, NULL, &n);
    uint64_t *key = malloc(n * sizeof *key), *cv = malloc(n * sizeof *cv);
    uint8_t *jv = malloc(n);
    g->r = malloc(n * sizeof *g->r);
    g->c = malloc(n * sizeof *g->c);
    g->j = malloc(n);
    int st = key && cv && jv && g->r && g->c && g->j ? BULK_OK : BULK_ERR_NOMEM;
    if (st == BULK_OK) {
        walk_residues(g->k, 0, 0, 0, 0, key, cv, jv, &m);
        st = sort_keys(key, m, g->k);
    }
    for (uint64_t x = 0; st == BULK_OK && x < m; x++) {
        const uint64_t i = key[x] & ((1u << 22) - 1);
        g->r[x] = (uint32_t)(key[x] >> 22);
        g->c[x] = cv[i];
        g->j[x] = jv[i];
    }
    g->s = m;
    free(key);
    free(cv);
    free(jv);
    return st;
}

static void gs_build(void)
{
    gs.status = sieve_build(&gs);
    gs_pb.status = sieve_build(&gs_pb);
    if (!gs.status) gs.status = gs_pb.status;
}

/* E_L = L + (the largest j with 3^j < 2^L): no eliminated class of L bits has a larger glide
 * (0 for L = 0, where nothing is eliminated). */
static int elim_bound(int L)
{
    int j = -1;
    while (j + 1 <= 40 && bulk_cz_pow3[j + 1] < ((uint64_t)1 << L)) j++;
    return L + j < 0 ? 0 : L + j;
}

/* glide of a mandatory n = 2^L nH + r from its state 3^j nH + c after L + j steps: verify's
 * path (the fast kernel where it applies, the reference path, the exact path on overflow). */
static int glide_from_state(const bulk_collatz_engine *e, u128 n, u128 nH, int L, int j,
                            uint64_t c, int fast, uint32_t *out)
{
    cz_u128 v, nn = { (uint64_t)n, (uint64_t)(n >> 64) };
    cz_u128 h = { (uint64_t)nH, (uint64_t)(nH >> 64) };
    int64_t g = -1;
    if (cz_sieve_start(&v, h, bulk_cz_pow3[j], c)) {
        if (fast) g = cz_fast_glide(e, ((u128)v.hi << 64) | v.lo, n, (int64_t)L + j);
        if (g < 0) g = cz_glide_from_mb(v, nn, (int64_t)L + j, e->d, e->B, e->C, e->J, e->MB);
    }
    if (g < 0) {
        uint64_t eg = 0;
        int st = bulk_cz_exact_glide128(nn, &eg);
        if (st) return st;
        g = (int64_t)eg;
    }
    if (g > (int64_t)UINT32_MAX) return BULK_ERR_OVERFLOW;
    *out = (uint32_t)g;
    return BULK_OK;
}

/* A piece of the range, [first, last] (next_piece): from 2^PB a part of one aligned block of 2^PB
 * inside one of 2^L, L = GK or PB (a stored sieve, entries x0 .. x0 + cnt - 1), below 2^PB one
 * whole dyadic block of level L < PB (its own sieve, walked; nH >= 1 as the sieve needs). */
struct gblock {
    u128 base, first, last; /* base: the aligned block's first n, nH 2^L */
    int L;
    uint64_t x0, cnt;  /* mandatory residues in [first, last] */
    const struct gsieve *sv; /* the stored sieve of level L, or NULL: walked */
    const uint32_t *r; /* their residues, increasing (sv->r + x0, or own) */
    uint32_t *own;     /* residues of a walked block (freed after the scan) */
    uint32_t *g;       /* their glides (freed after the scan) */
    uint32_t max;      /* largest of g (0 when cnt = 0) */
    int status;
};

struct gjob {
    const bulk_collatz_engine *e;
    struct gblock *b;
};

static void block_glides(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct gjob *job = arg;
    const bulk_collatz_engine *e = job->e;
    for (size_t i = begin; i < end; i++) {
        struct gblock *b = &job->b[i];
        const u128 nH = b->base >> b->L;
        const int fast = cz_fast_usable(e, b->base);
        int st = BULK_OK;
        uint32_t mx = 0;
        if (!b->sv) st = sorted_residues(b->L, &b->own, &b->cnt);
        b->g = malloc((b->cnt ? b->cnt : 1) * sizeof *b->g);
        if (st == BULK_OK && !b->g) st = BULK_ERR_NOMEM;
        if (st != BULK_OK) {
            b->status = st;
            continue;
        }
        if (b->sv) {
            b->r = b->sv->r + b->x0;
            const uint64_t *c = b->sv->c + b->x0;
            const uint8_t *j = b->sv->j + b->x0;
            for (uint64_t x = 0; x < b->cnt && st == BULK_OK; x++) {
                st = glide_from_state(e, b->base | b->r[x], nH, b->L, j[x], c[x], fast, &b->g[x]);
                if (b->g[x] > mx) mx = b->g[x];
            }
        } else {
            b->r = b->own;
            for (uint64_t x = 0; st == BULK_OK && x < b->cnt; x++) {
                int j;
                uint64_t c;
                residue_state(b->L, b->own[x], &j, &c);
                st = glide_from_state(e, b->base | b->own[x], nH, b->L, j, c, fast, &b->g[x]);
                if (b->g[x] > mx) mx = b->g[x];
            }
        }
        b->max = mx;
        b->status = st;
    }
}

/* The first index x of a stored sieve with g->r[x] >= r. */
static uint64_t lower(const struct gsieve *g, uint64_t r)
{
    uint64_t a = 0, z = g->s;
    while (a < z) {
        uint64_t m = a + (z - a) / 2;
        if (g->r[m] < r) a = m + 1;
        else z = m;
    }
    return a;
}

/* The records of one computed piece, in order, against the running maximum. */
static int scan_block(const bulk_collatz_engine *e, const struct gblock *b, struct cz_rlist *l)
{
    const int E = elim_bound(b->L);
    if (l->have && l->best >= (uint64_t)E && b->max <= l->best) return BULK_OK;
    u128 pos = b->first; /* numbers below pos are done */
    /* one by one while an eliminated glide could still beat the maximum */
    while ((!l->have || l->best < (uint64_t)E) && pos <= b->last) {
        u128 g;
        int st = bulk_cz_glide_of(e, (cz_u128){ (uint64_t)pos, (uint64_t)(pos >> 64) }, &g);
        if (st) return st;
        if ((!l->have || (uint64_t)g > l->best) && (st = cz_rlist_push(l, pos, (uint64_t)g))) return st;
        pos++;
    }
    for (uint64_t x = 0; x < b->cnt; x++) {
        if (b->g[x] <= l->best || (b->base | b->r[x]) < pos) continue;
        int st = cz_rlist_push(l, b->base | b->r[x], b->g[x]);
        if (st) return st;
    }
    return BULK_OK;
}

/* The next piece from cur (2 <= cur <= end) into *b; returns its last number. From 2^PB on a
 * piece is the part of [cur, end] in one aligned block of 2^PB, on the stored sieve of GK levels
 * (from 2^GK) or of PB levels, whatever the alignment of cur; below, the largest aligned block
 * that fits (level < PB, walked), as verify cuts. */
static u128 next_piece(u128 cur, u128 end, struct gblock *b)
{
    const u128 psize = (u128)1 << PB;
    memset(b, 0, sizeof *b);
    b->first = cur;
    if (cur >= psize) {
        const u128 pbase = cur & ~(psize - 1);
        b->sv = cur >> GK ? &gs : &gs_pb;
        b->L = b->sv->k;
        b->base = cur & ~((((u128)1) << b->L) - 1);
        b->last = end - pbase < psize ? end : pbase + (psize - 1);
        b->x0 = lower(b->sv, (uint64_t)(cur - b->base));
        b->cnt = lower(b->sv, (uint64_t)(b->last - b->base) + 1) - b->x0;
        return b->last;
    }
    int L = __builtin_ctzll((uint64_t)cur);
    while (L > 0 && end - cur < ((u128)1 << L) - 1) L--;
    b->L = L;
    b->base = cur;
    b->last = cur + (((u128)1 << L) - 1);
    return b->last;
}

int bulk_cz_records_glide(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                          bulk_u128 last, bulk_collatz_record **recs, size_t *count,
                          bulk_progress_run *pr, double done0)
{
    *recs = NULL;
    *count = 0;
    pthread_once(&gs_once, gs_build);
    if (gs.status) return gs.status;
    const int threads = bulk_ctx_threads(ctx);
    const size_t wave = (size_t)threads * 2;
    struct gblock *b = calloc(wave, sizeof *b);
    struct cz_rlist l = { NULL, 0, 0, 0, 0 };
    int st = b ? BULK_OK : BULK_ERR_NOMEM;
    u128 cur = ((u128)first.hi << 64) | first.lo, end = ((u128)last.hi << 64) | last.lo;
    const u128 lo = cur;
    u128 upto = cur; /* last number of the blocks so far */
    if (cur == 1) cur = 2; /* glide(1) is undefined: never a glide record */
    int done = cur > end || cur < lo;
    while (st == BULK_OK && !done) {
        /* the next wave of pieces */
        size_t m = 0;
        while (m < wave && !done) {
            upto = next_piece(cur, end, &b[m]);
            m++;
            done = upto == end;
            cur = upto + 1;
        }
        struct gjob job = { e, b };
        bulk_parallel_for(threads, m, 1, block_glides, &job);
        for (size_t i = 0; i < m; i++) {
            if (st == BULK_OK) st = b[i].status;
            if (st == BULK_OK) st = scan_block(e, &b[i], &l);
            free(b[i].own);
            free(b[i].g);
        }
        if (st == BULK_OK && pr) {
            double nd = done0 + (double)(upto - lo) + 1.0;
            if (bulk_progress_step(pr, nd, 0) != BULK_OK) st = BULK_ERR_CANCELLED;
        }
    }
    free(b);
    if (st != BULK_OK) {
        free(l.recs);
        return st;
    }
    *recs = l.recs;
    *count = l.n;
    return BULK_OK;
}
