/* Tests of grammar reading, CNF conversion and bit-parallel CKY parsing:
 * - every word up to length 8 over the alphabets of tests/data/cky/ (every .cfg) (plus one symbol no
 *   rule produces) against hand-written language oracles, on the bit-parallel and the plain
 *   parser;
 * - grammars that are not in CNF (epsilon, unit, long rules, terminals inside rules) for the
 *   same languages and their oracles;
 * - random grammars in CNF and random strings: bulk_cky_parse against bulk_cky_parse_plain,
 *   with 1 and several threads;
 * - random grammars that are not in CNF: the converted grammar's CKY against an Earley
 *   recognizer run on the grammar as written, on all words up to length 7 over {a, b};
 * - bad grammars: status and the line in the message.
 * Seeds are printed; replay with --seed S. The data directory comes from --data DIR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cky/cky_core.h"
#include "cky/grammar.h"
#include "bulk/bulk.h"
#include "bulk/cky.h"
#include "test_util.h"

/* ---- language oracles ---------------------------------------------------------------------- */
static int oracle_dyck(const char *w, size_t n, int allow_empty)
{
    if (n == 0) return allow_empty;
    int d = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i] == '(') d++;
        else if (w[i] == ')') {
            if (--d < 0) return 0;
        } else return 0;
    }
    return d == 0;
}

static int oracle_anbn(const char *w, size_t n, int allow_empty)
{
    if (n == 0) return allow_empty;
    if (n % 2) return 0;
    for (size_t i = 0; i < n; i++)
        if (w[i] != (i < n / 2 ? 'a' : 'b')) return 0;
    return 1;
}

static int oracle_pal(const char *w, size_t n, size_t min_len)
{
    if (n < min_len) return 0;
    for (size_t i = 0; i < n; i++)
        if ((w[i] != 'a' && w[i] != 'b') || w[i] != w[n - 1 - i]) return 0;
    return 1;
}

/* E := T ('+' T)*, T := F ('*' F)*, F := '(' E ')' | 'x' */
static int ar_e(const char *w, size_t n, size_t *p);
static int ar_f(const char *w, size_t n, size_t *p)
{
    if (*p < n && w[*p] == 'x') return ++*p, 1;
    if (*p < n && w[*p] == '(') {
        ++*p;
        if (!ar_e(w, n, p)) return 0;
        if (*p < n && w[*p] == ')') return ++*p, 1;
    }
    return 0;
}
static int ar_t(const char *w, size_t n, size_t *p)
{
    if (!ar_f(w, n, p)) return 0;
    while (*p < n && w[*p] == '*') {
        ++*p;
        if (!ar_f(w, n, p)) return 0;
    }
    return 1;
}
static int ar_e(const char *w, size_t n, size_t *p)
{
    if (!ar_t(w, n, p)) return 0;
    while (*p < n && w[*p] == '+') {
        ++*p;
        if (!ar_t(w, n, p)) return 0;
    }
    return 1;
}
static int oracle_arith(const char *w, size_t n)
{
    size_t p = 0;
    return ar_e(w, n, &p) && p == n;
}

/* ---- helpers ------------------------------------------------------------------------------- */
typedef struct words {
    char *text;     /* all words, one after another */
    size_t *off;    /* [count+1] */
    size_t count;
} words;

/* Every word of length 0..maxlen over `alpha`. */
static words all_words(const char *alpha, size_t maxlen)
{
    size_t k = strlen(alpha), count = 0, chars = 0, p = 1;
    for (size_t n = 0; n <= maxlen; n++, p *= k) count += p, chars += p * n;
    words w = { malloc(chars + 1), malloc(sizeof(size_t) * (count + 1)), count };
    size_t c = 0, pos = 0;
    size_t digit[32];
    for (size_t n = 0; n <= maxlen; n++) {
        memset(digit, 0, sizeof digit);
        for (;;) {
            w.off[c++] = pos;
            for (size_t i = 0; i < n; i++) w.text[pos++] = alpha[digit[i]];
            size_t i = 0;
            while (i < n && ++digit[i] == k) digit[i++] = 0;
            if (i == n) break;
        }
    }
    w.off[c] = pos;
    return w;
}

