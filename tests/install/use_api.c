/* A program that uses libbulk as an outside user does: compiled against the installed headers
 * and library only (tests/install/install_pkgconfig.sh; no source directory on its include
 * path). It calls every public function of the areas below and checks a few results, so that
 * a function missing from the installed headers or the library fails to compile or link.
 * Usage: use_api SCRATCH_DIR (files are written there). Prints "ok AREA" per area. */
#include <bulk/bulk.h>
#include <bulk/circuit.h>
#include <bulk/cky.h>
#include <bulk/collatz.h>
#include <bulk/gcd.h>
#include <bulk/int.h>
#include <bulk/life.h>
#include <bulk/mpn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dir;

#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "use_api:%d: ", __LINE__);                                            \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* Counts progress calls; the last `done` seen. */
typedef struct calls {
    int n;
    double last;
} calls;

static int count_calls(const bulk_progress *p, void *user)
{
    calls *c = user;
    c->n++;
    c->last = p->done;
    return 0;
}

static bulk_ctx *ctx; /* the CPU context of every area */

static int use_context(void)
{
    bulk_backend b;
    REQUIRE(strlen(bulk_version()) > 0 && strlen(bulk_status_string(BULK_ERR_ARG)) > 0, "version, status string");
    REQUIRE(bulk_backend_parse("cpu", &b) == BULK_OK && b == BULK_BACKEND_CPU, "bulk_backend_parse");
    REQUIRE(strcmp(bulk_backend_name(b), "cpu") == 0, "bulk_backend_name");
    REQUIRE(bulk_backend_parse("gpu", &b) == BULK_ERR_ARG && strstr(bulk_ctx_last_error(NULL), "bulk_backend_parse"),
            "the thread's last error: '%s'", bulk_ctx_last_error(NULL));
    REQUIRE(bulk_cuda_device_count() >= 0, "bulk_cuda_device_count");
    REQUIRE(bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 2) == BULK_OK, "bulk_ctx_open: %s", bulk_ctx_last_error(NULL));
    REQUIRE(bulk_ctx_backend(ctx) == BULK_BACKEND_CPU && bulk_ctx_threads(ctx) == 2, "backend, threads");
    char msg[256];
    REQUIRE(bulk_tune_check("no.such=1", msg, sizeof msg) == BULK_ERR_ARG && msg[0], "bulk_tune_check");
    REQUIRE(bulk_ctx_set_tune(ctx, "no.such=1") == BULK_ERR_ARG && strstr(bulk_ctx_last_error(ctx), "bulk_ctx_set_tune"),
            "the context's last error: '%s'", bulk_ctx_last_error(ctx));
    REQUIRE(bulk_ctx_set_tune(ctx, NULL) == BULK_OK, "bulk_ctx_set_tune defaults");
    bulk_ctx_set_progress(ctx, NULL, NULL);
    return 0;
}

