/* Delays of consecutive numbers (seed 004 Algorithm 2) and their batch statistics (seed 003),
 * on the context's threads.
 *
 * Merging: in an aligned block of 2^M numbers n = 2^M nH + r (nH >= 1) the first M halvings
 * depend only on r and take n to 3^j nH + c (j odd steps on the way, none of the values is 1
 * before the end since nH >= 1). Residues with the same (j, c) have the same trajectory from
 * there, so delay(n) = M + j + delay(3^j nH + c) is computed once per class: 889180 classes
 * for the 2^22 residues of M = 22 (19275 for M = 16; seed 004's "several operations in one
 * step", taken across numbers). A part of a block at the range's ends runs the classes of its
 * residues only (near 2^64; far above, its whole block when it holds at least a quarter of it,
 * else one by one, as are n < 2^M). The results are per-index, so they do not depend on the
 * thread count. */
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz/collatz_backend.h"
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

/* ---- merge classes ---------------------------------------------------------------------------- */

/* The classes of M bits: every residue r < 2^M gets its state (j, c) after M halvings, by
 * the sieve's one-bit step (cz_sieve_child) level by level in place (2^(M+1) steps, no
 * data-dependent branch), then the residues are sorted by the key (j, c, r) packed in one word
 * (j: 6 bits, c < 3^M: 32 bits for M <= 20, 36 up to 22, r: M bits) with an LSD radix sort, and equal (j, c)
 * runs become one class. Classes are numbered in (j, c) order, members in r order (the order
 * the former qsort of structures gave). */
_Static_assert(BULK_CZ_MERGE_BITS <= 22, "the class keys pack j, c < 3^M and r into 64 bits");

int bulk_cz_build_classes(struct bulk_collatz_engine *e)
{
    const int M = e->M;
    const uint32_t size = 1u << M;
    const int cbits = M <= 20 ? 32 : 36, kbits = 6 + cbits + M;
    uint64_t *key = malloc(size * sizeof *key), *tmp = malloc(size * sizeof *tmp);
    uint64_t *c = malloc(size * sizeof *c);
    uint8_t *j = malloc(size);
    e->cls = malloc(size * sizeof *e->cls);
    e->cls_c = malloc(size * sizeof *e->cls_c);
    e->cls_j = malloc(size);
    if (!key || !tmp || !c || !j || !e->cls || !e->cls_c || !e->cls_j) {
        free(key);
        free(tmp);
        free(c);
        free(j);
        return BULK_ERR_NOMEM;
    }
    /* depth i holds the states of the residues r < 2^i; bit i gives r and r + 2^i */
    c[0] = 0;
    j[0] = 0;
    for (int i = 0; i < M; i++) {
        const uint32_t half = 1u << i;
        for (uint32_t r = 0; r < half; r++) {
            for (int bit = 1; bit >= 0; bit--) { /* bit 1 first: the parent is still in r */
                uint64_t c1 = c[r] + (bit ? bulk_cz_pow3[j[r]] : 0);
                uint64_t odd = c1 & 1;
                c1 = odd ? 3 * c1 + 1 : c1;
                c[r + (bit ? half : 0)] = c1 >> 1;
                j[r + (bit ? half : 0)] = (uint8_t)(j[r] + odd);
            }
        }
    }
    for (uint32_t r = 0; r < size; r++)
        key[r] = ((((uint64_t)j[r] << cbits) | c[r]) << M) | r;
    /* LSD radix sort on the (j, c) bits only, 14-bit digits: stable, so equal (j, c) keep
     * ascending r (the keys start in r order) */
    enum { DB = 14 };
    uint32_t *cnt = malloc((1u << DB) * sizeof *cnt);
    if (!cnt) {
        free(key);
        free(tmp);
        free(c);
        free(j);
        return BULK_ERR_NOMEM;
    }
    for (int sh = M; sh < kbits; sh += DB) {
        memset(cnt, 0, (1u << DB) * sizeof *cnt);
        for (uint32_t i = 0; i < size; i++) cnt[(key[i] >> sh) & ((1u << DB) - 1)]++;
        uint32_t sum = 0;
        for (uint32_t d = 0; d < (1u << DB); d++) {
            uint32_t x = cnt[d];
            cnt[d] = sum;
            sum += x;
        }
        for (uint32_t i = 0; i < size; i++) tmp[cnt[(key[i] >> sh) & ((1u << DB) - 1)]++] = key[i];
        uint64_t *sw = key;
        key = tmp;
        tmp = sw;
    }
    free(cnt);
    uint32_t q = 0;
    const uint64_t rmask = size - 1, cmask = ((uint64_t)1 << cbits) - 1;
    for (uint32_t i = 0; i < size; i++) {
        if (i && (key[i] >> M) != (key[i - 1] >> M)) q++;
        e->cls[key[i] & rmask] = q;
        e->cls_c[q] = (key[i] >> M) & cmask;
        e->cls_j[q] = (uint8_t)(key[i] >> (M + cbits));
    }
    e->ncls = q + 1;
    free(key);
    free(tmp);
    free(c);
    free(j);
    return BULK_OK;
}

