/* Tests of the BPBC circuit evaluator and the AIGER reader/writers:
 * - random and-inverter graphs, written as ASCII AIGER with shuffled gate order and scattered
 *   variable numbers, evaluated by bulk_circuit_eval and by a gate-by-gate reference that works
 *   on the file's own numbering (one Boolean per signal, one vector at a time);
 * - aag and aig round trips (structure and values);
 * - the ripple-carry adder against integer addition (all inputs for k <= 6, random up to 32),
 *   and bulk_bitslice_add likewise;
 * - malformed files: status BULK_ERR_PARSE and the line named in the message.
 * Seeds are printed; replay with --seed S. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/bulk.h"
#include "bulk/circuit.h"
#include "test_util.h"

/* ---- a random AIG in the file's numbering -------------------------------------------------- */
typedef struct raw_aig {
    unsigned nin, nand, nout, maxvar;
    unsigned *in_lit;          /* [nin] */
    unsigned *lhs, *r0, *r1;   /* [nand], in definition (topological) order */
    unsigned *out;             /* [nout] */
} raw_aig;

static void raw_free(raw_aig *g)
{
    free(g->in_lit), free(g->lhs), free(g->r0), free(g->r1), free(g->out);
}

static void raw_random(raw_aig *g, uint64_t *s)
{
    g->nin = (unsigned)(test_rand(s) % 12);
    g->nand = (unsigned)(test_rand(s) % 200);
    g->nout = 1 + (unsigned)(test_rand(s) % 8);
    unsigned n = g->nin + g->nand;
    g->maxvar = n + (unsigned)(test_rand(s) % 5); /* some unused variables */
    /* a random injective numbering of the n defined signals into 1..maxvar */
    unsigned *perm = malloc(sizeof(unsigned) * (g->maxvar + 1));
    for (unsigned i = 0; i < g->maxvar; i++) perm[i] = i + 1;
    for (unsigned i = g->maxvar; i > 1; i--) {
        unsigned j = (unsigned)(test_rand(s) % i), t = perm[i - 1];
        perm[i - 1] = perm[j], perm[j] = t;
    }
    g->in_lit = malloc(sizeof(unsigned) * (g->nin + 1));
    g->lhs = malloc(sizeof(unsigned) * (g->nand + 1));
    g->r0 = malloc(sizeof(unsigned) * (g->nand + 1));
    g->r1 = malloc(sizeof(unsigned) * (g->nand + 1));
    g->out = malloc(sizeof(unsigned) * g->nout);
    for (unsigned i = 0; i < g->nin; i++) g->in_lit[i] = 2 * perm[i];
    for (unsigned a = 0; a < g->nand; a++) {
        unsigned avail = g->nin + a; /* signals defined before this gate, plus constants */
        unsigned pick[2];
        for (int k = 0; k < 2; k++) {
            unsigned r = (unsigned)(test_rand(s) % (avail + 1));
            unsigned lit = r == avail ? 0 : 2 * perm[r];
            pick[k] = lit | (unsigned)(test_rand(s) & 1);
        }
        g->lhs[a] = 2 * perm[g->nin + a];
        g->r0[a] = pick[0], g->r1[a] = pick[1];
    }
    for (unsigned o = 0; o < g->nout; o++) {
        unsigned r = (unsigned)(test_rand(s) % (n + 1));
        g->out[o] = (r == n ? 0 : 2 * perm[r]) | (unsigned)(test_rand(s) & 1);
    }
    free(perm);
}

/* Literal l of the raw numbering with its variable multiplied by `spread`. */
static unsigned long long spread_lit(unsigned l, unsigned long long spread)
{
    return 2 * (l >> 1) * spread | (l & 1u);
}

/* ASCII text with the gates in a shuffled order (ASCII AIGER allows any order). With spread
 * > 1 variable v is written as v * spread: sparse numbers up to M near 2^31 that the reader
 * must not index by (the circuit is the same). */
