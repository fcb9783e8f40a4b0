#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/read_stream.h"

void cli_die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bulk: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
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
        cli_die(CLI_EXIT_USAGE, "--backend: '%s' is not one of cpu, cuda, auto", text);
    return b;
}

bulk_ctx *cli_open_ctx(bulk_backend want, int threads)
{
    bulk_ctx *ctx;
    int st = bulk_ctx_open(&ctx, want, threads);
    if (st == BULK_ERR_NO_BACKEND)
        cli_die(CLI_EXIT_USAGE, "backend '%s' is not available here (CUDA devices found: %d)",
                bulk_backend_name(want), bulk_cuda_device_count());
    if (st != BULK_OK) cli_die(CLI_EXIT_FAIL, "cannot open a context: %s", bulk_status_string(st));
    return ctx;
}

void cli_help_if_asked(int argc, char **argv, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            exit(CLI_EXIT_OK);
        }
    }
}

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) cli_die(CLI_EXIT_USAGE, "%s: %s", path, strerror(errno));
    char *buf;
    int st = bulk_read_stream(f, &buf, len);
    if (st == BULK_ERR_NOMEM) cli_die(CLI_EXIT_FAIL, "out of memory reading %s", path);
    if (st != BULK_OK) cli_die(CLI_EXIT_USAGE, "%s: read error", path);
    if (f != stdin) fclose(f);
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
        *threads = (int)cli_parse_ll("--threads", v, 0, 4096);
        return 1;
    }
    return 0;
}