/* Lanes of the one-word class loop, and of the two-word loop (n >= 2^(64+M)). */
#define RLN 5
#define LANES 4

/* The class delays D[q] for a block with nH < 2^64 (n < 2^(64+M)). The states 3^j nH + c are
 * products of one word, and while a value is below 2^(64+d) (vH < 2^64) a table operation is one
 * 64x64 -> 128 multiply (u128, vH formed by two word shifts: d is not a constant,
 * and the compiler's general 128-bit shift costs a test and selects). RLN trajectories run
 * interleaved in named variables, so that they stay in registers; a lane whose value drops
 * below 2^a takes the next class inside that (rare) branch, so no lane idles until the last
 * classes. A value reaching 2^(64+d) hands its class to delay_of (two words, exact path).
 * Measured near 2^64, d = 15, a = 20, one thread, classes of 16 bits: 8.3-8.6e7 numbers/s
 * against 7.1-7.6e7 for the 5 lanes of fixed groups in arrays
 * (a16ed0f:bench/results/2026-11-21-cpu-collatz-fastkernel-experiments.txt). */
static int delays_classes_reg(const bulk_collatz_engine *e, uint64_t nH, uint32_t *D,
                              const uint32_t *list, uint32_t nlist)
{
    const int d = e->d, a = e->a;
    const uint32_t M = (uint32_t)e->M;
    const uint64_t mask = ((uint64_t)1 << d) - 1, whi = (uint64_t)1 << d;
    const uint64_t *B = e->B, *C = e->C, *cc = e->cls_c;
    const uint8_t *J = e->J, *cj = e->cls_j;
    const uint16_t *A = e->A;
    uint32_t next = 0, live = RLN;
#define RL_START(v, s, q)                                                                          \
    do {                                                                                           \
        if (next < nlist) {                                                                        \
            q = list ? list[next] : next;                                                          \
            next++;                                                                                \
            v = (u128)bulk_cz_pow3[cj[q]] * nH + cc[q];                                            \
            s = M + cj[q];                                                                         \
        } else {                                                                                   \
            q = UINT32_MAX;                                                                        \
            v = 1;                                                                                 \
            s = 0;                                                                                 \
            live--;                                                                                \
        }                                                                                          \
    } while (0)
#define RL_STEP(v, s, q)                                                                           \
    do {                                                                                           \
        const uint64_t hi_ = (uint64_t)(v >> 64), lo_ = (uint64_t)v;                              \
        if (__builtin_expect(hi_ == 0 && (lo_ >> a) == 0, 0)) {                                    \
            if (q != UINT32_MAX) {                                                                 \
                D[q] = s + A[lo_];                                                                 \
                RL_START(v, s, q);                                                                 \
            }                                                                                      \
        } else if (__builtin_expect(hi_ >= whi, 0)) {                                              \
            int64_t dl_ = delay_of(e, cz_make(lo_, hi_));                                          \
            if (dl_ < 0) return (int)dl_;                                                          \
            if (dl_ + s >= UINT32_MAX) return BULK_ERR_OVERFLOW;                                  \
            D[q] = (uint32_t)(dl_ + s);                                                            \
            RL_START(v, s, q);                                                                     \
        } else {                                                                                   \
            const uint64_t L_ = lo_ & mask;                                                        \
            v = (u128)B[L_] * ((lo_ >> d) | (hi_ << (64 - d))) + C[L_];                            \
            s += J[L_];                                                                            \
        }                                                                                          \
    } while (0)
    u128 v0, v1, v2, v3, v4;
    uint32_t s0, s1, s2, s3, s4, q0, q1, q2, q3, q4;
    RL_START(v0, s0, q0);
    RL_START(v1, s1, q1);
    RL_START(v2, s2, q2);
    RL_START(v3, s3, q3);
    RL_START(v4, s4, q4);
    while (live) {
        RL_STEP(v0, s0, q0);
        RL_STEP(v1, s1, q1);
        RL_STEP(v2, s2, q2);
        RL_STEP(v3, s3, q3);
        RL_STEP(v4, s4, q4);
    }
#undef RL_STEP
#undef RL_START
    return BULK_OK;
}

