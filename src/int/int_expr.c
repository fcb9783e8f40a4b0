/* bulk_int_from_expr (bulk/int.h): bound expressions such as "2^68+2^40". A recursive descent
 * over sum := product (('+' | '-') product)*, product := power ('*' power)*, power := literal
 * ('^' power)?; every value is a width-limbs number and every operation checks that its exact
 * result fits, so a value is never wrapped. */
#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "int/mpn.h"
#include "int/numtext.h"

#define EXPR_MAX_LIMBS 4096

struct parser {
    const char *s;
    size_t pos, len, limbs;
    bulk_limb_t *prod; /* 2 * limbs: the full product of two values */
};

static bulk_limb_t *value_new(const struct parser *p) { return calloc(p->limbs, sizeof(bulk_limb_t)); }

/* r = a * b; BULK_ERR_OVERFLOW when the product needs more than limbs limbs. r may be a or b. */
static int mul_fit(struct parser *p, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b)
{
    size_t an = bulk_mpn_normalized_size(a, p->limbs), bn = bulk_mpn_normalized_size(b, p->limbs);
    if (an == 0 || bn == 0) {
        bulk_mpn_zero(r, p->limbs);
        return BULK_OK;
    }
    if (an + bn - 1 > p->limbs) return BULK_ERR_OVERFLOW;
    bulk_mpn_mul(p->prod, a, an, b, bn);
    if (bulk_mpn_normalized_size(p->prod, an + bn) > p->limbs) return BULK_ERR_OVERFLOW;
    bulk_mpn_zero(r, p->limbs);
    bulk_mpn_copy(r, p->prod, an + bn < p->limbs ? an + bn : p->limbs);
    return BULK_OK;
}

/* base = base^ex (square and multiply; a square that is not used is not computed, so its
 * overflow does not count). */
static int pow_fit(struct parser *p, bulk_limb_t *base, const bulk_limb_t *ex)
{
    size_t L = p->limbs;
    if (bulk_mpn_normalized_size(ex, L) > 1) {
        /* only 0 and 1 survive huge exponents */
        if (bulk_mpn_normalized_size(base, L) > 1 || base[0] > 1) return BULK_ERR_OVERFLOW;
        return BULK_OK;
    }
    bulk_limb_t *acc = value_new(p);
    if (!acc) return BULK_ERR_NOMEM;
    acc[0] = 1;
    int st = BULK_OK;
    for (uint64_t e = ex[0]; e && st == BULK_OK;) {
        if (e & 1) st = mul_fit(p, acc, acc, base);
        e >>= 1;
        if (e && st == BULK_OK) st = mul_fit(p, base, base, base);
    }
    if (st == BULK_OK) bulk_mpn_copy(base, acc, L);
    free(acc);
    return st;
}

static int literal(struct parser *p, bulk_limb_t *out)
{
    size_t start = p->pos;
    if (p->pos + 1 < p->len && p->s[p->pos] == '0' && (p->s[p->pos + 1] == 'x' || p->s[p->pos + 1] == 'X')) {
        p->pos += 2;
        while (p->pos < p->len && strchr("0123456789abcdefABCDEF", p->s[p->pos])) p->pos++;
    } else {
        while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') p->pos++;
    }
    if (p->pos == start) return BULK_ERR_PARSE;
    size_t err = 0;
    int st = bulk_parse_uint(p->s + start, p->pos - start, out, p->limbs, &err);
    if (st == BULK_ERR_PARSE) p->pos = start + err;
    return st < 0 ? st : BULK_OK;
}

static int power(struct parser *p, bulk_limb_t *out)
{
    int st = literal(p, out);
    if (st || p->pos >= p->len || p->s[p->pos] != '^') return st;
    p->pos++;
    bulk_limb_t *ex = value_new(p);
    if (!ex) return BULK_ERR_NOMEM;
    st = power(p, ex); /* right-associative */
    if (!st) st = pow_fit(p, out, ex);
    free(ex);
    return st;
}

static int product(struct parser *p, bulk_limb_t *out)
{
    int st = power(p, out);
    if (st || p->pos >= p->len || p->s[p->pos] != '*') return st;
    bulk_limb_t *f = value_new(p);
    if (!f) return BULK_ERR_NOMEM;
    while (!st && p->pos < p->len && p->s[p->pos] == '*') {
        p->pos++;
        st = power(p, f);
        if (!st) st = mul_fit(p, out, out, f);
    }
    free(f);
    return st;
}

static int sum(struct parser *p, bulk_limb_t *acc)
{
    int st = product(p, acc);
    if (st || p->pos >= p->len) return st;
    bulk_limb_t *t = value_new(p);
    if (!t) return BULK_ERR_NOMEM;
    while (!st && p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-')) {
        char op = p->s[p->pos++];
        st = product(p, t);
        if (st) break;
        if (op == '+') st = bulk_mpn_add_n(acc, acc, t, p->limbs) ? BULK_ERR_OVERFLOW : BULK_OK;
        else st = bulk_mpn_sub_n(acc, acc, t, p->limbs) ? BULK_ERR_ARG : BULK_OK; /* negative */
    }
    free(t);
    return st;
}

int bulk_int_from_expr(bulk_limb_t *r, const char *s, size_t limbs, size_t *err_pos)
{
    static const char fn[] = "bulk_int_from_expr";
    if (!r || !s) return bulk_fail(NULL, BULK_ERR_ARG, "%s: %s: must not be NULL", fn, r ? "s" : "r");
    if (limbs == 0 || limbs > EXPR_MAX_LIMBS)
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: limbs %zu: must be 1..%d", fn, limbs, EXPR_MAX_LIMBS);
    bulk_mpn_zero(r, limbs);
    struct parser p = { s, 0, strlen(s), limbs, malloc(2 * limbs * sizeof(bulk_limb_t)) };
    int st = p.prod ? sum(&p, r) : BULK_ERR_NOMEM;
    if (!st && p.pos != p.len) st = BULK_ERR_PARSE;
    free(p.prod);
    if (err_pos) *err_pos = p.pos;
    if (st == BULK_OK) return st;
    bulk_mpn_zero(r, limbs);
    switch (st) {
    case BULK_ERR_PARSE:
        return bulk_fail(NULL, st, "%s: character %zu: not a number or expression", fn, p.pos + 1);
    case BULK_ERR_OVERFLOW:
        return bulk_fail(NULL, st, "%s: character %zu: the value needs more than %zu bits", fn,
                         p.pos, 64 * limbs);
    case BULK_ERR_ARG:
        return bulk_fail(NULL, st, "%s: character %zu: the value is negative", fn, p.pos);
    default: return bulk_fail(NULL, st, "%s: %s", fn, bulk_status_string(st));
    }
}
