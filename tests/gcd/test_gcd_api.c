/* The contract of bulk/gcd.h around the arithmetic: bad arguments of every public function
 * (status and a last error naming the function), progress through the context callback for
 * pairs and batch (a first call at 0, nondecreasing, the last at the total) and cancellation
 * (BULK_ERR_CANCELLED), and duplicate moduli (bulk_gcd_duplicates; a modulus that appears twice
 * shares itself in pairs and in batch). */
#include "bulk/bulk.h"
#include "bulk/gcd.h"
#include "test_util.h"

static void expect(const char *label, bulk_ctx *ctx, int st, int want, const char *fn, const char *what)
{
    const char *msg = bulk_ctx_last_error(ctx);
    CHECK(st == want, "%s: status %d, expected %d", label, st, want);
    CHECK(msg && strncmp(msg, fn, strlen(fn)) == 0 && msg[strlen(fn)] == ':',
          "%s: last error '%s' does not start with '%s:'", label, msg ? msg : "(null)", fn);
    CHECK(!what || (msg && strstr(msg, what)), "%s: last error '%s' does not say '%s'", label,
          msg ? msg : "(null)", what);
}

typedef struct seen {
    const char *op;
    int calls, cancel_at, bad;
    double last, total;
} seen;

static int on_progress(const bulk_progress *p, void *arg)
{
    seen *s = arg;
    if (strcmp(p->op, s->op) != 0 || (s->calls == 0 && p->done != 0) || p->done < s->last ||
        p->done > p->total)
        s->bad++;
    s->calls++;
    s->last = p->done;
    s->total = p->total;
    return s->cancel_at > 0 && s->calls >= s->cancel_at;
}

static int count_pair(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    (void)i, (void)j, (void)g, (void)gn;
    ++*(size_t *)arg;
    return 0;
}

static int stop_pair(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    (void)arg, (void)i, (void)j, (void)g, (void)gn;
    return 42;
}

static void bad_arguments(bulk_ctx *ctx)
{
    bulk_limb_t x[4] = { 6, 10, 1, 15 }, g[4];
    size_t first[4];
    expect("pairs NULL ctx", NULL, bulk_gcd_pairs(NULL, x, 2, 1, 0, count_pair, first), BULK_ERR_ARG,
           "bulk_gcd_pairs", "ctx");
    expect("pairs NULL fn", ctx, bulk_gcd_pairs(ctx, x, 2, 1, 0, NULL, NULL), BULK_ERR_ARG, "bulk_gcd_pairs", "fn");
    expect("pairs limbs 0", ctx, bulk_gcd_pairs(ctx, x, 2, 0, 0, count_pair, first), BULK_ERR_ARG,
           "bulk_gcd_pairs", "limbs 0");
    expect("pairs tile", ctx, bulk_gcd_pairs(ctx, x, 2, 1, 70000, count_pair, first), BULK_ERR_ARG,
           "bulk_gcd_pairs", "tile 70000");
    expect("pairs input 1", ctx, bulk_gcd_pairs(ctx, x, 4, 1, 0, count_pair, first), BULK_ERR_ARG,
           "bulk_gcd_pairs", "input 2");
    expect("pairs callback stops", ctx, bulk_gcd_pairs(ctx, x, 2, 1, 0, stop_pair, NULL), 42,
           "bulk_gcd_pairs", "returned 42");
    expect("batch NULL g", ctx, bulk_gcd_batch(ctx, NULL, x, 2, 1, NULL, NULL), BULK_ERR_ARG,
           "bulk_gcd_batch", "g");
    expect("batch NULL x", ctx, bulk_gcd_batch(ctx, g, NULL, 2, 1, NULL, NULL), BULK_ERR_ARG,
           "bulk_gcd_batch", "x");
    expect("batch input 1", ctx, bulk_gcd_batch(ctx, g, x, 4, 1, NULL, NULL), BULK_ERR_ARG,
           "bulk_gcd_batch", "input 2");
    expect("batch NULL ctx", NULL, bulk_gcd_batch(NULL, g, x, 2, 1, NULL, NULL), BULK_ERR_ARG,
           "bulk_gcd_batch", "ctx");
    bulk_gcd_batch_opts bad_dir = { 1, "scratch-gcd-api/no/such/dir", 1, NULL };
    bulk_limb_t y[64];
    for (int i = 0; i < 64; i++) y[i] = 1000003 + 2 * (bulk_limb_t)i;
    expect("batch spill dir", ctx, bulk_gcd_batch(ctx, g, y, 4, 1, &bad_dir, NULL), BULK_ERR_IO,
           "bulk_gcd_batch", "no/such/dir");
    expect("duplicates NULL first", ctx, bulk_gcd_duplicates(ctx, NULL, x, 2, 1), BULK_ERR_ARG,
           "bulk_gcd_duplicates", "first");
    expect("duplicates limbs", ctx, bulk_gcd_duplicates(ctx, first, x, 2, (size_t)1 << 21), BULK_ERR_ARG,
           "bulk_gcd_duplicates", "limbs");
    bulk_gcd_input in = { 0 };
    uint64_t line = 0;
    char msg[128];
    expect("input NULL in", NULL, bulk_gcd_input_add(NULL, "7\n", 2, BULK_GCD_FORMAT_TEXT, &line, msg, sizeof msg),
           BULK_ERR_ARG, "bulk_gcd_input_add", "in");
    expect("input format", NULL, bulk_gcd_input_add(&in, "7\n", 2, (bulk_gcd_format)9, &line, msg, sizeof msg),
           BULK_ERR_ARG, "bulk_gcd_input_add", "fmt 9");
    expect("input line 3", NULL, bulk_gcd_input_add(&in, "7\n9\n1x\n", 7, BULK_GCD_FORMAT_TEXT, &line, msg, sizeof msg),
           BULK_ERR_PARSE, "bulk_gcd_input_add", "line 3");
    CHECK(line == 3 && msg[0], "input: line %llu, msg '%s'", (unsigned long long)line, msg);
    bulk_gcd_input_free(&in);
}

