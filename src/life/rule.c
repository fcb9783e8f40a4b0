/* B/S notation for Life-like rules: parsing and formatting. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "backend/report.h"
#include "bulk/life.h"

bulk_life_rule bulk_life_rule_conway(void)
{
    bulk_life_rule r = { 1u << 3, (1u << 2) | (1u << 3) };
    return r;
}

/* Digits 0..8 from s[*i] on into *mask; stops at the first non-digit. */
static int parse_digits(const char *s, size_t *i, uint16_t *mask, size_t *err_col)
{
    *mask = 0;
    while (isdigit((unsigned char)s[*i])) {
        int d = s[*i] - '0';
        if (d > 8 || (*mask >> d) & 1) {
            if (err_col) *err_col = *i + 1;
            return BULK_ERR_PARSE;
        }
        *mask |= (uint16_t)(1u << d);
        ++*i;
    }
    return BULK_OK;
}

static int parse_rule(bulk_life_rule *rule, const char *text, size_t *err_col);

int bulk_life_rule_parse(bulk_life_rule *rule, const char *text, size_t *err_col)
{
    static const char fn[] = "bulk_life_rule_parse";
    if (!rule || !text) return bulk_fail(NULL, BULK_ERR_ARG, "%s: %s is NULL", fn, rule ? "text" : "rule");
    size_t col = 0;
    int st = parse_rule(rule, text, &col);
    if (st == BULK_OK) return BULK_OK;
    if (err_col) *err_col = col;
    return bulk_fail(NULL, st, "%s: '%s': column %zu: want B/S notation such as B3/S23", fn, text, col);
}

static int parse_rule(bulk_life_rule *rule, const char *text, size_t *err_col)
{
    size_t i = 0, end = strlen(text);
    while (i < end && isspace((unsigned char)text[i])) i++;
    while (end > i && isspace((unsigned char)text[end - 1])) end--;
    char s[64];
    if (end - i >= sizeof s || end == i) {
        if (err_col) *err_col = i + 1;
        return BULK_ERR_PARSE;
    }
    memcpy(s, text + i, end - i);
    s[end - i] = 0;
    size_t off = i, p = 0;
    uint16_t b = 0, sv = 0;
    int st;
    char first = (char)tolower((unsigned char)s[0]);
    if (first == 'b' || first == 's') {
        /* B<digits>[/]S<digits> or S<digits>[/]B<digits> */
        p = 1;
        uint16_t *m1 = first == 'b' ? &b : &sv, *m2 = first == 'b' ? &sv : &b;
        char want = first == 'b' ? 's' : 'b';
        if ((st = parse_digits(s, &p, m1, err_col)) != BULK_OK) goto fail;
        if (s[p] == '/') p++;
        if (tolower((unsigned char)s[p]) != want) {
            if (err_col) *err_col = p + 1;
            st = BULK_ERR_PARSE;
            goto fail;
        }
        p++;
        if ((st = parse_digits(s, &p, m2, err_col)) != BULK_OK) goto fail;
    } else {
        /* the old survival/birth form, e.g. 23/3 */
        if ((st = parse_digits(s, &p, &sv, err_col)) != BULK_OK) goto fail;
        if (s[p] != '/') {
            if (err_col) *err_col = p + 1;
            st = BULK_ERR_PARSE;
            goto fail;
        }
        p++;
        if ((st = parse_digits(s, &p, &b, err_col)) != BULK_OK) goto fail;
    }
    if (s[p] != 0) {
        if (err_col) *err_col = p + 1;
        st = BULK_ERR_PARSE;
        goto fail;
    }
    rule->birth = b;
    rule->survive = sv;
    return BULK_OK;
fail:
    if (err_col) *err_col += off;
    return st;
}

int bulk_life_rule_format(const bulk_life_rule *rule, char *buf, size_t cap)
{
    static const char fn[] = "bulk_life_rule_format";
    if (!rule || !buf) return bulk_fail(NULL, BULK_ERR_ARG, "%s: %s is NULL", fn, rule ? "buf" : "rule");
    if (cap < 24) return bulk_fail(NULL, BULK_ERR_ARG, "%s: cap %zu: must be at least 24", fn, cap);
    if ((rule->birth | rule->survive) >> 9)
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: birth 0x%x, survive 0x%x: only bits 0..8 may be set", fn,
                         (unsigned)rule->birth, (unsigned)rule->survive);
    size_t n = 0;
    buf[n++] = 'B';
    for (int d = 0; d <= 8; d++)
        if ((rule->birth >> d) & 1) buf[n++] = (char)('0' + d);
    buf[n++] = '/';
    buf[n++] = 'S';
    for (int d = 0; d <= 8; d++)
        if ((rule->survive >> d) & 1) buf[n++] = (char)('0' + d);
    buf[n] = 0;
    return BULK_OK;
}