static void words_free(words *w) { free(w->text), free(w->off); }

/* Terminal indices of the words (chars mode). */
static int32_t *word_syms(const bulk_grammar *g, const words *w)
{
    int32_t *s = malloc(sizeof(int32_t) * (w->off[w->count] + 1));
    for (size_t i = 0; i < w->off[w->count]; i++) s[i] = bulk_grammar_terminal(g, &w->text[i], 1);
    return s;
}

typedef int (*oracle_fn)(const char *w, size_t n);

static void check_language(bulk_ctx *ctx, const bulk_grammar *g, const char *alpha, size_t maxlen, oracle_fn oracle,
                           const char *what, int also_plain)
{
    words w = all_words(alpha, maxlen);
    int32_t *syms = word_syms(g, &w);
    uint8_t *acc = malloc(w.count), *ref = malloc(w.count);
    int st = bulk_cky_parse(ctx, g, acc, syms, w.off, w.count);
    CHECK(st == BULK_OK, "%s: parse status %d", what, st);
    if (also_plain) CHECK(bulk_cky_parse_plain(g, ref, syms, w.off, w.count) == BULK_OK, "%s: plain", what);
    int bad = 0;
    size_t accepted = 0;
    for (size_t i = 0; i < w.count && bad < 5; i++) {
        size_t n = w.off[i + 1] - w.off[i];
        int want = oracle(w.text + w.off[i], n);
        accepted += (size_t)want;
        if (acc[i] != want || (also_plain && ref[i] != want)) {
            CHECK(0, "%s: '%.*s': bit-parallel %d, plain %d, oracle %d", what, (int)n, w.text + w.off[i], acc[i],
                  also_plain ? ref[i] : -1, want);
            bad++;
        }
    }
    CHECK(accepted > 0, "%s: the oracle accepts nothing (a test that cannot fail)", what);
    printf("%s: %zu words up to length %zu, %zu in the language\n", what, w.count, maxlen, accepted);
    free(syms), free(acc), free(ref);
    words_free(&w);
}

static int o_dyck(const char *w, size_t n) { return oracle_dyck(w, n, 0); }
static int o_dyck0(const char *w, size_t n) { return oracle_dyck(w, n, 1); }
static int o_anbn(const char *w, size_t n) { return oracle_anbn(w, n, 0); }
static int o_anbn0(const char *w, size_t n) { return oracle_anbn(w, n, 1); }
static int o_pal2(const char *w, size_t n) { return oracle_pal(w, n, 2); }
static int o_pal0(const char *w, size_t n) { return oracle_pal(w, n, 0); }

static bulk_grammar *load(const char *dir, const char *file)
{
    char path[1024];
    const char *err = bulk_ctx_last_error(NULL);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    bulk_grammar *g = NULL;
    int st = bulk_grammar_read(&g, path, BULK_CKY_CHARS);
    CHECK(st == BULK_OK, "reading %s: %s", path, err);
    return g;
}

static bulk_grammar *from_text(const char *text, int mode)
{
    bulk_grammar *g = NULL;
    const char *err = bulk_ctx_last_error(NULL); /* the thread's last error */
    int st = bulk_grammar_parse(&g, text, strlen(text), "inline", mode);
    CHECK(st == BULK_OK, "grammar '%s': %s", text, err);
    return g;
}

static void test_data_grammars(bulk_ctx *ctx, const char *dir, size_t maxlen)
{
    struct {
        const char *file, *alpha;
        oracle_fn oracle;
    } cases[] = {
        { "dyck.cfg", "()a", o_dyck },
        { "anbn.cfg", "abc", o_anbn },
        { "palindromes.cfg", "abc", o_pal2 },
        { "arith.cfg", "x+*()", oracle_arith },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bulk_grammar *g = load(dir, cases[c].file);
        if (!g) continue;
        CHECK(!bulk_grammar_accepts_empty(g), "%s accepts the empty word", cases[c].file);
        check_language(ctx, g, cases[c].alpha, maxlen, cases[c].oracle, cases[c].file, 1);
        bulk_grammar_free(g);
    }
}

