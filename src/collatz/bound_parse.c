/* Bound expressions of the CLI: the grammar of bulk_int_from_expr (bulk/int.h) at 192 bits,
 * enough for bounds up to and beyond 2^128; anything larger is an overflow, never a wrapped
 * value. A negative intermediate is BULK_ERR_ARG. */
#include "bulk/int.h"
#include "collatz/collatz_internal.h"

int bulk_cz_parse_bound(const char *s, uint64_t out[3], size_t *err_pos)
{
    return bulk_int_from_expr(out, s, 3, err_pos);
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
