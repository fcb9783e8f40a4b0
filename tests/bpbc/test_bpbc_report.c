/* The error and progress model for circuits and CKY (include/bulk/circuit.h, cky.h): every
 * public function's bad-argument case gives its status and a last error naming the function;
 * bulk_circuit_eval ("circuit.eval", vectors) and bulk_cky_parse ("cky.parse", strings) report
 * progress (one start at 0, nondecreasing, last == total) and stop with BULK_ERR_CANCELLED when
 * the callback asks. */
#include <stdlib.h>

#include "bulk/circuit.h"
#include "bulk/cky.h"
#include "report_check.h"

static void circuit_bad_arguments(bulk_ctx *ctx)
{
    bulk_circuit *c = NULL;
    const char aag[] = "aag 3 2 0 1 1\n2\n4\n6\n6 2 4\n", latch[] = "aag 1 0 1 0 0\n2 3\n";
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_parse", bulk_circuit_parse(NULL, aag, sizeof aag - 1, "t"));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_parse", bulk_circuit_parse(&c, NULL, 5, "t"));
    EXPECT_FAIL(NULL, BULK_ERR_PARSE, "bulk_circuit_parse", bulk_circuit_parse(&c, "aag 1 1 0 1 0\n3\n", 16, "t.aag"));
    CHECK(strstr(bulk_ctx_last_error(NULL), "t.aag:2:") != NULL, "no file:line in '%s'", bulk_ctx_last_error(NULL));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_read", bulk_circuit_read(NULL, "x.aag"));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_read", bulk_circuit_read(&c, NULL));
    EXPECT_FAIL(NULL, BULK_ERR_IO, "bulk_circuit_read", bulk_circuit_read(&c, "/nonexistent/dir/x.aag"));
    CHECK(c == NULL, "a failed read left a circuit");
    bulk_circuit_free(NULL);
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_write_aag", bulk_circuit_write_aag(NULL, stdout));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_write_aig", bulk_circuit_write_aig(NULL, stdout));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_adder", bulk_circuit_adder(NULL, 4));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_adder", bulk_circuit_adder(&c, 0));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_adder", bulk_circuit_adder(&c, 4097));

    uint64_t in[4] = { 0 }, out[4];
    CHECK(bulk_circuit_parse(&c, aag, sizeof aag - 1, "and.aag") == BULK_OK, "and.aag");
    if (!c) return;
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_write_aag", bulk_circuit_write_aag(c, NULL));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_circuit_eval", bulk_circuit_eval(NULL, c, out, in, 1));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_circuit_eval", bulk_circuit_eval(ctx, NULL, out, in, 1));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_circuit_eval", bulk_circuit_eval(ctx, c, NULL, in, 1));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_circuit_eval", bulk_circuit_eval(ctx, c, out, NULL, 1));
    bulk_circuit_free(c);
    CHECK(bulk_circuit_parse(&c, latch, sizeof latch - 1, "latch.aag") == BULK_OK, "latch.aag: %s",
          bulk_ctx_last_error(NULL));
    if (c) EXPECT_FAIL(ctx, BULK_ERR_UNSUPPORTED, "bulk_circuit_eval", bulk_circuit_eval(ctx, c, out, in, 1));
    bulk_circuit_free(c);
    uint64_t sum[8];
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_bitslice_add", bulk_bitslice_add(NULL, sum, in, in, 1, 1));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_bitslice_add", bulk_bitslice_add(ctx, sum, in, in, 0, 1));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_bitslice_add", bulk_bitslice_add(ctx, NULL, in, in, 1, 1));
}

static void cky_bad_arguments(bulk_ctx *ctx)
{
    bulk_grammar *g = NULL;
    const char anbn[] = "S -> 'a' S 'b' | 'a' 'b'\n";
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_parse", bulk_grammar_parse(NULL, anbn, sizeof anbn - 1, "t", 0));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_parse", bulk_grammar_parse(&g, NULL, 4, "t", 0));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_parse", bulk_grammar_parse(&g, anbn, sizeof anbn - 1, "t", 7));
    EXPECT_FAIL(NULL, BULK_ERR_PARSE, "bulk_grammar_parse", bulk_grammar_parse(&g, "S -> T\n", 7, "t.cfg", 0));
    CHECK(strstr(bulk_ctx_last_error(NULL), "t.cfg:1:") != NULL, "no file:line in '%s'", bulk_ctx_last_error(NULL));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_read", bulk_grammar_read(NULL, "g.cfg", 0));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_read", bulk_grammar_read(&g, NULL, 0));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_read", bulk_grammar_read(&g, "g.cfg", -1));
    EXPECT_FAIL(NULL, BULK_ERR_IO, "bulk_grammar_read", bulk_grammar_read(&g, "/nonexistent/dir/g.cfg", 0));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_random", bulk_grammar_random(NULL, 4, 8, 2, 0, 1));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_random", bulk_grammar_random(&g, 0, 8, 2, 0, 1));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_random", bulk_grammar_random(&g, 4, 8, 27, BULK_CKY_CHARS, 1));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_random", bulk_grammar_random(&g, 2, 9, 2, 0, 1));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_grammar_random", bulk_grammar_random(&g, 4, 8, 2, 5, 1));
    CHECK(g == NULL, "a failed grammar call left a grammar");
    bulk_grammar_free(NULL);
    EXPECT_FAIL(NULL, 0, "bulk_grammar_nonterminals", bulk_grammar_nonterminals(NULL));
    EXPECT_FAIL(NULL, 0, "bulk_grammar_binary_rules", bulk_grammar_binary_rules(NULL));
    EXPECT_FAIL(NULL, 0, "bulk_grammar_unary_rules", bulk_grammar_unary_rules(NULL));
    EXPECT_FAIL(NULL, 0, "bulk_grammar_terminals", bulk_grammar_terminals(NULL));
    EXPECT_FAIL(NULL, 0, "bulk_grammar_accepts_empty", bulk_grammar_accepts_empty(NULL));
    EXPECT_FAIL(NULL, 0, "bulk_grammar_mode", bulk_grammar_mode(NULL));
    EXPECT_FAIL(NULL, -1, "bulk_grammar_terminal", bulk_grammar_terminal(NULL, "a", 1));

    CHECK(bulk_grammar_parse(&g, anbn, sizeof anbn - 1, "anbn", BULK_CKY_CHARS) == BULK_OK, "anbn");
    if (!g) return;
    EXPECT_FAIL(NULL, -1, "bulk_grammar_terminal", bulk_grammar_terminal(g, NULL, 1));
    int32_t syms[4] = { 0, 1, 0, 1 };
    size_t off[3] = { 0, 2, 4 }, back[3] = { 0, 3, 2 };
    uint8_t acc[2];
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_cky_parse", bulk_cky_parse(NULL, g, acc, syms, off, 2));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_cky_parse", bulk_cky_parse(ctx, NULL, acc, syms, off, 2));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_cky_parse", bulk_cky_parse(ctx, g, NULL, syms, off, 2));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_cky_parse", bulk_cky_parse(ctx, g, acc, NULL, off, 2));
    EXPECT_FAIL(ctx, BULK_ERR_ARG, "bulk_cky_parse", bulk_cky_parse(ctx, g, acc, syms, back, 2));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_cky_parse_plain", bulk_cky_parse_plain(NULL, acc, syms, off, 2));
    EXPECT_FAIL(NULL, BULK_ERR_ARG, "bulk_cky_parse_plain", bulk_cky_parse_plain(g, NULL, syms, off, 2));
    bulk_grammar_free(g);
}

