/* Records runs split into parts (bulk_collatz_records_part_run), through include/bulk/ only:
 *  (a) for every kind, the lists of consecutive parts of a range (random cut points, 2..7
 *      parts, 1..3 threads), read in order against a running maximum, equal the list of one
 *      run over the range: from 1 (path records with the convergence-mode sieve), on windows
 *      near 2^40 and 2^64 (path records below and above 2A), and path records with the
 *      convergence-mode sieve around a record above 2^60 with the previous record's peak as the
 *      above value (a bound on every peak below the window, as above requires); a part far above the range's first number decides path records by pre-drop peaks
 *      (its list equals that of the same window with above = 0);
 *  (b) a part run cancelled with a checkpoint and resumed gives its uninterrupted list, and
 *      the checkpoint of a part is refused by the part of another range (its origin differs);
 *  (c) bad arguments: origin 0, origin above first, above with delay or glide records.
 * Usage: test_collatz_records_parts [--seed S]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bulk/bulk.h"
#include "bulk/collatz.h"
#include "test_util.h"

typedef unsigned __int128 u128;
static bulk_u128 B(u128 v) { return (bulk_u128){ (uint64_t)v, (uint64_t)(v >> 64) }; }
static u128 U(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }

static int wide_cmp(const bulk_collatz_wide *a, const bulk_collatz_wide *b)
{
    for (int i = BULK_COLLATZ_WIDE_LIMBS - 1; i >= 0; i--)
        if (a->limb[i] != b->limb[i]) return a->limb[i] < b->limb[i] ? -1 : 1;
    return 0;
}

static const char *const kinds[] = { "delay", "glide", "path" };

/* The whole run of [lo, hi] (with above for path records when not NULL). */
static int whole(bulk_ctx *ctx, const bulk_collatz_engine *e, int kind, u128 lo, u128 hi,
                 const bulk_collatz_wide *above, bulk_collatz_record **r, size_t *n)
{
    if (above) return bulk_collatz_path_records_run(ctx, e, B(lo), B(hi), above, NULL, r, n);
    return bulk_collatz_records_run(ctx, e, (bulk_collatz_kind)kind, B(lo), B(hi), NULL, r, n);
}

/* (a) [lo, hi] cut at nparts - 1 random points, merged, against one run. */
static void check_split(bulk_ctx *ctx, const bulk_collatz_engine *e, int kind, u128 lo, u128 hi,
                        const bulk_collatz_wide *above, int nparts, uint64_t *rng, const char *what)
{
    bulk_collatz_record *want, *got = NULL;
    size_t nw, ng = 0, cap = 0;
    int st = whole(ctx, e, kind, lo, hi, above, &want, &nw);
    CHECK(st == BULK_OK, "%s %s: one run: %s", kinds[kind], what, bulk_ctx_last_error(ctx));
    if (st) return;
    u128 cuts[8];
    cuts[0] = lo;
    for (int p = 1; p < nparts; p++) cuts[p] = lo + 1 + (u128)(test_rand(rng) % (uint64_t)(hi - lo));
    cuts[nparts] = hi + 1;
    for (int p = 1; p < nparts; p++) /* sorted, possibly equal: empty parts are skipped */
        for (int q = p; q > 1 && cuts[q] < cuts[q - 1]; q--) {
            u128 t = cuts[q];
            cuts[q] = cuts[q - 1];
            cuts[q - 1] = t;
        }
    for (int p = 0; p < nparts && st == BULK_OK; p++) {
        if (cuts[p] == cuts[p + 1]) continue;
        bulk_collatz_record *r;
        size_t n;
        st = bulk_collatz_records_part_run(ctx, e, (bulk_collatz_kind)kind, B(lo), B(cuts[p]), B(cuts[p + 1] - 1),
                                           above, NULL, &r, &n);
        CHECK(st == BULK_OK, "%s %s: part %d: %s", kinds[kind], what, p, bulk_ctx_last_error(ctx));
        if (st) break;
        for (size_t i = 0; i < n; i++) {
            CHECK(U(r[i].n) >= cuts[p] && U(r[i].n) < cuts[p + 1], "%s %s: part %d lists n outside it", kinds[kind],
                  what, p);
            if (ng && wide_cmp(&r[i].value, &got[ng - 1].value) <= 0) continue;
            if (ng == cap) {
                cap = cap ? 2 * cap : 64;
                got = realloc(got, cap * sizeof *got);
                if (!got) exit(2);
            }
            got[ng++] = r[i];
        }
        free(r);
    }
    if (st == BULK_OK)
        CHECK(ng == nw && (nw == 0 || memcmp(got, want, nw * sizeof *want) == 0),
              "%s %s, %d parts: merged %zu records, one run %zu", kinds[kind], what, nparts, ng, nw);
    free(got);
    free(want);
}