static int use_life(void)
{
    static const char glider[] = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";
    bulk_life_rule r = bulk_life_rule_conway(), r2;
    char name[32], path[4096], *text;
    size_t col, len;
    REQUIRE(bulk_life_rule_parse(&r2, "B36/S23", &col) == BULK_OK && bulk_life_rule_format(&r2, name, sizeof name) == BULK_OK &&
                strcmp(name, "B36/S23") == 0, "rules");
    bulk_life_pattern p, q;
    REQUIRE(bulk_life_pattern_read(&p, glider, sizeof glider - 1, "glider") == BULK_OK, "%s", bulk_ctx_last_error(NULL));
    REQUIRE(bulk_life_pattern_write_rle(&p, &text, &len) == BULK_OK, "write_rle");
    snprintf(path, sizeof path, "%s/glider.rle", dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "writing %s", path);
    free(text);
    REQUIRE(bulk_life_pattern_read_file(&q, path) == BULK_OK && bulk_life_pattern_crop(&q) == BULK_OK, "read_file, crop");
    uint64_t grid[8] = { 0 };
    grid[0] = 7; /* a blinker in an 8 x 8 torus (one word per row) */
    REQUIRE(bulk_life_grid_step(ctx, grid, 8, 8, 1, &r, 2, 0) == BULK_OK && bulk_life_grid_population(grid, 8, 8) == 3,
            "grid");
    bulk_life_options opt = { .rule = r };
    bulk_life *u;
    calls c = { 0 };
    bulk_ctx_set_progress(ctx, count_calls, &c);
    REQUIRE(bulk_life_create(&u, ctx, &q, &opt) == BULK_OK, "create: %s", bulk_ctx_last_error(ctx));
    REQUIRE(bulk_life_step(u, 40) == BULK_OK && c.n >= 2 && c.last == 40, "step, progress (%d calls)", c.n);
    bulk_ctx_set_progress(ctx, NULL, NULL);
    uint64_t pop;
    REQUIRE(bulk_life_population(u, &pop) == BULK_OK && pop == 5 && bulk_life_generation(u) == 40, "population");
    REQUIRE(bulk_life_grid_cells(u) > 0 && !bulk_life_out_of_core(u), "grid cells, in memory");
    bulk_life_pattern e, g;
    REQUIRE(bulk_life_extract(u, &e) == BULK_OK && e.width == 3 && e.height == 3, "extract");
    REQUIRE(bulk_life_region(u, e.x, e.y, 3, 3, &g) == BULK_OK, "region");
    bulk_life_pattern_free(&e), bulk_life_pattern_free(&g), bulk_life_pattern_free(&p), bulk_life_pattern_free(&q);
    bulk_life_free(u);
    return 0;
}

static int use_circuit(void)
{
    bulk_circuit *c, *d, *e;
    char path[4096];
    REQUIRE(bulk_circuit_adder(&c, 8) == BULK_OK, "adder");
    snprintf(path, sizeof path, "%s/add8.aag", dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f && bulk_circuit_write_aag(c, f) == BULK_OK && fclose(f) == 0, "write_aag");
    REQUIRE(bulk_circuit_read(&d, path) == BULK_OK, "read: %s", bulk_ctx_last_error(NULL));
    char *buf;
    size_t len;
    f = open_memstream(&buf, &len);
    REQUIRE(f && bulk_circuit_write_aig(d, f) == BULK_OK && fclose(f) == 0, "write_aig");
    REQUIRE(bulk_circuit_parse(&e, buf, len, "add8.aig") == BULK_OK, "parse: %s", bulk_ctx_last_error(NULL));
    free(buf);
    /* 64 vectors: a = b = the vector's index */
    uint64_t in[16] = { 0 }, out[9], sum[9];
    for (int v = 0; v < 64; v++)
        for (int j = 0; j < 8; j++) in[j] |= in[8 + j] |= (uint64_t)((v >> j) & 1) << v;
    calls n = { 0 };
    bulk_ctx_set_progress(ctx, count_calls, &n);
    REQUIRE(bulk_circuit_eval(ctx, e, out, in, 1) == BULK_OK && n.last == 64, "eval, progress");
    bulk_ctx_set_progress(ctx, NULL, NULL);
    REQUIRE(bulk_bitslice_add(ctx, sum, in, in + 8, 8, 1) == BULK_OK && memcmp(sum, out, sizeof sum) == 0,
            "bitslice_add and the adder circuit agree");
    bulk_circuit_free(c), bulk_circuit_free(d), bulk_circuit_free(e);
    return 0;
}

