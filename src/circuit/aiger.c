/* AIGER reader (ASCII "aag" and binary "aig") and writers.
 *
 * Format: http://fmv.jku.at/aiger/FORMAT. Header "aag|aig M I L O A [B C J F]"; B..F must be 0
 * (bad-state, constraint, justice and fairness sections are not supported). ASCII files may
 * define gates in any order and use any variable numbers; they are renumbered so that inputs
 * come first, then latches, then gates in topological order (cycles are an error). Binary files
 * have implicit inputs 2,4,..,2I, latches "next [init]" per line, and gates as two LEB128
 * deltas each (lhs - rhs0, rhs0 - rhs1) with lhs = 2*(I+L+i+1). The symbol table and comment
 * section that may follow are ignored. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "bulk/circuit.h"
#include "read_stream.h"

typedef struct reader {
    const unsigned char *p, *end;
    unsigned line;
    const char *name;
    char *err;
    size_t errlen;
} reader;

static int fail(reader *r, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader *r, unsigned line, const char *fmt, ...)
{
    if (r->err && r->errlen) {
        int n = snprintf(r->err, r->errlen, "%s:%u: ", r->name, line);
        if (n < 0) n = 0;
        if ((size_t)n < r->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return BULK_ERR_PARSE;
}

/* Reads one unsigned decimal number preceded by exactly one space (or at line start when
 * first). Returns 1 and the value, or 0 when the next character is not a digit. */
static int read_uint(reader *r, uint64_t *v)
{
    if (r->p >= r->end || *r->p < '0' || *r->p > '9') return 0;
    uint64_t x = 0;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        x = x * 10 + (uint64_t)(*r->p - '0');
        if (x > UINT32_MAX) return 0;
        r->p++;
    }
    *v = x;
    return 1;
}

/* Reads the numbers of one line ("n1 n2 ... nk\n"): between min_k and max_k numbers separated
 * by single spaces. Returns the count or -1. */
static int read_line(reader *r, uint64_t *v, int min_k, int max_k)
{
    int k = 0;
    for (;;) {
        if (k == max_k) break;
        if (k > 0) {
            if (r->p >= r->end || *r->p != ' ') break;
            r->p++;
        }
        if (!read_uint(r, &v[k])) return -1;
        k++;
    }
    if (k < min_k) return -1;
    if (r->p < r->end && *r->p == '\r') r->p++;
    if (r->p >= r->end || *r->p != '\n') return -1;
    r->p++;
    r->line++;
    return k;
}

void bulk_circuit_free(bulk_circuit *c)
{
    if (!c) return;
    free(c->latch_next);
    free(c->latch_init);
    free(c->out);
    free(c->and_rhs);
    free(c);
}

/* A circuit with the header's counts and room for lcap latches, ocap outputs and acap gates:
 * at most what the rest of the file can hold (see body_caps), so that a header alone never
 * sizes an allocation. A parse that succeeds has filled every counted entry, which the bound
 * guarantees fits; one that fails frees the circuit. */
static bulk_circuit *circuit_alloc(uint32_t i, uint32_t l, uint32_t o, uint32_t a, size_t lcap, size_t ocap,
                                   size_t acap)
{
    bulk_circuit *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->inputs = i;
    c->latches = l;
    c->outputs = o;
    c->ands = a;
    c->maxvar = i + l + a;
    c->latch_next = malloc(sizeof(uint32_t) * (lcap ? lcap : 1));
    c->latch_init = malloc(sizeof(uint32_t) * (lcap ? lcap : 1));
    c->out = malloc(sizeof(uint32_t) * (ocap ? ocap : 1));
    c->and_rhs = malloc(sizeof(uint32_t) * 2 * (acap ? acap : 1));
    if (!c->latch_next || !c->latch_init || !c->out || !c->and_rhs) {
        bulk_circuit_free(c);
        return NULL;
    }
    return c;
}

/* How many entries of each section the bytes left after the header can hold. Each entry is a
 * line ending in '\n' whose numbers have at least one digit: ASCII inputs and outputs "2\n"
 * take at least 2 bytes, latches "2 3\n" 4, gates "2 3 4\n" 6; binary latches "3\n" and outputs
 * take 2, gates two deltas of at least one byte each. Entry k of a section is stored only
 * after its own bytes have been read, by then at least (k + 1) times its minimum, so k stays
 * below the cap. */
typedef struct body_caps {
    size_t i, l, o, a;
} body_caps;

