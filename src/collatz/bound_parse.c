/* Bound expressions of the CLI: literals (decimal or 0x hex, src/common/numtext.h) combined
 * with + - * ^, the usual precedence (^ tightest, right-associative; then *; then + and -, left
 * to right), no spaces or parentheses. A negative intermediate is an error (BULK_ERR_ARG). Values are computed exactly in 192 bits (enough for bounds up to and
 * beyond 2^128); anything larger is an overflow, never a wrapped value. */
#include <string.h>

#include "collatz/collatz_internal.h"
#include "common/numtext.h"

#define W 3

typedef struct { uint64_t w[W]; } v192;

static int mul192(v192 *r, const v192 *a, const v192 *b)
{
    uint64_t t[2 * W] = { 0 };
    for (int i = 0; i < W; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < W; j++) {
            u128 p = (u128)a->w[i] * b->w[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)p;
            carry = (uint64_t)(p >> 64);
        }
        t[i + W] = carry;
    }
    for (int i = W; i < 2 * W; i++)
        if (t[i]) return BULK_ERR_OVERFLOW;
    memcpy(r->w, t, sizeof r->w);
    return BULK_OK;
}

static int add192(v192 *r, const v192 *a, const v192 *b)
{
    uint64_t carry = 0;
    for (int i = 0; i < W; i++) {
        u128 s = (u128)a->w[i] + b->w[i] + carry;
        r->w[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    return carry ? BULK_ERR_OVERFLOW : BULK_OK;
}

static int sub192(v192 *r, const v192 *a, const v192 *b)
{
    uint64_t borrow = 0;
    for (int i = 0; i < W; i++) {
        uint64_t x = a->w[i], y = b->w[i];
        uint64_t d = x - y - borrow;
        borrow = (x < y) || (x == y && borrow);
        r->w[i] = d;
    }
    return borrow ? BULK_ERR_ARG : BULK_OK;
}

static int pow192(v192 *r, const v192 *base, const v192 *ex)
{
    v192 one = { { 1, 0, 0 } }, acc = one, b = *base;
    if (ex->w[1] || ex->w[2]) {
        /* only 0 and 1 survive huge exponents */
        int small = !b.w[1] && !b.w[2] && b.w[0] <= 1;
        if (!small) return BULK_ERR_OVERFLOW;
        *r = b;
        return BULK_OK;
    }
    uint64_t e = ex->w[0];
    while (e) {
        if (e & 1) {
            int st = mul192(&acc, &acc, &b);
            if (st) return st;
        }
        e >>= 1;
        if (e) {
            int st = mul192(&b, &b, &b);
            if (st) return st;
        }
    }
    *r = acc;
    return BULK_OK;
}

struct parser {
    const char *s;
    size_t pos, len;
};

static int literal(struct parser *p, v192 *out)
{
    size_t start = p->pos;
    if (p->pos + 1 < p->len && p->s[p->pos] == '0' && (p->s[p->pos + 1] == 'x' || p->s[p->pos + 1] == 'X')) {
        p->pos += 2;
        while (p->pos < p->len && strchr("0123456789abcdefABCDEF", p->s[p->pos])) p->pos++;
    } else {
        while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') p->pos++;
    }
    if (p->pos == start) return BULK_ERR_PARSE;
    size_t err;
    int st = bulk_parse_uint(p->s + start, p->pos - start, out->w, W, &err);
    if (st == BULK_ERR_PARSE) p->pos = start + err;
    return st < 0 ? st : BULK_OK;
}

static int power(struct parser *p, v192 *out)
{
    int st = literal(p, out);
    if (st) return st;
    if (p->pos < p->len && p->s[p->pos] == '^') {
        p->pos++;
        v192 ex;
        st = power(p, &ex); /* right-associative */
        if (st) return st;
        return pow192(out, out, &ex);
    }
    return BULK_OK;
}

static int product(struct parser *p, v192 *out)
{
    int st = power(p, out);
    while (!st && p->pos < p->len && p->s[p->pos] == '*') {
        p->pos++;
        v192 f;
        st = power(p, &f);
        if (!st) st = mul192(out, out, &f);
    }
    return st;
}

int bulk_cz_parse_bound(const char *s, uint64_t out[3], size_t *err_pos)
{
    struct parser p = { s, 0, strlen(s) };
    v192 acc;
    int st = product(&p, &acc);
    while (!st && p.pos < p.len && (p.s[p.pos] == '+' || p.s[p.pos] == '-')) {
        char op = p.s[p.pos++];
        v192 t;
        st = product(&p, &t);
        if (!st) st = op == '+' ? add192(&acc, &acc, &t) : sub192(&acc, &acc, &t);
    }
    if (!st && p.pos != p.len) st = BULK_ERR_PARSE;
    if (err_pos) *err_pos = p.pos;
    if (!st) memcpy(out, acc.w, sizeof acc.w);
    return st;
}

int bulk_collatz_parse_bound(const char *text, uint64_t out[3], size_t *err_pos)
{
    static const char fn[] = "bulk_collatz_parse_bound";
    if (!text) return bulk_fail(NULL, BULK_ERR_ARG, "%s: text: is NULL", fn);
    if (!out) return bulk_fail(NULL, BULK_ERR_ARG, "%s: out: is NULL", fn);
    size_t pos = 0;
    int st = bulk_cz_parse_bound(text, out, &pos);
    if (err_pos) *err_pos = pos;
    if (st == BULK_ERR_PARSE)
        return bulk_fail(NULL, st, "%s: '%s': not a number or expression (at character %zu)", fn, text, pos + 1);
    if (st == BULK_ERR_OVERFLOW) return bulk_fail(NULL, st, "%s: '%s': more than 192 bits", fn, text);
    if (st == BULK_ERR_ARG) return bulk_fail(NULL, st, "%s: '%s': is negative", fn, text);
    return st;
}
