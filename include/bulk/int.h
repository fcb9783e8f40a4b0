/* Bulk multiple-length unsigned integer arithmetic.
 *
 * Every function works on n instances of W = 64 * limbs bits (1 <= limbs <= 1 << 20 limbs is
 * accepted; tested up to 65536 bits). Operands are arrays of n * limbs 64-bit limbs, instance i at
 * [i * limbs, (i + 1) * limbs), least significant limb first. Results have the width stated per
 * function. Work is spread over the context's CPU threads (or its GPU); results never depend on
 * the thread count, the backend or the algorithm chosen.
 *
 * Aliasing: for add, sub, shl, shr the result may be the same array as an operand (exactly, not
 * partially overlapping). For every other function results must not overlap the operands.
 *
 * Per-instance errors (division by zero, even modulus, no inverse) are written to `err[i]`
 * (0 = fine) when err is not NULL; that instance's results are set to 0, the other instances
 * are computed, and the function returns the first such error code.
 *
 * Errors: every failure sets the last error (bulk_ctx_last_error(ctx); for the functions without
 * a context, bulk_ctx_last_error(NULL), the calling thread's) to "<function>: <what>: <why>",
 * e.g. "bulk_int_mul: limbs 0: must be 1..1048576" or "bulk_int_divmod: instance 7: division
 * by zero" (the lowest failing instance). Bad arguments give BULK_ERR_ARG and change nothing.
 * The single-instance layer under these functions is bulk/mpn.h. */
#ifndef BULK_INT_H
#define BULK_INT_H

#include "bulk/bulk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t bulk_limb_t;

/* Algorithm choices. AUTO picks by size using thresholds measured on the build machine class
 * (see docs/int.md); the others force one method so each can be tested and benchmarked. */
typedef enum bulk_mul_method {
    BULK_MUL_AUTO = 0,
    BULK_MUL_SCHOOLBOOK, /* operand scanning */
    BULK_MUL_COMBA,      /* product scanning (column-wise), seed 000 section 3 */
    BULK_MUL_KARATSUBA,  /* Toom-2 */
    BULK_MUL_TOOM3,
    BULK_MUL_TOOM4,
    BULK_MUL_TOOM6,
    BULK_MUL_TOOM8
} bulk_mul_method;

typedef enum bulk_div_method {
    BULK_DIV_AUTO = 0,
    BULK_DIV_KNUTH,  /* schoolbook division, Knuth's Algorithm D */
    BULK_DIV_NEWTON, /* Watt's whole-shifted-inverse Newton iteration, seed 002 */
    BULK_DIV_DC      /* divide and conquer (Burnikel-Ziegler), Algorithm D below its threshold */
} bulk_div_method;

typedef enum bulk_gcd_method {
    BULK_GCD_AUTO = 0,
    BULK_GCD_BINARY,        /* Stein's binary GCD */
    BULK_GCD_APPROX_EUCLID  /* the approximate Euclidean GCD of seed 001 */
} bulk_gcd_method;

/* Forces the methods used by later calls on this context (AUTO restores the default). */
BULK_API int bulk_int_set_methods(bulk_ctx *ctx, bulk_mul_method mul, bulk_div_method div,
                                  bulk_gcd_method gcd);

/* r = a + b mod 2^W; carry[i] (optional) = carry out of instance i. */
BULK_API int bulk_int_add(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *carry, const bulk_limb_t *a,
                          const bulk_limb_t *b, size_t n, size_t limbs);
/* r = a - b mod 2^W; borrow[i] (optional) = 1 when a < b. */
BULK_API int bulk_int_sub(bulk_ctx *ctx, bulk_limb_t *r, uint8_t *borrow, const bulk_limb_t *a,
                          const bulk_limb_t *b, size_t n, size_t limbs);
/* r (2 * limbs limbs per instance) = a * b, the full product. */
BULK_API int bulk_int_mul(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                          size_t n, size_t limbs);
/* r (2 * limbs limbs per instance) = a * a. */
BULK_API int bulk_int_sqr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t n,
                          size_t limbs);
/* r (limbs limbs per instance) = a * b mod 2^W. */
BULK_API int bulk_int_mul_lo(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a,
                             const bulk_limb_t *b, size_t n, size_t limbs);
