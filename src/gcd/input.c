/* Reading moduli (contract: bulk/gcd.h, "reading moduli"): the text format here, PEM and DER
 * through keys.c; both append through input_list.c. Every modulus is parsed into a scratch list first, so that a malformed line
 * leaves the caller's input untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/gcd.h"
#include "int/numtext.h"
#include "backend/report.h"
#include "gcd/input_list.h"
#include "gcd/keys.h"
#include "int/mpn.h"

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
    static const char fn[] = "bulk_gcd_input_add";
    if (!in || !err_line || !msg || msg_len == 0)
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: %s: must not be NULL%s", fn,
                         !in ? "in" : !err_line ? "err_line" : "msg", !in || !err_line || !msg ? "" : " or empty");
    if (!data && len) return bulk_fail(NULL, BULK_ERR_ARG, "%s: data: NULL with len %zu", fn, len);
    msg[0] = 0;
    *err_line = 0;
    int st;
    switch (fmt) {
    case BULK_GCD_FORMAT_TEXT: st = add_text(in, data, len, err_line, msg, msg_len); break;
    case BULK_GCD_FORMAT_PEM: st = gcd_keys_add_pem(in, data, len, err_line, msg, msg_len); break;
    case BULK_GCD_FORMAT_DER: st = gcd_keys_add_der(in, data, len, err_line, msg, msg_len); break;
    default: return bulk_fail(NULL, BULK_ERR_ARG, "%s: fmt %d: not a bulk_gcd_format", fn, (int)fmt);
    }
    if (st == BULK_ERR_PARSE)
        return bulk_fail(NULL, st, "%s: line %llu: %s", fn, (unsigned long long)*err_line, msg);
    if (st != BULK_OK) return bulk_fail(NULL, st, "%s: %s", fn, msg[0] ? msg : bulk_status_string(st));
    return st;
}
