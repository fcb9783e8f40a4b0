/* Reading moduli (contract: bulk/gcd.h, "reading moduli"): the text format here, PEM and DER
 * through keys.c. Every modulus is parsed into a scratch list first, so that a malformed line
 * leaves the caller's input untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/gcd.h"
#include "common/numtext.h"
#include "gcd/keys.h"
#include "int/mpn.h"

/* Appends one modulus (mn significant limbs) starting at `line`. */
int gcd_input_push(bulk_gcd_input *in, const bulk_limb_t *m, size_t mn, uint64_t line)
{
    if (mn > in->limbs || in->n == in->cap) {
        size_t limbs = mn > in->limbs ? mn : in->limbs;
        size_t cap = in->n == in->cap ? (in->cap ? 2 * in->cap : 1024) : in->cap;
        bulk_limb_t *x = calloc(cap * limbs, sizeof *x);
        uint64_t *ln = realloc(in->line, cap * sizeof *ln);
        if (!x || !ln) {
            free(x);
            if (ln) in->line = ln;
            return BULK_ERR_NOMEM;
        }
        for (size_t i = 0; i < in->n; i++)
            memcpy(x + i * limbs, in->x + i * in->limbs, in->limbs * sizeof *x);
        free(in->x);
        in->x = x;
        in->line = ln;
        in->limbs = limbs;
        in->cap = cap;
    }
    memcpy(in->x + in->n * in->limbs, m, mn * sizeof *m);
    in->line[in->n++] = line;
    return BULK_OK;
}

void bulk_gcd_input_free(bulk_gcd_input *in)
{
    free(in->x);
    free(in->line);
    memset(in, 0, sizeof *in);
}

static int add_text(bulk_gcd_input *in, const char *data, size_t len, uint64_t *err_line,
                    char *msg, size_t msg_len)
{
    size_t n0 = in->n;
    uint64_t line = 0;
    bulk_limb_t *buf = NULL;
    size_t bufcap = 0;
    int st = BULK_OK;
    for (size_t pos = 0; pos < len;) {
        const char *s = data + pos, *nl = memchr(s, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - s) : len - pos;
        pos += l + (nl != NULL);
        line++;
        size_t b = 0, e = l;
        while (b < e && (s[b] == ' ' || s[b] == '\t')) b++;
        while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) e--;
        if (b == e) {
            snprintf(msg, msg_len, "empty line (one modulus per line)");
            st = BULK_ERR_PARSE;
            break;
        }
        size_t cap = bulk_parse_uint_limbs_bound(e - b);
        if (cap > bufcap) {
            bulk_limb_t *t = realloc(buf, cap * sizeof *t);
            if (!t) {
                st = BULK_ERR_NOMEM;
                break;
            }
            buf = t;
            bufcap = cap;
        }
        size_t at = 0;
        int mn = bulk_parse_uint(s + b, e - b, buf, cap, &at);
        if (mn < 0) {
            if (at < e - b)
                snprintf(msg, msg_len, "bad character '%c' at column %zu of '%.*s'", s[b + at],
                         b + at + 1, (int)(e - b > 60 ? 60 : e - b), s + b);
            else
                snprintf(msg, msg_len, "not a number: '%.*s'", (int)(e - b > 60 ? 60 : e - b), s + b);
            st = BULK_ERR_PARSE;
            break;
        }
        if (mn == 0 || (mn == 1 && buf[0] < 2)) {
            snprintf(msg, msg_len, "modulus %.*s is below 2", (int)(e - b), s + b);
            st = BULK_ERR_PARSE;
            break;
        }
        if ((size_t)mn > ((size_t)1 << 20)) {
            snprintf(msg, msg_len, "modulus wider than 2^26 bits");
            st = BULK_ERR_PARSE;
            break;
        }
        if ((st = gcd_input_push(in, buf, (size_t)mn, line)) != BULK_OK) break;
    }
    free(buf);
    if (st != BULK_OK) {
        if (st == BULK_ERR_PARSE) *err_line = line;
        in->n = n0; /* what this call added is dropped (a repack only widened the rest) */
    }
    return st;
}

int bulk_gcd_input_add(bulk_gcd_input *in, const char *data, size_t len, bulk_gcd_format fmt,
                       uint64_t *err_line, char *msg, size_t msg_len)
{
    if (!in || (!data && len) || !err_line || !msg || msg_len == 0) return BULK_ERR_ARG;
    msg[0] = 0;
    *err_line = 0;
    switch (fmt) {
    case BULK_GCD_FORMAT_TEXT: return add_text(in, data, len, err_line, msg, msg_len);
    case BULK_GCD_FORMAT_PEM: return gcd_keys_add_pem(in, data, len, err_line, msg, msg_len);
    case BULK_GCD_FORMAT_DER: return gcd_keys_add_der(in, data, len, err_line, msg, msg_len);
    }
    return BULK_ERR_ARG;
}