/* The same languages from grammars that need every step of the CNF conversion. */
static void test_non_cnf(bulk_ctx *ctx, size_t maxlen)
{
    struct {
        const char *text, *alpha;
        oracle_fn oracle;
        int empty;
    } cases[] = {
        { "S -> '(' S ')' S |\n", "()", o_dyck0, 1 },
        { "# balanced, non-empty, with a unit chain\nS -> P | P S\nP -> '(' ')' | '(' S ')'\n", "()", o_dyck, 0 },
        { "S -> 'a' S 'b' |", "ab", o_anbn0, 1 },
        { "S -> A S B | 'ab'\nA -> 'a'\nB -> \"b\"\n", "ab", o_anbn, 0 },
        { "S -> 'a' S 'a' | 'b' S 'b' | 'a' | 'b' | ''\n", "ab", o_pal0, 1 },
        { "E -> E '+' T | T\nT -> T '*' F | F\nF -> '(' E ')' | 'x'\n", "x+*()", oracle_arith, 0 },
        { "E -> T Etail\nEtail -> '+' T Etail |\nT -> F Ttail\nTtail -> '*' F Ttail\n   | \nF -> '(' E ')' | 'x'\n",
          "x+*()", oracle_arith, 0 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bulk_grammar *g = from_text(cases[c].text, BULK_CKY_CHARS);
        if (!g) continue;
        CHECK(bulk_grammar_accepts_empty(g) == cases[c].empty, "case %zu: accepts_empty", c);
        char what[64];
        snprintf(what, sizeof what, "non-CNF grammar %zu", c);
        check_language(ctx, g, cases[c].alpha, maxlen, cases[c].oracle, what, 0);
        bulk_grammar_free(g);
    }
    /* token mode: multi-character terminals and white-space separated input */
    bulk_grammar *g = from_text("S -> 'if' C 'then' S 'else' S | 'go'\nC -> 'x' | 'not' C\n", BULK_CKY_TOKENS);
    if (g) {
        const char *toks[] = { "if", "not", "x", "then", "go", "else", "go" };
        int32_t syms[7];
        for (int i = 0; i < 7; i++) syms[i] = bulk_grammar_terminal(g, toks[i], strlen(toks[i]));
        CHECK(bulk_grammar_terminal(g, "i", 1) == -1 && bulk_grammar_terminal(g, "gone", 4) == -1, "token lookup");
        size_t off[4] = { 0, 7, 8, 9 };
        int32_t all[9];
        memcpy(all, syms, sizeof syms);
        all[7] = syms[4]; /* "go" */
        all[8] = -1;      /* an unknown token */
        uint8_t acc[3];
        CHECK(bulk_cky_parse(ctx, g, acc, all, off, 3) == BULK_OK, "token parse");
        CHECK(acc[0] == 1 && acc[1] == 1 && acc[2] == 0, "token results %d %d %d", acc[0], acc[1], acc[2]);
        bulk_grammar_free(g);
    }
}

/* ---- random CNF grammars: bit-parallel vs plain ------------------------------------------- */
static void test_random_cnf(bulk_ctx *ctx, bulk_ctx *ctx1, uint64_t seed, int rounds)
{
    uint64_t s = seed;
    size_t total_acc = 0, total_strings = 0;
    for (int r = 0; r < rounds; r++) {
        /* every fifth round: many rules (several slices of the rule list), short strings */
        int big = r % 5 == 4;
        unsigned nnt = big ? 8 + (unsigned)(test_rand(&s) % 40) : 1 + (unsigned)(test_rand(&s) % 70);
        unsigned nterm = 1 + (unsigned)(test_rand(&s) % 4);
        uint64_t maxr = (uint64_t)nnt * nnt * nnt, cap = big ? 9000 : 3 * nnt;
        size_t p2 = (size_t)(test_rand(&s) % (maxr < cap ? maxr + 1 : cap + 1));
        bulk_grammar *g = NULL;
        int st = bulk_grammar_random(&g, nnt, p2, nterm, BULK_CKY_TOKENS, test_rand(&s));
        CHECK(st == BULK_OK, "random grammar %u/%zu: %d", nnt, p2, st);
        if (!g) continue;
        CHECK(bulk_grammar_binary_rules(g) == p2, "distinct rules: %zu of %zu", bulk_grammar_binary_rules(g), p2);
        size_t ns = 1 + (size_t)(test_rand(&s) % (big ? 300 : 600)), total = 0, maxlen = big ? 10 : 14;
        size_t *off = malloc(sizeof(size_t) * (ns + 1));
        int32_t *sy = malloc(sizeof(int32_t) * ns * 14);
        for (size_t i = 0; i < ns; i++) {
            off[i] = total;
            size_t n = (size_t)(test_rand(&s) % maxlen);
            for (size_t k = 0; k < n; k++) {
                uint64_t x = test_rand(&s) % 200;
                sy[total++] = x == 0 ? -1 : x == 1 ? (int32_t)nterm : (int32_t)(x % nterm);
            }
        }
        off[ns] = total;
        uint8_t *a = malloc(ns), *b = malloc(ns), *c = malloc(ns);
        CHECK(bulk_cky_parse(r % 2 ? ctx : ctx1, g, a, sy, off, ns) == BULK_OK, "parse");
        CHECK(bulk_cky_parse_plain(g, b, sy, off, ns) == BULK_OK, "plain");
        size_t acc = 0;
        for (size_t i = 0; i < ns; i++) {
            acc += b[i];
            if (a[i] != b[i]) {
                CHECK(0, "round %d (nnt %u, p2 %zu): string %zu (length %zu): bit-parallel %d, plain %d", r, nnt, p2, i,
                      off[i + 1] - off[i], a[i], b[i]);
                break;
            }
        }
        total_acc += acc, total_strings += ns;
        free(off), free(sy), free(a), free(b), free(c);
        bulk_grammar_free(g);
    }
    printf("random CNF grammars: %d rounds, %zu strings, %zu accepted\n", rounds, total_strings, total_acc);
    CHECK(total_acc > 0 && total_acc < total_strings, "random strings are all accepted or all rejected");
}

/* ---- the GPU thread's work, run on the CPU column by column -------------------------------- */
/* bulk_cky_thread is the whole body of the CUDA kernel (grouping by left-hand side, the
 * column-wise table, the shared-memory copies); running it here checks the kernel's logic on
 * machines without a GPU. */
static void test_gpu_thread_emulation(bulk_ctx *ctx, uint64_t seed, int rounds)
{
    uint64_t s = seed;
    for (int r = 0; r < rounds; r++) {
        unsigned nnt = 1 + (unsigned)(test_rand(&s) % 40), nterm = 1 + (unsigned)(test_rand(&s) % 3);
        uint64_t maxr = (uint64_t)nnt * nnt * nnt;
        size_t p2 = (size_t)(test_rand(&s) % (maxr < 6 * nnt ? maxr + 1 : 6 * nnt + 1));
        bulk_grammar *g = NULL;
        CHECK(bulk_grammar_random(&g, nnt, p2, nterm, BULK_CKY_TOKENS, test_rand(&s)) == BULK_OK, "grammar");
        if (!g) continue;
        uint32_t n = 1 + (uint32_t)(test_rand(&s) % 12);
        size_t m = 1 + (size_t)(test_rand(&s) % 300), cols = (m + 63) / 64, cells = (size_t)n * (n + 1) / 2;
        int32_t *str = malloc(sizeof(int32_t) * m * n);
        size_t *off = malloc(sizeof(size_t) * (m + 1));
        for (size_t i = 0; i < m * n; i++) str[i] = (int32_t)(test_rand(&s) % nterm);
        for (size_t i = 0; i <= m; i++) off[i] = i * n;
        /* the kernel expects valid symbols only; a random grammar produces every terminal */
        for (size_t i = 0; i < m * n; i++) CHECK(g->ustart[str[i]] < g->ustart[str[i] + 1], "terminal without a rule");
        uint8_t *want = malloc(m), *got = malloc(m);
        CHECK(bulk_cky_parse(ctx, g, want, str, off, m) == BULK_OK, "parse");
        uint64_t *T = malloc(sizeof(uint64_t) * cells * g->nnt * cols);
        uint64_t *sh = malloc(sizeof(uint64_t) * 2 * g->nnt);
        int use_sh = r % 2;
        for (size_t w = 0; w < cols; w++)
            bulk_cky_thread(T, cols, w, str, got, n, g->nnt, m, use_sh ? sh : NULL, 1, g->astart, g->bc, g->ustart,
                            g->ulist);
        for (size_t i = 0; i < m; i++)
            if (got[i] != want[i]) {
                CHECK(0, "round %d (nnt %u, p2 %zu, n %u, shared %d): string %zu: GPU thread %d, CPU %d", r, nnt, p2, n,
                      use_sh, i, got[i], want[i]);
                break;
            }
        free(str), free(off), free(want), free(got), free(T), free(sh);
        bulk_grammar_free(g);
    }
}

/* ---- Earley recognizer on the grammar as written ------------------------------------------ */
typedef struct item {
    uint32_t rule, dot, origin;
} item;

typedef struct iset {
    item *v;
    size_t n, cap;
} iset;

static void iset_add(iset *s, item it)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].rule == it.rule && s->v[i].dot == it.dot && s->v[i].origin == it.origin) return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = it;
}

