/* bulk collatz records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/collatz.h"
#include "cli_progress.h"
#include "collatz_cli.h"

static const char records_usage[] =
    "usage: bulk collatz records --kind delay|glide|path --from A --to B [options]\n"
    "Prints `n value`, one per line, for every n in [A, B) whose value (delay, glide or peak)\n"
    "beats that of every smaller n of the range. With --from 1 these are the true records\n"
    "(OEIS A006877, A060412, A006884). glide(1) is undefined, so 1 is never a glide record.\n"
    "\n"
    "Path records compare peaks of any size (kept in 256 bits): from n >= 2A on the pre-drop\n"
    "peak decides (the largest value before the trajectory first drops below n), below 2A the\n"
    "whole trajectory's peak; numbers that drop within K steps are skipped once they cannot win.\n"
    "\n"
    "  --above V           path records only: list n whose pre-drop peak exceeds V and every\n"
    "                      smaller n's of the range; with V = the peak of the last record below\n"
    "                      A these are exactly the path records of [A, B), at full speed also\n"
    "                      far from 1 (V: a number or expression, below 2^256)\n"
    "  --k K               path records: sieve bits (default min(30, log2(B-A) - 6), 0: none)\n"
    "  --d D  base bits of B, C, J (default 11)   --a A  bits of tables A and P (default 20)\n"
    "  --threads N         CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --backend cpu|cuda|auto  (default auto; BULK_BACKEND)\n"
    "  --checkpoint FILE   resume from / save the progress to FILE (atomic); a rerun after a\n"
    "                      kill goes on where the last checkpoint was written, and a FILE of\n"
    "                      another run is refused (exit 2); FILE: a regular file, a new one\n"
    "                      or a link to one\n"
    "  --checkpoint-every S  seconds between checkpoints (default 5)\n"
    "A progress line (numbers done, rate, ETA) goes to stderr when it is a terminal\n"
    "(BULK_PROGRESS=1 forces it, BULK_PROGRESS=0 turns it off).\n";

typedef unsigned __int128 u128;
static u128 to128(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }

int cmd_collatz_records(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, records_usage);
    const char *from = NULL, *to = NULL, *kind = NULL, *ckpt = NULL, *above_text = NULL, *v;
    int d = 11, a = 20, threads = 0, ks = -1;
    double every = 5;
    bulk_backend backend = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--from"))) from = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--to"))) to = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--kind"))) kind = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--d"))) d = (int)cli_parse_ll("--d", v, 1, BULK_COLLATZ_MAX_D);
        else if ((v = cli_opt_value(argc, argv, &i, "--a"))) a = (int)cli_parse_ll("--a", v, 1, BULK_COLLATZ_MAX_A);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--above"))) above_text = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--k"))) ks = (int)cli_parse_ll("--k", v, 0, 30);
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint"))) ckpt = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint-every"))) every = (double)cli_parse_ll("--checkpoint-every", v, 0, 86400);
        else cli_die(CLI_EXIT_USAGE, "collatz records: unknown argument '%s'", argv[i]);
    }
    if (!kind) cli_die(CLI_EXIT_USAGE, "collatz records: --kind is required");
    bulk_collatz_kind k;
    if (!strcmp(kind, "delay")) k = BULK_COLLATZ_DELAY;
    else if (!strcmp(kind, "glide")) k = BULK_COLLATZ_GLIDE;
    else if (!strcmp(kind, "path")) k = BULK_COLLATZ_PATH;
    else cli_die(CLI_EXIT_USAGE, "--kind: '%s' is not delay, glide or path", kind);
    if (a < d) cli_die(CLI_EXIT_USAGE, "--a %d must be at least --d %d", a, d);
    if ((above_text || ks >= 0) && k != BULK_COLLATZ_PATH)
        cli_die(CLI_EXIT_USAGE, "collatz records: %s applies to --kind path only", above_text ? "--above" : "--k");
    bulk_collatz_wide above;
    if (above_text) above = czcli_wide("--above", above_text);
    bulk_u128 first, last;
    czcli_range(from, to, &first, &last);
    if (k == BULK_COLLATZ_PATH && ks < 0) {
        /* a sieve of K bits when the range holds many blocks of 2^K: min(30, log2(len) - 6) */
        u128 len = to128(last) - to128(first) + 1;
        int lg = 0;
        while (lg < 127 && (len >> (lg + 1))) lg++;
        ks = len == 0 ? 30 : lg - 6 < 0 ? 0 : lg - 6 > 30 ? 30 : lg - 6;
    }
    bulk_ctx *ctx = cli_open_ctx(backend, threads);
    bulk_collatz_engine *e = czcli_engine(ctx, d, ks > 0 ? ks : 0, a);
    /* path records skip the numbers proved by a smaller one where that is valid (records_path.c) */
    if (k == BULK_COLLATZ_PATH && ks > 0 && (above_text || (first.lo == 1 && first.hi == 0)) &&
        bulk_collatz_engine_set_converge(e) != BULK_OK)
        cli_die(CLI_EXIT_FAIL, "collatz records: %s", bulk_ctx_last_error(ctx));
    bulk_collatz_record *recs;
    size_t n;
    int st;
    /* records in slices (bulk_collatz_records_run), with a progress line after every slice */
    cli_progress_attach(ctx, "collatz records");
    if (!ckpt) {
        /* the library's own limit on what can be enumerated: 2^60 numbers */
        u128 len = to128(last) - to128(first) + 1;
        st = len == 0 || len > (u128)1 << 60 ? BULK_ERR_ARG
             : above_text ? bulk_collatz_path_records_run(ctx, e, first, last, &above, NULL, &recs, &n)
                          : bulk_collatz_records_run(ctx, e, k, first, last, NULL, &recs, &n);
    } else {
        char identity[512];
        snprintf(identity, sizeof identity, "collatz records kind=%s from=%s to=%s d=%d a=%d%s%s", kind,
                 from, to, d, a, above_text ? " above=" : "", above_text ? above_text : "");
        if (strlen(identity) >= sizeof identity - 1 || strchr(identity, '\n'))
            cli_die(CLI_EXIT_USAGE, "collatz records: bounds too long");
        bulk_collatz_run_opts opts = { ckpt, identity, every > 0 ? every : 0.001, 0 };
        st = above_text ? bulk_collatz_path_records_run(ctx, e, first, last, &above, &opts, &recs, &n)
                        : bulk_collatz_records_run(ctx, e, k, first, last, &opts, &recs, &n);
        if (st == BULK_ERR_IO || st == BULK_ERR_PARSE || st == BULK_ERR_UNSUPPORTED)
            cli_die(st == BULK_ERR_IO ? CLI_EXIT_FAIL : CLI_EXIT_USAGE, "collatz records: %s",
                    bulk_ctx_last_error(ctx));
    }
    cli_progress_detach(ctx);
    if (st == BULK_ERR_ARG && ckpt) cli_die(CLI_EXIT_USAGE, "collatz records: %s", bulk_ctx_last_error(ctx));
    if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "collatz records: the range is too long to enumerate");
    if (st) cli_die(CLI_EXIT_FAIL, "collatz records: %s", bulk_ctx_last_error(ctx));
    for (size_t i = 0; i < n; i++) {
        char vb[80];
        czcli_wide_text(&recs[i].value, vb);
        printf("%s %s\n", czcli_str(recs[i].n, 0), vb);
    }
    free(recs);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}
