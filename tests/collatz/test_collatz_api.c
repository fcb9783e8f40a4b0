/* The public Collatz API as a second front end uses it, through include/bulk/ only:
 *  (a) progress: verify, delays, delay_stats, records and the resumable runs report a start
 *      (done 0), nondecreasing done, and an end with done == total, op "collatz.*", unit
 *      "numbers"; a callback that asks to stop after its first call makes each return
 *      BULK_ERR_CANCELLED with a message naming the function;
 *  (b) every bad argument each public function checks gives its status (BULK_ERR_ARG unless
 *      documented otherwise) and a fresh last error that starts with the function's name;
 *  (c) resumable runs: verify, records_run and delays_run (delays and statistics) stopped by a
 *      cancel with a checkpoint, then resumed, give byte for byte what one run gives, and the
 *      resumed run starts past the beginning;
 *  (d) bulk_collatz_choose gives what `bulk collatz verify` computed before it existed (the
 *      formula of the former cmd_collatz_verify.c is the twin below) and keeps given fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bulk/bulk.h"
#include "bulk/collatz.h"
#include "test_util.h"

typedef unsigned __int128 u128;
static bulk_u128 B(u128 v) { return (bulk_u128){ (uint64_t)v, (uint64_t)(v >> 64) }; }

/* ---- (a) progress ---------------------------------------------------------------------------- */

struct watch {
    int calls, cancel_after; /* cancel_after > 0: return nonzero from that call on */
    int bad_order, bad_names;
    double first_done, last_done, total, first_step; /* first_step: the done of call 2 */
    char op[32];
};

static int watch_fn(const bulk_progress *p, void *user)
{
    struct watch *w = user;
    w->calls++;
    if (w->calls == 1) {
        w->first_done = p->done;
        snprintf(w->op, sizeof w->op, "%s", p->op);
    } else if (p->done < w->last_done) {
        w->bad_order++;
    }
    if (w->calls == 2) w->first_step = p->done;
    if (strcmp(p->op, w->op) != 0 || strcmp(p->unit, "numbers") != 0) w->bad_names++;
    w->last_done = p->done;
    w->total = p->total;
    return w->cancel_after > 0 && w->calls >= w->cancel_after;
}

/* The calls of one finished operation: a start at 0, order, an end at total, the names. */
static void check_watch(const struct watch *w, const char *op, double total, const char *what)
{
    CHECK(w->calls >= 2, "%s: %d progress calls", what, w->calls);
    CHECK(w->first_done == 0, "%s: first call at %g", what, w->first_done);
    CHECK(!w->bad_order, "%s: done went back", what);
    CHECK(!w->bad_names, "%s: op or unit changed or is not \"numbers\"", what);
    CHECK(strcmp(w->op, op) == 0, "%s: op %s, want %s", what, w->op, op);
    CHECK(w->total == total && w->last_done == total, "%s: ends at %g of %g, want %g", what, w->last_done,
          w->total, total);
}

static void check_cancel(bulk_ctx *ctx, int st, const char *fn, const char *what)
{
    CHECK(st == BULK_ERR_CANCELLED, "%s: cancel gave %d", what, st);
    size_t l = strlen(fn);
    const char *m = bulk_ctx_last_error(ctx);
    CHECK(strncmp(m, fn, l) == 0 && m[l] == ':', "%s: message '%s'", what, m);
}

struct mem { /* a sink into memory: the bytes written, as text */
    char *p;
    size_t n, cap;
    uint64_t batch;
};

static void mem_add(struct mem *m, const char *s)
{
    size_t l = strlen(s);
    if (m->n + l + 1 > m->cap) {
        m->cap = 2 * (m->n + l + 1);
        m->p = realloc(m->p, m->cap);
        if (!m->p) exit(1);
    }
    memcpy(m->p + m->n, s, l + 1);
    m->n += l;
}

static int mem_begin(void *user, uint64_t done, uint64_t out_bytes)
{
    struct mem *m = user;
    (void)done;
    if (out_bytes > m->n) return BULK_ERR_IO;
    m->n = out_bytes;
    return 0;
}

