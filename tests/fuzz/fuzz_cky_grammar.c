/* libFuzzer target: CKY grammar text through bulk_grammar_parse, in both terminal modes (bytes
 * and tokens). A grammar that was read (and converted to Chomsky normal form) is used: the bulk
 * parser and the plain one-string parser must agree on every string of up to 3 symbols over its
 * first terminals, and on the empty string with bulk_grammar_accepts_empty. */
#include <string.h>

#include "bulk/bulk.h"
#include "bulk/cky.h"
#include "fuzz_util.h"

#define ALPHA 3  /* terminals used in the test strings */
#define MAXLEN 3 /* longest test string */
#define MAX_NONTERMINALS 4096 /* larger grammars are only read (parsing them would be slow) */

static bulk_ctx *ctx;

/* Every string over terminals 0..alpha-1 of length 0..MAXLEN, one after another. */
static size_t all_strings(int32_t *syms, size_t *off, unsigned alpha)
{
    size_t n = 0, at = 0;
    off[0] = 0;
    for (unsigned len = 0; len <= MAXLEN; len++) {
        size_t count = 1;
        for (unsigned i = 0; i < len; i++) count *= alpha;
        for (size_t w = 0; w < count; w++) {
            size_t v = w;
            for (unsigned i = 0; i < len; i++, v /= alpha) syms[at++] = (int32_t)(v % alpha);
            off[++n] = at;
        }
    }
    return n;
}

static void use(const bulk_grammar *g)
{
    enum { MAXSTR = 1 + ALPHA + ALPHA * ALPHA + ALPHA * ALPHA * ALPHA };
    int32_t syms[MAXSTR * MAXLEN];
    size_t off[MAXSTR + 1];
    uint8_t bulk_acc[MAXSTR], plain_acc[MAXSTR];
    size_t nterm = bulk_grammar_terminals(g);
    unsigned alpha = nterm < ALPHA ? (unsigned)nterm : ALPHA;
    size_t n = alpha ? all_strings(syms, off, alpha) : 1;
    if (!alpha) off[0] = off[1] = 0;
    if (bulk_grammar_nonterminals(g) > MAX_NONTERMINALS) return;
    FUZZ_REQUIRE(bulk_cky_parse_plain(g, plain_acc, syms, off, n) == BULK_OK, "plain parse");
    FUZZ_REQUIRE(bulk_cky_parse(ctx, g, bulk_acc, syms, off, n) == BULK_OK, "bulk parse");
    FUZZ_REQUIRE(plain_acc[0] == (bulk_grammar_accepts_empty(g) != 0),
                 "empty string: parser %d, accepts_empty %d", plain_acc[0], bulk_grammar_accepts_empty(g));
    for (size_t i = 0; i < n; i++)
        FUZZ_REQUIRE(bulk_acc[i] == plain_acc[i], "string %zu: bulk %d, plain %d", i, bulk_acc[i],
                     plain_acc[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx && bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) != BULK_OK) abort();
    for (int mode = BULK_CKY_CHARS; mode <= BULK_CKY_TOKENS; mode++) {
        bulk_grammar *g = NULL;
        const char *err = bulk_ctx_last_error(NULL);
        int st = bulk_grammar_parse(&g, (const char *)data, size, "fuzz.cfg", mode);
        if (st != BULK_OK) {
            FUZZ_REQUIRE(g == NULL, "status %d with a grammar", st);
            FUZZ_REQUIRE(st != BULK_ERR_PARSE || strncmp(err, "bulk_grammar_parse: fuzz.cfg:", 29) == 0,
                         "a parse error without the name: '%s'", err);
            continue;
        }
        use(g);
        bulk_grammar_free(g);
    }
    return 0;
}
