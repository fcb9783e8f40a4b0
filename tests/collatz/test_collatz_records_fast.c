/* The fast glide and delay records engines (src/collatz/records_glide.c, records_delay.c):
 *  (a) from 1 to 2^32 (2^26 under BULK_SANITIZED) every glide and delay record equals the OEIS
 *      lists of ../shared/testdata/collatz (A060412/A217934, A006877/A006878): one call of
 *      bulk_collatz_records, so the delay exclusions relative to the range's start all apply;
 *  (b) random windows near 2^40, 2^64, 2^90 (delays: two-word class states) and 2^126 equal the
 *      per-number path (bulk_cz_glide_of / bulk_cz_delay_of and a running maximum) on 1, 2 and
 *      3 threads;
 *  (c) delay ranges [F, ~4F] that start at a random F (the exclusions switch on inside them)
 *      equal the maximum scan of bulk_collatz_delays;
 *  (d) bulk_collatz_records_run in random pieces, and cancelled with a checkpoint then resumed,
 *      equals one call.
 * Usage: test_collatz_records_fast [--seed S] [--data DIR]; the seed is printed. */
#include <string.h>
#include <unistd.h>

#include "cz_test.h"
#include "test_util.h"
#include "collatz/records_fast.h"
#include <time.h>

#include "splitmix.h"

/* the low 128 bits of a record value (delays and glides fit in limb[0]) */
static inline nv_u128 V(bulk_collatz_wide w) { return ((nv_u128)w.limb[1] << 64) | w.limb[0]; }

static double t0;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* prints the time since the last lap */
static void lap(const char *what)
{
    double t = now();
    printf("%-40s %.2f s\n", what, t - t0);
    fflush(stdout);
    t0 = t;
}

/* The per-number path: value of n by kind, and a running maximum. */
static void ref_records(const bulk_collatz_engine *e, bulk_collatz_kind kind, nv_u128 lo, nv_u128 hi,
                        bulk_collatz_record **out, size_t *n)
{
    size_t cap = 64;
    *out = malloc(cap * sizeof **out);
    *n = 0;
    uint64_t best = 0;
    for (nv_u128 x = lo;; x++) {
        uint64_t v;
        if (kind == BULK_COLLATZ_DELAY) {
            v = (uint64_t)bulk_cz_delay_of(e, U(x));
        } else if (x == 1) {
            goto next;
        } else {
            u128 g;
            bulk_cz_glide_of(e, U(x), &g);
            v = (uint64_t)g;
        }
        if (*n == 0 || v > best) {
            if (*n == cap) *out = realloc(*out, (cap *= 2) * sizeof **out);
            (*out)[(*n)++] = (bulk_collatz_record){ U(x), { { v, 0, 0, 0 } } };
            best = v;
        }
    next:
        if (x == hi) break;
    }
}

static int same(const bulk_collatz_record *a, size_t na, const bulk_collatz_record *b, size_t nb, const char *what)
{
    int ok = na == nb;
    for (size_t i = 0; ok && i < na; i++)
        ok = N(a[i].n) == N(b[i].n) && V(a[i].value) == V(b[i].value);
    if (!ok) {
        fprintf(stderr, "%s: %zu records vs %zu\n", what, na, nb);
        for (size_t i = 0; i < na || i < nb; i++)
            fprintf(stderr, "  %s %s | %s %s\n", i < na ? S(N(a[i].n)) : "-", i < na ? S(V(a[i].value)) : "-",
                    i < nb ? S(N(b[i].n)) : "-", i < nb ? S(V(b[i].value)) : "-");
    }
    return ok;
}