static char *raw_text(const raw_aig *g, uint64_t *s, size_t *len, unsigned long long spread)
{
    size_t cap = 64 + 40 * (g->nin + g->nand + g->nout);
    char *t = malloc(cap), *p = t;
    p += sprintf(p, "aag %llu %u 0 %u %u\n", g->maxvar * spread, g->nin, g->nout, g->nand);
    for (unsigned i = 0; i < g->nin; i++) p += sprintf(p, "%llu\n", spread_lit(g->in_lit[i], spread));
    for (unsigned o = 0; o < g->nout; o++) p += sprintf(p, "%llu\n", spread_lit(g->out[o], spread));
    unsigned *ord = malloc(sizeof(unsigned) * (g->nand + 1));
    for (unsigned a = 0; a < g->nand; a++) ord[a] = a;
    for (unsigned a = g->nand; a > 1; a--) {
        unsigned j = (unsigned)(test_rand(s) % a), x = ord[a - 1];
        ord[a - 1] = ord[j], ord[j] = x;
    }
    for (unsigned a = 0; a < g->nand; a++)
        p += sprintf(p, "%llu %llu %llu\n", spread_lit(g->lhs[ord[a]], spread), spread_lit(g->r0[ord[a]], spread),
                     spread_lit(g->r1[ord[a]], spread));
    p += sprintf(p, "i0 first_input\nc\nany comment text\n");
    free(ord);
    *len = (size_t)(p - t);
    return t;
}

/* The reference: one vector, signals as 0/1 in the file numbering, gates in definition order. */
static void raw_eval(const raw_aig *g, const unsigned char *x, unsigned char *y)
{
    unsigned char *v = calloc(g->maxvar + 1, 1);
#define LIT(l) ((unsigned char)(v[(l) >> 1] ^ ((l) & 1)))
    for (unsigned i = 0; i < g->nin; i++) v[g->in_lit[i] >> 1] = x[i];
    for (unsigned a = 0; a < g->nand; a++) v[g->lhs[a] >> 1] = LIT(g->r0[a]) & LIT(g->r1[a]);
    for (unsigned o = 0; o < g->nout; o++) y[o] = LIT(g->out[o]);
#undef LIT
    free(v);
}

static int get_bit(const uint64_t *planes, size_t nw, unsigned plane, size_t vec)
{
    return (int)((planes[plane * nw + vec / 64] >> (vec % 64)) & 1);
}

/* Evaluates c on random bit planes and compares every vector with raw_eval. */
static void check_against_raw(bulk_ctx *ctx, const bulk_circuit *c, const raw_aig *g, uint64_t *s, const char *what)
{
    size_t nw = 1 + (size_t)(test_rand(s) % 40);
    uint64_t *in = malloc(sizeof(uint64_t) * nw * (g->nin + 1));
    uint64_t *out = malloc(sizeof(uint64_t) * nw * g->nout);
    for (size_t i = 0; i < nw * g->nin; i++) in[i] = test_structured_limb(s, (int)(test_rand(s) % 8));
    int st = bulk_circuit_eval(ctx, c, out, in, nw);
    CHECK(st == BULK_OK, "%s: eval status %d", what, st);
    unsigned char x[16], y[16];
    int bad = 0;
    for (size_t vec = 0; vec < nw * 64 && !bad; vec++) {
        for (unsigned i = 0; i < g->nin; i++) x[i] = (unsigned char)get_bit(in, nw, i, vec);
        raw_eval(g, x, y);
        for (unsigned o = 0; o < g->nout; o++)
            if (y[o] != get_bit(out, nw, o, vec)) {
                CHECK(0, "%s: vector %zu output %u: got %d want %d", what, vec, o, get_bit(out, nw, o, vec), y[o]);
                bad = 1;
                break;
            }
    }
    free(in), free(out);
}

static int same_structure(const bulk_circuit *a, const bulk_circuit *b)
{
    if (a->maxvar != b->maxvar || a->inputs != b->inputs || a->latches != b->latches || a->outputs != b->outputs ||
        a->ands != b->ands)
        return 0;
    for (uint32_t o = 0; o < a->outputs; o++)
        if (a->out[o] != b->out[o]) return 0;
    for (uint32_t g = 0; g < a->ands; g++) {
        uint32_t x0 = a->and_rhs[2 * g], x1 = a->and_rhs[2 * g + 1], y0 = b->and_rhs[2 * g], y1 = b->and_rhs[2 * g + 1];
        if (!((x0 == y0 && x1 == y1) || (x0 == y1 && x1 == y0))) return 0; /* aig sorts operands */
    }
    for (uint32_t l = 0; l < a->latches; l++)
        if (a->latch_next[l] != b->latch_next[l] || a->latch_init[l] != b->latch_init[l]) return 0;
    return 1;
}

