/* Reading grammar text (the NLTK-style format described in include/bulk/cky.h) into a bulk_cfg.
 * Errors name the file and line: a rule without '->', a missing or quoted left-hand side, an
 * unterminated quote, a second '->', a '|' with no rule to continue, a non-terminal that is
 * used but has no rule (reported at its first use), an empty grammar. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cky/grammar.h"

/* ---- a string -> index table (open addressing) --------------------------------------------- */
typedef struct strtab {
    char **names; /* by index */
    uint32_t n, cap;
    uint32_t *slots; /* index+1, 0 = empty */
    uint32_t nslots;
} strtab;

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* Returns the index of s (adding it when new) or -1 on allocation failure. */
static int64_t strtab_intern(strtab *t, const char *s, size_t len, int *added)
{
    if (added) *added = 0;
    if (2 * (t->n + 1) > t->nslots) {
        uint32_t ns = t->nslots ? 2 * t->nslots : 64;
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl) return -1;
        for (uint32_t i = 0; i < t->n; i++) {
            uint64_t h = hash_bytes(t->names[i], strlen(t->names[i])) & (ns - 1);
            while (sl[h]) h = (h + 1) & (ns - 1);
            sl[h] = i + 1;
        }
        free(t->slots);
        t->slots = sl, t->nslots = ns;
    }
    uint64_t h = hash_bytes(s, len) & (t->nslots - 1);
    while (t->slots[h]) {
        const char *x = t->names[t->slots[h] - 1];
        if (strlen(x) == len && memcmp(x, s, len) == 0) return t->slots[h] - 1;
        h = (h + 1) & (t->nslots - 1);
    }
    if (t->n == t->cap) {
        uint32_t nc = t->cap ? 2 * t->cap : 16;
        char **nn = realloc(t->names, nc * sizeof *nn);
        if (!nn) return -1;
        t->names = nn, t->cap = nc;
    }
    char *copy = malloc(len + 1);
    if (!copy) return -1;
    memcpy(copy, s, len);
    copy[len] = 0;
    t->names[t->n] = copy;
    t->slots[h] = t->n + 1;
    if (added) *added = 1;
    return t->n++;
}

/* ---- growing arrays -------------------------------------------------------------------------- */
#define PUSH(arr, n, cap, val, fail_label)                                                         \
    do {                                                                                           \
        if ((n) == (cap)) {                                                                        \
            size_t nc_ = (cap) ? 2 * (cap) : 64;                                                   \
            void *np_ = realloc((arr), nc_ * sizeof *(arr));                                       \
            if (!np_) goto fail_label;                                                             \
            (arr) = np_;                                                                           \
            (cap) = nc_;                                                                           \
        }                                                                                          \
        (arr)[(n)++] = (val);                                                                      \
    } while (0)

typedef struct perr {
    const char *name;
    char *err;
    size_t errlen;
} perr;