static void circuit_progress(bulk_ctx *ctx)
{
    bulk_circuit *c = NULL;
    CHECK(bulk_circuit_adder(&c, 16) == BULK_OK, "adder");
    if (!c) return;
    const size_t nw = 40000;
    uint64_t *in = calloc(nw * c->inputs, 8), *out = calloc(nw * c->outputs, 8);
    progress_log log = { 0 };
    bulk_ctx_set_progress(ctx, progress_log_fn, &log);
    CHECK(bulk_circuit_eval(ctx, c, out, in, nw) == BULK_OK, "eval: %s", bulk_ctx_last_error(ctx));
    progress_log_check(&log, "circuit eval", "circuit.eval", "vectors", 64.0 * nw);
    log = (progress_log){ .cancel_at = 1 };
    EXPECT_FAIL(ctx, BULK_ERR_CANCELLED, "bulk_circuit_eval", bulk_circuit_eval(ctx, c, out, in, nw));
    log = (progress_log){ .cancel_at = 2 };
    EXPECT_FAIL(ctx, BULK_ERR_CANCELLED, "bulk_circuit_eval", bulk_circuit_eval(ctx, c, out, in, nw));
    bulk_ctx_set_progress(ctx, NULL, NULL);
    free(in), free(out);
    bulk_circuit_free(c);
}

static void cky_progress(bulk_ctx *ctx)
{
    bulk_grammar *g = NULL;
    CHECK(bulk_grammar_random(&g, 32, 512, 4, BULK_CKY_TOKENS, 7) == BULK_OK, "random grammar");
    if (!g) return;
    /* strings of lengths 0..40 (the empty ones are answered without a parse), and a few with
     * an unknown symbol */
    const size_t m = 20000;
    size_t *off = malloc(sizeof *off * (m + 1)), n = 0;
    int32_t *syms = malloc(sizeof *syms * m * 41);
    uint8_t *acc = malloc(m);
    uint64_t s = 1;
    for (size_t i = 0; i < m; i++) {
        off[i] = n;
        size_t len = (size_t)(test_rand(&s) % 41);
        for (size_t k = 0; k < len; k++) syms[n++] = i % 1000 == 5 ? -1 : (int32_t)(test_rand(&s) % 4);
    }
    off[m] = n;
    progress_log log = { 0 };
    bulk_ctx_set_progress(ctx, progress_log_fn, &log);
    CHECK(bulk_cky_parse(ctx, g, acc, syms, off, m) == BULK_OK, "parse: %s", bulk_ctx_last_error(ctx));
    progress_log_check(&log, "cky parse", "cky.parse", "strings", (double)m);
    log = (progress_log){ .cancel_at = 1 };
    EXPECT_FAIL(ctx, BULK_ERR_CANCELLED, "bulk_cky_parse", bulk_cky_parse(ctx, g, acc, syms, off, m));
    log = (progress_log){ .cancel_at = 2 };
    EXPECT_FAIL(ctx, BULK_ERR_CANCELLED, "bulk_cky_parse", bulk_cky_parse(ctx, g, acc, syms, off, m));
    bulk_ctx_set_progress(ctx, NULL, NULL);
    free(off), free(syms), free(acc);
    bulk_grammar_free(g);
}

int main(void)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 3) != BULK_OK) {
        fprintf(stderr, "cannot open a CPU context: %s\n", bulk_ctx_last_error(NULL));
        return 1;
    }
    circuit_bad_arguments(ctx);
    cky_bad_arguments(ctx);
    circuit_progress(ctx);
    cky_progress(ctx);
    bulk_ctx_close(ctx);
    return test_finish();
}