static int earley(const bulk_cfg *c, const int32_t *x, size_t n)
{
    unsigned char *nullable = calloc(c->nnt, 1);
    for (int ch = 1; ch;) {
        ch = 0;
        for (uint32_t r = 0; r < c->nrules; r++) {
            if (nullable[c->rule_lhs[r]]) continue;
            int all = 1;
            for (uint32_t k = c->rule_off[r]; k < c->rule_off[r + 1]; k++)
                if (c->rhs[k] < 0 || !nullable[c->rhs[k]]) all = 0;
            if (all) nullable[c->rule_lhs[r]] = 1, ch = 1;
        }
    }
    iset *S = calloc(n + 1, sizeof *S);
    for (uint32_t r = 0; r < c->nrules; r++)
        if (c->rule_lhs[r] == c->start) iset_add(&S[0], (item){ r, 0, 0 });
    for (size_t i = 0; i <= n; i++)
        for (size_t k = 0; k < S[i].n; k++) {
            item it = S[i].v[k];
            uint32_t len = c->rule_off[it.rule + 1] - c->rule_off[it.rule];
            if (it.dot < len) {
                int32_t sym = c->rhs[c->rule_off[it.rule] + it.dot];
                if (sym >= 0) {
                    for (uint32_t r = 0; r < c->nrules; r++)
                        if (c->rule_lhs[r] == (uint32_t)sym) iset_add(&S[i], (item){ r, 0, (uint32_t)i });
                    if (nullable[sym]) iset_add(&S[i], (item){ it.rule, it.dot + 1, it.origin });
                } else if (i < n && x[i] == -sym - 1) {
                    iset_add(&S[i + 1], (item){ it.rule, it.dot + 1, it.origin });
                }
            } else {
                uint32_t A = c->rule_lhs[it.rule];
                for (size_t q = 0; q < S[it.origin].n; q++) {
                    item p = S[it.origin].v[q];
                    uint32_t plen = c->rule_off[p.rule + 1] - c->rule_off[p.rule];
                    if (p.dot < plen && c->rhs[c->rule_off[p.rule] + p.dot] == (int32_t)A)
                        iset_add(&S[i], (item){ p.rule, p.dot + 1, p.origin });
                }
            }
        }
    int acc = 0;
    for (size_t k = 0; k < S[n].n; k++) {
        item it = S[n].v[k];
        if (c->rule_lhs[it.rule] == c->start && it.origin == 0 &&
            it.dot == c->rule_off[it.rule + 1] - c->rule_off[it.rule])
            acc = 1;
    }
    for (size_t i = 0; i <= n; i++) free(S[i].v);
    free(S), free(nullable);
    return acc;
}