static int use_cky(void)
{
    static const char anbn[] = "S -> 'a' S 'b' | 'a' 'b'\n";
    char path[4096];
    bulk_grammar *g, *h, *r;
    REQUIRE(bulk_grammar_parse(&g, anbn, sizeof anbn - 1, "anbn", BULK_CKY_CHARS) == BULK_OK, "parse");
    snprintf(path, sizeof path, "%s/anbn.cfg", dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f && fputs(anbn, f) >= 0 && fclose(f) == 0, "writing %s", path);
    REQUIRE(bulk_grammar_read(&h, path, BULK_CKY_CHARS) == BULK_OK, "read: %s", bulk_ctx_last_error(NULL));
    REQUIRE(bulk_grammar_random(&r, 8, 32, 3, BULK_CKY_TOKENS, 1) == BULK_OK && bulk_grammar_mode(r) == BULK_CKY_TOKENS,
            "random");
    REQUIRE(bulk_grammar_nonterminals(h) > 0 && bulk_grammar_binary_rules(h) > 0 && bulk_grammar_unary_rules(h) > 0 &&
                bulk_grammar_terminals(h) == 2 && !bulk_grammar_accepts_empty(h),
            "sizes");
    int32_t a = bulk_grammar_terminal(h, "a", 1), b = bulk_grammar_terminal(h, "b", 1);
    int32_t syms[6] = { a, b, a, a, b, b };
    size_t off[4] = { 0, 2, 6, 6 };
    uint8_t acc[3], plain[3];
    calls n = { 0 };
    bulk_ctx_set_progress(ctx, count_calls, &n);
    REQUIRE(bulk_cky_parse(ctx, h, acc, syms, off, 3) == BULK_OK && n.last == 3, "parse, progress");
    bulk_ctx_set_progress(ctx, NULL, NULL);
    REQUIRE(bulk_cky_parse_plain(g, plain, syms, off, 3) == BULK_OK, "parse_plain");
    REQUIRE(acc[0] && acc[1] && !acc[2] && memcmp(acc, plain, 3) == 0, "answers");
    bulk_grammar_free(g), bulk_grammar_free(h), bulk_grammar_free(r);
    return 0;
}

