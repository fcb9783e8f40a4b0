/* Pre-drop peaks and path records (collatz/peak.c, records_path.c) against a step-by-step
 * reference in 320-bit arithmetic written here: random n near 2^40, 2^64 and 2^100 (thresholds
 * 0, just below and at the peak), and the path records of windows (with and without an above
 * value, on 1, 2 and 3 threads, in pieces and resumed from a checkpoint; from 1 also with a
 * convergence-mode sieve) against the reference's prefix maxima; verify's peak, peak_n and hits
 * likewise (threads, sieve sizes, parts merged, checkpoint, convergence mode from 1); the fast
 * paths of records_path.c (random d, k, thread counts and pieces on windows near 2^40, 2^64,
 * 2^100; several chunks per wave; convergence-mode engines above the OEIS record before random
 * windows below 2^32, and from 1). Usage: test_collatz_peak [--seed S] [--data DIR] [SCRATCH_DIR]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bulk/collatz.h"
#include "collatz/peak.h"
#include "cz_test.h"
#include "test_util.h"

#define RL NV_WIDE /* reference limbs: 320 bits */
typedef struct {
    uint64_t w[RL];
} ref;

/* the pre-drop peak of n (n >= 1), one step at a time (naive.h) */
static ref ref_predrop(nv_u128 n)
{
    ref pk;
    if (!naive_predrop(n, pk.w)) {
        fprintf(stderr, "reference overflow\n");
        exit(1);
    }
    return pk;
}

static bulk_collatz_wide wide_of(const ref *r)
{
    bulk_collatz_wide w;
    memcpy(w.limb, r->w, sizeof w.limb);
    return w;
}

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state += 0x9E3779B97F4A7C15ull;
    uint64_t z = rng_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void check_numbers(const bulk_collatz_engine *e, int bits, int count)
{
    for (int i = 0; i < count; i++) {
        nv_u128 n = ((nv_u128)1 << bits) + (((nv_u128)rnd() << 64 | rnd()) & (((nv_u128)1 << (bits - 2)) - 1));
        if (i % 4 == 0) n |= 1;
        const ref want = ref_predrop(n);
        const bulk_collatz_wide w = wide_of(&want);
        bulk_collatz_wide zero, got, below = w;
        memset(&zero, 0, sizeof zero);
        int r = bulk_cz_predrop(e, n, &zero, &got);
        CHECK(r == 1 && cz_wide_cmp(&got, &w) == 0, "predrop(%s) with threshold 0", S(n));
        /* just below the peak: found exactly; at the peak: not above it */
        for (int l = 0; l < BULK_COLLATZ_WIDE_LIMBS; l++)
            if (below.limb[l]--) break;
        r = bulk_cz_predrop(e, n, &below, &got);
        CHECK(r == 1 && cz_wide_cmp(&got, &w) == 0, "predrop(%s) with threshold peak - 1", S(n));
        r = bulk_cz_predrop(e, n, &w, &got);
        CHECK(r == 0, "predrop(%s) with threshold peak", S(n));
    }
}

/* the records of [lo, lo + len) by pre-drop peak above *t (reference) */
static size_t ref_records(nv_u128 lo, uint64_t len, bulk_collatz_wide t, bulk_collatz_record *out)
{
    size_t m = 0;
    for (uint64_t i = 0; i < len; i++) {
        const ref p = ref_predrop(lo + i);
        const bulk_collatz_wide w = wide_of(&p);
        if (cz_wide_cmp(&w, &t) <= 0) continue;
        t = w;
        out[m].n = U(lo + i);
        out[m].value = w;
        m++;
    }
    return m;
}