/* (a) a part of [1, ...] near 2^40 uses pre-drop peaks and the convergence-mode sieve (valid as
 * the range starts at 1) from threshold 0: the same engine run as its window with above = 0, so
 * the same list (the whole trajectory's peak would decide below 2 first in the window's own
 * run, which lists other values). */
static void check_far_part(bulk_ctx *ctx, const bulk_collatz_engine *e)
{
    const u128 f = ((u128)1 << 40) + 99, l = f + (1u << 18);
    const bulk_collatz_wide zero = { { 0, 0, 0, 0 } };
    bulk_collatz_record *a, *b, *c;
    size_t na, nb, nc;
    int st = bulk_collatz_records_part_run(ctx, e, BULK_COLLATZ_PATH, B(1), B(f), B(l), NULL, NULL, &a, &na);
    CHECK(st == BULK_OK, "far part: %s", bulk_ctx_last_error(ctx));
    int st2 = bulk_collatz_path_records_run(ctx, e, B(f), B(l), &zero, NULL, &b, &nb);
    CHECK(st2 == BULK_OK, "far window, above 0: %s", bulk_ctx_last_error(ctx));
    int st3 = bulk_collatz_records_run(ctx, e, BULK_COLLATZ_PATH, B(f), B(l), NULL, &c, &nc);
    CHECK(st3 == BULK_OK, "far window: %s", bulk_ctx_last_error(ctx));
    if (st || st2 || st3) return;
    CHECK(na == nb && memcmp(a, b, na * sizeof *a) == 0, "far part: %zu entries, window with above 0: %zu", na, nb);
    /* the window's own run takes whole-trajectory peaks, which give another list */
    CHECK(na != nc || memcmp(a, c, na * sizeof *a) != 0, "far part: the list of the window's own run");
    free(a);
    free(b);
    free(c);
}

static int cancel_third(const bulk_progress *p, void *user)
{
    (void)p;
    return ++*(int *)user >= 3;
}

/* (b) a part cancelled on its third progress call, then resumed. */
static void check_resume(bulk_ctx *ctx, const bulk_collatz_engine *e, int kind, const char *dir)
{
    char ck[512];
    snprintf(ck, sizeof ck, "%s/part-%s.ck", dir, kinds[kind]);
    unlink(ck);
    const u128 origin = 5, f = ((u128)1 << 21) + 3, l = ((u128)1 << 22) + 77;
    bulk_collatz_record *want, *got;
    size_t nw, ng;
    int st = bulk_collatz_records_part_run(ctx, e, (bulk_collatz_kind)kind, B(origin), B(f), B(l), NULL, NULL,
                                           &want, &nw);
    CHECK(st == BULK_OK, "%s part: %s", kinds[kind], bulk_ctx_last_error(ctx));
    if (st) return;
    bulk_collatz_run_opts o = { ck, NULL, 1000, 100000 };
    int calls = 0;
    bulk_ctx_set_progress(ctx, cancel_third, &calls);
    st = bulk_collatz_records_part_run(ctx, e, (bulk_collatz_kind)kind, B(origin), B(f), B(l), NULL, &o, &got, &ng);
    bulk_ctx_set_progress(ctx, NULL, NULL);
    CHECK(st == BULK_ERR_CANCELLED, "%s part: cancel gave %d", kinds[kind], st);
    CHECK(access(ck, F_OK) == 0, "%s part: no checkpoint after the cancel", kinds[kind]);
    st = bulk_collatz_records_part_run(ctx, e, (bulk_collatz_kind)kind, B(origin), B(f), B(l), NULL, &o, &got, &ng);
    CHECK(st == BULK_OK && ng == nw && memcmp(got, want, nw * sizeof *want) == 0,
          "%s part: resumed %zu records, one run %zu (%s)", kinds[kind], st ? 0 : ng, nw,
          st ? bulk_ctx_last_error(ctx) : "ok");
    if (st == BULK_OK) free(got);
    /* the same numbers as a part of a range from elsewhere: another run */
    st = bulk_collatz_records_part_run(ctx, e, (bulk_collatz_kind)kind, B(origin + 1), B(f), B(l), NULL, &o, &got, &ng);
    CHECK(st == BULK_ERR_ARG && strstr(bulk_ctx_last_error(ctx), "bulk_collatz_records_part_run"),
          "%s part: another origin's checkpoint gave %d (%s)", kinds[kind], st, bulk_ctx_last_error(ctx));
    if (st == BULK_OK) free(got);
    free(want);
    unlink(ck);
}

