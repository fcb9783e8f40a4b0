/* The public grammar object: reading (text -> bulk_cfg -> CNF), random CNF grammars for the
 * benchmarks and tests, sizes, and terminal lookup. */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "cky/grammar.h"
#include "splitmix.h"
#include "read_stream.h"

void bulk_grammar_free(bulk_grammar *g)
{
    if (!g) return;
    bulk_cfg_clear(&g->cfg);
    free(g->bin), free(g->bstart), free(g->ac), free(g->blist), free(g->slice), free(g->astart), free(g->bc), free(g->ustart), free(g->ulist);
    free(g->sorted_terms), free(g->sorted_idx);
    free(g);
}

static int cmp_term(const void *x, const void *y, void *names)
{
    char *const *base = names;
    return strcmp(base[*(const uint32_t *)x], base[*(const uint32_t *)y]);
}

/* Terminal lookup tables from cfg.term_names. */
static int build_lookup(bulk_grammar *g)
{
    for (int b = 0; b < 256; b++) g->byte_term[b] = -1;
    uint32_t n = g->cfg.nterm;
    g->sorted_idx = malloc(sizeof(uint32_t) * (n ? n : 1));
    g->sorted_terms = malloc(sizeof(char *) * (n ? n : 1));
    if (!g->sorted_idx || !g->sorted_terms) return BULK_ERR_NOMEM;
    for (uint32_t i = 0; i < n; i++) {
        g->sorted_idx[i] = i;
        if (g->mode == BULK_CKY_CHARS) g->byte_term[(unsigned char)g->cfg.term_names[i][0]] = (int32_t)i;
    }
    qsort_r(g->sorted_idx, n, sizeof(uint32_t), cmp_term, g->cfg.term_names);
    for (uint32_t i = 0; i < n; i++) g->sorted_terms[i] = g->cfg.term_names[g->sorted_idx[i]];
    return BULK_OK;
}

/* text -> grammar; on failure "name:line: reason" (or "name: out of memory") is in err. */
static int parse_text(bulk_grammar **out, const char *text, size_t len, const char *name, int mode, char *err,
                      size_t errlen)
{
    err[0] = 0;
    bulk_grammar *g = calloc(1, sizeof *g);
    if (!g) return BULK_ERR_NOMEM;
    g->mode = mode;
    int st = bulk_cfg_parse(&g->cfg, text ? text : "", len, name, mode, err, errlen);
    if (st == BULK_OK) st = bulk_cnf_build(g);
    if (st == BULK_OK) st = build_lookup(g);
    if (st != BULK_OK) {
        bulk_grammar_free(g);
        return st;
    }
    *out = g;
    return BULK_OK;
}

/* A failure of parse_text as the calling thread's last error, named after the public function. */
static int parse_failed(const char *fn, int st, const char *name, const char *err)
{
    if (st == BULK_ERR_NOMEM) return bulk_fail(NULL, st, "%s: %s: out of memory", fn, name);
    if (err[0]) return bulk_fail(NULL, st, "%s: %s", fn, err);
    return bulk_fail(NULL, st, "%s: %s: %s", fn, name, bulk_status_string(st));
}

static int bad_mode(const char *fn, int mode)
{
    return bulk_fail(NULL, BULK_ERR_ARG, "%s: mode %d: use BULK_CKY_CHARS or BULK_CKY_TOKENS", fn, mode);
}

int bulk_grammar_parse(bulk_grammar **out, const char *text, size_t len, const char *name, int mode)
{
    static const char fn[] = "bulk_grammar_parse";
    if (!out) return bulk_fail(NULL, BULK_ERR_ARG, "%s: g is NULL", fn);
    *out = NULL;
    if (!text && len) return bulk_fail(NULL, BULK_ERR_ARG, "%s: text is NULL with len %zu", fn, len);
    if (mode != BULK_CKY_CHARS && mode != BULK_CKY_TOKENS) return bad_mode(fn, mode);
    char err[512];
    if (!name) name = "<grammar>";
    int st = parse_text(out, text, len, name, mode, err, sizeof err);
    return st ? parse_failed(fn, st, name, err) : BULK_OK;
}