/* Delays of the whole block n = 2^M nH + r, r = 0..2^M-1, into out[r]; D is scratch of
 * ncls entries: the one-word loop above for nH < 2^64; otherwise the classes run LANES at a
 * time, interleaved, so that the multiply and load latencies of one trajectory overlap with
 * the others' (cz_delay's loop, unrolled across independent numbers), on two-word values.
 * 0 or a negative status. */
static int delays_block(const bulk_collatz_engine *e, cz_u128 nH, uint32_t *out, uint32_t *D)
{
    const int d = e->d, a = e->a;
    const uint64_t mask = ((uint64_t)1 << d) - 1;
    const uint64_t *B = e->B, *C = e->C;
    const uint8_t *J = e->J;
    if (nH.hi == 0) {
        int st = delays_classes_reg(e, nH.lo, D, NULL, e->ncls);
        if (st) return st;
    }
    for (uint32_t q0 = 0; nH.hi != 0 && q0 < e->ncls; q0 += LANES) {
        cz_u128 v[LANES];
        uint32_t steps[LANES];
        int live[LANES], nl = 0; /* live: 1 running, 0 done, -1 table overflow, -2 state overflow */
        for (int i = 0; i < LANES; i++) {
            uint32_t q = q0 + (uint32_t)i;
            live[i] = 0;
            steps[i] = 0;
            v[i] = cz_make(0, 0);
            if (q >= e->ncls) continue;
            if (!cz_muladd(&v[i], bulk_cz_pow3[e->cls_j[q]], nH, e->cls_c[q])) {
                live[i] = -2; /* the state itself passes 2^128: members one by one */
                continue;
            }
            live[i] = 1;
            nl++;
        }
        while (nl) {
            for (int i = 0; i < LANES; i++) {
                if (live[i] != 1) continue;
                if (!(v[i].hi || (v[i].lo >> a))) {
                    live[i] = 0;
                    nl--;
                    continue;
                }
                uint64_t L = v[i].lo & mask;
                if (!cz_table_step(&v[i], d, B[L], C[L])) {
                    live[i] = -1; /* overflow: the exact path below */
                    nl--;
                    continue;
                }
                steps[i] += J[L];
            }
        }
        for (int i = 0; i < LANES; i++) {
            uint32_t q = q0 + (uint32_t)i;
            if (q >= e->ncls) continue;
            if (live[i] == -2) {
                D[q] = UINT32_MAX;
                continue;
            }
            int64_t dl;
            if (live[i] == 0) {
                dl = (int64_t)steps[i] + e->A[v[i].lo];
            } else {
                cz_u128 st = cz_make(0, 0);
                cz_muladd(&st, bulk_cz_pow3[e->cls_j[q]], nH, e->cls_c[q]);
                dl = delay_of(e, st);
                if (dl < 0) return (int)dl;
            }
            dl += e->M + e->cls_j[q];
            if (dl >= UINT32_MAX) return BULK_ERR_OVERFLOW;
            D[q] = (uint32_t)dl;
        }
    }
    const uint32_t size = 1u << e->M;
    if (nH.hi == 0) {
        /* the one-word loop never leaves a class to its members */
        const uint32_t *cls = e->cls;
        for (uint32_t r = 0; r < size; r++) out[r] = D[cls[r]];
        return BULK_OK;
    }
    for (uint32_t r = 0; r < size; r++) {
        uint32_t dl = D[e->cls[r]];
        if (dl == UINT32_MAX) {
            cz_u128 n = cz_shl(nH, e->M);
            n.lo |= r;
            int64_t x = delay_of(e, n);
            if (x < 0) return (int)x;
            if (x >= UINT32_MAX) return BULK_ERR_OVERFLOW;
            dl = (uint32_t)x;
        }
        out[r] = dl;
    }
    return BULK_OK;
}

/* ---- ranges --------------------------------------------------------------------------------- */