static void progress(bulk_ctx *ctx)
{
    enum { N = 200 };
    bulk_limb_t x[N], g[N];
    for (size_t i = 0; i < N; i++) x[i] = 1000003 + 2 * i; /* many share small factors */
    size_t hits = 0;
    seen s = { "gcd.pairs", 0, 0, 0, 0, 0 };
    bulk_ctx_set_progress(ctx, on_progress, &s);
    CHECK(bulk_gcd_pairs(ctx, x, N, 1, 16, count_pair, &hits) == BULK_OK && hits > 0, "pairs run");
    CHECK(s.calls >= 2 && !s.bad && s.last == s.total && s.total == N * (N - 1) / 2.0,
          "pairs progress: %d calls (%d bad), last %.0f of %.0f", s.calls, s.bad, s.last, s.total);
    seen c = { "gcd.pairs", 0, 1, 0, 0, 0 };
    bulk_ctx_set_progress(ctx, on_progress, &c);
    expect("pairs cancelled", ctx, bulk_gcd_pairs(ctx, x, N, 1, 16, count_pair, &hits), BULK_ERR_CANCELLED,
           "bulk_gcd_pairs", "stop");
    seen b = { "gcd.batch", 0, 0, 0, 0, 0 };
    bulk_ctx_set_progress(ctx, on_progress, &b);
    bulk_gcd_batch_stats st;
    CHECK(bulk_gcd_batch(ctx, g, x, N, 1, NULL, &st) == BULK_OK, "batch run");
    CHECK(b.calls >= 2 && !b.bad && b.last == b.total && b.total == 2.0 * (double)(st.levels - 1) + 1,
          "batch progress: %d calls (%d bad), last %.0f of %.0f", b.calls, b.bad, b.last, b.total);
    seen bc = { "gcd.batch", 0, 1, 0, 0, 0 };
    bulk_ctx_set_progress(ctx, on_progress, &bc);
    expect("batch cancelled", ctx, bulk_gcd_batch(ctx, g, x, N, 1, NULL, NULL), BULK_ERR_CANCELLED,
           "bulk_gcd_batch", "stop");
    bulk_gcd_batch_opts grouped = { 1, NULL, 0, NULL }; /* a budget below the floor: groups */
    seen gc = { "gcd.batch", 0, 1, 0, 0, 0 };
    bulk_ctx_set_progress(ctx, on_progress, &gc);
    expect("grouped batch cancelled", ctx, bulk_gcd_batch(ctx, g, x, N, 1, &grouped, &st), BULK_ERR_CANCELLED,
           "bulk_gcd_batch", "stop");
    CHECK(st.groups > 1, "the grouped method was not taken (%zu groups)", st.groups);
    bulk_ctx_set_progress(ctx, NULL, NULL);
}

typedef struct pair_log {
    size_t n, i[64], j[64];
    bulk_limb_t g[64];
} pair_log;

static int log_pair(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    pair_log *p = arg;
    if (p->n < 64) p->i[p->n] = i, p->j[p->n] = j, p->g[p->n] = gn ? g[0] : 0, p->n++;
    return 0;
}

static void duplicates(bulk_ctx *ctx)
{
    /* 6 and 35 twice (35 three times), 11 once: 6 = 2*3, 35 = 5*7, 11 prime */
    bulk_limb_t x[7] = { 35, 6, 11, 35, 6, 35, 13 };
    size_t first[7], want[7] = { 0, 1, 2, 0, 1, 0, 6 };
    CHECK(bulk_gcd_duplicates(ctx, first, x, 7, 1) == BULK_OK, "duplicates status");
    for (int i = 0; i < 7; i++) CHECK(first[i] == want[i], "first[%d] = %zu, expected %zu", i, first[i], want[i]);
    pair_log p = { 0 };
    CHECK(bulk_gcd_pairs(ctx, x, 7, 1, 2, log_pair, &p) == BULK_OK, "pairs status");
    /* exactly the pairs of equal moduli, each sharing the whole modulus */
    size_t expect_i[4] = { 0, 0, 1, 3 }, expect_j[4] = { 3, 5, 4, 5 };
    CHECK(p.n == 4, "%zu pairs, expected 4", p.n);
    for (size_t k = 0; k < p.n && k < 4; k++)
        CHECK(p.i[k] == expect_i[k] && p.j[k] == expect_j[k] && p.g[k] == x[p.i[k]],
              "pair %zu: (%zu, %zu) gcd %llu", k, p.i[k], p.j[k], (unsigned long long)p.g[k]);
    bulk_limb_t g[7];
    CHECK(bulk_gcd_batch(ctx, g, x, 7, 1, NULL, NULL) == BULK_OK, "batch status");
    for (int i = 0; i < 7; i++)
        CHECK(g[i] == (i == 2 || i == 6 ? 1 : x[i]), "batch g[%d] = %llu", i, (unsigned long long)g[i]);
    CHECK(bulk_gcd_duplicates(ctx, first, x, 0, 1) == BULK_OK, "no moduli");
}

int main(void)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context\n");
        return 1;
    }
    bad_arguments(ctx);
    progress(ctx);
    duplicates(ctx);
    bulk_ctx_close(ctx);
    return test_finish();
}