/* r[i] = -1, 0 or 1 as a < b, a == b, a > b. */
BULK_API int bulk_int_cmp(bulk_ctx *ctx, int8_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                          size_t n, size_t limbs);
/* r = a << bits mod 2^W, and r = a >> bits (any bits >= 0; bits >= W gives 0). */
BULK_API int bulk_int_shl(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits,
                          size_t n, size_t limbs);
BULK_API int bulk_int_shr(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t bits,
                          size_t n, size_t limbs);

/* Division of an a_limbs-limb dividend (a_limbs = limbs or 2 * limbs) by a limbs-limb divisor:
 * q (a_limbs limbs per instance, optional) = floor(a / d), r (limbs limbs, optional) = a mod d.
 * d = 0 is BULK_ERR_DIVZERO for that instance. */
BULK_API int bulk_int_divmod(bulk_ctx *ctx, bulk_limb_t *q, bulk_limb_t *r, const bulk_limb_t *a,
                             size_t a_limbs, const bulk_limb_t *d, size_t n, size_t limbs,
                             int8_t *err);

/* g = gcd(a, b); gcd(0, 0) = 0. */
BULK_API int bulk_int_gcd(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *a, const bulk_limb_t *b,
                          size_t n, size_t limbs);
/* r = a^-1 mod m (0 <= r < m), through the extended Euclidean algorithm; m = 0 gives
 * BULK_ERR_DIVZERO, gcd(a, m) != 1 BULK_ERR_NOT_INVERTIBLE; m = 1 gives r = 0. */
BULK_API int bulk_int_invmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a,
                             const bulk_limb_t *m, size_t n, size_t limbs, int8_t *err);
/* r = base^exp mod m for odd m (Montgomery multiplication, sliding window); base may exceed m.
 * Even or zero m gives BULK_ERR_EVEN_MODULUS; m = 1 gives 0. */
BULK_API int bulk_int_powmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *base,
                             const bulk_limb_t *exp, const bulk_limb_t *m, size_t n, size_t limbs,
                             int8_t *err);

/* ---- primality -------------------------------------------------------------------------------
 *
 * A probable prime here is a number that passes the Baillie-PSW test and `rounds` more strong
 * Miller-Rabin tests (docs/int.md, "Primality"): trial division by small primes, the strong
 * probable-prime test to base 2, the strong Lucas test with Selfridge's parameters (method A:
 * the first D of 5, -7, 9, -11, ... with Jacobi(D/n) = -1, P = 1, Q = (1 - D) / 4; perfect
 * squares are composite), then `rounds` strong tests to bases in [3, n - 2] derived from n alone
 * (a SplitMix64 hash of its limbs), so the answer is a function of n and rounds: the same on
 * every backend, thread count and run. No composite passing BPSW is known; below 2^64 the answer
 * is exact. 0 and 1 are not prime, 2 and 3 are; other even numbers are not. rounds: 0..1024
 * (else BULK_ERR_ARG); 0 gives plain BPSW, as GMP's mpz_probab_prime_p with reps <= 24.
 * On a CUDA context isprime runs its modular powers on the GPU up to 128 limbs (wider: on the
 * CPU), and nextprime its candidates' tests; the answers are the same. */

/* out[i] = 1 when instance i of a is a probable prime, else 0. out must not overlap a. */
BULK_API int bulk_int_isprime(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a, size_t n,
                              size_t limbs, unsigned rounds);
/* r (limbs limbs per instance) = the least probable prime > a (2 for a < 2), with the same test
 * and rounds as bulk_int_isprime. When that prime needs more than limbs limbs (a is within a
 * prime gap of 2^W) the instance gets BULK_ERR_OVERFLOW (err[i], r = 0; int.h's per-instance
 * rule): to be safe, give one more limb than a needs. r must not overlap a. */
BULK_API int bulk_int_nextprime(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *a, size_t n,
                                size_t limbs, unsigned rounds, int8_t *err);

/* ---- text <-> limbs ------------------------------------------------------------------------
 *
 * Non-negative integers as text. `base` is 10 (decimal digits), 16 (hex digits 0-9 a-f A-F,
 * after an optional "0x"/"0X") or, for parsing only, 0 (hex after "0x"/"0X", else decimal).
 * Parsing is strict: at least one digit, leading zeros allowed, nothing else (a sign, a space,
 * an underscore, a second prefix is BULK_ERR_PARSE: the values are unsigned, and a negative
 * number is refused, not wrapped). Printing writes decimal, or for base 16 "0x" and lowercase
 * hex digits, without leading zeros ("0", "0x0" for zero), which base 0 parses back.
 * Wide numbers are converted in O(M(n) log n) by divide and conquer; results are exact.
 * Widths as above: 1 <= limbs <= 1 << 20 (else BULK_ERR_ARG). Never aborts. */