static int same(const bulk_collatz_record *a, size_t na, const bulk_collatz_record *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

static void check_windows(const char *dir, int bits, uint64_t len)
{
    const nv_u128 lo = ((nv_u128)1 << bits) + ((((nv_u128)rnd() << 64) | rnd()) & (((nv_u128)1 << (bits - 2)) - 1));
    bulk_collatz_record *want = malloc(len * sizeof *want);
    bulk_collatz_wide zero;
    memset(&zero, 0, sizeof zero);
    const size_t nw = ref_records(lo, len, zero, want);
    /* an above value between the first and the last record: the later records only */
    bulk_collatz_wide mid = want[nw / 2].value;
    const size_t skip = nw / 2 + 1;
    char ck[512];
    snprintf(ck, sizeof ck, "%s/peak_ck_%d.txt", dir, bits);
    for (int t = 1; t <= 3; t++) {
        bulk_ctx *ctx = ctx_threads(t);
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, ctx, 11, t == 1 ? 0 : 12, 16) != BULK_OK) exit(1);
        bulk_collatz_record *got = NULL;
        size_t ng = 0;
        int st = bulk_collatz_path_records_run(ctx, e, U(lo), U(lo + len - 1), &zero, NULL, &got, &ng);
        CHECK(st == BULK_OK && same(want, nw, got, ng), "2^%d window, above 0, %d threads: %zu records, want %zu",
              bits, t, ng, nw);
        free(got);
        /* pieces of 1000 numbers, a checkpoint every piece; then a rerun of the finished file */
        remove(ck);
        bulk_collatz_run_opts o = { ck, NULL, 1e-9, 1000 };
        for (int pass = 0; pass < 2; pass++) {
            st = bulk_collatz_path_records_run(ctx, e, U(lo), U(lo + len - 1), &mid, &o, &got, &ng);
            CHECK(st == BULK_OK && same(want + skip, nw - skip, got, ng),
                  "2^%d window, above the middle record, pieces, pass %d, %d threads: %zu records, want %zu", bits,
                  pass, t, ng, nw - skip);
            free(got);
        }
        bulk_collatz_engine_free(e);
        bulk_ctx_close(ctx);
    }
    remove(ck);
    free(want);
}

/* From 1 every pre-drop record is a path record, and a convergence-mode sieve is valid (every
 * number it skips joins a smaller number of the range): both engines, with and without above 0,
 * against the reference. */
static void check_from_one(uint64_t len)
{
    bulk_collatz_record *want = malloc(len * sizeof *want);
    bulk_collatz_wide zero;
    memset(&zero, 0, sizeof zero);
    const size_t nw = ref_records(1, len, zero, want);
    for (int conv = 0; conv < 2; conv++) {
        bulk_ctx *ctx = ctx_threads(2);
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, ctx, 10, 12, 16) != BULK_OK) exit(1);
        if (conv && bulk_collatz_engine_set_converge(e) != BULK_OK) exit(1);
        bulk_collatz_record *got = NULL;
        size_t ng = 0;
        int st = bulk_collatz_records_run(ctx, e, BULK_COLLATZ_PATH, U(1), U(len), NULL, &got, &ng);
        CHECK(st == BULK_OK && same(want, nw, got, ng), "1..%llu, converge %d: %zu records, want %zu",
              (unsigned long long)len, conv, ng, nw);
        free(got);
        st = bulk_collatz_path_records_run(ctx, e, U(1), U(len), &zero, NULL, &got, &ng);
        CHECK(st == BULK_OK && same(want, nw, got, ng), "1..%llu above 0, converge %d: %zu records, want %zu",
              (unsigned long long)len, conv, ng, nw);
        free(got);
        bulk_collatz_engine_free(e);
        bulk_ctx_close(ctx);
    }
    free(want);
}

/* records_path.c's fast paths on windows of 2^16 .. 2^18 numbers at a random unaligned start
 * near 2^bits: random d and k (blocks partly inside the window, the small sieve of 16 bits where
 * the engine's bound still beats the threshold), 1..3 threads, random piece sizes, above 0 and
 * above the middle record; a plain-sieve engine, so the pre-drop prefix maxima are the answer. */