static int mem_put(void *user, const bulk_collatz_delays_piece *pc)
{
    struct mem *m = user;
    char line[128];
    for (uint64_t i = 0; i < pc->n; i++) {
        if (m->batch)
            snprintf(line, sizeof line, "%llu %llu %u %u\n", (unsigned long long)(pc->first.lo + i * m->batch),
                     (unsigned long long)pc->sum[i], pc->min[i], pc->max[i]);
        else
            snprintf(line, sizeof line, "%llu %u\n", (unsigned long long)(pc->first.lo + i), pc->delays[i]);
        mem_add(m, line);
    }
    return 0;
}

static int mem_sync(void *user, uint64_t *out_bytes)
{
    *out_bytes = ((struct mem *)user)->n;
    return 0;
}

static void test_progress(bulk_ctx *ctx, bulk_collatz_engine *ev, bulk_collatz_engine *ed)
{
    struct watch w;
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    const uint64_t n = 3000000;
    uint32_t *dl = malloc(n * sizeof *dl);
    uint64_t sum[30];
    uint32_t mn[30], mx[30];
    if (!r || !dl) exit(1);
    for (int cancel = 0; cancel <= 1; cancel++) {
        const char *tag = cancel ? "cancelled" : "complete";
        int st;
#define RUN(op, total, fn, call)                                                                   \
    do {                                                                                          \
        memset(&w, 0, sizeof w);                                                                  \
        w.cancel_after = cancel ? 2 : 0;                                                          \
        bulk_ctx_set_progress(ctx, watch_fn, &w);                                                 \
        st = call;                                                                                \
        bulk_ctx_set_progress(ctx, NULL, NULL);                                                   \
        if (cancel) check_cancel(ctx, st, fn, fn);                                                \
        else {                                                                                    \
            CHECK(st == BULK_OK, "%s %s: %d %s", fn, tag, st, bulk_ctx_last_error(ctx));          \
            check_watch(&w, op, total, fn);                                                       \
        }                                                                                         \
    } while (0)
        RUN("collatz.verify", 1 << 24, "bulk_collatz_verify",
            bulk_collatz_verify(ctx, ev, B(1), B(1 << 24), NULL, r));
        RUN("collatz.delays", (double)n, "bulk_collatz_delays", bulk_collatz_delays(ctx, ed, B(7), n, dl));
        RUN("collatz.delay_stats", (double)n, "bulk_collatz_delay_stats",
            bulk_collatz_delay_stats(ctx, ed, B(7), n / 30, 30, sum, mn, mx));
        bulk_collatz_record *rec = NULL;
        size_t nrec = 0;
        RUN("collatz.records", 1 << 22, "bulk_collatz_records",
            bulk_collatz_records(ctx, ed, BULK_COLLATZ_DELAY, B(1), B(1 << 22), &rec, &nrec));
        free(rec);
        bulk_collatz_run_opts o = { NULL, NULL, 0, 1 << 18 };
        RUN("collatz.records", 1 << 22, "bulk_collatz_records_run",
            bulk_collatz_records_run(ctx, ed, BULK_COLLATZ_PATH, B(1), B(1 << 22), &o, &rec, &nrec));
        free(rec);
        struct mem m = { 0 };
        bulk_collatz_delays_sink sk = { mem_begin, mem_put, mem_sync, &m };
        RUN("collatz.delays", 1 << 20, "bulk_collatz_delays_run",
            bulk_collatz_delays_run(ctx, ed, B(1), B(1 << 20), 0, &o, &sk));
        m.batch = 1024;
        RUN("collatz.delay_stats", 1 << 20, "bulk_collatz_delays_run",
            bulk_collatz_delays_run(ctx, ed, B(1), B(1 << 20), 1024, &o, &sk));
        free(m.p);
#undef RUN
    }
    free(r);
    free(dl);
}

/* ---- (b) bad arguments ----------------------------------------------------------------------- */

/* A failure of call must give status want and a last error (on ctx; NULL: the thread's) that
 * starts with "fn:" and was written by this call: another function's message is put there first. */