static bulk_circuit *roundtrip(const bulk_circuit *c, int binary)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int st = binary ? bulk_circuit_write_aig(c, f) : bulk_circuit_write_aag(c, f);
    fclose(f);
    CHECK(st == BULK_OK, "write %s: %d", binary ? "aig" : "aag", st);
    bulk_circuit *back = NULL;
    const char *err = bulk_ctx_last_error(NULL); /* the thread's last error */
    st = bulk_circuit_parse(&back, buf, len, "roundtrip");
    CHECK(st == BULK_OK, "reparse %s: %s", binary ? "aig" : "aag", err);
    free(buf);
    return back;
}

static void test_random_circuits(bulk_ctx *ctx, bulk_ctx *ctx1, uint64_t seed, int rounds)
{
    uint64_t s = seed;
    for (int r = 0; r < rounds; r++) {
        raw_aig g;
        raw_random(&g, &s);
        size_t len;
        /* every fourth round numbers the variables sparsely, up to M near 2^31 - 2 */
        unsigned long long spread = r % 4 == 3 ? 2147483646ull / (g.maxvar ? g.maxvar : 1) : 1;
        char *text = raw_text(&g, &s, &len, spread);
        bulk_circuit *c = NULL;
        const char *err = bulk_ctx_last_error(NULL); /* the thread's last error */
        int st = bulk_circuit_parse(&c, text, len, "random.aag");
        CHECK(st == BULK_OK, "round %d: parse failed: %s", r, err);
        if (st == BULK_OK && spread > 1) { /* the same circuit as the dense numbering gives */
            size_t len1;
            char *text1 = raw_text(&g, &s, &len1, 1);
            bulk_circuit *c1 = NULL;
            CHECK(bulk_circuit_parse(&c1, text1, len1, "dense.aag") == BULK_OK, "dense: %s", err);
            if (c1) CHECK(c1->inputs == c->inputs && c1->ands == c->ands && c1->outputs == c->outputs,
                          "round %d: sparse numbering changed the counts", r);
            bulk_circuit_free(c1);
            free(text1);
        }
        if (st == BULK_OK) {
            check_against_raw(r % 2 ? ctx : ctx1, c, &g, &s, "random circuit");
            for (int bin = 0; bin <= 1; bin++) {
                bulk_circuit *b = roundtrip(c, bin);
                if (b) {
                    CHECK(same_structure(c, b), "round %d: %s round trip changed the circuit", r, bin ? "aig" : "aag");
                    check_against_raw(ctx, b, &g, &s, bin ? "aig round trip" : "aag round trip");
                }
                bulk_circuit_free(b);
            }
        }
        bulk_circuit_free(c);
        free(text);
        raw_free(&g);
    }
}

/* Reads sum bits (k+1 planes) of vector v. */
static uint64_t planes_value(const uint64_t *p, size_t nw, unsigned nbits, size_t v)
{
    uint64_t x = 0;
    for (unsigned j = 0; j < nbits; j++) x |= (uint64_t)get_bit(p, nw, j, v) << j;
    return x;
}

static void set_value(uint64_t *p, size_t nw, unsigned nbits, size_t v, uint64_t x)
{
    for (unsigned j = 0; j < nbits; j++)
        if ((x >> j) & 1) p[j * nw + v / 64] |= 1ull << (v % 64);
}

