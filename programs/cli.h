/* Shared helpers of the bulk CLI: error exits and option parsing.
 *
 * Exit codes (a contract with scripts): 0 success; 1 the computation found something the user
 * asked about to be false or failed at run time (I/O, device); 2 bad input or usage. */
#ifndef BULK_PROGRAMS_CLI_H
#define BULK_PROGRAMS_CLI_H
#include <stddef.h>
#include <stdint.h>

#include "bulk/bulk.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* Prints "bulk: <message>\n" to stderr and exits with `code`. */
void cli_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Prints "bulk: <message>\n" to stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Option scanning: argv[*i] is the option. If it equals `name` (e.g. "--bits"), takes its value
 * from argv[*i + 1] (advancing *i) or from "--bits=VALUE", and returns it; a missing value is a
 * usage error. Returns NULL when argv[*i] is not this option. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name);

/* Strict conversions of option values; a bad value is a usage error naming the option. */
long long cli_parse_ll(const char *opt, const char *text, long long min, long long max);

/* --backend value -> enum (usage error when unknown). */
bulk_backend cli_parse_backend(const char *text);

/* The two options every computing command takes: --backend cpu|cuda|auto into *be and
 * --threads N (0..4096, 0 = all online CPUs) into *threads. Returns 1 when argv[*i] was one of
 * them (its value consumed as cli_opt_value does), 0 otherwise. */
int cli_backend_threads_opt(int argc, char **argv, int *i, bulk_backend *be, int *threads);

/* Opens a context or exits with a clear message (exit 2 for an unavailable backend). */
bulk_ctx *cli_open_ctx(bulk_backend want, int threads);

/* Reads a whole file ('-' = standard input) into a malloc'ed buffer (caller frees), setting *len.
 * Exits 2 (naming the file) when it cannot be opened or read, 1 when out of memory. */
char *cli_read_file(const char *path, size_t *len);

/* Prints the --help text (a NUL-terminated string) and exits 0 when argv holds -h/--help. */
void cli_help_if_asked(int argc, char **argv, const char *usage);

#endif