static void test_random_non_cnf(bulk_ctx *ctx, uint64_t seed, int rounds, size_t maxlen)
{
    uint64_t s = seed;
    words w = all_words("ab", maxlen);
    for (int r = 0; r < rounds; r++) {
        unsigned nnt = 1 + (unsigned)(test_rand(&s) % 4);
        char text[4096], *p = text;
        for (unsigned a = 0; a < nnt; a++) {
            unsigned alts = 1 + (unsigned)(test_rand(&s) % 3);
            p += sprintf(p, "N%u ->", a);
            for (unsigned k = 0; k < alts; k++) {
                if (k) p += sprintf(p, " |");
                unsigned len = (unsigned)(test_rand(&s) % 5);
                for (unsigned j = 0; j < len; j++) {
                    uint64_t x = test_rand(&s) % (nnt + 2);
                    if (x < nnt) p += sprintf(p, " N%u", (unsigned)x);
                    else p += sprintf(p, " '%c'", x == nnt ? 'a' : 'b');
                }
            }
            p += sprintf(p, "\n");
        }
        bulk_grammar *g = from_text(text, BULK_CKY_CHARS);
        if (!g) continue;
        int32_t *syms = malloc(sizeof(int32_t) * (w.off[w.count] + 1));
        for (size_t i = 0; i < w.off[w.count]; i++) syms[i] = bulk_grammar_terminal(g, &w.text[i], 1);
        uint8_t *acc = malloc(w.count);
        CHECK(bulk_cky_parse(ctx, g, acc, syms, w.off, w.count) == BULK_OK, "parse");
        /* Earley on the cfg's own terminal numbering: map each char through the cfg's names */
        int32_t *csy = malloc(sizeof(int32_t) * (w.off[w.count] + 1));
        for (size_t i = 0; i < w.off[w.count]; i++) {
            csy[i] = -2;
            for (uint32_t t = 0; t < g->cfg.nterm; t++)
                if (g->cfg.term_names[t][0] == w.text[i]) csy[i] = (int32_t)t;
        }
        for (size_t i = 0; i < w.count; i++) {
            int want = earley(&g->cfg, csy + w.off[i], w.off[i + 1] - w.off[i]);
            if (acc[i] != want) {
                CHECK(0, "grammar:\n%sword '%.*s': CNF+CKY %d, Earley %d", text, (int)(w.off[i + 1] - w.off[i]),
                      w.text + w.off[i], acc[i], want);
                break;
            }
        }
        free(syms), free(csy), free(acc);
        bulk_grammar_free(g);
    }
    words_free(&w);
}