static void check_windows_fast(int bits, int rounds)
{
    bulk_collatz_wide zero;
    memset(&zero, 0, sizeof zero);
    for (int i = 0; i < rounds; i++) {
        const uint64_t len = ((uint64_t)1 << 16) + rnd() % ((uint64_t)3 << 16);
        const nv_u128 lo = ((nv_u128)1 << bits) + ((((nv_u128)rnd() << 64) | rnd()) & (((nv_u128)1 << (bits - 2)) - 1));
        const int d = 8 + (int)(rnd() % 5), k = 12 + (int)(rnd() % 8), t = 1 + (int)(rnd() % 3);
        const uint64_t piece = rnd() % 2 ? 0 : ((uint64_t)1 << 14) + rnd() % 100000;
        bulk_collatz_record *want = malloc(len * sizeof *want), *got = NULL;
        const size_t nw = ref_records(lo, len, zero, want);
        const size_t skip = nw / 2 + 1;
        bulk_ctx *ctx = ctx_threads(t);
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, ctx, d, k, 16) != BULK_OK) exit(1);
        bulk_collatz_run_opts o = { NULL, NULL, 0, piece };
        size_t ng = 0;
        int st = bulk_collatz_path_records_run(ctx, e, U(lo), U(lo + len - 1), &zero, piece ? &o : NULL, &got, &ng);
        CHECK(st == BULK_OK && same(want, nw, got, ng), "2^%d + window %s..+%llu, d %d, k %d, %d threads, piece %llu: "
              "%zu records, want %zu", bits, S(lo), (unsigned long long)len, d, k, t, (unsigned long long)piece, ng, nw);
        free(got);
        st = bulk_collatz_path_records_run(ctx, e, U(lo), U(lo + len - 1), &want[nw / 2].value, piece ? &o : NULL, &got, &ng);
        CHECK(st == BULK_OK && same(want + skip, nw - skip, got, ng), "2^%d + window %s..+%llu above the middle "
              "record, d %d, k %d, %d threads: %zu records, want %zu", bits, S(lo), (unsigned long long)len, d, k, t, ng,
              nw - skip);
        free(got);
        bulk_collatz_engine_free(e);
        bulk_ctx_close(ctx);
        free(want);
    }
}

/* Several chunks in one wave (a window of more than 2^22 numbers on 3 threads) near 2^bits. */
static void check_chunks(int bits)
{
    const uint64_t len = ((uint64_t)1 << 23) + rnd() % 100000;
    const nv_u128 lo = ((nv_u128)1 << bits) + ((((nv_u128)rnd() << 64) | rnd()) & (((nv_u128)1 << (bits - 2)) - 1));
    bulk_collatz_wide zero;
    memset(&zero, 0, sizeof zero);
    bulk_collatz_record *want = malloc(len * sizeof *want), *got = NULL;
    const size_t nw = ref_records(lo, len, zero, want);
    bulk_ctx *ctx = ctx_threads(3);
    bulk_collatz_engine *e;
    if (bulk_collatz_engine_new(&e, ctx, 11, 16, 16) != BULK_OK) exit(1);
    size_t ng = 0;
    int st = bulk_collatz_path_records_run(ctx, e, U(lo), U(lo + len - 1), &zero, NULL, &got, &ng);
    CHECK(st == BULK_OK && same(want, nw, got, ng), "2^%d window %s..+%llu, 3 threads: %zu records, want %zu", bits,
          S(lo), (unsigned long long)len, ng, nw);
    free(got);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    free(want);
}

/* The path records of the OEIS file (n, peak), up to 2^32. */
static size_t read_oeis(const char *dir, bulk_collatz_record *out, size_t cap)
{
    char path[512], line[256];
    snprintf(path, sizeof path, "%s/path_records.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "SKIP: %s not found\n", path);
        exit(77);
    }
    size_t m = 0;
    while (m < cap && fgets(line, sizeof line, f)) {
        unsigned long long n, v;
        if (line[0] == '#' || sscanf(line, "%llu %llu", &n, &v) != 2) continue;
        out[m++] = (bulk_collatz_record){ U(n), { { v, 0, 0, 0 } } };
    }
    fclose(f);
    return m;
}

/* Convergence-mode engines with a valid above value (the peak of the last record below the
 * window, from the OEIS list): random windows in [2^24, 2^32), half of them around a record,
 * give exactly the OEIS records inside (checked against the reference too); and 1..2^bits1
 * from 1 (the small sieve below 2^k and where the threshold is still small). */