static body_caps caps_for(const reader *r, const uint64_t h[5], int binary)
{
    const size_t left = (size_t)(r->end - r->p);
    const size_t li = left / 2, ll = left / (binary ? 2 : 4), lo = left / 2, la = left / (binary ? 2 : 6);
    body_caps k = { binary ? 0 : (h[1] < li ? h[1] : li), h[2] < ll ? h[2] : ll, h[3] < lo ? h[3] : lo,
                    h[4] < la ? h[4] : la };
    return k;
}

/* The message when entry i of a section cannot be read: the file may simply end before the
 * count the header declared (the usual sign of a header that claims too much), or the line
 * may be malformed. */
static int fail_entry(reader *r, const unsigned char *start, unsigned line, const char *what, uint32_t i,
                      uint64_t declared, const char *expected)
{
    if (start >= r->end)
        return fail(r, line, "the file ends before %s %u of the %llu that the header (line 1) declares", what, i,
                    (unsigned long long)declared);
    return fail(r, line, "%s %u: expected %s", what, i, expected);
}

/* Header line: returns 0 or an error; fills m,i,l,o,a. */
static int read_header(reader *r, int *binary, uint64_t h[5])
{
    if (r->end - r->p < 4 || (memcmp(r->p, "aag ", 4) != 0 && memcmp(r->p, "aig ", 4) != 0))
        return fail(r, 1, "not an AIGER file (expected a header 'aag M I L O A' or 'aig M I L O A')");
    *binary = r->p[1] == 'i';
    r->p += 4;
    uint64_t v[9] = { 0 };
    int k = read_line(r, v, 5, 9);
    if (k < 0) return fail(r, 1, "malformed header (expected M I L O A as decimal numbers)");
    for (int j = 5; j < k; j++)
        if (v[j] != 0)
            return fail(r, 1, "B/C/J/F sections (bad states, constraints, justice, fairness) are not supported");
    memcpy(h, v, 5 * sizeof *h);
    if (h[0] > (UINT32_MAX >> 1) - 1) return fail(r, 1, "M = %llu is too large", (unsigned long long)h[0]);
    if (h[1] + h[2] + h[4] > h[0])
        return fail(r, 1, "M = %llu is smaller than I + L + A = %llu", (unsigned long long)h[0],
                    (unsigned long long)(h[1] + h[2] + h[4]));
    if (*binary && h[1] + h[2] + h[4] != h[0])
        return fail(r, 1, "binary AIGER needs M = I + L + A");
    return 0;
}

static int check_lit(reader *r, uint64_t lit, uint64_t maxvar, unsigned line, const char *what)
{
    if (lit > 2 * maxvar + 1)
        return fail(r, line, "%s literal %llu exceeds 2*M+1 = %llu", what, (unsigned long long)lit,
                    (unsigned long long)(2 * maxvar + 1));
    return 0;
}

/* One variable an ASCII file defines (as an input, a latch or an AND gate). */
typedef struct vdef {
    uint32_t var;       /* its number in the file */
    uint32_t idx;       /* its position among the inputs, latches or gates */
    uint32_t newvar;    /* its number after renumbering */
    unsigned line;      /* where it is defined */
    unsigned char kind; /* 1 input, 2 latch, 3 gate */
} vdef;

/* The defined variables by number, in an open-addressing table. Files may number variables
 * freely up to M = 2^31 - 2 however few they define, so nothing is indexed by M: the table
 * holds only the definitions the file has room for. */
typedef struct vtab {
    vdef *d;
    uint32_t n;
    uint32_t *slot; /* 1 + index into d; 0 = empty */
    size_t mask;
} vtab;

static int vt_init(vtab *t, size_t cap)
{
    size_t ns = 2;
    while (ns < 2 * cap) ns *= 2;
    t->d = malloc(sizeof *t->d * (cap ? cap : 1));
    t->slot = calloc(ns, sizeof *t->slot);
    t->n = 0;
    t->mask = ns - 1;
    return t->d && t->slot ? BULK_OK : BULK_ERR_NOMEM;
}

static void vt_free(vtab *t) { free(t->d), free(t->slot); }

/* The slot that holds var, or the empty slot where it would go. */
static uint32_t *vt_slot(const vtab *t, uint32_t var)
{
    size_t h = (size_t)(((uint64_t)var * 0x9e3779b97f4a7c15ull) >> 32) & t->mask;
    while (t->slot[h] && t->d[t->slot[h] - 1].var != var) h = (h + 1) & t->mask;
    return &t->slot[h];
}