/* Text <-> integers, bound expressions and the mpn layer (one 2-limb example each, checked). */
static int use_int(void)
{
    bulk_limb_t x[3], y[3];
    size_t pos, len;
    char buf[128];
    REQUIRE(bulk_int_str_size(2, 10) >= 39 && bulk_int_str_limbs(40) >= 3, "sizes");
    REQUIRE(bulk_int_from_str(x, "0x10000000000000001", 3, 0, &pos) == BULK_OK && x[0] == 1 && x[1] == 1 && !x[2],
            "bulk_int_from_str");
    REQUIRE(bulk_int_from_strn(y, "18446744073709551617xyz", 20, 3, 10, &pos) == BULK_OK && y[0] == 1 && y[1] == 1,
            "bulk_int_from_strn");
    REQUIRE(bulk_int_from_expr(x, "2^68+2^40", 3, &pos) == BULK_OK && x[0] == (1ull << 40) && x[1] == 16,
            "bulk_int_from_expr");
    REQUIRE(bulk_int_from_expr(x, "1-2", 3, &pos) == BULK_ERR_ARG, "a negative bound");
    REQUIRE(bulk_int_to_str(buf, sizeof buf, y, 3, 16, &len) == BULK_OK && strcmp(buf, "0x10000000000000001") == 0,
            "bulk_int_to_str: %s", buf);
    const char *texts[2] = { "7", "0x2a" };
    bulk_limb_t v[2];
    int8_t err[2];
    REQUIRE(bulk_int_from_strs(ctx, v, texts, 2, 1, 0, err) == BULK_OK && v[0] == 7 && v[1] == 42, "from_strs");
    char out[2 * 24];
    REQUIRE(bulk_int_to_strs(ctx, out, 24, v, 2, 1, 10) == BULK_OK && strcmp(out + 24, "42") == 0, "to_strs");
    /* mpn: (2^64 + 3) and 5, two limbs */
    bulk_limb_t a[2] = { 3, 1 }, b[2] = { 5, 0 }, r[4], q[2], t[2];
    REQUIRE(bulk_mpn_add_n(r, a, b, 2) == 0 && r[0] == 8, "add_n");
    REQUIRE(bulk_mpn_sub_n(r, b, a, 2) == 1, "sub_n borrow");
    REQUIRE(bulk_mpn_add_1(r, a, 2, 1) == 0 && r[0] == 4, "add_1");
    REQUIRE(bulk_mpn_sub_1(r, a, 2, 4) == 0 && r[0] == ~0ull && r[1] == 0, "sub_1");
    REQUIRE(bulk_mpn_add(r, a, 2, b, 1) == 0 && r[0] == 8, "add");
    REQUIRE(bulk_mpn_sub(r, a, 2, b, 1) == 0 && r[0] == ~0ull - 1 && r[1] == 0, "sub");
    REQUIRE(bulk_mpn_lshift(r, a, 2, 1) == 0 && r[0] == 6 && r[1] == 2, "lshift");
    REQUIRE(bulk_mpn_rshift(r, a, 2, 1) == (1ull << 63) && r[0] == (1ull << 63) + 1 && r[1] == 0, "rshift");
    REQUIRE(bulk_mpn_mul_1(r, a, 2, 2) == 0 && r[0] == 6, "mul_1");
    r[0] = 1, r[1] = 0;
    REQUIRE(bulk_mpn_addmul_1(r, a, 2, 2) == 0 && r[0] == 7 && r[1] == 2, "addmul_1");
    REQUIRE(bulk_mpn_submul_1(r, a, 2, 2) == 0 && r[0] == 1 && r[1] == 0, "submul_1");
    REQUIRE(bulk_mpn_cmp(a, b, 2) == 1, "cmp");
    REQUIRE(bulk_mpn_neg(t, b, 2) == 1 && t[0] == ~0ull - 4 && t[1] == ~0ull, "neg");
    bulk_mpn_mul(r, a, 2, b, 2);
    REQUIRE(r[0] == 15 && r[1] == 5 && !r[2] && !r[3], "mul");
    bulk_mpn_mul_n(r, a, b, 2);
    REQUIRE(r[0] == 15 && r[1] == 5, "mul_n");
    bulk_mpn_sqr(r, b, 2);
    REQUIRE(r[0] == 25 && !r[1], "sqr");
    bulk_mpn_mullo_n(r, a, b, 2);
    REQUIRE(r[0] == 15 && r[1] == 5, "mullo_n");
    REQUIRE(bulk_mpn_divrem_1(q, a, 2, 5) == 4, "divrem_1"); /* 2^64 = 1 mod 5 */
    bulk_limb_t *tp = malloc(8 * (bulk_mpn_divmod_scratch(2, 1) + bulk_mpn_gcd_scratch(2) +
                                  bulk_mpn_invmod_scratch(2) + bulk_mpn_powmod_scratch(2) + 16));
    REQUIRE(tp, "scratch");
    bulk_limb_t rr[1];
    bulk_mpn_divmod(q, rr, a, 2, b, 1, BULK_DIV_AUTO, tp);
    REQUIRE(rr[0] == bulk_mpn_divrem_1(t, a, 2, 5) && q[0] == t[0] && q[1] == t[1], "divmod");
    bulk_limb_t g[2], m7[2] = { 7, 0 }, e[2] = { 3, 0 }, m6[2] = { 6, 0 };
    REQUIRE(bulk_mpn_gcd(g, a, b, 2, BULK_GCD_AUTO, tp) == 1 && g[0] == 1 && g[1] == 0, "gcd");
    REQUIRE(bulk_mpn_invmod(r, b, m7, 2, tp) == BULK_OK && r[0] == 3, "invmod 5^-1 mod 7");
    REQUIRE(bulk_mpn_powmod(r, b, e, m7, 2, tp) == BULK_OK && r[0] == 125 % 7, "powmod");
    REQUIRE(bulk_mpn_powmod(r, b, e, m6, 2, tp) == BULK_ERR_EVEN_MODULUS && strstr(bulk_ctx_last_error(NULL), "powmod"),
            "powmod even modulus: '%s'", bulk_ctx_last_error(NULL));
    free(tp);
    return 0;
}

/* Duplicates and the two searches, on 15 = 3 * 5, 21 = 3 * 7, 15 again. */
static int count_pair(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    (void)i, (void)j, (void)g, (void)gn;
    ++*(int *)arg;
    return 0;
}

