/* bulk collatz records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz_cli.h"

static const char records_usage[] =
    "usage: bulk collatz records --kind delay|glide|path --from A --to B [options]\n"
    "Prints `n value`, one per line, for every n in [A, B) whose value (delay, glide or peak)\n"
    "beats that of every smaller n of the range. With --from 1 these are the true records\n"
    "(OEIS A006877, A060412, A006884). glide(1) is undefined, so 1 is never a glide record.\n"
    "\n"
    "  --d D  base bits of B, C, J (default 11)   --a A  bits of tables A and P (default 20)\n"
    "  --threads N, --backend cpu|cuda|auto\n";

int cmd_collatz_records(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, records_usage);
    const char *from = NULL, *to = NULL, *kind = NULL, *v;
    int d = 11, a = 20, threads = 0;
    bulk_backend backend = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--from"))) from = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--to"))) to = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--kind"))) kind = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--d"))) d = (int)cli_parse_ll("--d", v, 1, BULK_COLLATZ_MAX_D);
        else if ((v = cli_opt_value(argc, argv, &i, "--a"))) a = (int)cli_parse_ll("--a", v, 1, BULK_COLLATZ_MAX_A);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = (int)cli_parse_ll("--threads", v, 1, 4096);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else cli_die(CLI_EXIT_USAGE, "collatz records: unknown argument '%s'", argv[i]);
    }
    if (!kind) cli_die(CLI_EXIT_USAGE, "collatz records: --kind is required");
    bulk_collatz_kind k;
    if (!strcmp(kind, "delay")) k = BULK_COLLATZ_DELAY;
    else if (!strcmp(kind, "glide")) k = BULK_COLLATZ_GLIDE;
    else if (!strcmp(kind, "path")) k = BULK_COLLATZ_PATH;
    else cli_die(CLI_EXIT_USAGE, "--kind: '%s' is not delay, glide or path", kind);
    if (a < d) cli_die(CLI_EXIT_USAGE, "--a %d must be at least --d %d", a, d);
    bulk_u128 first, last;
    czcli_range(from, to, &first, &last);
    bulk_ctx *ctx = cli_open_ctx(backend, threads);
    bulk_collatz_engine *e = czcli_engine(ctx, d, 0, a);
    bulk_collatz_record *recs;
    size_t n;
    int st = bulk_collatz_records(ctx, e, k, first, last, &recs, &n);
    if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "collatz records: the range is too long to enumerate");
    if (st) cli_die(CLI_EXIT_FAIL, "collatz records: %s", bulk_status_string(st));
    for (size_t i = 0; i < n; i++)
        printf("%s %s\n", czcli_str(recs[i].n, 0), czcli_str(recs[i].value, 1));
    free(recs);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}