static vdef *vt_find(const vtab *t, uint32_t var)
{
    uint32_t s = *vt_slot(t, var);
    return s ? &t->d[s - 1] : NULL;
}

/* Defines var; the earlier definition when it has one (nothing is added then). */
static const vdef *vt_define(vtab *t, uint32_t var, unsigned char kind, uint32_t idx, unsigned line)
{
    uint32_t *s = vt_slot(t, var);
    if (*s) return &t->d[*s - 1];
    t->d[t->n] = (vdef){ var, idx, 0, line, kind };
    *s = ++t->n;
    return NULL;
}

/* The new literal of a used literal (whose variable is defined or 0). */
static uint32_t map_lit(const vtab *t, uint32_t lit)
{
    const vdef *d = lit >> 1 ? vt_find(t, lit >> 1) : NULL;
    return ((d ? d->newvar : 0) << 1) | (lit & 1u);
}

static int parse_ascii(reader *r, bulk_circuit **out, const uint64_t h[5])
{
    const uint64_t M = h[0];
    const uint32_t I = (uint32_t)h[1], L = (uint32_t)h[2], O = (uint32_t)h[3], A = (uint32_t)h[4];
    const body_caps k = caps_for(r, h, 0);
    int st = BULK_ERR_NOMEM;
    vtab vt = { 0 };
    uint32_t *lat = malloc(sizeof(uint32_t) * 3 * (k.l ? k.l : 1));
    uint32_t *outs = malloc(sizeof(uint32_t) * (k.o ? k.o : 1));
    uint32_t *gates = malloc(sizeof(uint32_t) * 3 * (k.a ? k.a : 1));
    unsigned *gline = malloc(sizeof(unsigned) * (k.a ? k.a : 1));
    uint32_t *order = malloc(sizeof(uint32_t) * (k.a ? k.a : 1));
    uint32_t *stack = malloc(sizeof(uint32_t) * (k.a ? k.a : 1));
    unsigned char *state = calloc(k.a ? k.a : 1, 1);
    bulk_circuit *c = NULL;
    if (vt_init(&vt, k.i + k.l + k.a) || !lat || !outs || !gates || !gline || !order || !stack || !state)
        goto done;
    uint64_t v[3];
    const vdef *prev;
    for (uint32_t i = 0; i < I; i++) {
        unsigned ln = r->line;
        const unsigned char *at = r->p;
        if (read_line(r, v, 1, 1) < 0) { st = fail_entry(r, at, ln, "input", i, I, "one literal"); goto done; }
        if ((st = check_lit(r, v[0], M, ln, "input"))) goto done;
        if (v[0] < 2 || (v[0] & 1)) { st = fail(r, ln, "input literal %llu must be even and >= 2", (unsigned long long)v[0]); goto done; }
        uint32_t var = (uint32_t)(v[0] >> 1);
        if ((prev = vt_define(&vt, var, 1, i, ln))) { st = fail(r, ln, "variable %u already defined on line %u", var, prev->line); goto done; }
    }
    for (uint32_t i = 0; i < L; i++) {
        unsigned ln = r->line;
        const unsigned char *at = r->p;
        int kk = read_line(r, v, 2, 3);
        if (kk < 0) { st = fail_entry(r, at, ln, "latch", i, L, "'literal next [init]'"); goto done; }
        if ((st = check_lit(r, v[0], M, ln, "latch")) || (st = check_lit(r, v[1], M, ln, "latch next"))) goto done;
        if (v[0] < 2 || (v[0] & 1)) { st = fail(r, ln, "latch literal %llu must be even and >= 2", (unsigned long long)v[0]); goto done; }
        uint64_t init = kk == 3 ? v[2] : 0;
        if (init != 0 && init != 1 && init != v[0]) { st = fail(r, ln, "latch init must be 0, 1 or the latch literal"); goto done; }
        uint32_t var = (uint32_t)(v[0] >> 1);
        if ((prev = vt_define(&vt, var, 2, i, ln))) { st = fail(r, ln, "variable %u already defined on line %u", var, prev->line); goto done; }
        lat[3 * i] = (uint32_t)v[0], lat[3 * i + 1] = (uint32_t)v[1], lat[3 * i + 2] = (uint32_t)init;
    }
    unsigned out_line0 = r->line;
    for (uint32_t i = 0; i < O; i++) {
        unsigned ln = r->line;
        const unsigned char *at = r->p;
        if (read_line(r, v, 1, 1) < 0) { st = fail_entry(r, at, ln, "output", i, O, "one literal"); goto done; }
        if ((st = check_lit(r, v[0], M, ln, "output"))) goto done;
        outs[i] = (uint32_t)v[0];
    }
    for (uint32_t i = 0; i < A; i++) {
        unsigned ln = r->line;
        const unsigned char *at = r->p;
        if (read_line(r, v, 3, 3) < 0) { st = fail_entry(r, at, ln, "AND gate", i, A, "'lhs rhs0 rhs1'"); goto done; }
        for (int j = 0; j < 3; j++)
            if ((st = check_lit(r, v[j], M, ln, "AND gate"))) goto done;
        if (v[0] < 2 || (v[0] & 1)) { st = fail(r, ln, "AND gate lhs %llu must be even and >= 2", (unsigned long long)v[0]); goto done; }
        uint32_t var = (uint32_t)(v[0] >> 1);
        if ((prev = vt_define(&vt, var, 3, i, ln))) { st = fail(r, ln, "variable %u already defined on line %u", var, prev->line); goto done; }
        gates[3 * i] = (uint32_t)v[0], gates[3 * i + 1] = (uint32_t)v[1], gates[3 * i + 2] = (uint32_t)v[2];
        gline[i] = ln;
    }
    /* every used literal must refer to a defined variable (or the constant) */
    for (uint32_t i = 0; i < A; i++)
        for (int j = 1; j < 3; j++) {
            uint32_t var = gates[3 * i + j] >> 1;
            if (var && !vt_find(&vt, var)) { st = fail(r, gline[i], "AND gate uses undefined variable %u", var); goto done; }
        }
    for (uint32_t i = 0; i < L; i++) {
        uint32_t var = lat[3 * i + 1] >> 1;
        if (var && !vt_find(&vt, var)) { st = fail(r, vt_find(&vt, lat[3 * i] >> 1)->line, "latch uses undefined variable %u", var); goto done; }
    }
    for (uint32_t i = 0; i < O; i++) {
        uint32_t var = outs[i] >> 1;
        if (var && !vt_find(&vt, var)) { st = fail(r, out_line0 + i, "output uses undefined variable %u", var); goto done; }
    }
    /* topological order of the gates (iterative DFS; state 1 = on the stack, 2 = placed) */
    uint32_t placed = 0;
    for (uint32_t g0 = 0; g0 < A; g0++) {
        if (state[g0]) continue;
        uint32_t sp = 0;
        stack[sp++] = g0;
        state[g0] = 1;
        while (sp) {
            uint32_t g = stack[sp - 1];
            int pushed = 0;
            for (int j = 1; j < 3 && !pushed; j++) {
                const vdef *d = gates[3 * g + j] >> 1 ? vt_find(&vt, gates[3 * g + j] >> 1) : NULL;
                if (d && d->kind == 3) {
                    uint32_t h2 = d->idx;
                    if (state[h2] == 1) { st = fail(r, gline[g], "combinational cycle through variable %u", d->var); goto done; }
                    if (state[h2] == 0) {
                        state[h2] = 1;
                        stack[sp++] = h2;
                        pushed = 1;
                    }
                }
            }
            if (!pushed) {
                state[g] = 2;
                order[placed++] = g;
                sp--;
            }
        }
    }
    c = circuit_alloc(I, L, O, A, L, O, A);
    if (!c) goto done;
    for (uint32_t n = 0; n < vt.n; n++) {
        vdef *d = &vt.d[n];
        if (d->kind == 1) d->newvar = 1 + d->idx;
        else if (d->kind == 2) d->newvar = 1 + I + d->idx;
    }
    for (uint32_t p = 0; p < A; p++) vt_find(&vt, gates[3 * order[p]] >> 1)->newvar = 1 + I + L + p;
    for (uint32_t p = 0; p < A; p++) {
        c->and_rhs[2 * p] = map_lit(&vt, gates[3 * order[p] + 1]);
        c->and_rhs[2 * p + 1] = map_lit(&vt, gates[3 * order[p] + 2]);
    }
    for (uint32_t i = 0; i < L; i++) {
        c->latch_next[i] = map_lit(&vt, lat[3 * i + 1]);
        uint32_t init = lat[3 * i + 2];
        c->latch_init[i] = init <= 1 ? init : map_lit(&vt, init);
    }
    for (uint32_t i = 0; i < O; i++) c->out[i] = map_lit(&vt, outs[i]);
    *out = c;
    c = NULL;
    st = BULK_OK;
done:
    bulk_circuit_free(c);
    vt_free(&vt);
    free(lat), free(outs), free(gates), free(gline), free(order), free(stack), free(state);
    return st;
}