static int use_gcd(void)
{
    bulk_limb_t x[3] = { 15, 21, 15 };
    size_t first[3];
    REQUIRE(bulk_gcd_duplicates(ctx, first, x, 3, 1) == BULK_OK && first[0] == 0 && first[1] == 1 && first[2] == 0,
            "bulk_gcd_duplicates");
    int pairs = 0;
    calls c = { 0, 0 };
    bulk_ctx_set_progress(ctx, count_calls, &c);
    REQUIRE(bulk_gcd_pairs(ctx, x, 3, 1, 0, count_pair, &pairs) == BULK_OK && pairs == 3, "bulk_gcd_pairs: %d", pairs);
    bulk_ctx_set_progress(ctx, NULL, NULL);
    REQUIRE(c.n >= 2 && c.last == 3, "gcd.pairs progress: %d calls, last %g", c.n, c.last);
    return 0;
}

/* A delays sink that sums what it is given. */
typedef struct delay_sum {
    uint64_t numbers, total;
} delay_sum;

static int sum_begin(void *user, uint64_t done, uint64_t out_bytes)
{
    (void)done, (void)out_bytes;
    ((delay_sum *)user)->numbers = ((delay_sum *)user)->total = 0;
    return 0;
}

static int sum_put(void *user, const bulk_collatz_delays_piece *piece)
{
    delay_sum *d = user;
    for (uint64_t i = 0; i < piece->n; i++) d->total += piece->delays[i];
    d->numbers += piece->n;
    return 0;
}

static int sum_sync(void *user, uint64_t *out_bytes)
{
    *out_bytes = ((delay_sum *)user)->numbers;
    return 0;
}

/* The defaults chooser, bounds, an engine, a checkpointed verify, the delays and records of
 * 1..1000 (the records of delay below 1000 are OEIS A006877: 1, 2, 3, 6, 7, 9, 18, 25, 27, 54,
 * 73, 97, 129, 171, 231, 313, 327, 649, 703, 871). */