/* (a) */
static void oeis(const char *dir, bulk_collatz_kind kind, const char *file, int bits)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "SKIP: %s not found\n", path);
        exit(77);
    }
    bulk_collatz_record want[128];
    size_t nw = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        unsigned long long n, v;
        if (line[0] == '#' || sscanf(line, "%llu %llu", &n, &v) != 2) continue;
        if (n >> bits) continue;
        want[nw++] = (bulk_collatz_record){ { n, 0 }, { { v, 0, 0, 0 } } };
    }
    fclose(f);
    bulk_ctx *ctx = ctx_threads(0);
    bulk_collatz_engine *e;
    bulk_collatz_engine_new(&e, ctx, 11, 0, 20);
    bulk_collatz_record *got;
    size_t ng;
    int st = bulk_collatz_records(ctx, e, kind, U(1), U(((nv_u128)1 << bits) - 1), &got, &ng);
    CHECK(st == BULK_OK, "records %s: %s", file, bulk_ctx_last_error(ctx));
    if (st == BULK_OK) CHECK(same(got, ng, want, nw, file), "%s: records below 2^%d differ", file, bits);
    free(got);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
}

/* (b) and (c): the fast engine on [lo, hi] with t threads against reference records. */
static void window(const bulk_collatz_engine *e, bulk_collatz_kind kind, nv_u128 lo, nv_u128 hi,
                   const bulk_collatz_record *want, size_t nw, int t)
{
    bulk_ctx *ctx = ctx_threads(t);
    bulk_collatz_record *got;
    size_t ng;
    int st = bulk_collatz_records(ctx, e, kind, U(lo), U(hi), &got, &ng);
    char what[160];
    snprintf(what, sizeof what, "%s records [%s, %s] on %d threads", kind == BULK_COLLATZ_DELAY ? "delay" : "glide",
             S(lo), S(hi), t);
    CHECK(st == BULK_OK && same(got, ng, want, nw, what), "%s differ (status %d)", what, st);
    free(got);
    bulk_ctx_close(ctx);
}

/* (c): records of [lo, hi] from the delays of every number. */
static void delays_scan(bulk_ctx *ctx, const bulk_collatz_engine *e, nv_u128 lo, nv_u128 hi,
                        bulk_collatz_record **out, size_t *n)
{
    uint64_t cnt = (uint64_t)(hi - lo + 1);
    uint32_t *d = malloc(cnt * sizeof *d);
    bulk_collatz_delays(ctx, e, U(lo), cnt, d);
    size_t cap = 64;
    *out = malloc(cap * sizeof **out);
    *n = 0;
    for (uint64_t i = 0; i < cnt; i++) {
        if (*n && d[i] <= V((*out)[*n - 1].value)) continue;
        if (*n == cap) *out = realloc(*out, (cap *= 2) * sizeof **out);
        (*out)[(*n)++] = (bulk_collatz_record){ U(lo + i), { { d[i], 0, 0, 0 } } };
    }
    free(d);
}

/* (d): cancel after `after` progress calls */
static int cancel_cb(const bulk_progress *p, void *user)
{
    (void)p;
    int *left = user;
    return --*left <= 0;
}

static void runs(const bulk_collatz_engine *e, bulk_collatz_kind kind, nv_u128 lo, nv_u128 hi, uint64_t *rng)
{
    bulk_ctx *ctx = ctx_threads(2);
    bulk_collatz_record *one, *got;
    size_t n1, ng;
    bulk_collatz_records(ctx, e, kind, U(lo), U(hi), &one, &n1);
    bulk_collatz_run_opts o = { NULL, NULL, 0, 1 + bulk_splitmix64(rng) % (1u << 22) };
    int st = bulk_collatz_records_run(ctx, e, kind, U(lo), U(hi), &o, &got, &ng);
    CHECK(st == BULK_OK && same(got, ng, one, n1, "pieces"), "records_run in pieces of %llu differs",
          (unsigned long long)o.piece);
    free(got);
    char ck[64];
    snprintf(ck, sizeof ck, "/tmp/bulk-recfast-%d.ckpt", (int)getpid());
    unlink(ck);
    bulk_collatz_run_opts oc = { ck, NULL, 0, 1u << 20 };
    int left = 3;
    bulk_ctx_set_progress(ctx, cancel_cb, &left);
    st = bulk_collatz_records_run(ctx, e, kind, U(lo), U(hi), &oc, &got, &ng);
    CHECK(st == BULK_ERR_CANCELLED, "the run was not cancelled: %d", st);
    bulk_ctx_set_progress(ctx, NULL, NULL);
    st = bulk_collatz_records_run(ctx, e, kind, U(lo), U(hi), &oc, &got, &ng);
    CHECK(st == BULK_OK && same(got, ng, one, n1, "resumed"), "the resumed run differs (%d)", st);
    free(got);
    free(one);
    unlink(ck);
    bulk_ctx_close(ctx);
}