static int read_delta(reader *r, uint32_t *d)
{
    uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
        if (r->p >= r->end || shift > 28) return -1;
        unsigned char ch = *r->p++;
        x |= (uint64_t)(ch & 0x7f) << shift;
        if (!(ch & 0x80)) break;
    }
    if (x > UINT32_MAX) return -1;
    *d = (uint32_t)x;
    return 0;
}

static int parse_binary(reader *r, bulk_circuit **out, const uint64_t h[5])
{
    const uint64_t M = h[0];
    const uint32_t I = (uint32_t)h[1], L = (uint32_t)h[2], O = (uint32_t)h[3], A = (uint32_t)h[4];
    const body_caps k = caps_for(r, h, 1);
    bulk_circuit *c = circuit_alloc(I, L, O, A, k.l, k.o, k.a);
    if (!c) return BULK_ERR_NOMEM;
    int st;
    uint64_t v[2];
    for (uint32_t i = 0; i < L; i++) {
        unsigned ln = r->line;
        const unsigned char *at = r->p;
        int kk = read_line(r, v, 1, 2);
        if (kk < 0) { st = fail_entry(r, at, ln, "latch", i, L, "'next [init]'"); goto bad; }
        if ((st = check_lit(r, v[0], M, ln, "latch next"))) goto bad;
        uint32_t self = 2 * (I + i + 1);
        uint64_t init = kk == 2 ? v[1] : 0;
        if (init != 0 && init != 1 && init != self) { st = fail(r, ln, "latch init must be 0, 1 or the latch literal"); goto bad; }
        c->latch_next[i] = (uint32_t)v[0];
        c->latch_init[i] = (uint32_t)init;
    }
    for (uint32_t i = 0; i < O; i++) {
        unsigned ln = r->line;
        const unsigned char *at = r->p;
        if (read_line(r, v, 1, 1) < 0) { st = fail_entry(r, at, ln, "output", i, O, "one literal"); goto bad; }
        if ((st = check_lit(r, v[0], M, ln, "output"))) goto bad;
        c->out[i] = (uint32_t)v[0];
    }
    for (uint32_t i = 0; i < A; i++) {
        unsigned ln = r->line + i;
        uint32_t lhs = 2 * (I + L + i + 1), d0, d1;
        if (r->p >= r->end)
            { st = fail(r, ln, "the file ends before AND gate %u of the %u that the header (line 1) declares", i, A); goto bad; }
        if (read_delta(r, &d0) || read_delta(r, &d1))
            { st = fail(r, ln, "AND gate %u: truncated or malformed delta encoding", i); goto bad; }
        if (d0 == 0 || d0 > lhs) { st = fail(r, ln, "AND gate %u: delta %u does not give 0 <= rhs0 < lhs", i, d0); goto bad; }
        uint32_t rhs0 = lhs - d0;
        if (d1 > rhs0) { st = fail(r, ln, "AND gate %u: delta %u gives a negative rhs1", i, d1); goto bad; }
        c->and_rhs[2 * i] = rhs0;
        c->and_rhs[2 * i + 1] = rhs0 - d1;
    }
    *out = c;
    return BULK_OK;
bad:
    bulk_circuit_free(c);
    return st;
}