int bulk_grammar_read(bulk_grammar **g, const char *path, int mode)
{
    static const char fn[] = "bulk_grammar_read";
    if (!g) return bulk_fail(NULL, BULK_ERR_ARG, "%s: g is NULL", fn);
    *g = NULL;
    if (!path) return bulk_fail(NULL, BULK_ERR_ARG, "%s: path is NULL", fn);
    if (mode != BULK_CKY_CHARS && mode != BULK_CKY_TOKENS) return bad_mode(fn, mode);
    char *buf, err[512];
    size_t len;
    int st = bulk_read_path_msg(path, &buf, &len, err, sizeof err);
    if (st == BULK_ERR_NOMEM) return bulk_fail(NULL, st, "%s: %s: out of memory", fn, path);
    if (st != BULK_OK) return bulk_fail(NULL, st, "%s: %s", fn, err); /* BULK_ERR_IO: err names the path */
    st = parse_text(g, buf, len, path, mode, err, sizeof err);
    free(buf);
    return st ? parse_failed(fn, st, path, err) : BULK_OK;
}

/* A set of 64-bit keys (open addressing, key+1 stored so 0 means empty). */
static int set_add(uint64_t *slots, size_t mask, uint64_t key)
{
    size_t h = (size_t)((key + 1) * 0x9e3779b97f4a7c15ull >> 17) & mask;
    while (slots[h]) {
        if (slots[h] == key + 1) return 0;
        h = (h + 1) & mask;
    }
    slots[h] = key + 1;
    return 1;
}

int bulk_grammar_random(bulk_grammar **out, unsigned nnt, size_t p2, unsigned nterm, int mode, uint64_t seed)
{
    static const char fn[] = "bulk_grammar_random";
    if (!out) return bulk_fail(NULL, BULK_ERR_ARG, "%s: g is NULL", fn);
    if (mode != BULK_CKY_CHARS && mode != BULK_CKY_TOKENS) return bad_mode(fn, mode);
    if (nnt < 1 || nnt > 65536) return bulk_fail(NULL, BULK_ERR_ARG, "%s: nonterminals %u: must be 1..65536", fn, nnt);
    if (nterm < 1 || (mode == BULK_CKY_CHARS && nterm > 26))
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: terminals %u: must be 1..%s", fn, nterm,
                         mode == BULK_CKY_CHARS ? "26 in BULK_CKY_CHARS mode" : "UINT_MAX");
    uint64_t total = (uint64_t)nnt * nnt * nnt;
    if (p2 > total)
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: binary_rules %zu: more than nonterminals^3 = %llu", fn, p2,
                         (unsigned long long)total);
    *out = NULL;
    int st = BULK_ERR_NOMEM;
    bulk_grammar *g = calloc(1, sizeof *g);
    uint32_t *bin = malloc(sizeof(uint32_t) * 3 * (p2 ? p2 : 1));
    uint32_t *un = malloc(sizeof(uint32_t) * 2 * ((size_t)nnt * nterm));
    size_t nun = 0, nb = 0;
    uint64_t *slots = NULL;
    if (!g || !bin || !un) goto done;
    g->mode = mode;
    if (2 * p2 > total) {
        /* dense: a partial Fisher-Yates shuffle of all triples (an A misses out only if none
         * of its nnt^2 triples is among more than half of all triples drawn) */
        uint64_t *all = malloc(sizeof(uint64_t) * total);
        if (!all) goto done;
        for (uint64_t i = 0; i < total; i++) all[i] = i;
        for (size_t i = 0; i < p2; i++) {
            uint64_t j = i + bulk_splitmix64(&seed) % (total - i), x = all[i];
            all[i] = all[j], all[j] = x;
            bin[nb * 3] = (uint32_t)(all[i] / ((uint64_t)nnt * nnt));
            bin[nb * 3 + 1] = (uint32_t)(all[i] / nnt % nnt);
            bin[nb * 3 + 2] = (uint32_t)(all[i] % nnt);
            nb++;
        }
        free(all);
    } else {
        size_t ns = 64;
        while (ns < 4 * p2) ns *= 2;
        slots = calloc(ns, sizeof *slots);
        if (!slots) goto done;
        while (nb < p2) {
            uint64_t A = nb < nnt ? nb : bulk_splitmix64(&seed) % nnt; /* first one rule per A */
            uint64_t key = (A * nnt + bulk_splitmix64(&seed) % nnt) * nnt + bulk_splitmix64(&seed) % nnt;
            if (!set_add(slots, ns - 1, key)) continue;
            bin[nb * 3] = (uint32_t)(key / ((uint64_t)nnt * nnt));
            bin[nb * 3 + 1] = (uint32_t)(key / nnt % nnt);
            bin[nb * 3 + 2] = (uint32_t)(key % nnt);
            nb++;
        }
    }
    for (unsigned t = 0; t < nterm; t++) {
        size_t before = nun;
        for (unsigned a = 0; a < nnt; a++)
            if (bulk_splitmix64(&seed) % 4 == 0) un[2 * nun] = a, un[2 * nun + 1] = t, nun++;
        if (nun == before) un[2 * nun] = (uint32_t)(bulk_splitmix64(&seed) % nnt), un[2 * nun + 1] = t, nun++;
    }
    /* the cfg view: the same rules, names N0.., and the terminals */
    bulk_cfg *c = &g->cfg;
    c->nnt = nnt, c->nterm = nterm, c->nrules = (uint32_t)(nb + nun), c->start = 0;
    c->nt_names = calloc(nnt, sizeof(char *));
    c->term_names = calloc(nterm, sizeof(char *));
    c->rule_lhs = malloc(sizeof(uint32_t) * (c->nrules + 1));
    c->rule_off = malloc(sizeof(uint32_t) * (c->nrules + 1));
    c->rhs = malloc(sizeof(int32_t) * (2 * nb + nun + 1));
    if (!c->nt_names || !c->term_names || !c->rule_lhs || !c->rule_off || !c->rhs) goto done;
    for (unsigned a = 0; a < nnt; a++) {
        if (!(c->nt_names[a] = malloc(16))) goto done;
        snprintf(c->nt_names[a], 16, "N%u", a);
    }
    for (unsigned t = 0; t < nterm; t++) {
        if (!(c->term_names[t] = malloc(16))) goto done;
        if (mode == BULK_CKY_CHARS) snprintf(c->term_names[t], 16, "%c", 'a' + t);
        else snprintf(c->term_names[t], 16, "t%u", t);
    }
    size_t pos = 0;
    for (size_t r = 0; r < nb; r++) {
        c->rule_lhs[r] = bin[3 * r], c->rule_off[r] = (uint32_t)pos;
        c->rhs[pos++] = (int32_t)bin[3 * r + 1], c->rhs[pos++] = (int32_t)bin[3 * r + 2];
    }
    for (size_t r = 0; r < nun; r++) {
        c->rule_lhs[nb + r] = un[2 * r], c->rule_off[nb + r] = (uint32_t)pos;
        c->rhs[pos++] = -(int32_t)un[2 * r + 1] - 1;
    }
    c->rule_off[c->nrules] = (uint32_t)pos;
    g->nnt = nnt, g->nterm = nterm, g->accepts_empty = 0;
    if ((st = bulk_cnf_index(g, bin, nb, un, nun)) == BULK_OK) st = build_lookup(g);
