/* Shared helpers of the bulk CLI: error exits, standard output, the environment and option
 * parsing.
 *
 * Exit codes (a contract with scripts): 0 success; 1 the computation found something the user
 * asked about to be false or failed at run time (creating, writing, flushing, closing or renaming
 * an output, checkpoint, PNG or scratch file, standard output included; a device; memory); 2 bad
 * input or usage (an input that cannot be opened or read, malformed content, a bad option or
 * environment value). I/O messages name the path and the cause (strerror). */
#ifndef BULK_PROGRAMS_CLI_H
#define BULK_PROGRAMS_CLI_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bulk/bulk.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* --threads N and BULK_THREADS: 1..CLI_MAX_THREADS, or 0 = the default (BULK_THREADS when set,
 * else all online CPUs; under mpirun the host's CPUs divided among its ranks). */
#define CLI_MAX_THREADS 4096

/* First thing in main: makes standard output part of the result. At exit, stdout is flushed and
 * closed; if any write, the flush or the close failed, "bulk: writing standard output: <cause>"
 * goes to stderr and the exit code becomes 1 (or stays the command's when that is already
 * nonzero). SIGPIPE keeps its default action, so a reader that closes the pipe early (`| head`)
 * ends the run at once, as it does coreutils; with SIGPIPE ignored that is EPIPE, an error. */
void cli_init(void);
/* exit(code), recording the code for the stdout check above. Every exit of the CLI uses it. */
void cli_exit(int code) __attribute__((noreturn));
/* Exits 1 with "bulk: writing standard output: <strerror(err)>" (err 0: EIO). */
void cli_stdout_error(int err) __attribute__((noreturn));
/* For long output loops: when a write to fp has failed, exits 1 at once ("writing standard
 * output: <cause>" for stdout, else "writing <path>: <cause>") instead of computing the rest.
 * A caller writing an atomic file aborts it first (checking ferror itself). */
void cli_check_output(FILE *fp, const char *path);

/* Flushes stdout now (a command that finishes its output before more work or cleanup): exits 1
 * with the message above when this or an earlier write failed. */
void cli_flush_stdout(void);

/* Refuses (exit 2, naming the variable, the value and the valid values) an invalid
 * BULK_BACKEND (cpu, cuda, auto), BULK_THREADS (0..CLI_MAX_THREADS) or BULK_PROGRESS (0, 1).
 * Empty values count as unset. Called by main before any command. */
void cli_check_env(void);

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
/* --threads value: 0..CLI_MAX_THREADS (usage error otherwise); 0 = the default. */
int cli_parse_threads(const char *text);

/* The two options every computing command takes: --backend cpu|cuda|auto into *be and
 * --threads N (cli_parse_threads) into *threads. Returns 1 when argv[*i] was one of them (its
 * value consumed as cli_opt_value does), 0 otherwise. */
int cli_backend_threads_opt(int argc, char **argv, int *i, bulk_backend *be, int *threads);

/* Opens a context or exits with a clear message (exit 2 for an unavailable backend). */
bulk_ctx *cli_open_ctx(bulk_backend want, int threads);

/* The library's last error (bulk_ctx_last_error; ctx NULL: the calling thread's) without its
 * leading "bulk_function: ", for messages that name the command and the file instead. */
const char *cli_lib_error(const bulk_ctx *ctx);

/* Reads a whole file ('-' = standard input) into a malloc'ed buffer (caller frees), setting *len.
 * Exits 2 (naming the file and the cause) when it cannot be opened or read, 1 when out of memory. */
char *cli_read_file(const char *path, size_t *len);

/* Prints the --help text (a NUL-terminated string) and exits 0 when argv holds -h/--help. */
void cli_help_if_asked(int argc, char **argv, const char *usage);

#endif