/* Many short strings (more than the 65536 from which the string checks run on several
 * threads), about 1% with a foreign symbol and some empty: the parser on 1 and on 4 threads
 * against the plain reference on every 97th string and against each other on all. */
static void test_many_strings(uint64_t seed)
{
    uint64_t s = seed;
    bulk_ctx *c1 = NULL, *c4 = NULL;
    CHECK(bulk_ctx_open(&c1, BULK_BACKEND_CPU, 1) == BULK_OK && bulk_ctx_open(&c4, BULK_BACKEND_CPU, 4) == BULK_OK,
          "contexts");
    bulk_grammar *g = NULL;
    CHECK(bulk_grammar_random(&g, 12, 60, 3, BULK_CKY_TOKENS, test_rand(&s)) == BULK_OK, "grammar");
    const size_t m = 70001;
    size_t *off = malloc(sizeof(size_t) * (m + 1)), total = 0;
    int32_t *sy = malloc(sizeof(int32_t) * m * 9);
    for (size_t i = 0; i < m; i++) {
        off[i] = total;
        size_t n = (size_t)(test_rand(&s) % 9);
        for (size_t k = 0; k < n; k++) sy[total++] = test_rand(&s) % 100 == 0 ? 7 : (int32_t)(test_rand(&s) % 3);
    }
    off[m] = total;
    uint8_t *a1 = malloc(m), *a4 = malloc(m), *ref = malloc(1);
    CHECK(bulk_cky_parse(c1, g, a1, sy, off, m) == BULK_OK, "parse, 1 thread");
    CHECK(bulk_cky_parse(c4, g, a4, sy, off, m) == BULK_OK, "parse, 4 threads");
    CHECK(memcmp(a1, a4, m) == 0, "many strings: 1 and 4 threads differ (seed %llu)", (unsigned long long)seed);
    for (size_t i = 0; i < m; i += 97) {
        CHECK(bulk_cky_parse_plain(g, ref, sy, off + i, 1) == BULK_OK, "plain");
        CHECK(ref[0] == a1[i], "many strings: string %zu: plain %d, bit-parallel %d", i, ref[0], a1[i]);
    }
    free(off), free(sy), free(a1), free(a4), free(ref);
    bulk_grammar_free(g);
    bulk_ctx_close(c1), bulk_ctx_close(c4);
}