done:
    free(bin), free(un), free(slots);
    if (st != BULK_OK) {
        bulk_grammar_free(g);
        return bulk_fail(NULL, st, "%s: %u nonterminals, %zu binary rules: %s", fn, nnt, p2,
                         st == BULK_ERR_NOMEM ? "out of memory" : bulk_status_string(st));
    }
    *out = g;
    return st;
}

/* The sizes of a NULL grammar are 0 (and the calling thread's last error names the function). */
static int no_grammar(const char *fn) { return bulk_fail(NULL, 0, "%s: g is NULL", fn); }
size_t bulk_grammar_nonterminals(const bulk_grammar *g) { return g ? g->nnt : (size_t)no_grammar(__func__); }
size_t bulk_grammar_binary_rules(const bulk_grammar *g) { return g ? g->nbin : (size_t)no_grammar(__func__); }
size_t bulk_grammar_unary_rules(const bulk_grammar *g) { return g ? g->nun : (size_t)no_grammar(__func__); }
size_t bulk_grammar_terminals(const bulk_grammar *g) { return g ? g->nterm : (size_t)no_grammar(__func__); }
int bulk_grammar_accepts_empty(const bulk_grammar *g) { return g ? g->accepts_empty : no_grammar(__func__); }
int bulk_grammar_mode(const bulk_grammar *g) { return g ? g->mode : no_grammar(__func__); }
int32_t bulk_grammar_terminal(const bulk_grammar *g, const char *text, size_t len)
{
    if (!g || !text) return bulk_fail(NULL, -1, "bulk_grammar_terminal: %s is NULL", g ? "text" : "g");
    if (g->mode == BULK_CKY_CHARS) return len == 1 ? g->byte_term[(unsigned char)text[0]] : -1;
    size_t lo = 0, hi = g->cfg.nterm;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *s = g->sorted_terms[mid];
        int c = strncmp(s, text, len);
        if (c == 0 && s[len] != 0) c = 1;
        if (c == 0) return (int32_t)g->sorted_idx[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}
