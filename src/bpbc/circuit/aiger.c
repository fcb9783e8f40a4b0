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

#include "bulk/circuit.h"
#include "common/read_stream.h"

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

static bulk_circuit *circuit_alloc(uint32_t i, uint32_t l, uint32_t o, uint32_t a)
{
    bulk_circuit *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->inputs = i;
    c->latches = l;
    c->outputs = o;
    c->ands = a;
    c->maxvar = i + l + a;
    c->latch_next = malloc(sizeof(uint32_t) * (l ? l : 1));
    c->latch_init = malloc(sizeof(uint32_t) * (l ? l : 1));
    c->out = malloc(sizeof(uint32_t) * (o ? o : 1));
    c->and_rhs = malloc(sizeof(uint32_t) * 2 * (a ? a : 1));
    if (!c->latch_next || !c->latch_init || !c->out || !c->and_rhs) {
        bulk_circuit_free(c);
        return NULL;
    }
    return c;
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

/* The shared tail of both readers: latches ("[lit] next [init]") and outputs. In ASCII mode
 * latch and input literals are definitions recorded in `def_line` (0 = undefined). */
static int parse_ascii(reader *r, bulk_circuit **out, const uint64_t h[5])
{
    const uint64_t M = h[0];
    const uint32_t I = (uint32_t)h[1], L = (uint32_t)h[2], O = (uint32_t)h[3], A = (uint32_t)h[4];
    int st = BULK_ERR_NOMEM;
    /* kind[v]: 0 undefined, 1 input, 2 latch, 3 gate; idx[v]: its position; line of definition */
    unsigned char *kind = calloc(M + 1, 1);
    uint32_t *idx = calloc(M + 1, sizeof *idx);
    unsigned *dline = calloc(M + 1, sizeof *dline);
    uint32_t *newvar = calloc(M + 1, sizeof *newvar);
    uint32_t *lat = malloc(sizeof(uint32_t) * 3 * (L ? L : 1));
    uint32_t *outs = malloc(sizeof(uint32_t) * (O ? O : 1));
    uint32_t *gates = malloc(sizeof(uint32_t) * 3 * (A ? A : 1));
    unsigned *gline = malloc(sizeof(unsigned) * (A ? A : 1));
    uint32_t *order = malloc(sizeof(uint32_t) * (A ? A : 1));
    uint32_t *stack = malloc(sizeof(uint32_t) * (A ? A : 1));
    unsigned char *state = calloc(A ? A : 1, 1);
    bulk_circuit *c = NULL;
    if (!kind || !idx || !dline || !newvar || !lat || !outs || !gates || !gline || !order || !stack || !state)
        goto done;
    uint64_t v[3];
    for (uint32_t i = 0; i < I; i++) {
        unsigned ln = r->line;
        if (read_line(r, v, 1, 1) < 0) { st = fail(r, ln, "input %u: expected one literal", i); goto done; }
        if ((st = check_lit(r, v[0], M, ln, "input"))) goto done;
        if (v[0] < 2 || (v[0] & 1)) { st = fail(r, ln, "input literal %llu must be even and >= 2", (unsigned long long)v[0]); goto done; }
        uint32_t var = (uint32_t)(v[0] >> 1);
        if (kind[var]) { st = fail(r, ln, "variable %u already defined on line %u", var, dline[var]); goto done; }
        kind[var] = 1, idx[var] = i, dline[var] = ln;
    }
    for (uint32_t i = 0; i < L; i++) {
        unsigned ln = r->line;
        int k = read_line(r, v, 2, 3);
        if (k < 0) { st = fail(r, ln, "latch %u: expected 'literal next [init]'", i); goto done; }
        if ((st = check_lit(r, v[0], M, ln, "latch")) || (st = check_lit(r, v[1], M, ln, "latch next"))) goto done;
        if (v[0] < 2 || (v[0] & 1)) { st = fail(r, ln, "latch literal %llu must be even and >= 2", (unsigned long long)v[0]); goto done; }
        uint64_t init = k == 3 ? v[2] : 0;
        if (init != 0 && init != 1 && init != v[0]) { st = fail(r, ln, "latch init must be 0, 1 or the latch literal"); goto done; }
        uint32_t var = (uint32_t)(v[0] >> 1);
        if (kind[var]) { st = fail(r, ln, "variable %u already defined on line %u", var, dline[var]); goto done; }
        kind[var] = 2, idx[var] = i, dline[var] = ln;
        lat[3 * i] = (uint32_t)v[0], lat[3 * i + 1] = (uint32_t)v[1], lat[3 * i + 2] = (uint32_t)init;
    }
    unsigned out_line0 = r->line;
    for (uint32_t i = 0; i < O; i++) {
        unsigned ln = r->line;
        if (read_line(r, v, 1, 1) < 0) { st = fail(r, ln, "output %u: expected one literal", i); goto done; }
        if ((st = check_lit(r, v[0], M, ln, "output"))) goto done;
        outs[i] = (uint32_t)v[0];
    }
    for (uint32_t i = 0; i < A; i++) {
        unsigned ln = r->line;
        if (read_line(r, v, 3, 3) < 0) { st = fail(r, ln, "AND gate %u: expected 'lhs rhs0 rhs1'", i); goto done; }
        for (int j = 0; j < 3; j++)
            if ((st = check_lit(r, v[j], M, ln, "AND gate"))) goto done;
        if (v[0] < 2 || (v[0] & 1)) { st = fail(r, ln, "AND gate lhs %llu must be even and >= 2", (unsigned long long)v[0]); goto done; }
        uint32_t var = (uint32_t)(v[0] >> 1);
        if (kind[var]) { st = fail(r, ln, "variable %u already defined on line %u", var, dline[var]); goto done; }
        kind[var] = 3, idx[var] = i, dline[var] = ln;
        gates[3 * i] = (uint32_t)v[0], gates[3 * i + 1] = (uint32_t)v[1], gates[3 * i + 2] = (uint32_t)v[2];
        gline[i] = ln;
    }
    /* every used literal must refer to a defined variable (or the constant) */
    for (uint32_t i = 0; i < A; i++)
        for (int j = 1; j < 3; j++) {
            uint32_t var = gates[3 * i + j] >> 1;
            if (var && !kind[var]) { st = fail(r, gline[i], "AND gate uses undefined variable %u", var); goto done; }
        }
    for (uint32_t i = 0; i < L; i++) {
        uint32_t var = lat[3 * i + 1] >> 1;
        if (var && !kind[var]) { st = fail(r, dline[lat[3 * i] >> 1], "latch uses undefined variable %u", var); goto done; }
    }
    for (uint32_t i = 0; i < O; i++) {
        uint32_t var = outs[i] >> 1;
        if (var && !kind[var]) { st = fail(r, out_line0 + i, "output uses undefined variable %u", var); goto done; }
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
                uint32_t var = gates[3 * g + j] >> 1;
                if (var && kind[var] == 3) {
                    uint32_t h2 = idx[var];
                    if (state[h2] == 1) { st = fail(r, gline[g], "combinational cycle through variable %u", var); goto done; }
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
    c = circuit_alloc(I, L, O, A);
    if (!c) goto done;
    for (uint32_t var = 1; var <= M; var++) {
        if (kind[var] == 1) newvar[var] = 1 + idx[var];
        else if (kind[var] == 2) newvar[var] = 1 + I + idx[var];
    }
    for (uint32_t p = 0; p < A; p++) newvar[gates[3 * order[p]] >> 1] = 1 + I + L + p;
#define MAPLIT(l) ((newvar[(l) >> 1] << 1) | ((l) & 1u))
    for (uint32_t p = 0; p < A; p++) {
        c->and_rhs[2 * p] = MAPLIT(gates[3 * order[p] + 1]);
        c->and_rhs[2 * p + 1] = MAPLIT(gates[3 * order[p] + 2]);
    }
    for (uint32_t i = 0; i < L; i++) {
        c->latch_next[i] = MAPLIT(lat[3 * i + 1]);
        uint32_t init = lat[3 * i + 2];
        c->latch_init[i] = init <= 1 ? init : MAPLIT(init);
    }
    for (uint32_t i = 0; i < O; i++) c->out[i] = MAPLIT(outs[i]);
#undef MAPLIT
    *out = c;
    c = NULL;
    st = BULK_OK;
done:
    bulk_circuit_free(c);
    free(kind), free(idx), free(dline), free(newvar), free(lat), free(outs), free(gates);
    free(gline), free(order), free(stack), free(state);
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
    bulk_circuit *c = circuit_alloc(I, L, O, A);
    if (!c) return BULK_ERR_NOMEM;
    int st;
    uint64_t v[2];
    for (uint32_t i = 0; i < L; i++) {
        unsigned ln = r->line;
        int k = read_line(r, v, 1, 2);
        if (k < 0) { st = fail(r, ln, "latch %u: expected 'next [init]'", i); goto bad; }
        if ((st = check_lit(r, v[0], M, ln, "latch next"))) goto bad;
        uint32_t self = 2 * (I + i + 1);
        uint64_t init = k == 2 ? v[1] : 0;
        if (init != 0 && init != 1 && init != self) { st = fail(r, ln, "latch init must be 0, 1 or the latch literal"); goto bad; }
        c->latch_next[i] = (uint32_t)v[0];
        c->latch_init[i] = (uint32_t)init;
    }
    for (uint32_t i = 0; i < O; i++) {
        unsigned ln = r->line;
        if (read_line(r, v, 1, 1) < 0) { st = fail(r, ln, "output %u: expected one literal", i); goto bad; }
        if ((st = check_lit(r, v[0], M, ln, "output"))) goto bad;
        c->out[i] = (uint32_t)v[0];
    }
    for (uint32_t i = 0; i < A; i++) {
        unsigned ln = r->line + i;
        uint32_t lhs = 2 * (I + L + i + 1), d0, d1;
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

int bulk_circuit_parse(bulk_circuit **c, const void *data, size_t len, const char *name, char *err,
                       size_t errlen)
{
    if (!c || (!data && len)) return BULK_ERR_ARG;
    *c = NULL;
    reader r = { (const unsigned char *)data, (const unsigned char *)data + len, 1, name ? name : "<aiger>", err, errlen };
    if (err && errlen) err[0] = 0;
    uint64_t h[5] = { 0 };
    int binary = 0;
    int st = read_header(&r, &binary, h);
    if (st) return st;
    return binary ? parse_binary(&r, c, h) : parse_ascii(&r, c, h);
}

int bulk_circuit_read(bulk_circuit **c, const char *path, char *err, size_t errlen)
{
    if (!c || !path) return BULK_ERR_ARG;
    *c = NULL;
    char *buf;
    size_t len;
    int rs = bulk_read_path_msg(path, &buf, &len, err, errlen);
    if (rs != BULK_OK) return rs; /* BULK_ERR_NOMEM, or BULK_ERR_IO with the message in err */
    int st = bulk_circuit_parse(c, buf, len, path, err, errlen);
    free(buf);
    return st;
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
    if (!c || !f) return BULK_ERR_ARG;
    int st = write_header_and_io(c, f, 0);
    if (st) return st;
    for (uint32_t g = 0; g < c->ands; g++)
        fprintf(f, "%u %u %u\n", 2 * (c->inputs + c->latches + g + 1), c->and_rhs[2 * g], c->and_rhs[2 * g + 1]);
    return ferror(f) ? BULK_ERR_IO : BULK_OK;
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
    if (!c || !f) return BULK_ERR_ARG;
    int st = write_header_and_io(c, f, 1);
    if (st) return st;
    for (uint32_t g = 0; g < c->ands; g++) {
        uint32_t lhs = 2 * (c->inputs + c->latches + g + 1);
        uint32_t r0 = c->and_rhs[2 * g], r1 = c->and_rhs[2 * g + 1];
        if (r0 < r1) {
            uint32_t t = r0;
            r0 = r1;
            r1 = t;
        }
        if (r0 >= lhs) return BULK_ERR_ARG; /* not in topological order */
        put_delta(f, lhs - r0);
        put_delta(f, r0 - r1);
    }
    return ferror(f) ? BULK_ERR_IO : BULK_OK;
}