static void expect_bad(const char *text, const char *want, const char *what)
{
    bulk_grammar *g = NULL;
    const char *err = bulk_ctx_last_error(NULL); /* the thread's last error */
    int st = bulk_grammar_parse(&g, text, strlen(text), "g.cfg", BULK_CKY_CHARS);
    CHECK(st == BULK_ERR_PARSE && !g, "%s: status %d", what, st);
    CHECK(strstr(err, want) != NULL, "%s: message '%s' lacks '%s'", what, err, want);
    bulk_grammar_free(g);
}

static void test_bad_grammars(void)
{
    expect_bad("S -> A\n", "g.cfg:1: non-terminal 'A'", "undefined non-terminal");
    expect_bad("# c\nS -> 'a'\nS 'b'\n", "g.cfg:3: rule without '->'", "rule without arrow");
    expect_bad("", "empty grammar", "empty text");
    expect_bad("# only a comment\n\n", "empty grammar", "only comments");
    expect_bad("S -> 'a\n", "g.cfg:1: unterminated", "unterminated quote");
    expect_bad("| 'a'\n", "g.cfg:1:", "continuation without a rule");
    expect_bad("'S' -> 'a'\n", "g.cfg:1:", "quoted left-hand side");
    expect_bad("S -> 'a' -> 'b'\n", "g.cfg:1: a second '->'", "two arrows");
    expect_bad("S -> 'a'\nT -> S U\n", "g.cfg:2: non-terminal 'U'", "undefined later");
    /* a grammar of the empty string alone: no symbol on any right-hand side */
    bulk_grammar *g = from_text("S ->\n", BULK_CKY_CHARS);
    if (g) {
        CHECK(bulk_grammar_accepts_empty(g) && bulk_grammar_binary_rules(g) == 0 &&
                  bulk_grammar_unary_rules(g) == 0,
              "S -> : accepts_empty %d, %zu binary, %zu unary rules", bulk_grammar_accepts_empty(g),
              bulk_grammar_binary_rules(g), bulk_grammar_unary_rules(g));
        int32_t syms[1] = { 0 };
        size_t offs[3] = { 0, 0, 1 };
        uint8_t acc[2] = { 9, 9 };
        CHECK(bulk_cky_parse_plain(g, acc, syms, offs, 2) == BULK_OK && acc[0] == 1 && acc[1] == 0,
              "S -> : accepts '' %d, a one-symbol string %d", acc[0], acc[1]);
        bulk_grammar_free(g);
    }
    /* '#' inside quotes is a terminal, not a comment */
    g = from_text("S -> '#' S | '#' # trailing comment\n", BULK_CKY_CHARS);
    if (g) {
        CHECK(bulk_grammar_terminal(g, "#", 1) >= 0, "'#' terminal");
        bulk_grammar_free(g);
    }
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    const char *dir = "tests/data/cky";
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--data") == 0) dir = argv[i + 1];
    const char *san = getenv("BULK_SANITIZED");
    int small = san && *san == '1';
    bulk_ctx *ctx = NULL, *ctx1 = NULL;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 0) != BULK_OK || bulk_ctx_open(&ctx1, BULK_BACKEND_CPU, 1) != BULK_OK) {
        fprintf(stderr, "cannot open contexts\n");
        return 1;
    }
    test_bad_grammars();
    test_data_grammars(ctx, dir, 8);
    test_non_cnf(ctx, small ? 7 : 8);
    test_random_cnf(ctx, ctx1, seed, small ? 40 : 150);
    test_random_non_cnf(ctx, seed ^ 0xabcdef, small ? 40 : 200, 7);
    test_gpu_thread_emulation(ctx, seed ^ 0x1234, small ? 30 : 120);
    test_many_strings(seed ^ 0x5678);
    bulk_ctx_close(ctx);
    bulk_ctx_close(ctx1);
    return test_finish();
}
