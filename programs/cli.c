#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read_stream.h"

/* ---- exit codes and standard output --------------------------------------------------------
 * Every exit of the CLI goes through exit() (cli_exit, cli_die, the --help exits), so the
 * handler below runs last (it is registered first) and sees the code the command chose. */
static int exit_code;      /* the code of the exit in progress */
static int stdout_reported; /* a stdout failure was already reported (cli_stdout_error) */

void cli_exit(int code)
{
    exit_code = code;
    exit(code);
}

void cli_die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bulk: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    cli_exit(code);
}

void cli_stdout_error(int err)
{
    stdout_reported = 1;
    cli_die(CLI_EXIT_FAIL, "writing standard output: %s", strerror(err ? err : EIO));
}

void cli_check_output(FILE *fp, const char *path)
{
    if (!ferror(fp)) return;
    int err = errno; /* set by the failed write, unless a later call changed it */
    if (fflush(fp) != 0) err = errno; /* what was buffered since fails afresh: the cause now */
    if (fp == stdout) cli_stdout_error(err);
    cli_die(CLI_EXIT_FAIL, "writing %s: %s", path ? path : "the output", strerror(err ? err : EIO));
}

void cli_flush_stdout(void)
{
    cli_check_output(stdout, NULL);
    if (fflush(stdout) != 0) cli_stdout_error(errno);
}

/* At exit: flush and close stdout, as coreutils' close_stdout does. A failed write, flush or
 * close makes the run fail: exit 1, or the command's own code when that is already an error
 * (2 stays 2). A stdout that was closed before the start (EBADF) with nothing written is not
 * an error. The cause is the errno of the failed flush or close, else (the write failed
 * earlier and its data were dropped) errno as the failed write left it. exit() may not be
 * called again from an exit handler: the other streams are flushed here, then _exit. */
static void close_stdout(void)
{
    if (stdout_reported) return;
    const int pending = __fpending(stdout) != 0, failed_before = ferror(stdout) != 0;
    int err = errno;
    errno = 0;
    if (fclose(stdout) != 0) {
        if (errno == EBADF && !pending && !failed_before) return;
        err = errno;
    } else if (!failed_before) {
        return;
    }
    fprintf(stderr, "bulk: writing standard output: %s\n", strerror(err ? err : EIO));
    fflush(NULL);
    _exit(exit_code ? exit_code : CLI_EXIT_FAIL);
}

void cli_init(void)
{
    atexit(close_stdout);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bulk: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

const char *cli_opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != 0) return NULL;
    if (*i + 1 >= argc) cli_die(CLI_EXIT_USAGE, "option %s needs a value", name);
    return argv[++*i];
}

long long cli_parse_ll(const char *opt, const char *text, long long min, long long max)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 0);
    if (errno || end == text || *end)
        cli_die(CLI_EXIT_USAGE, "%s: '%s' is not an integer", opt, text);
    if (v < min || v > max)
        cli_die(CLI_EXIT_USAGE, "%s: %lld is out of range [%lld, %lld]", opt, v, min, max);
    return v;
}

bulk_backend cli_parse_backend(const char *text)
{
    bulk_backend b;
    if (bulk_backend_parse(text, &b) != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "--backend: '%s' is not a backend; valid: cpu, cuda, auto", text);
    return b;
}

/* ---- the environment ----------------------------------------------------------------------- */

static const char *env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL; /* empty is the same as unset */
}

void cli_check_env(void)
{
    const char *v;
    bulk_backend b;
    if ((v = env_set("BULK_BACKEND")) && bulk_backend_parse(v, &b) != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "BULK_BACKEND='%s' is not a backend; valid: cpu, cuda, auto", v);
    if ((v = env_set("BULK_THREADS"))) {
        char *end;
        errno = 0;
        long t = strtol(v, &end, 10);
        if (*v < '0' || *v > '9' || errno || *end || t > CLI_MAX_THREADS)
            cli_die(CLI_EXIT_USAGE, "BULK_THREADS='%s' is not a thread count; valid: 1 to %d, "
                    "or 0 for all online CPUs", v, CLI_MAX_THREADS);
    }
    char msg[600];
    if ((v = env_set("BULK_TUNE")) && bulk_tune_check(v, msg, sizeof msg) != BULK_OK)
        cli_die(CLI_EXIT_USAGE, "BULK_TUNE='%s' is not valid: %s", v, msg);
    if ((v = env_set("BULK_PROGRESS")) && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
        cli_die(CLI_EXIT_USAGE, "BULK_PROGRESS='%s' is not valid; valid: 0 (never), 1 (always); "
                "unset: when stderr is a terminal", v);
}

int cli_parse_threads(const char *text)
{
    return (int)cli_parse_ll("--threads", text, 0, CLI_MAX_THREADS);
}

bulk_ctx *cli_open_ctx(bulk_backend want, int threads)
{
    bulk_ctx *ctx;
    int st = bulk_ctx_open(&ctx, want, threads);
    if (st == BULK_ERR_NO_BACKEND)
        cli_die(CLI_EXIT_USAGE, "backend '%s' is not available here (CUDA devices found: %d)",
                bulk_backend_name(want), bulk_cuda_device_count());
    if (st == BULK_ERR_ARG) /* the environment: cli_check_env refuses it first */
        cli_die(CLI_EXIT_USAGE, "cannot open a context: BULK_BACKEND or BULK_THREADS is invalid");
    if (st != BULK_OK) cli_die(CLI_EXIT_FAIL, "cannot open a context: %s", bulk_status_string(st));
    return ctx;
}

const char *cli_lib_error(const bulk_ctx *ctx)
{
    const char *m = bulk_ctx_last_error(ctx), *colon = strstr(m, ": ");
    if (strncmp(m, "bulk_", 5) == 0 && colon && !memchr(m, ' ', (size_t)(colon - m))) return colon + 2;
    return m;
}

void cli_help_if_asked(int argc, char **argv, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            cli_exit(CLI_EXIT_OK);
        }
    }
}

char *cli_read_file(const char *path, size_t *len)
{
    const int std = strcmp(path, "-") == 0;
    const char *name = std ? "standard input" : path;
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f) cli_die(CLI_EXIT_USAGE, "%s: %s", path, strerror(errno));
    char *buf;
    errno = 0;
    int st = bulk_read_stream(f, &buf, len);
    if (st == BULK_ERR_NOMEM) cli_die(CLI_EXIT_FAIL, "out of memory reading %s", name);
    if (st != BULK_OK) cli_die(CLI_EXIT_USAGE, "%s: %s", name, strerror(errno ? errno : EIO));
    if (!std) fclose(f);
    return buf;
}

int cli_backend_threads_opt(int argc, char **argv, int *i, bulk_backend *be, int *threads)
{
    const char *v;
    if ((v = cli_opt_value(argc, argv, i, "--backend"))) {
        *be = cli_parse_backend(v);
        return 1;
    }
    if ((v = cli_opt_value(argc, argv, i, "--threads"))) {
        *threads = cli_parse_threads(v);
        return 1;
    }
    return 0;
}