struct djob {
    const bulk_collatz_engine *e;
    cz_u128 first;
    uint64_t count;
    uint64_t head;    /* numbers before the first whole block */
    uint64_t nblocks; /* whole blocks after the head */
    int head_block;   /* the head (a part of one block) is done as its whole block */
    int tail_block;   /* the same for the numbers after the whole blocks */
    uint32_t *out;
    int status; /* written only on failure */
    bulk_progress_run *pr; /* NULL: no progress */
    double done0;          /* progress already reported before this call */
    uint64_t done;         /* numbers finished (atomic) */
};

/* An item of `n` numbers is finished: report, and say whether the run was cancelled. */
static int item_done(struct djob *j, uint64_t n)
{
    if (!j->pr) return 0;
    uint64_t d = __atomic_add_fetch(&j->done, n, __ATOMIC_RELAXED);
    return bulk_progress_step(j->pr, j->done0 + (double)d, 0) != BULK_OK;
}

/* A part [lo, hi) of the out indices inside one block of 2^M (n >= 2^M). Below 2^(64+M) only
 * the classes its residues belong to run (listed once each, a bitmap of the classes marks
 * them), so a part costs about what its share of a whole block costs; above, the whole block
 * into a scratch buffer and the part copied (used for parts of at least a quarter block). */
static int delays_part_block(const struct djob *j, uint64_t lo, uint64_t hi, uint32_t *D)
{
    const bulk_collatz_engine *e = j->e;
    const uint64_t bsize = (uint64_t)1 << e->M, cnt = hi - lo;
    cz_u128 n0 = cz_add64(j->first, lo);
    cz_u128 nH = cz_shr(n0, e->M);
    uint64_t r0 = n0.lo & (bsize - 1);
    if (nH.hi == 0) {
        uint64_t *seen = calloc((e->ncls + 63) / 64, sizeof *seen);
        uint32_t *list = calloc(cnt < e->ncls ? cnt : e->ncls, sizeof *list);
        if (!seen || !list) {
            free(seen);
            free(list);
            return BULK_ERR_NOMEM;
        }
        uint32_t nl = 0;
        for (uint64_t i = 0; i < cnt; i++) {
            uint32_t q = e->cls[r0 + i];
            if (!((seen[q / 64] >> (q % 64)) & 1)) {
                seen[q / 64] |= (uint64_t)1 << (q % 64);
                list[nl++] = q;
            }
        }
        int st = delays_classes_reg(e, nH.lo, D, list, nl);
        if (st == BULK_OK)
            for (uint64_t i = 0; i < cnt; i++) j->out[lo + i] = D[e->cls[r0 + i]];
        free(seen);
        free(list);
        return st;
    }
    uint32_t *tmp = malloc(bsize * sizeof *tmp);
    if (!tmp) return BULK_ERR_NOMEM;
    int st = delays_block(e, nH, tmp, D);
    if (st == BULK_OK) memcpy(j->out + lo, tmp + r0, cnt * sizeof *tmp);
    free(tmp);
    return st;
}

/* Work item i: i < nblocks is a whole block; then the head and the tail as block parts where
 * chosen (head_block, tail_block); then the other numbers outside the blocks one by one, in
 * groups of 4096. */
static void delays_items(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct djob *j = arg;
    const bulk_collatz_engine *e = j->e;
    const uint64_t tail0 = j->head + (j->nblocks << e->M);
    const size_t nparts = (size_t)(j->head_block + j->tail_block);
    const uint64_t hs = j->head_block ? 0 : j->head; /* head numbers done one by one */
    uint32_t *D = NULL;
    for (size_t it = begin; it < end; it++) {
        if (j->pr && bulk_progress_cancelled(j->pr)) {
            j->status = BULK_ERR_CANCELLED;
            break;
        }
        if (it < j->nblocks + nparts) {
            if (!D) D = malloc(e->ncls * sizeof *D);
            if (!D) {
                j->status = BULK_ERR_NOMEM;
                return;
            }
            int st;
            uint64_t n;
            if (it < j->nblocks) {
                uint64_t off = j->head + ((uint64_t)it << e->M);
                cz_u128 n0 = cz_add64(j->first, off);
                st = delays_block(e, cz_shr(n0, e->M), j->out + off, D);
                n = (uint64_t)1 << e->M;
            } else if (it == j->nblocks && j->head_block) {
                st = delays_part_block(j, 0, j->head, D);
                n = j->head;
            } else {
                st = delays_part_block(j, tail0, j->count, D);
                n = j->count - tail0;
            }
            if (st) j->status = st;
            item_done(j, n);
            continue;
        }
        /* singles: indices outside the blocks and the parts */
        uint64_t g = (uint64_t)(it - j->nblocks - nparts) * 4096;
        uint64_t tend = j->tail_block ? tail0 : j->count, n = 0;
        for (uint64_t s = g; s < g + 4096; s++, n++) {
            uint64_t idx = s < hs ? s : tail0 + (s - hs);
            if (s >= hs && idx >= tend) break;
            int64_t dl = delay_of(e, cz_add64(j->first, idx));
            if (dl < 0 || dl >= UINT32_MAX) {
                j->status = dl < 0 ? (int)dl : BULK_ERR_OVERFLOW;
                dl = 0;
            }
            j->out[idx] = (uint32_t)dl;
        }
        item_done(j, n);
    }
    free(D);
}