int main(int argc, char **argv)
{
    uint64_t seed = 0;
    const char *dir = "tests/data/collatz";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--data")) dir = argv[i + 1];
    }
    if (!seed) seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    printf("seed %llu (replay: --seed %llu)\n", (unsigned long long)seed, (unsigned long long)seed);
    const int quick = getenv("BULK_SANITIZED") != NULL;
    uint64_t rng = seed;
    t0 = now();

    oeis(dir, BULK_COLLATZ_GLIDE, "glide_records.txt", quick ? 26 : 32);
    lap("glide records from 1 (OEIS)");
    oeis(dir, BULK_COLLATZ_DELAY, "delay_records.txt", quick ? 26 : 32);
    lap("delay records from 1 (OEIS)");

    bulk_ctx *ctx = ctx_threads(2);
    bulk_collatz_engine *e;
    bulk_collatz_engine_new(&e, ctx, 11, 0, 20);
    /* 2^126: class states past 2^128 (members one by one) and overflowing glides (exact path) */
    const int tops[4] = { 40, 64, 90, 126 };
    for (int w = 0; w < 4; w++) {
        for (int kind = 0; kind < 2; kind++) {
            bulk_collatz_kind k = kind ? BULK_COLLATZ_GLIDE : BULK_COLLATZ_DELAY;
            if (k == BULK_COLLATZ_GLIDE && tops[w] == 90) continue;
            nv_u128 lo = ((nv_u128)1 << tops[w]) + (bulk_splitmix64(&rng) % ((uint64_t)1 << 30));
            int bits = tops[w] == 126 ? 10 : quick ? 16 : 19;
            nv_u128 hi = lo + (bulk_splitmix64(&rng) % ((uint64_t)1 << bits));
            bulk_collatz_record *want;
            size_t nw;
            ref_records(e, k, lo, hi, &want, &nw);
            for (int t = 1; t <= 3; t++) window(e, k, lo, hi, want, nw, t);
            free(want);
        }
    }
    lap("windows near 2^40, 2^64, 2^90, 2^126");
    for (int i = 0; i < (quick ? 1 : 3); i++) {
        /* the exclusions start at max(1.5 lo, 2^25) */
        nv_u128 lo = ((nv_u128)1 << 22) + bulk_splitmix64(&rng) % ((uint64_t)(quick ? 1 : 3) << 22);
        nv_u128 hi = (quick ? ((nv_u128)1 << 25) : 3 * lo) + bulk_splitmix64(&rng) % lo;
        bulk_collatz_record *want;
        size_t nw;
        delays_scan(ctx, e, lo, hi, &want, &nw);
        window(e, BULK_COLLATZ_DELAY, lo, hi, want, nw, 1 + i % 3);
        free(want);
    }
    lap("delay ranges [F, ~4F]");
    const int rb = quick ? 23 : 26;
    runs(e, BULK_COLLATZ_GLIDE, ((nv_u128)1 << 40) + bulk_splitmix64(&rng) % 1000000, ((nv_u128)1 << 40) + (1u << rb), &rng);
    runs(e, BULK_COLLATZ_DELAY, 1 + bulk_splitmix64(&rng) % 1000, (nv_u128)1 << rb, &rng);
    lap("pieces and resume");
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    if (test_failures) {
        fprintf(stderr, "%d failures (seed %llu)\n", test_failures, (unsigned long long)seed);
        return 1;
    }
    printf("ok\n");
    return 0;
}