static int use_collatz(void)
{
    uint64_t b[3];
    size_t pos;
    REQUIRE(bulk_collatz_parse_bound("2^68+2^40", b, &pos) == BULK_OK && b[0] == (1ull << 40) && b[1] == 16 && !b[2],
            "bulk_collatz_parse_bound");
    bulk_u128 one = { 1, 0 }, last = { 1000, 0 };
    bulk_collatz_params p = { -1, -1, -1 };
    REQUIRE(bulk_collatz_choose(ctx, one, last, 0, &p) == BULK_OK && p.d == 10 && p.k == 3 && p.k_stored == 3,
            "bulk_collatz_choose: d %d k %d k_stored %d", p.d, p.k, p.k_stored);
    uint64_t counts[9];
    REQUIRE(bulk_collatz_sieve_count(ctx, 8, counts) == BULK_OK && counts[0] == 1 && counts[8] == 19, "sieve_count");
    bulk_collatz_engine *e;
    REQUIRE(bulk_collatz_engine_new(&e, ctx, 10, 6, 10) == BULK_OK, "engine_new: %s", bulk_ctx_last_error(ctx));
    REQUIRE(bulk_collatz_engine_sieve_size(e) > 0 && !bulk_collatz_engine_converge(e), "engine queries");
    REQUIRE(bulk_collatz_engine_extend(e, 2) == BULK_OK, "engine_extend: %s", bulk_ctx_last_error(ctx));
    char ck[4096];
    snprintf(ck, sizeof ck, "%s/verify.ckpt", dir);
    bulk_collatz_run_opts o = { ck, "use_api verify", 0, 0 };
    bulk_collatz_verify_result r, part, sum;
    calls c = { 0, 0 };
    bulk_ctx_set_progress(ctx, count_calls, &c);
    REQUIRE(bulk_collatz_verify(ctx, e, one, last, &o, &r) == BULK_OK, "verify: %s", bulk_ctx_last_error(ctx));
    bulk_ctx_set_progress(ctx, NULL, NULL);
    REQUIRE(r.covered.lo == 1000 && c.n >= 2 && c.last == 1000, "verify: covered %llu, %d progress calls",
            (unsigned long long)r.covered.lo, c.n);
    bulk_collatz_verify_result_init(&sum);
    bulk_u128 mid = { 500, 0 }, mid1 = { 501, 0 };
    REQUIRE(bulk_collatz_verify_chunk(e, one, mid, &part) == BULK_OK, "verify_chunk");
    bulk_collatz_verify_result_merge(&sum, &part);
    REQUIRE(bulk_collatz_verify_chunk(e, mid1, last, &part) == BULK_OK, "verify_chunk");
    bulk_collatz_verify_result_merge(&sum, &part);
    REQUIRE(sum.checksum.lo == r.checksum.lo && sum.covered.lo == 1000, "chunks merge to the whole");
    bulk_collatz_engine_free(e);
    REQUIRE(bulk_collatz_engine_new(&e, ctx, 10, 6, 12) == BULK_OK, "engine_new a=12");
    uint32_t delays[1000];
    uint64_t dsum[10];
    uint32_t dmin[10], dmax[10];
    REQUIRE(bulk_collatz_delays(ctx, e, one, 1000, delays) == BULK_OK && delays[26] == 111, "delays: 27 -> %u",
            delays[26]);
    REQUIRE(bulk_collatz_delay_stats(ctx, e, one, 100, 10, dsum, dmin, dmax) == BULK_OK && dmax[0] == 118, "delay_stats");
    delay_sum ds;
    bulk_collatz_delays_sink sink = { sum_begin, sum_put, sum_sync, &ds };
    snprintf(ck, sizeof ck, "%s/delays.ckpt", dir);
    bulk_collatz_run_opts od = { ck, NULL, 0, 128 };
    REQUIRE(bulk_collatz_delays_run(ctx, e, one, last, 0, &od, &sink) == BULK_OK && ds.numbers == 1000,
            "delays_run: %s", bulk_ctx_last_error(ctx));
    uint64_t total = 0;
    for (int i = 0; i < 1000; i++) total += delays[i];
    REQUIRE(ds.total == total, "delays_run sums %llu, delays %llu", (unsigned long long)ds.total,
            (unsigned long long)total);
    static const unsigned a006877[] = { 1, 2, 3, 6, 7, 9, 18, 25, 27, 54, 73, 97, 129, 171, 231, 313, 327, 649, 703, 871 };
    bulk_collatz_record *recs, *recs2;
    size_t n, n2;
    REQUIRE(bulk_collatz_records(ctx, e, BULK_COLLATZ_DELAY, one, last, &recs, &n) == BULK_OK && n == 20,
            "records: %zu", n);
    for (size_t i = 0; i < n; i++) REQUIRE(recs[i].n.lo == a006877[i], "record %zu: %llu", i, (unsigned long long)recs[i].n.lo);
    snprintf(ck, sizeof ck, "%s/records.ckpt", dir);
    REQUIRE(bulk_collatz_records_run(ctx, e, BULK_COLLATZ_DELAY, one, last, &od, &recs2, &n2) == BULK_OK && n2 == n &&
                memcmp(recs, recs2, n * sizeof *recs) == 0,
            "records_run: %s", bulk_ctx_last_error(ctx));
    free(recs), free(recs2);
    uint64_t dl, gl, pk[2];
    size_t pkl;
    const uint64_t n27 = 27;
    REQUIRE(bulk_collatz_exact(&n27, 1, &dl, &gl, pk, 2, &pkl) == BULK_OK && dl == 111 && gl == 96 && pk[0] == 9232,
            "exact 27");
    REQUIRE(bulk_collatz_engine_set_converge(e) == BULK_OK && bulk_collatz_engine_converge(e) == 1, "set_converge: %s",
            bulk_ctx_last_error(ctx));
    bulk_collatz_engine_free(e);
    return 0;
}

/* The areas, in order (context first: it opens the context the others use). */
static const struct {
    const char *name;
    int (*use)(void);
} areas[] = {
    { "context", use_context },
    { "life", use_life },
    { "circuit", use_circuit },
    { "cky", use_cky },
    { "int", use_int },
    { "gcd", use_gcd },
    { "collatz", use_collatz },
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: use_api SCRATCH_DIR\n");
        return 2;
    }
    dir = argv[1];
    for (size_t i = 0; i < sizeof areas / sizeof areas[0]; i++) {
        if (areas[i].use() != 0) return 1;
        printf("ok %s\n", areas[i].name);
    }
    bulk_ctx_close(ctx);
    return 0;
}
