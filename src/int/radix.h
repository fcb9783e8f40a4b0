/* Decimal text <-> limbs in subquadratic time, for wide numbers (the int CLI prints and reads
 * 65536-bit and wider operands; the 19-digits-at-a-time loops of int/numtext.c are quadratic
 * and cost ~10 ms per 131072-bit product, 150x the multiplication itself).
 *
 * Divide and conquer over the powers P[i] = 10^(19 * 2^i): printing splits a value by one
 * division a = q P[i] + r and prints q, then r padded to 19 * 2^i digits; parsing joins
 * hi * P[i] + lo. Cost O(M(n) log n) with the library's multiplication and division.
 * int/numtext.c calls these above BULK_RADIX_DC_LIMBS limbs; below it they call back into
 * its quadratic loops. */
#ifndef BULK_INT_RADIX_H
#define BULK_INT_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* Sizes (limbs) from which divide and conquer is used (measured: bench/results/..-radix). */
#define BULK_RADIX_DC_LIMBS 80          /* printing */
#define BULK_RADIX_DC_PARSE_LIMBS 160  /* parsing */

/* Writes a[0..n) as decimal without leading zeros ("0" for zero) plus a NUL into buf (at least
 * bulk_format_uint_size(n, 0) + 1 bytes); returns the length, or 0 when memory ran out (the
 * caller then falls back to the quadratic method). a is not modified. */
size_t bulk_mpn_get_dec(char *buf, const uint64_t *a, size_t n);

/* Parses len decimal digits s[0..len) (only '0'..'9': the caller has checked) into out[0..cap)
 * (zero-padded). Returns the number of significant limbs, BULK_ERR_OVERFLOW when the value needs
 * more than cap limbs, or BULK_ERR_NOMEM. */
int bulk_mpn_set_dec(uint64_t *out, size_t cap, const char *s, size_t len);

#endif