/* The reader behind both public readers: on failure "name:line: reason" is in err. */
static int parse_text(bulk_circuit **c, const void *data, size_t len, const char *name, char *err,
                      size_t errlen)
{
    reader r = { (const unsigned char *)data, (const unsigned char *)data + len, 1, name, err, errlen };
    err[0] = 0;
    uint64_t h[5] = { 0 };
    int binary = 0;
    int st = read_header(&r, &binary, h);
    if (st) return st;
    return binary ? parse_binary(&r, c, h) : parse_ascii(&r, c, h);
}

/* A failure of parse_text as the calling thread's last error, named after the public function. */
static int parse_failed(const char *fn, int st, const char *name, const char *err)
{
    if (err[0]) return bulk_fail(NULL, st, "%s: %s", fn, err);
    return bulk_fail(NULL, st, "%s: %s: %s", fn, name, st == BULK_ERR_NOMEM ? "out of memory" : bulk_status_string(st));
}

int bulk_circuit_parse(bulk_circuit **c, const void *data, size_t len, const char *name)
{
    static const char fn[] = "bulk_circuit_parse";
    if (!c) return bulk_fail(NULL, BULK_ERR_ARG, "%s: c is NULL", fn);
    *c = NULL;
    if (!data && len) return bulk_fail(NULL, BULK_ERR_ARG, "%s: data is NULL with len %zu", fn, len);
    char err[512];
    if (!name) name = "<aiger>";
    int st = parse_text(c, data, len, name, err, sizeof err);
    return st ? parse_failed(fn, st, name, err) : BULK_OK;
}