static void check_converge(const char *dir, int rounds, int bits1)
{
    bulk_collatz_record oe[128];
    const size_t no = read_oeis(dir, oe, 128);
    for (int i = 0; i < rounds; i++) {
        const uint64_t len = ((uint64_t)1 << 16) + rnd() % ((uint64_t)3 << 16);
        nv_u128 lo = ((nv_u128)1 << 24) + rnd() % (((uint64_t)1 << 32) - ((uint64_t)1 << 24) - len);
        if (i % 2) {
            size_t r = 0;
            while (N(oe[r].n) < ((nv_u128)1 << 24)) r++;
            r += rnd() % (no - r);
            lo = N(oe[r].n) - rnd() % len;
        }
        size_t below = 0; /* the last record below lo */
        while (below + 1 < no && N(oe[below + 1].n) < lo) below++;
        const int k = 14 + (int)(rnd() % 7), t = 1 + (int)(rnd() % 3);
        bulk_collatz_record *want = malloc(len * sizeof *want), *got = NULL;
        const size_t nw = ref_records(lo, len, oe[below].value, want);
        size_t nr = 0;
        while (below + 1 + nr < no && N(oe[below + 1 + nr].n) < lo + len) nr++;
        CHECK(same(want, nw, oe + below + 1, nr), "reference vs OEIS on %s..+%llu", S(lo), (unsigned long long)len);
        bulk_ctx *ctx = ctx_threads(t);
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, ctx, 11, k, 16) != BULK_OK || bulk_collatz_engine_set_converge(e) != BULK_OK)
            exit(1);
        size_t ng = 0;
        int st = bulk_collatz_path_records_run(ctx, e, U(lo), U(lo + len - 1), &oe[below].value, NULL, &got, &ng);
        CHECK(st == BULK_OK && same(want, nw, got, ng), "converge, above the record before %s..+%llu, k %d, "
              "%d threads: %zu records, want %zu", S(lo), (unsigned long long)len, k, t, ng, nw);
        free(got);
        bulk_collatz_engine_free(e);
        bulk_ctx_close(ctx);
        free(want);
    }
    size_t nw = 0;
    while (nw < no && N(oe[nw].n) < ((nv_u128)1 << bits1)) nw++;
    for (int t = 1; t <= 2; t++) {
        bulk_ctx *ctx = ctx_threads(t);
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, ctx, 11, bits1 - 4, 16) != BULK_OK || bulk_collatz_engine_set_converge(e) != BULK_OK)
            exit(1);
        bulk_collatz_record *got = NULL;
        size_t ng = 0;
        int st = bulk_collatz_records_run(ctx, e, BULK_COLLATZ_PATH, U(1), U(((nv_u128)1 << bits1) - 1), NULL, &got, &ng);
        CHECK(st == BULK_OK && same(oe, nw, got, ng), "converge 1..2^%d, k %d, %d threads: %zu records, want %zu", bits1,
              bits1 - 4, t, ng, nw);
        free(got);
        bulk_collatz_engine_free(e);
        bulk_ctx_close(ctx);
    }
}

static int same_peaks(const bulk_collatz_verify_result *a, const bulk_collatz_verify_result *b)
{
    return cz_wide_cmp(&a->peak, &b->peak) == 0 && cz_eq(a->peak_n, b->peak_n) && a->n_peak_hits == b->n_peak_hits &&
           a->peak_hits_lost == b->peak_hits_lost &&
           (a->n_peak_hits == 0 || !memcmp(a->peak_hits, b->peak_hits, a->n_peak_hits * sizeof a->peak_hits[0]));
}

/* verify's peak, peak_n and hits (above the middle record) on a window against the reference:
 * 1..3 threads, sieves of 0, 8 and 12 bits, two parts merged, a finished checkpoint read back */