/* (c) */
static void check_bad(bulk_ctx *ctx, const bulk_collatz_engine *e)
{
    bulk_collatz_record *r;
    size_t n;
    const bulk_collatz_wide v = { { 5, 0, 0, 0 } };
    const struct {
        u128 o, f;
        int kind;
        const bulk_collatz_wide *above;
        const char *why;
    } bad[] = { { 0, 10, 0, NULL, "origin" }, { 11, 10, 0, NULL, "origin" }, { 1, 10, 0, &v, "above" },
                { 1, 10, 1, &v, "above" } };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int st = bulk_collatz_records_part_run(ctx, e, (bulk_collatz_kind)bad[i].kind, B(bad[i].o), B(bad[i].f), B(100),
                                               bad[i].above, NULL, &r, &n);
        const char *m = bulk_ctx_last_error(ctx);
        CHECK(st == BULK_ERR_ARG && strncmp(m, "bulk_collatz_records_part_run: ", 31) == 0 && strstr(m, bad[i].why),
              "bad case %zu: %d '%s'", i, st, m);
    }
}

int main(int argc, char **argv)
{
    uint64_t rng = test_seed(argc, argv);
    const char *dir = test_scratch_dir("collatz_records_parts");
    bulk_ctx *ctx[3];
    bulk_collatz_engine *e[3], *ec[3]; /* ec: path records with the convergence-mode sieve */
    for (int t = 0; t < 3; t++) {
        if (bulk_ctx_open(&ctx[t], BULK_BACKEND_CPU, t + 1) != BULK_OK ||
            bulk_collatz_engine_new(&e[t], ctx[t], 11, 12, 16) != BULK_OK ||
            bulk_collatz_engine_new(&ec[t], ctx[t], 11, 12, 16) != BULK_OK ||
            bulk_collatz_engine_set_converge(ec[t]) != BULK_OK) {
            fprintf(stderr, "cannot open the contexts and engines\n");
            return 1;
        }
    }
    const u128 w40 = ((u128)1 << 40) + 12345, w64 = ((u128)1 << 64) + 3;
    /* the path record R above 2^60 and the peak of the one before it, R0: a bound on every peak
     * below R0's successor R, as above requires */
    const u128 R0 = 1038743969413717663ull, R = 1980976057694848447ull;
    bulk_collatz_wide p0 = { { 0, 0, 0, 0 } };
    const uint64_t r0[1] = { (uint64_t)R0 };
    size_t pl;
    if (bulk_collatz_exact(r0, 1, NULL, NULL, p0.limb, BULK_COLLATZ_WIDE_LIMBS, &pl) != BULK_OK) {
        fprintf(stderr, "bulk_collatz_exact: %s\n", bulk_ctx_last_error(NULL));
        return 1;
    }
    /* ranges of about 2^lg numbers: smaller under the sanitizers */
    const char *san = getenv("BULK_SANITIZED");
    const int lg = san && *san && strcmp(san, "0") ? 20 : 22;
    for (int kind = 0; kind < 3; kind++) {
        for (int t = 0; t < 3; t++) {
            const int np = 2 + (int)(test_rand(&rng) % 6);
            /* from 1: path records with the convergence-mode sieve, as the CLI runs them */
            check_split(ctx[t], kind == 2 ? ec[t] : e[t], kind, 1, ((u128)1 << lg) + 12345, NULL, np, &rng, "from 1");
            /* near 2^40: whole-trajectory peaks below 2A, pre-drop peaks above */
            check_split(ctx[t], e[t], kind, w40, w40 + ((u128)1 << (kind == 2 ? lg - 5 : lg)), NULL, np, &rng,
                        "near 2^40");
            if (kind == 2) {
                check_split(ctx[t], e[t], kind, (u128)1 << 17, (u128)5 << 16, NULL, np, &rng, "2^17 to 2.5 2^17");
                check_split(ctx[t], e[t], kind, w64, w64 + (1u << 13), NULL, np, &rng, "near 2^64");
                check_split(ctx[t], ec[t], kind, R - (1u << 20), R + (1u << 20), &p0, np, &rng, "around R, above P0");
            }
        }
    }
    check_far_part(ctx[1], ec[1]);
    for (int kind = 0; kind < 3; kind++) check_resume(ctx[1], e[1], kind, dir);
    check_bad(ctx[0], e[0]);
    for (int t = 0; t < 3; t++) {
        bulk_collatz_engine_free(e[t]);
        bulk_collatz_engine_free(ec[t]);
        bulk_ctx_close(ctx[t]);
    }
    return test_finish();
}
