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

/* The I-th of N equal slices of [first, last] (1-based; the split of --part) in place: 0, -1
 * when that slice is empty, -2 when the range holds all 2^128 numbers. */
int czcli_part_range(bulk_u128 *first, bulk_u128 *last, unsigned long long i, unsigned long long n);

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

/* ---- records results (records, merge, dist collatz records) ---- */

/* --kind delay|glide|path (exits 2 otherwise) and back. */
bulk_collatz_kind czcli_kind(const char *text);
const char *czcli_kind_name(bulk_collatz_kind k);
/* -1, 0, 1 as a < b, a == b, a > b. */
int czcli_wide_cmp(const bulk_collatz_wide *a, const bulk_collatz_wide *b);

/* What a records result is of: the range [from, to) as given, part pi/pn of it, [first, last]
 * the numbers of that part, above (has_above) the --above value of path records. */
typedef struct czcli_records_info {
    bulk_collatz_kind kind;
    const char *from, *to;
    unsigned long long pi, pn;
    bulk_u128 first, last;
    int has_above;
    bulk_collatz_wide above;
} czcli_records_info;

/* Prints records: `n value` lines, or with json one line (the input of `collatz merge`):
 * {"command":"collatz records","kind":..,"from":..,"to":..,"part":"I/N","first":..,"last":..,
 * "above":null|"V","records":[["n",v],..],"seconds":S<extra_json>} with v a number for delays
 * and glides, a decimal string for peaks. secs < 0 omits "seconds"; extra_json may be NULL. */
void czcli_print_records(FILE *out, int json, const czcli_records_info *h, const bulk_collatz_record *recs,
                         size_t n, double secs, const char *extra_json);

/* The records of a range from the lists of its consecutive parts: offer every listed (n, v) in
 * order of the parts; it is kept when v beats the last kept value (bulk_collatz_records_part_run
 * says why that is exact). Exits 1 when out of memory. */
typedef struct czcli_rlist {
    bulk_collatz_record *r;
    size_t n, cap;
} czcli_rlist;
void czcli_rlist_offer(czcli_rlist *l, bulk_u128 n, const bulk_collatz_wide *v);

/* `collatz merge` of records results: the texts of nfiles files (names for messages), each one
 * `records --json` line; prints the records of the whole range (json: as records --json, part
 * 1/1). Exits 2 naming the file when the results are not the parts 1/N..N/N of one range and
 * kind, each exactly once, with the bounds of that split. */
int czcli_merge_records(int json, int nfiles, const char *const *names, char *const *texts);

/* The string value of "key" in a one-line JSON result (verify or records --json) into buf;
 * exits 2 naming the file when it is absent or longer than cap - 1. */
const char *czcli_json_str(const char *file, const char *text, const char *key, char *buf, size_t cap);
/* The same as a number below 2^128 (exits 2 otherwise). */
bulk_u128 czcli_json_u128(const char *file, const char *text, const char *key);

int cmd_collatz_verify(int argc, char **argv);
int cmd_collatz_merge(int argc, char **argv);
int cmd_collatz_delay(int argc, char **argv);
int cmd_collatz_delays(int argc, char **argv);
int cmd_collatz_records(int argc, char **argv);
int cmd_collatz_sieve(int argc, char **argv);

#endif