static void test_adder(bulk_ctx *ctx, uint64_t seed)
{
    uint64_t s = seed;
    for (unsigned k = 1; k <= 32; k++) {
        bulk_circuit *c = NULL;
        int st = bulk_circuit_adder(&c, k);
        CHECK(st == BULK_OK && c, "adder %u: %d", k, st);
        if (!c) continue;
        CHECK(c->inputs == 2 * k && c->outputs == k + 1 && c->ands == 7 * k - 4, "adder %u shape", k);
        int exhaustive = k <= 6;
        size_t nvec = exhaustive ? (size_t)1 << (2 * k) : 64 * 50;
        size_t nw = (nvec + 63) / 64;
        uint64_t *in = calloc(nw * 2 * k, 8), *out = calloc(nw * (k + 1), 8), *sum = calloc(nw * (k + 1), 8);
        uint64_t *av = malloc(8 * nvec), *bv = malloc(8 * nvec);
        uint64_t mask = (k == 64) ? ~0ull : (1ull << k) - 1;
        for (size_t v = 0; v < nvec; v++) {
            uint64_t a, b;
            if (exhaustive) a = v & mask, b = v >> k;
            else {
                a = test_structured_limb(&s, (int)(v % 8)) & mask;
                b = test_structured_limb(&s, (int)(v / 8 % 8)) & mask;
            }
            av[v] = a, bv[v] = b;
            set_value(in, nw, k, v, a);
            set_value(in + nw * k, nw, k, v, b);
        }
        CHECK(bulk_circuit_eval(ctx, c, out, in, nw) == BULK_OK, "adder eval");
        CHECK(bulk_bitslice_add(ctx, sum, in, in + nw * k, k, nw) == BULK_OK, "bitslice add");
        for (size_t v = 0; v < nvec; v++) {
            uint64_t want = av[v] + bv[v];
            uint64_t got = planes_value(out, nw, k + 1, v), got2 = planes_value(sum, nw, k + 1, v);
            if (got != want || got2 != want) {
                CHECK(0, "k=%u: %llu + %llu: circuit %llu, bitslice %llu", k, (unsigned long long)av[v],
                      (unsigned long long)bv[v], (unsigned long long)got, (unsigned long long)got2);
                break;
            }
        }
        /* the aag text round trip of the adder evaluates the same */
        bulk_circuit *b = roundtrip(c, 0);
        if (b) CHECK(same_structure(c, b), "adder %u aag round trip", k);
        bulk_circuit_free(b);
        free(in), free(out), free(sum), free(av), free(bv);
        bulk_circuit_free(c);
    }
    bulk_circuit *c;
    CHECK(bulk_circuit_adder(&c, 0) == BULK_ERR_ARG, "adder 0 bits");
}

static void expect_error(const char *text, size_t len, const char *want_line, const char *what)
{
    bulk_circuit *c = NULL;
    const char *err = bulk_ctx_last_error(NULL); /* the thread's last error */
    int st = bulk_circuit_parse(&c, text, len, "bad.aag");
    CHECK(st == BULK_ERR_PARSE && c == NULL, "%s: status %d", what, st);
    CHECK(strstr(err, want_line) != NULL, "%s: message '%s' lacks '%s'", what, err, want_line);
    bulk_circuit_free(c);
}
#define BAD(text, line, what) expect_error(text, sizeof(text) - 1, line, what)