/* The checks shared by delays and delay_stats: the engine and [first, first + count). */
static int check_range(const bulk_ctx *ctx, const char *fn, const bulk_collatz_engine *e, bulk_u128 first,
                       uint64_t count)
{
    if (!e) return bulk_fail(ctx, BULK_ERR_ARG, "%s: e: is NULL", fn);
    if (e->a == 0) return bulk_fail(ctx, BULK_ERR_ARG, "%s: e: the engine has no delay table (a = 0)", fn);
    if (cz_is_zero(first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: first: must be at least 1", fn);
    /* first + count - 1 must not pass 2^128 - 1 */
    cz_u128 lastv = cz_add64(first, count ? count - 1 : 0);
    if (cz_lt(lastv, first)) return bulk_fail(ctx, BULK_ERR_ARG, "%s: count: the range passes 2^128 - 1", fn);
    return BULK_OK;
}

int bulk_cz_need_classes(const bulk_collatz_engine *ce)
{
    /* the engine is shared read-only by its users; the lazily built classes are the one part
     * written after creation, once, under the lock */
    bulk_collatz_engine *e = (bulk_collatz_engine *)ce;
    pthread_mutex_lock(&e->cls_lock);
    if (e->cls_status == 1) e->cls_status = bulk_cz_build_classes(e);
    int st = e->cls_status;
    pthread_mutex_unlock(&e->cls_lock);
    return st;
}

static const char delays_fn[] = "bulk_collatz_delays", stats_fn[] = "bulk_collatz_delay_stats";

int bulk_cz_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first, uint64_t count,
                   uint32_t *out, bulk_progress_run *pr, double done0)
{
    /* a CUDA context: the GPU twin (same results, the context's GPUs) */
    return bulk_cz_backend(ctx)->delays(ctx, e, first, count, out, pr, done0);
}

int bulk_cz_cpu_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first, uint64_t count,
                       uint32_t *out, bulk_progress_run *pr, double done0)
{
    int st;
    if ((st = bulk_cz_need_classes(e)) != BULK_OK) return st;
    const uint64_t bsize = (uint64_t)1 << e->M;
    /* whole blocks: aligned, and nH >= 1 (n >= 2^M) */
    uint64_t head = (bsize - (first.lo & (bsize - 1))) & (bsize - 1);
    if (first.hi == 0 && first.lo < bsize) head = bsize - first.lo; /* start at n = 2^M */
    if (head > count) head = count;
    uint64_t nblocks = (count - head) >> e->M;
    uint64_t tail = count - head - (nblocks << e->M);
    /* a head or tail (n >= 2^M) by its classes below 2^(64+M), above when it holds at least a
     * quarter block by its whole block (delays_part_block); otherwise one by one */
    cz_u128 tail_n = cz_add64(first, head + (nblocks << e->M));
    int head_block = head > 0 && !(first.hi == 0 && first.lo < bsize) &&
                     ((first.hi >> e->M) == 0 || head >= bsize / 4);
    int tail_block = tail > 0 && ((tail_n.hi >> e->M) == 0 || tail >= bsize / 4);
    uint64_t singles = (head_block ? 0 : head) + (tail_block ? 0 : tail);
    struct djob j = { e, first, count, head, nblocks, head_block, tail_block, out, BULK_OK, pr, done0, 0 };
    size_t items = (size_t)(nblocks + (uint64_t)head_block + (uint64_t)tail_block +
                            (singles + 4095) / 4096);
    bulk_parallel_for(bulk_ctx_threads(ctx), items, 1, delays_items, &j);
    if (j.status == BULK_OK && pr && bulk_progress_cancelled(pr)) j.status = BULK_ERR_CANCELLED;
    return j.status;
}

