/* Non-negative integers as text (decimal, or hex with a 0x prefix) <-> little-endian 64-bit limbs:
 * the digit loops of bulk_int_from_str / bulk_int_to_str (int_text.c) and of the bound grammar. */
#ifndef BULK_INT_NUMTEXT_H
#define BULK_INT_NUMTEXT_H
#include <stddef.h>
#include <stdint.h>

/* Parses s[0..len): decimal digits, or "0x"/"0X" followed by hex digits (no sign, no spaces).
 * On success writes the value to out[0..cap) (zero-padded) and returns the number of
 * significant limbs (0 for the value 0). Errors: BULK_ERR_PARSE (empty, bad character; *err_pos
 * is set to its offset when err_pos is not NULL) or BULK_ERR_OVERFLOW (needs more than cap limbs). */
int bulk_parse_uint(const char *s, size_t len, uint64_t *out, size_t cap, size_t *err_pos);

/* Hex digits only (0-9, a-f, A-F; no prefix), s[0..len), into out[0..cap): same contract as
 * bulk_parse_uint (out is all zero after an overflow). */
int bulk_parse_hex_digits(const char *s, size_t len, uint64_t *out, size_t cap, size_t *err_pos);

/* Number of limbs that always suffice for a len-character number (decimal or hex). */
size_t bulk_parse_uint_limbs_bound(size_t len);

/* Characters (without the terminating NUL) needed to print an n-limb number. */
size_t bulk_format_uint_size(size_t n, int hex);

/* Writes the value a[0..n) as decimal (hex != 0: "0x" + lowercase hex) plus a NUL into buf,
 * which holds at least bulk_format_uint_size(n, hex) + 1 bytes. Returns the length.
 * Decimal conversion is divide and conquer above BULK_RADIX_DC_LIMBS limbs (int/radix.h),
 * quadratic below; it uses scratch memory and does not modify a. Parsing likewise. */
size_t bulk_format_uint(char *buf, const uint64_t *a, size_t n, int hex);

/* The quadratic decimal loops (19 digits per pass), for int/radix.c's small cases. format: as
 * bulk_format_uint with hex = 0. parse: len digits '0'..'9' only (not checked), out[0..cap)
 * zeroed by the caller; returns significant limbs or BULK_ERR_OVERFLOW. */
size_t bulk_format_dec_basecase(char *buf, const uint64_t *a, size_t n);
int bulk_parse_dec_basecase(uint64_t *out, size_t cap, const char *s, size_t len);

#endif
