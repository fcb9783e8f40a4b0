/* Helpers shared by the `bulk collatz` subcommands (programs/cmd_collatz*.c) and by `bulk dist
 * collatz` (dist_collatz.c), in collatz_cli.c. */
#ifndef BULK_PROGRAMS_COLLATZ_CLI_H
#define BULK_PROGRAMS_COLLATZ_CLI_H
#include <stdio.h>

#include "bulk/collatz.h"
#include "cli.h"

/* Parses a bound expression (bulk_collatz_parse_bound) for option `opt`: exits 2 with a message
 * naming the option and the offending character. *top = bits above 128 (nonzero only for
 * values >= 2^128). */
bulk_u128 czcli_bound(const char *opt, const char *text, uint64_t *top);

/* [--from, --to) -> inclusive [first, last]; exits 2 on an empty or reversed range, a zero
 * start, or --to beyond 2^128. */
void czcli_range(const char *from, const char *to, bulk_u128 *first, bulk_u128 *last);

/* --part I/N: narrows [first, last] to its I-th of N equal slices (1-based). */
void czcli_part(const char *text, bulk_u128 *first, bulk_u128 *last, unsigned long long *i,
                unsigned long long *n);

/* Decimal text of v into buf (at most 39 digits and the NUL). */
void czcli_u128_text(bulk_u128 v, char buf[48]);
/* Decimal text of a wide value (peaks; at most 78 digits and the NUL). */
void czcli_wide_text(const bulk_collatz_wide *v, char buf[80]);
/* Parses `text` (a bound expression, bulk_int_from_expr) as a wide value for option opt, or
 * exits 2 with a message naming opt (not a number, negative, 2^256 or more). */
bulk_collatz_wide czcli_wide(const char *opt, const char *text);
/* Decimal text of v (static buffer per call slot 0..3). */
const char *czcli_str(bulk_u128 v, int slot);
/* Decimal digits only (no sign, no prefix) -> *v: 0, or -1 when text is not such a number
 * below 2^128. */
int czcli_u128_parse(const char *text, bulk_u128 *v);

/* Opens the context and the engine or exits (2 for bad parameters, 1 otherwise). */
bulk_collatz_engine *czcli_engine(bulk_ctx *ctx, int d, int k, int a);

/* Prints a verify result: text, or with json one line (the input of `collatz merge`). conv:
 * convergence mode (no glides: null / -). secs <= 0 omits the time; extra_json (",\"k\":v...")
 * goes before the closing brace, extra_text after the rate on the time line (either may be NULL). */
void czcli_print_verify(FILE *out, int json, const char *from, const char *to, unsigned long long pi,
                        unsigned long long pn, bulk_u128 first, bulk_u128 last, int d, int k, int conv,
                        const bulk_collatz_verify_result *r, double secs, const char *extra_json,
                        const char *extra_text);

int cmd_collatz_verify(int argc, char **argv);
int cmd_collatz_merge(int argc, char **argv);
int cmd_collatz_delay(int argc, char **argv);
int cmd_collatz_delays(int argc, char **argv);
int cmd_collatz_records(int argc, char **argv);
int cmd_collatz_sieve(int argc, char **argv);

#endif
