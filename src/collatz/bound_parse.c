/* Bound expressions of the CLI: the grammar of bulk_int_from_expr (bulk/int.h) at 192 bits,
 * enough for bounds up to and beyond 2^128; anything larger is an overflow, never a wrapped
 * value. A negative intermediate is BULK_ERR_ARG. */
#include "bulk/int.h"
#include "collatz/collatz_internal.h"

int bulk_cz_parse_bound(const char *s, uint64_t out[3], size_t *err_pos)
{
    return bulk_int_from_expr(out, s, 3, err_pos);
}