#define BAD(ctx, want, fn, call)                                                                   \
    do {                                                                                          \
        prime(ctx, fn);                                                                           \
        int st_ = (call);                                                                         \
        const char *m_ = bulk_ctx_last_error(ctx);                                                \
        CHECK(st_ == (want), "%s: %s gave %d, want %d", fn, #call, st_, want);                     \
        CHECK(names(m_, fn), "%s: %s: message '%s'", fn, #call, m_);                             \
    } while (0)

/* The message m starts with "fn:". */
static int names(const char *m, const char *fn)
{
    size_t l = strlen(fn);
    return strncmp(m, fn, l) == 0 && m[l] == ':';
}

/* Leaves a message of a function other than fn as the last error of ctx (or of the thread). */
static void prime(bulk_ctx *ctx, const char *fn)
{
    uint64_t c[BULK_COLLATZ_MAX_K + 1];
    if (ctx && strcmp(fn, "bulk_collatz_sieve_count") != 0) bulk_collatz_sieve_count(ctx, -1, c);
    else if (ctx) bulk_collatz_choose(ctx, B(0), B(1), 0, NULL);
    else if (strcmp(fn, "bulk_collatz_parse_bound") != 0) bulk_collatz_parse_bound(NULL, c, NULL);
    else bulk_collatz_exact(NULL, 1, NULL, NULL, NULL, 0, NULL);
}

static void test_bad_args(bulk_ctx *ctx, bulk_collatz_engine *ev, bulk_collatz_engine *ed, const char *dir)
{
    const bulk_u128 one = B(1), two = B(2), zero = B(0), top = B(~(u128)0);
    bulk_collatz_engine *e = NULL, *e0 = NULL;
    uint64_t cnt[BULK_COLLATZ_MAX_K + 1], v[3], big[4];
    uint32_t d32[4], mn[2], mx[2];
    uint64_t sum[2];
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    bulk_collatz_record *rec;
    size_t nrec;
    if (!r) exit(1);
    const char *fn;

    fn = "bulk_collatz_engine_new";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_engine_new(&e, NULL, 10, 0, 0));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_new(NULL, ctx, 10, 0, 0));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_new(&e, ctx, 0, 0, 0));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_new(&e, ctx, BULK_COLLATZ_MAX_D + 1, 0, 0));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_new(&e, ctx, 10, -1, 0));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_new(&e, ctx, 10, BULK_COLLATZ_MAX_K + 1, 0));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_new(&e, ctx, 10, 0, 9));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_new(&e, ctx, 10, 0, BULK_COLLATZ_MAX_A + 1));
    CHECK(bulk_collatz_engine_new(&e0, ctx, 8, 0, 0) == BULK_OK, "engine without a sieve");

    fn = "bulk_collatz_engine_set_converge";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_engine_set_converge(NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_set_converge(e0));

    fn = "bulk_collatz_engine_extend";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_engine_extend(NULL, 2));
    CHECK(bulk_collatz_engine_new(&e, ctx, 8, 10, 0) == BULK_OK, "engine k = 10");
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_extend(e, -1));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_extend(e, BULK_COLLATZ_MAX_EXT + 1));
    CHECK(bulk_collatz_engine_extend(e, 2) == BULK_OK, "extension: %s", bulk_ctx_last_error(ctx));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_extend(e, 2)); /* a second one */
    fn = "bulk_collatz_engine_set_converge";
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_engine_set_converge(e)); /* after an extension */
    bulk_collatz_engine_free(e);

    fn = "bulk_collatz_sieve_count";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_sieve_count(NULL, 4, cnt));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_sieve_count(ctx, 4, NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_sieve_count(ctx, -1, cnt));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_sieve_count(ctx, BULK_COLLATZ_MAX_K + 1, cnt));

    fn = "bulk_collatz_verify_chunk";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_verify_chunk(NULL, one, two, r));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify_chunk(ev, one, two, NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify_chunk(ev, zero, two, r));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify_chunk(ev, two, one, r));

    char other[512], notreg[512];
    snprintf(other, sizeof other, "%s/other.ck", dir);
    snprintf(notreg, sizeof notreg, "%s", dir); /* a directory */
    bulk_collatz_run_opts o1 = { other, "run one", 0, 0 }, o2 = { other, "run two", 0, 0 };
    bulk_collatz_run_opts od = { notreg, "run one", 0, 0 };
    fn = "bulk_collatz_verify";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_verify(NULL, ev, one, two, NULL, r));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify(ctx, NULL, one, two, NULL, r));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify(ctx, ev, one, two, NULL, NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify(ctx, ev, zero, two, NULL, r));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify(ctx, ev, two, one, NULL, r));
    unlink(other);
    CHECK(bulk_collatz_verify(ctx, ev, one, two, &o1, r) == BULK_OK, "verify with a checkpoint");
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify(ctx, ev, one, two, &o2, r)); /* another run's */
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_verify(ctx, ev, one, two, &od, r)); /* not a regular file */

    fn = "bulk_collatz_choose";
    bulk_collatz_params p = { -1, -1, -1 };
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_choose(NULL, one, two, 0, &p));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_choose(ctx, one, two, 0, NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_choose(ctx, zero, two, 0, &p));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_choose(ctx, two, one, 0, &p));
    p = (bulk_collatz_params){ BULK_COLLATZ_MAX_D + 1, -1, -1 };
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_choose(ctx, one, two, 0, &p));
    p = (bulk_collatz_params){ -1, BULK_COLLATZ_MAX_K_GEN + 1, -1 };
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_choose(ctx, one, two, 0, &p));
    p = (bulk_collatz_params){ -1, 20, 21 };
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_choose(ctx, one, two, 0, &p));
    p = (bulk_collatz_params){ -1, 40, 20 };
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_choose(ctx, one, two, 0, &p));
    p = (bulk_collatz_params){ -1, 45, 40 };
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_choose(ctx, one, two, 0, &p));

    fn = "bulk_collatz_records_engine";
    const bulk_collatz_kind P = BULK_COLLATZ_PATH;
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_records_engine(NULL, P, one, one, two, 0, -1, -1, -1, &e));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, P, one, one, two, 0, -1, -1, -1, NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, (bulk_collatz_kind)7, one, one, two, 0, -1, -1, -1, &e));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, P, zero, one, two, 0, -1, -1, -1, &e));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, P, two, one, two, 0, -1, -1, -1, &e));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, P, one, two, one, 0, -1, -1, -1, &e));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, P, one, one, two, 0, BULK_COLLATZ_MAX_D + 1, -1, -1, &e));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, P, one, one, two, 0, 12, -1, 11, &e));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, P, one, one, two, 0, -1, 31, -1, &e));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_records_engine(ctx, P, one, one, two, 0, -1, -1, BULK_COLLATZ_MAX_A + 1, &e));

    fn = "bulk_collatz_parse_bound";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_parse_bound(NULL, v, NULL));
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_parse_bound("5", NULL, NULL));
    BAD(NULL, BULK_ERR_PARSE, fn, bulk_collatz_parse_bound("2^", v, NULL));
    BAD(NULL, BULK_ERR_PARSE, fn, bulk_collatz_parse_bound("", v, NULL));
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_parse_bound("1-2", v, NULL));
    BAD(NULL, BULK_ERR_OVERFLOW, fn, bulk_collatz_parse_bound("2^200", v, NULL));
    size_t pos = 0;
    CHECK(bulk_collatz_parse_bound("2^68+2^40", v, &pos) == BULK_OK && v[0] == (1ull << 40) && v[1] == 16 &&
              v[2] == 0, "2^68+2^40");
    CHECK(bulk_collatz_parse_bound("12x", v, &pos) == BULK_ERR_PARSE && pos == 2, "error position %zu", pos);

    fn = "bulk_collatz_delays";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_delays(NULL, ed, one, 4, d32));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays(ctx, NULL, one, 4, d32));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays(ctx, ed, one, 4, NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays(ctx, ev, one, 4, d32)); /* a = 0 */
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays(ctx, ed, zero, 4, d32));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays(ctx, ed, top, 4, d32)); /* passes 2^128 - 1 */

    fn = "bulk_collatz_delay_stats";
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(NULL, ed, one, 2, 2, sum, mn, mx));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(ctx, ed, one, 0, 2, sum, mn, mx));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(ctx, ed, one, 2, 2, NULL, mn, mx));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(ctx, ed, one, 2, 2, sum, NULL, mx));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(ctx, ed, one, 2, 2, sum, mn, NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(ctx, ed, one, 1ull << 40, 1ull << 40, sum, mn, mx));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(ctx, NULL, one, 2, 2, sum, mn, mx));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(ctx, ev, one, 2, 2, sum, mn, mx));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delay_stats(ctx, ed, zero, 2, 2, sum, mn, mx));

    fn = "bulk_collatz_exact";
    uint64_t dly, gl, pk[1];
    size_t pl;
    big[0] = 27;
    big[1] = big[2] = big[3] = 0;
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_exact(NULL, 1, &dly, &gl, pk, 1, &pl));
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_exact(big, 0, &dly, &gl, pk, 1, &pl));
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_exact(big + 1, 2, &dly, &gl, pk, 1, &pl)); /* n = 0 */
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_exact(big, 1, &dly, &gl, NULL, 1, &pl));
    big[0] = ~0ull; /* 2^64 - 1: its peak passes one limb */
    BAD(NULL, BULK_ERR_OVERFLOW, fn, bulk_collatz_exact(big, 1, &dly, &gl, pk, 1, &pl));
    CHECK(pl > 1, "the peak's length is given back: %zu", pl);

    const char *fns[2] = { "bulk_collatz_records", "bulk_collatz_records_run" };
    for (int run = 0; run < 2; run++) {
        fn = fns[run];
#define REC(c, e_, k_, f_, l_, o_, r_, n_)                                                          \
    (run ? bulk_collatz_records_run(c, e_, k_, f_, l_, o_, r_, n_) : bulk_collatz_records(c, e_, k_, f_, l_, r_, n_))
        if (!run) {
            BAD(NULL, BULK_ERR_ARG, "bulk_collatz_records", REC(NULL, ed, BULK_COLLATZ_DELAY, one, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records", REC(ctx, NULL, BULK_COLLATZ_DELAY, one, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records", REC(ctx, ed, (bulk_collatz_kind)7, one, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records", REC(ctx, ev, BULK_COLLATZ_DELAY, one, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records", REC(ctx, ed, BULK_COLLATZ_DELAY, zero, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records", REC(ctx, ed, BULK_COLLATZ_DELAY, two, one, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records", REC(ctx, ed, BULK_COLLATZ_DELAY, one, two, NULL, NULL, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records", REC(ctx, ed, BULK_COLLATZ_DELAY, one, two, NULL, &rec, NULL));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records", REC(ctx, ed, BULK_COLLATZ_DELAY, one, B((u128)1 << 61), NULL, &rec, &nrec));
        } else {
            BAD(NULL, BULK_ERR_ARG, "bulk_collatz_records_run", REC(NULL, ed, BULK_COLLATZ_DELAY, one, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, NULL, BULK_COLLATZ_DELAY, one, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, ed, (bulk_collatz_kind)7, one, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, ev, BULK_COLLATZ_PATH, one, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, ed, BULK_COLLATZ_DELAY, zero, two, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, ed, BULK_COLLATZ_DELAY, two, one, NULL, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, ed, BULK_COLLATZ_DELAY, one, two, NULL, NULL, &nrec));
            bulk_collatz_run_opts ol = { NULL, "two\nlines", 0, 0 };
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, ed, BULK_COLLATZ_DELAY, one, two, &ol, &rec, &nrec));
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, ed, BULK_COLLATZ_DELAY, one, two, &o1, &rec, &nrec)); /* verify's file */
            BAD(ctx, BULK_ERR_ARG, "bulk_collatz_records_run", REC(ctx, ed, BULK_COLLATZ_DELAY, one, two, &od, &rec, &nrec));
        }
#undef REC
    }

    fn = "bulk_collatz_delays_run";
    struct mem m = { 0 };
    bulk_collatz_delays_sink sk = { mem_begin, mem_put, mem_sync, &m }, noput = { mem_begin, NULL, mem_sync, &m };
    bulk_collatz_delays_sink nosync = { mem_begin, mem_put, NULL, &m };
    bulk_collatz_run_opts oc = { other, "run three", 0, 0 };
    BAD(NULL, BULK_ERR_ARG, fn, bulk_collatz_delays_run(NULL, ed, one, two, 0, NULL, &sk));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, NULL, one, two, 0, NULL, &sk));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ev, one, two, 0, NULL, &sk));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ed, one, two, 0, NULL, NULL));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ed, one, two, 0, NULL, &noput));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ed, one, two, 0, &oc, &nosync));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ed, zero, two, 0, NULL, &sk));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ed, two, one, 0, NULL, &sk));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ed, one, B(10), 3, NULL, &sk));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ed, one, B((u128)1 << 64), 0, NULL, &sk));
    BAD(ctx, BULK_ERR_ARG, fn, bulk_collatz_delays_run(ctx, ed, one, two, 0, &o1, &sk)); /* verify's file */
    free(m.p);
    unlink(other);
    bulk_collatz_engine_free(e0);
    free(r);
}
#undef BAD