int bulk_circuit_read(bulk_circuit **c, const char *path)
{
    static const char fn[] = "bulk_circuit_read";
    if (!c) return bulk_fail(NULL, BULK_ERR_ARG, "%s: c is NULL", fn);
    *c = NULL;
    if (!path) return bulk_fail(NULL, BULK_ERR_ARG, "%s: path is NULL", fn);
    char *buf, err[512];
    size_t len;
    int st = bulk_read_path_msg(path, &buf, &len, err, sizeof err);
    if (st == BULK_ERR_NOMEM) return bulk_fail(NULL, st, "%s: %s: out of memory", fn, path);
    if (st != BULK_OK) return bulk_fail(NULL, st, "%s: %s", fn, err); /* BULK_ERR_IO: err names the path */
    st = parse_text(c, buf, len, path, err, sizeof err);
    free(buf);
    return st ? parse_failed(fn, st, path, err) : BULK_OK;
}

static int write_header_and_io(const bulk_circuit *c, FILE *f, int binary)
{
    if (fprintf(f, "%s %u %u %u %u %u\n", binary ? "aig" : "aag", c->maxvar, c->inputs, c->latches,
                c->outputs, c->ands) < 0)
        return BULK_ERR_IO;
    if (!binary)
        for (uint32_t i = 0; i < c->inputs; i++) fprintf(f, "%u\n", 2 * (i + 1));
    for (uint32_t i = 0; i < c->latches; i++) {
        uint32_t self = 2 * (c->inputs + i + 1);
        if (!binary) fprintf(f, "%u ", self);
        if (c->latch_init[i]) fprintf(f, "%u %u\n", c->latch_next[i], c->latch_init[i] > 1 ? self : c->latch_init[i]);
        else fprintf(f, "%u\n", c->latch_next[i]);
    }
    for (uint32_t i = 0; i < c->outputs; i++) fprintf(f, "%u\n", c->out[i]);
    return ferror(f) ? BULK_ERR_IO : BULK_OK;
}

int bulk_circuit_write_aag(const bulk_circuit *c, FILE *f)
{
    if (!c || !f) return bulk_fail(NULL, BULK_ERR_ARG, "bulk_circuit_write_aag: %s is NULL", c ? "out" : "c");
    int st = write_header_and_io(c, f, 0);
    for (uint32_t g = 0; st == BULK_OK && g < c->ands; g++)
        fprintf(f, "%u %u %u\n", 2 * (c->inputs + c->latches + g + 1), c->and_rhs[2 * g], c->and_rhs[2 * g + 1]);
    if (st || ferror(f)) return bulk_fail(NULL, BULK_ERR_IO, "bulk_circuit_write_aag: write error");
    return BULK_OK;
}

static void put_delta(FILE *f, uint32_t x)
{
    while (x & ~0x7fu) {
        fputc((int)((x & 0x7f) | 0x80), f);
        x >>= 7;
    }
    fputc((int)x, f);
}

int bulk_circuit_write_aig(const bulk_circuit *c, FILE *f)
{
    static const char fn[] = "bulk_circuit_write_aig";
    if (!c || !f) return bulk_fail(NULL, BULK_ERR_ARG, "%s: %s is NULL", fn, c ? "out" : "c");
    if (write_header_and_io(c, f, 1)) return bulk_fail(NULL, BULK_ERR_IO, "%s: write error", fn);
    for (uint32_t g = 0; g < c->ands; g++) {
        uint32_t lhs = 2 * (c->inputs + c->latches + g + 1);
        uint32_t r0 = c->and_rhs[2 * g], r1 = c->and_rhs[2 * g + 1];
        if (r0 < r1) {
            uint32_t t = r0;
            r0 = r1;
            r1 = t;
        }
        if (r0 >= lhs)
            return bulk_fail(NULL, BULK_ERR_ARG, "%s: gate %u: operand %u is not below its literal %u "
                             "(gates must be in topological order)", fn, g, r0, lhs);
        put_delta(f, lhs - r0);
        put_delta(f, r0 - r1);
    }
    if (ferror(f)) return bulk_fail(NULL, BULK_ERR_IO, "%s: write error", fn);
    return BULK_OK;
}