static void test_malformed(bulk_ctx *ctx)
{
    BAD("", "bad.aag:1:", "empty file");
    BAD("aag 1 1 0 1\n2\n2\n", "bad.aag:1:", "short header");
    BAD("aag 1 1 0 1 0 1\n2\n2\n", "bad.aag:1:", "bad-state section");
    BAD("aag 1 2 0 0 0\n2\n4\n", "bad.aag:1:", "M < I+L+A");
    BAD("aag 2 2 0 0 0\n2\n3\n", "bad.aag:3:", "odd input literal");
    BAD("aag 2 2 0 0 0\n2\n2\n", "bad.aag:3:", "input defined twice");
    BAD("aag 2 1 0 1 1\n2\n4\n4 2 6\n", "bad.aag:4:", "literal above 2M+1");
    BAD("aag 3 1 0 1 1\n2\n4\n4 2 6\n", "bad.aag:4:", "undefined variable");
    BAD("aag 3 1 0 1 2\n2\n4\n4 2 6\n6 4 2\n", "bad.aag:", "cycle");
    BAD("aag 3 1 0 1 2\n2\n4\n4 2 x\n6 4 2\n", "bad.aag:4:", "garbage in gate");
    BAD("aag 2 1 0 1 1\n2\n4\n", "bad.aag:4:", "missing gate line");
    BAD("aag 2 1 0 1 1\n2\n8\n4 2 2\n", "bad.aag:3:", "output literal too large");
    BAD("aig 3 2 0 1 1\n6\n\x02", "bad.aag:3:", "truncated binary gate");
    BAD("aig 3 2 0 1 1\n6\n\x07\x00", "bad.aag:3:", "binary delta beyond lhs");
    BAD("aig 3 2 0 1 2\n6\n\x02\x02", "bad.aag:1:", "binary M != I+L+A");
    /* headers that claim more than the file holds fail where the file ends, with no allocation
     * sized by the claim (a 2^31 x 13-byte table, 16 GiB of gates before this reader) */
    BAD("aag 2147483646 1000000000 0 100000000 1000000000\n2\n", "bad.aag:3: the file ends before input 1 of the 1000000000",
        "huge aag header");
    BAD("aag 2147483646 0 1000000000 0 1000000000\n", "bad.aag:2: the file ends before latch 0", "huge aag latches");
    BAD("aig 2147483646 0 0 100000000 2147483646\n2\n", "bad.aag:3: the file ends before output 1", "huge aig header");
    BAD("aig 2147483646 0 0 1 2147483646\n0\n\x02\x00", "bad.aag:4: the file ends before AND gate 1 of the 2147483646",
        "huge aig gate count");
    /* a variable numbered near 2^31 among few definitions is valid */
    static const char far[] = "aag 2147483646 1 0 2 1\n4294967292\n4294967293\n2\n2 4294967293 1\n";
    bulk_circuit *fc = NULL;
    CHECK(bulk_circuit_parse(&fc, far, sizeof far - 1, "far.aag") == BULK_OK, "far.aag");
    if (fc) {
        uint64_t in[1] = { 0x6 }, out[2];
        CHECK(fc->maxvar == 2 && bulk_circuit_eval(ctx, fc, out, in, 1) == BULK_OK && out[0] == ~in[0] && out[1] == ~in[0],
              "far.aag values %llx %llx", (unsigned long long)out[0], (unsigned long long)out[1]);
        bulk_circuit_free(fc);
    }
    /* a valid binary file: the AND example of the AIGER format description */
    bulk_circuit *c = NULL;
    static const char and_aig[] = "aig 3 2 0 1 1\n6\n\x02\x02";
    CHECK(bulk_circuit_parse(&c, and_aig, sizeof and_aig - 1, "and.aig") == BULK_OK, "and.aig");
    if (c) {
        uint64_t in[2] = { 0xc, 0xa }, out[1];
        CHECK(bulk_circuit_eval(ctx, c, out, in, 1) == BULK_OK && out[0] == 0x8, "and.aig value %llx",
              (unsigned long long)out[0]);
    }
    bulk_circuit_free(c);
    /* latches parse but are not evaluated */
    static const char toggle[] = "aag 1 0 1 2 0\n2 3\n2\n3\n";
    c = NULL;
    CHECK(bulk_circuit_parse(&c, toggle, sizeof toggle - 1, "toggle.aag") == BULK_OK, "toggle.aag");
    if (c) {
        uint64_t out[2];
        CHECK(bulk_circuit_eval(ctx, c, out, NULL, 1) == BULK_ERR_UNSUPPORTED, "latches are unsupported");
        bulk_circuit *b = roundtrip(c, 1);
        if (b) CHECK(same_structure(c, b), "latch aig round trip");
        bulk_circuit_free(b);
    }
    bulk_circuit_free(c);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    bulk_ctx *ctx = NULL, *ctx1 = NULL;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 0) != BULK_OK || bulk_ctx_open(&ctx1, BULK_BACKEND_CPU, 1) != BULK_OK) {
        fprintf(stderr, "cannot open contexts\n");
        return 1;
    }
    const char *san = getenv("BULK_SANITIZED");
    int rounds = san && *san == '1' ? 60 : 300;
    test_random_circuits(ctx, ctx1, seed, rounds);
    test_adder(ctx, seed ^ 0x5555);
    test_malformed(ctx);
    bulk_ctx_close(ctx);
    bulk_ctx_close(ctx1);
    return test_finish();
}