/* ---- (c) resumable runs ---------------------------------------------------------------------- */

/* Cancels a run on its third progress call; the run must stop with a checkpoint a rerun resumes
 * past the start of the range. */
static void test_resume(bulk_ctx *ctx, bulk_collatz_engine *ev, bulk_collatz_engine *ed, const char *dir)
{
    char ck[512];
    snprintf(ck, sizeof ck, "%s/run.ck", dir);
    struct watch w;
    const u128 lo = 3, hi = ((u128)1 << 22) + 12345;
    /* records: one run against a cancelled and resumed one */
    for (int kind = 0; kind < 3; kind++) {
        bulk_collatz_record *want, *got;
        size_t nw, ng;
        CHECK(bulk_collatz_records(ctx, ed, (bulk_collatz_kind)kind, B(lo), B(hi), &want, &nw) == BULK_OK,
              "records %d", kind);
        unlink(ck);
        bulk_collatz_run_opts o = { ck, NULL, 1000, 100000 };
        memset(&w, 0, sizeof w);
        w.cancel_after = 3;
        bulk_ctx_set_progress(ctx, watch_fn, &w);
        int st = bulk_collatz_records_run(ctx, ed, (bulk_collatz_kind)kind, B(lo), B(hi), &o, &got, &ng);
        check_cancel(ctx, st, "bulk_collatz_records_run", "records run");
        memset(&w, 0, sizeof w);
        st = bulk_collatz_records_run(ctx, ed, (bulk_collatz_kind)kind, B(lo), B(hi), &o, &got, &ng);
        bulk_ctx_set_progress(ctx, NULL, NULL);
        CHECK(st == BULK_OK, "resumed records run: %s", bulk_ctx_last_error(ctx));
        CHECK(w.first_step > 0 && w.first_step < (double)(hi - lo + 1), "records resumed at %g", w.first_step);
        CHECK(st == BULK_OK && ng == nw && memcmp(got, want, nw * sizeof *want) == 0,
              "records kind %d: resumed %zu records, one run %zu", kind, ng, nw);
        if (st == BULK_OK) free(got);
        /* a completed checkpoint gives the result again */
        st = bulk_collatz_records_run(ctx, ed, (bulk_collatz_kind)kind, B(lo), B(hi), &o, &got, &ng);
        CHECK(st == BULK_OK && ng == nw && memcmp(got, want, nw * sizeof *want) == 0, "completed checkpoint");
        if (st == BULK_OK) free(got);
        free(want);
    }
    /* delays and statistics through a sink */
    for (int stats = 0; stats < 2; stats++) {
        const uint64_t batch = stats ? 1000 : 0;
        const u128 last = stats ? lo + 3000000 - 1 : hi;
        struct mem one = { 0, 0, 0, batch }, two = { 0, 0, 0, batch };
        bulk_collatz_delays_sink s1 = { mem_begin, mem_put, mem_sync, &one }, s2 = { mem_begin, mem_put, mem_sync, &two };
        bulk_collatz_run_opts o = { ck, NULL, 1000, 200000 }, none = { 0 };
        CHECK(bulk_collatz_delays_run(ctx, ed, B(lo), B(last), batch, &none, &s1) == BULK_OK, "delays run");
        unlink(ck);
        memset(&w, 0, sizeof w);
        w.cancel_after = 3;
        bulk_ctx_set_progress(ctx, watch_fn, &w);
        int st = bulk_collatz_delays_run(ctx, ed, B(lo), B(last), batch, &o, &s2);
        check_cancel(ctx, st, "bulk_collatz_delays_run", "delays run");
        mem_add(&two, "bytes a killed run wrote after its last checkpoint\n");
        memset(&w, 0, sizeof w);
        st = bulk_collatz_delays_run(ctx, ed, B(lo), B(last), batch, &o, &s2);
        bulk_ctx_set_progress(ctx, NULL, NULL);
        CHECK(st == BULK_OK, "resumed delays run: %s", bulk_ctx_last_error(ctx));
        CHECK(w.first_step > 0 && w.first_step < (double)(last - lo + 1), "delays resumed at %g", w.first_step);
        CHECK(one.n == two.n && one.n > 0 && memcmp(one.p, two.p, one.n) == 0,
              "delays%s: resumed output (%zu bytes) differs from one run (%zu bytes)", stats ? " --stats" : "",
              two.n, one.n);
        free(one.p);
        free(two.p);
    }
    /* verify */
    bulk_collatz_verify_result *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    if (!a || !b) exit(1);
    const u128 vlast = (u128)1 << 26;
    CHECK(bulk_collatz_verify(ctx, ev, B(1), B(vlast), NULL, a) == BULK_OK, "verify");
    unlink(ck);
    bulk_collatz_run_opts o = { ck, "verify test", 1000, 0 };
    memset(&w, 0, sizeof w);
    w.cancel_after = 3;
    bulk_ctx_set_progress(ctx, watch_fn, &w);
    check_cancel(ctx, bulk_collatz_verify(ctx, ev, B(1), B(vlast), &o, b), "bulk_collatz_verify", "verify");
    memset(&w, 0, sizeof w);
    int st = bulk_collatz_verify(ctx, ev, B(1), B(vlast), &o, b);
    bulk_ctx_set_progress(ctx, NULL, NULL);
    CHECK(st == BULK_OK && w.first_step > 0 && w.first_step < (double)vlast, "verify resumed at %g", w.first_step);
    CHECK(memcmp(a, b, sizeof *a) == 0, "verify: resumed result differs from one run");
    free(a);
    free(b);
    unlink(ck);
}