static void check_verify(const char *dir, int bits, uint64_t len)
{
    const nv_u128 lo = ((nv_u128)1 << bits) + ((((nv_u128)rnd() << 64) | rnd()) & (((nv_u128)1 << (bits - 2)) - 1));
    bulk_collatz_record *want = malloc(len * sizeof *want);
    bulk_collatz_wide zero;
    memset(&zero, 0, sizeof zero);
    const size_t nw = ref_records(lo, len, zero, want);
    const bulk_collatz_wide mid = want[nw / 2].value;
    const size_t skip = nw / 2 + 1;
    char ck[512];
    snprintf(ck, sizeof ck, "%s/peak_vck_%d.txt", dir, bits);
    bulk_collatz_verify_result *r = malloc(sizeof *r), *r2 = malloc(sizeof *r2), *r3 = malloc(sizeof *r3);
    for (int t = 1; t <= 3; t++) {
        bulk_ctx *ctx = ctx_threads(t);
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, ctx, 10, 4 * t, 0) != BULK_OK) exit(1);
        bulk_collatz_engine_set_peaks(e, &mid);
        int st = bulk_collatz_verify(ctx, e, U(lo), U(lo + len - 1), NULL, r);
        CHECK(st == BULK_OK && cz_wide_cmp(&r->peak, &want[nw - 1].value) == 0 && N(r->peak_n) == N(want[nw - 1].n),
              "verify 2^%d window, %d threads: peak %s at %s", bits, t, S(N(r->peak_n)), S(N(want[nw - 1].n)));
        CHECK(st == BULK_OK && same(want + skip, nw - skip, r->peak_hits, r->n_peak_hits),
              "verify 2^%d window, %d threads: %u hits, want %zu", bits, t, r->n_peak_hits, nw - skip);
        /* two parts merged */
        const nv_u128 cut = lo + len / 3;
        bulk_collatz_verify_result_init(r3);
        st = bulk_collatz_verify(ctx, e, U(lo), U(cut), NULL, r2);
        bulk_collatz_verify_result_merge(r3, r2);
        if (st == BULK_OK) st = bulk_collatz_verify(ctx, e, U(cut + 1), U(lo + len - 1), NULL, r2);
        bulk_collatz_verify_result_merge(r3, r2);
        CHECK(st == BULK_OK && same_peaks(r, r3), "verify 2^%d window, %d threads: parts merged differ", bits, t);
        /* a checkpoint written at the end and read back */
        remove(ck);
        bulk_collatz_run_opts o = { ck, "peak test", 1e-9, 0 };
        st = bulk_collatz_verify(ctx, e, U(lo), U(lo + len - 1), &o, r2);
        if (st == BULK_OK) st = bulk_collatz_verify(ctx, e, U(lo), U(lo + len - 1), &o, r3);
        CHECK(st == BULK_OK && same_peaks(r, r2) && same_peaks(r, r3), "verify 2^%d window, %d threads: checkpoint", bits, t);
        bulk_collatz_engine_free(e);
        bulk_ctx_close(ctx);
    }
    remove(ck);
    free(r);
    free(r2);
    free(r3);
    free(want);
}

/* verify --converge from 1 with hits above 0: the path records */
static void check_verify_converge(uint64_t len)
{
    bulk_collatz_record *want = malloc(len * sizeof *want);
    bulk_collatz_wide zero;
    memset(&zero, 0, sizeof zero);
    const size_t nw = ref_records(1, len, zero, want);
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    bulk_ctx *ctx = ctx_threads(2);
    bulk_collatz_engine *e;
    if (bulk_collatz_engine_new(&e, ctx, 10, 12, 0) != BULK_OK || bulk_collatz_engine_set_converge(e) != BULK_OK) exit(1);
    bulk_collatz_engine_set_peaks(e, &zero);
    int st = bulk_collatz_verify(ctx, e, U(1), U(len), NULL, r);
    CHECK(st == BULK_OK && same(want, nw, r->peak_hits, r->n_peak_hits), "verify --converge 1..%llu: %u hits, want %zu",
          (unsigned long long)len, r->n_peak_hits, nw);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    free(r);
    free(want);
}

int main(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    const char *dir = "/tmp", *data = "tests/data/collatz";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--data") && i + 1 < argc) data = argv[++i];
        else dir = argv[i];
    }
    printf("seed %llu (replay: --seed %llu)\n", (unsigned long long)seed, (unsigned long long)seed);
    rng_state = seed;
    const int sanitized = getenv("BULK_SANITIZED") && strcmp(getenv("BULK_SANITIZED"), "0");
    bulk_ctx *ctx = ctx_threads(1);
    bulk_collatz_engine *e;
    if (bulk_collatz_engine_new(&e, ctx, 11, 0, 16) != BULK_OK) return 1;
    const int count = sanitized ? 300 : 3000;
    check_numbers(e, 40, count);
    check_numbers(e, 64, count);
    check_numbers(e, 100, count);
    check_numbers(e, 126, count / 4);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    const uint64_t len = sanitized ? 1 << 12 : 1 << 14;
    check_windows(dir, 40, len);
    check_windows(dir, 64, len);
    check_windows(dir, 100, len);
    check_from_one(sanitized ? 1 << 16 : 1 << 20);
    const int rounds = sanitized ? 2 : 8;
    check_windows_fast(40, rounds);
    check_windows_fast(64, rounds);
    check_windows_fast(100, rounds);
    if (!sanitized) {
        check_chunks(40);
        check_chunks(64);
    }
    check_converge(data, rounds, sanitized ? 22 : 26);
    check_verify(dir, 40, len);
    check_verify(dir, 64, len);
    check_verify(dir, 100, len);
    check_verify_converge(sanitized ? 1 << 16 : 1 << 20);
    if (test_failures) printf("%d failures (seed %llu)\n", test_failures, (unsigned long long)seed);
    return test_failures ? 1 : 0;
}