static int fail(const perr *e, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(const perr *e, unsigned line, const char *fmt, ...)
{
    if (e->err && e->errlen) {
        int n = line ? snprintf(e->err, e->errlen, "%s:%u: ", e->name, line) : snprintf(e->err, e->errlen, "%s: ", e->name);
        if (n >= 0 && (size_t)n < e->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(e->err + n, e->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return BULK_ERR_PARSE;
}

void bulk_cfg_clear(bulk_cfg *cfg)
{
    for (uint32_t i = 0; i < cfg->nnt; i++) free(cfg->nt_names[i]);
    for (uint32_t i = 0; i < cfg->nterm; i++) free(cfg->term_names[i]);
    free(cfg->nt_names), free(cfg->term_names), free(cfg->rule_lhs), free(cfg->rule_off), free(cfg->rhs);
    memset(cfg, 0, sizeof *cfg);
}

enum { T_NAME, T_TERM, T_ARROW, T_BAR, T_END };

typedef struct lexer {
    const char *p, *end; /* the current line, without its newline */
    char *buf;           /* unescaped terminal text */
    size_t buflen, bufcap;
} lexer;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* Next token of the line. For T_NAME: [*s, *s + *len) in the text; for T_TERM: the unescaped
 * bytes in lx->buf. Returns -1 for an unterminated quote, -2 on allocation failure. */
static int next_token(lexer *lx, const char **s, size_t *len)
{
    while (lx->p < lx->end && is_space(*lx->p)) lx->p++;
    if (lx->p >= lx->end || *lx->p == '#') return T_END;
    char c = *lx->p;
    if (c == '|') {
        lx->p++;
        return T_BAR;
    }
    if (c == '-' && lx->p + 1 < lx->end && lx->p[1] == '>') {
        lx->p += 2;
        return T_ARROW;
    }
    if (c == '\'' || c == '"') {
        lx->p++;
        lx->buflen = 0;
        for (;;) {
            if (lx->p >= lx->end) return -1;
            char d = *lx->p++;
            if (d == c) break;
            if (d == '\\' && lx->p < lx->end) d = *lx->p++;
            if (lx->buflen + 1 >= lx->bufcap) {
                size_t nc = lx->bufcap ? 2 * lx->bufcap : 64;
                char *nb = realloc(lx->buf, nc);
                if (!nb) return -2;
                lx->buf = nb, lx->bufcap = nc;
            }
            lx->buf[lx->buflen++] = d;
        }
        *s = lx->buf;
        *len = lx->buflen;
        return T_TERM;
    }
    const char *b = lx->p;
    while (lx->p < lx->end && !is_space(*lx->p) && *lx->p != '|' && *lx->p != '\'' && *lx->p != '"' &&
           *lx->p != '#' && !(*lx->p == '-' && lx->p + 1 < lx->end && lx->p[1] == '>'))
        lx->p++;
    *s = b;
    *len = (size_t)(lx->p - b);
    return T_NAME;
}

/* Interns a non-terminal name; a new one gets its first-use line. -1 on allocation failure. */
static int64_t intern_nt(strtab *nts, const char *s, size_t n, unsigned line, unsigned **nt_line,
                         unsigned char **nt_defined, size_t *cap)
{
    int added;
    int64_t a = strtab_intern(nts, s, n, &added);
    if (a < 0 || !added) return a;
    if ((size_t)a >= *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        unsigned *nl = realloc(*nt_line, nc * sizeof *nl);
        if (!nl) return -1;
        *nt_line = nl;
        unsigned char *nd = realloc(*nt_defined, nc);
        if (!nd) return -1;
        *nt_defined = nd;
        *cap = nc;
    }
    (*nt_line)[a] = line;
    (*nt_defined)[a] = 0;
    return a;
}

/* Appends a rule (lhs, first rhs position). Nonzero on allocation failure. */
static int start_rule(uint32_t **lhs, uint32_t **off, size_t *n, size_t *cap, uint32_t a, uint32_t pos)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        uint32_t *nl = realloc(*lhs, nc * sizeof *nl);
        if (!nl) return 1;
        *lhs = nl;
        uint32_t *no = realloc(*off, nc * sizeof *no);
        if (!no) return 1;
        *off = no;
        *cap = nc;
    }
    (*lhs)[*n] = a;
    (*off)[*n] = pos;
    ++*n;
    return 0;
}

int bulk_cfg_parse(bulk_cfg *cfg, const char *text, size_t len, const char *name, int mode, char *err, size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    perr e = { name ? name : "<grammar>", err, errlen };
    if (err && errlen) err[0] = 0;
    strtab nts = { 0 }, terms = { 0 };
    unsigned *nt_line = NULL; /* first use or definition line */
    unsigned char *nt_defined = NULL;
    size_t nnt_cap = 0;
    uint32_t *lhs = NULL, *off = NULL;
    int32_t *rhs = NULL;
    size_t nrules = 0, rules_cap = 0, nrhs = 0, rhs_cap = 0;
    lexer lx = { 0 };
    int st = BULK_ERR_NOMEM;
    int64_t cur_lhs = -1; /* the rule a '|' line continues */
    unsigned line = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        line++;
        lx.p = p, lx.end = eol;
        p = eol < end ? eol + 1 : end;
        const char *s;
        size_t n;
        int t = next_token(&lx, &s, &n);
        if (t == T_END) continue;
        if (t < 0) goto lex_error;
        /* does the line hold '->' at all (outside quotes and comments)? */
        lexer probe = { lx.p, lx.end, NULL, 0, 0 };
        int has_arrow = t == T_ARROW, pt;
        const char *ps;
        size_t pn;
        while (!has_arrow && (pt = next_token(&probe, &ps, &pn)) != T_END && pt >= 0) has_arrow = pt == T_ARROW;
        free(probe.buf);
        if (t == T_BAR) {
            if (cur_lhs < 0) { st = fail(&e, line, "a line starting with '|' but no rule before it to continue"); goto done; }
            if (has_arrow) { st = fail(&e, line, "a continuation line ('|' ...) cannot contain '->'"); goto done; }
        } else {
            if (!has_arrow) { st = fail(&e, line, "rule without '->' (expected 'LHS -> symbols | ...')"); goto done; }
            if (t != T_NAME) { st = fail(&e, line, "expected a non-terminal name before '->'"); goto done; }
            int64_t a = intern_nt(&nts, s, n, line, &nt_line, &nt_defined, &nnt_cap);
            if (a < 0) goto done;
            nt_defined[a] = 1;
            cur_lhs = a;
            t = next_token(&lx, &s, &n);
            if (t != T_ARROW) { st = fail(&e, line, "expected '->' after the left-hand side '%s'", nts.names[a]); goto done; }
        }
        /* alternatives: a rule per alternative, possibly empty */
        if (start_rule(&lhs, &off, &nrules, &rules_cap, (uint32_t)cur_lhs, (uint32_t)nrhs)) goto done;
        for (;;) {
            t = next_token(&lx, &s, &n);
            if (t < 0) goto lex_error;
            if (t == T_END) break;
            if (t == T_ARROW) { st = fail(&e, line, "a second '->' in one rule"); goto done; }
            if (t == T_BAR) {
                if (start_rule(&lhs, &off, &nrules, &rules_cap, (uint32_t)cur_lhs, (uint32_t)nrhs)) goto done;
                continue;
            }
            if (t == T_NAME) {
                int64_t a = intern_nt(&nts, s, n, line, &nt_line, &nt_defined, &nnt_cap);
                if (a < 0) goto done;
                PUSH(rhs, nrhs, rhs_cap, (int32_t)a, done);
            } else if (mode == BULK_CKY_TOKENS) {
                if (n == 0) continue; /* '' is the empty string */
                for (size_t i = 0; i < n; i++)
                    if (is_space(s[i]) || s[i] == '\n') { st = fail(&e, line, "a token terminal cannot contain white space"); goto done; }
                int64_t ti = strtab_intern(&terms, s, n, NULL);
                if (ti < 0) goto done;
                PUSH(rhs, nrhs, rhs_cap, (int32_t)(-ti - 1), done);
            } else {
                for (size_t i = 0; i < n; i++) { /* one terminal per byte */
                    int64_t ti = strtab_intern(&terms, s + i, 1, NULL);
                    if (ti < 0) goto done;
                    PUSH(rhs, nrhs, rhs_cap, (int32_t)(-ti - 1), done);
                }
            }
        }
        continue;
    lex_error:
        st = t == -1 ? fail(&e, line, "unterminated quoted terminal") : BULK_ERR_NOMEM;
        goto done;
    }
    if (nrules == 0) { st = fail(&e, 0, "empty grammar: no rules"); goto done; }
    for (uint32_t a = 0; a < nts.n; a++)
        if (!nt_defined[a]) { st = fail(&e, nt_line[a], "non-terminal '%s' is used but has no rule", nts.names[a]); goto done; }
    if (start_rule(&lhs, &off, &nrules, &rules_cap, 0, (uint32_t)nrhs)) goto done; /* closing offset */
    nrules--;
    cfg->nnt = nts.n, cfg->nt_names = nts.names;
    cfg->nterm = terms.n, cfg->term_names = terms.names;
    cfg->nrules = (uint32_t)nrules;
    cfg->rule_lhs = lhs, cfg->rule_off = off, cfg->rhs = rhs;
    cfg->start = 0;
    nts.names = NULL, nts.n = 0, terms.names = NULL, terms.n = 0;
    lhs = off = NULL;
    rhs = NULL;
    st = BULK_OK;
done:
    for (uint32_t i = 0; i < nts.n; i++) free(nts.names[i]);
    for (uint32_t i = 0; i < terms.n; i++) free(terms.names[i]);
    free(nts.names), free(nts.slots), free(terms.names), free(terms.slots);
    free(nt_line), free(nt_defined), free(lhs), free(off), free(rhs), free(lx.buf);
    return st;
}