/* ---- (d) the defaults chooser ---------------------------------------------------------------- */

/* The former cmd_collatz_verify.c, for a range [first, last] and a backend (the twin). */
static int old_sieve_gains(int K)
{
    u128 p = 1;
    while (p < ((u128)1 << (K - 1))) p *= 3;
    return p < ((u128)1 << K);
}

static bulk_collatz_params old_defaults(u128 first, u128 last, int gpu, int conv, int d, int k, int ks)
{
    u128 len = last - first;
    int l = 0;
    while (len > 1) {
        len >>= 1;
        l++;
    }
    if (d < 0) d = gpu && conv ? 16 : 10;
    if (k < 0) {
        k = l - (gpu ? 4 : 6);
        if (k > (gpu ? 40 : 37)) k = gpu ? 40 : 37;
        if (gpu && conv && l >= 47) k = 43;
        if (k < 0) k = 0;
        while (gpu && k > 1 && !old_sieve_gains(k)) k--;
    }
    if (ks < 0) ks = k < 28 ? k : k - 28 > 16 ? k - 16 : 28;
    return (bulk_collatz_params){ d, k, ks };
}

static void test_choose(bulk_ctx *ctx)
{
    const u128 firsts[] = { 1, 5, 1000, (u128)1 << 40, ((u128)1 << 68) };
    const u128 lens[] = { 1, 2, 100, 1ull << 20, (u128)1 << 40, (u128)1 << 44, (u128)1 << 48, (u128)1 << 50,
                          (u128)1 << 60 };
    const int gpu = bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA;
    const int given[][3] = { { -1, -1, -1 }, { 12, -1, -1 }, { -1, 20, -1 }, { -1, 40, -1 }, { -1, 44, -1 },
                             { 9, 30, 26 } };
    for (size_t i = 0; i < sizeof firsts / sizeof *firsts; i++)
        for (size_t j = 0; j < sizeof lens / sizeof *lens; j++)
            for (int conv = 0; conv < 2; conv++)
                for (size_t g = 0; g < sizeof given / sizeof *given; g++) {
                    u128 f = firsts[i], l = firsts[i] + lens[j] - 1;
                    bulk_collatz_params p = { given[g][0], given[g][1], given[g][2] };
                    bulk_collatz_params want = old_defaults(f, l, gpu, conv, p.d, p.k, p.k_stored);
                    int st = bulk_collatz_choose(ctx, B(f), B(l), conv, &p);
                    CHECK(st == BULK_OK, "choose: %s", bulk_ctx_last_error(ctx));
                    CHECK(p.d == want.d && p.k == want.k && p.k_stored == want.k_stored,
                          "range %zu/%zu conv %d given %zu: d %d k %d ks %d, the CLI used %d %d %d", i, j, conv, g,
                          p.d, p.k, p.k_stored, want.d, want.k, want.k_stored);
                }
    /* the engine of `records`: every kind, a range from 1 and a part of one, with and without above */
    for (int kind = 0; kind < 3; kind++)
        for (int above = 0; above < 2; above++) {
            bulk_collatz_engine *e = NULL;
            const u128 first = above ? (u128)1 << 20 : 1;
            int st = bulk_collatz_records_engine(ctx, (bulk_collatz_kind)kind, B(1), B(first), B(first + 100000),
                                                 above && kind == BULK_COLLATZ_PATH, -1, -1, -1, &e);
            CHECK(st == BULK_OK && e, "records engine kind %d: %s", kind, bulk_ctx_last_error(ctx));
            bulk_collatz_engine_free(e);
        }
    /* a few by hand, on the CPU: the defaults of docs/collatz.md */
    if (!gpu) {
        bulk_collatz_params p = { -1, -1, -1 };
        CHECK(bulk_collatz_choose(ctx, B((u128)1 << 68), B(((u128)1 << 68) + ((u128)1 << 40) - 1), 0, &p) == BULK_OK &&
                  p.d == 10 && p.k == 33 && p.k_stored == 28,
              "2^68 + 2^40: d %d k %d ks %d", p.d, p.k, p.k_stored);
        p = (bulk_collatz_params){ -1, -1, -1 };
        CHECK(bulk_collatz_choose(ctx, B(1), B(1000), 0, &p) == BULK_OK && p.k == 3 && p.k_stored == 3, "[1, 1000]");
    }
}

int main(void)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) != BULK_OK) {
        fprintf(stderr, "cannot open a context\n");
        return 1;
    }
    const char *dir = test_scratch_dir("collatz_api");
    bulk_collatz_engine *ev, *ed;
    if (bulk_collatz_engine_new(&ev, ctx, 10, 16, 0) != BULK_OK || bulk_collatz_engine_new(&ed, ctx, 11, 0, 16) != BULK_OK) {
        fprintf(stderr, "cannot build the engines: %s\n", bulk_ctx_last_error(ctx));
        return 1;
    }
    test_progress(ctx, ev, ed);
    test_bad_args(ctx, ev, ed, dir);
    test_resume(ctx, ev, ed, dir);
    test_choose(ctx);
    bulk_collatz_engine_free(ev);
    bulk_collatz_engine_free(ed);
    bulk_ctx_close(ctx);
    if (bulk_cuda_device_count() > 0) { /* the chooser's CUDA defaults where a device is present */
        bulk_ctx *g;
        if (bulk_ctx_open(&g, BULK_BACKEND_CUDA, 0) == BULK_OK) {
            test_choose(g);
            bulk_ctx_close(g);
        }
    }
    return test_finish();
}