/* Characters (without the terminating NUL) that printing any limbs-limb value in base 10 or 16
 * may need: an upper bound (0 for another base or a width out of range). */
BULK_API size_t bulk_int_str_size(size_t limbs, int base);

/* Parses the NUL-terminated text s into r (limbs limbs, zero-padded). Returns BULK_OK,
 * BULK_ERR_PARSE (empty, or a character that is not a digit of the base: *err_pos, when not
 * NULL, gets its offset in s), BULK_ERR_OVERFLOW (the value needs more than limbs limbs), or
 * BULK_ERR_ARG (NULL r or s, a width out of range, a base other than 0, 10, 16). After an error
 * other than BULK_ERR_ARG, r is zero. */
BULK_API int bulk_int_from_str(bulk_limb_t *r, const char *s, size_t limbs, int base,
                               size_t *err_pos);

/* The same for the len characters at s (no NUL needed; a NUL inside is a bad character). */
BULK_API int bulk_int_from_strn(bulk_limb_t *r, const char *s, size_t len, size_t limbs, int base,
                                size_t *err_pos);

/* Limbs that always hold the value of a len-character text (decimal or hex, with or without
 * "0x"): a bound for sizing r before parsing. */
BULK_API size_t bulk_int_str_limbs(size_t len);

/* Parses a bound expression into r (limbs limbs, zero-padded): literals as bulk_int_from_str
 * with base 0 (decimal, or hex after "0x"/"0X") combined by + - * ^ with the usual precedence
 * (^ binds tightest and is right-associative, then *, then + and - from left to right), no
 * spaces or parentheses; e.g. "2^68+2^40", "3*10^18", "0x10^4-1". The value is exact: every
 * intermediate result must fit limbs limbs. Returns BULK_OK; BULK_ERR_PARSE (not an expression:
 * *err_pos, when not NULL, gets the offset where it stops making sense); BULK_ERR_OVERFLOW (an
 * intermediate needs more than limbs limbs); BULK_ERR_ARG for a negative intermediate (a - b
 * with b > a: *err_pos is past the subtrahend), or NULL r or s, or limbs outside 1..4096. r is
 * zero after an error. With limbs = 3 (192 bits) this is exactly what the CLI accepts for
 * --from/--to: room for 2^128 itself and for intermediate values above it. */
BULK_API int bulk_int_from_expr(bulk_limb_t *r, const char *s, size_t limbs, size_t *err_pos);

/* Writes the value a (limbs limbs) in base 10 or 16 and a NUL into buf (cap bytes; any
 * bulk_int_str_size(limbs, base) + 1 bytes always suffice). *len (when not NULL) gets the
 * number of characters without the NUL. Returns BULK_OK, BULK_ERR_OVERFLOW when the text does
 * not fit cap (then *len is the number of characters needed and buf holds ""), BULK_ERR_NOMEM,
 * or BULK_ERR_ARG. */
BULK_API int bulk_int_to_str(char *buf, size_t cap, const bulk_limb_t *a, size_t limbs, int base,
                             size_t *len);

/* Bulk forms on the context's threads. from_strs: instance i of r (limbs limbs) from the text
 * s[i] (a NULL s[i] is BULK_ERR_ARG for that instance); per-instance codes of bulk_int_from_str
 * in err[i] (optional), a failing instance is zero, the return value is the code of the
 * lowest-numbered failing instance. to_strs: instance i of a printed at buf + i * stride, NUL
 * terminated; stride >= bulk_int_str_size(limbs, base) + 1 (else BULK_ERR_ARG), so only
 * BULK_ERR_NOMEM can fail an instance. */
BULK_API int bulk_int_from_strs(bulk_ctx *ctx, bulk_limb_t *r, const char *const *s, size_t n,
                                size_t limbs, int base, int8_t *err);
BULK_API int bulk_int_to_strs(bulk_ctx *ctx, char *buf, size_t stride, const bulk_limb_t *a,
                              size_t n, size_t limbs, int base);

#ifdef __cplusplus
}
#endif
#endif