/* The end of a public call: the final progress report, or the failure's message. */
static int finish(bulk_ctx *ctx, const char *fn, bulk_progress_run *pr, int st)
{
    if (st == BULK_OK) st = bulk_progress_end(pr);
    if (st == BULK_ERR_CANCELLED)
        return bulk_fail(ctx, st, "%s: range: cancelled by the progress callback", fn);
    if (st == BULK_ERR_OVERFLOW)
        return bulk_fail(ctx, st, "%s: range: a delay does not fit 32 bits", fn);
    return st == BULK_OK ? st : bulk_cz_fail_status(ctx, st, fn, "range");
}

int bulk_collatz_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                        uint64_t count, uint32_t *out)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", delays_fn);
    if (!out && count) return bulk_fail(ctx, BULK_ERR_ARG, "%s: out: is NULL", delays_fn);
    int st = check_range(ctx, delays_fn, e, first, count);
    if (st) return st;
    bulk_progress_run pr;
    st = bulk_progress_start(&pr, ctx, "collatz.delays", "numbers", (double)count);
    if (st == BULK_OK) st = bulk_cz_delays(ctx, e, first, count, out, &pr, 0);
    return finish(ctx, delays_fn, &pr, st);
}

int bulk_cz_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                        uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                        uint32_t *max, bulk_progress_run *pr, double done0)
{
    return bulk_cz_backend(ctx)->delay_stats(ctx, e, first, batch, nbatches, sum, min, max, pr, done0);
}

int bulk_cz_cpu_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                            uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                            uint32_t *max, bulk_progress_run *pr, double done0)
{
    const u128 count = (u128)batch * nbatches;
    /* delays in pieces (whole blocks where possible), reduced per batch in order */
    /* pieces end on multiples of 2^max(22, M) of n, so that they hold whole class blocks */
    const uint64_t piece = (uint64_t)1 << (e->M > 22 ? e->M : 22);
    uint32_t *buf = malloc(piece * sizeof *buf);
    if (!buf) return BULK_ERR_NOMEM;
    for (uint64_t b = 0; b < nbatches; b++) {
        sum[b] = 0;
        min[b] = UINT32_MAX;
        max[b] = 0;
    }
    int st = BULK_OK;
    for (uint64_t off = 0, m; off < (uint64_t)count; off += m) {
        m = piece - ((first.lo + off) & (piece - 1));
        if (m > (uint64_t)count - off) m = (uint64_t)count - off;
        st = bulk_cz_cpu_delays(ctx, e, cz_add64(first, off), m, buf, pr, done0 + (double)off);
        if (st) break;
        /* batch b and position in it carried along (no division per number) */
        uint64_t b = off / batch, pos = off % batch;
        for (uint64_t i = 0; i < m; i++) {
            sum[b] += buf[i];
            if (buf[i] < min[b]) min[b] = buf[i];
            if (buf[i] > max[b]) max[b] = buf[i];
            if (++pos == batch) {
                pos = 0;
                b++;
            }
        }
    }
    free(buf);
    return st;
}

int bulk_collatz_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                             uint64_t batch, uint64_t nbatches, uint64_t *sum, uint32_t *min,
                             uint32_t *max)
{
    if (!ctx) return bulk_fail(NULL, BULK_ERR_ARG, "%s: ctx: is NULL", stats_fn);
    if (batch == 0) return bulk_fail(ctx, BULK_ERR_ARG, "%s: batch: must be at least 1", stats_fn);
    if (nbatches && (!sum || !min || !max))
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: %s: is NULL", stats_fn, !sum ? "sum" : !min ? "min" : "max");
    u128 count = (u128)batch * nbatches;
    if (count >> 64)
        return bulk_fail(ctx, BULK_ERR_ARG, "%s: nbatches: batch * nbatches passes 2^64 - 1", stats_fn);
    int st = check_range(ctx, stats_fn, e, first, (uint64_t)count);
    if (st) return st;
    bulk_progress_run pr;
    st = bulk_progress_start(&pr, ctx, "collatz.delay_stats", "numbers", (double)count);
    if (st == BULK_OK) st = bulk_cz_delay_stats(ctx, e, first, batch, nbatches, sum, min, max, &pr, 0);
    return finish(ctx, stats_fn, &pr, st);
}

/* The class loop for the fast records engine (records_delay.c, records_fast.h). */
int bulk_cz_delays_classes(const bulk_collatz_engine *e, uint64_t nH, uint32_t *D, const uint32_t *list,
                           uint32_t nlist)
{
    return delays_classes_reg(e, nH, D, list, nlist);
}
