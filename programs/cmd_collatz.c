/* bulk collatz: dispatch to the subcommands, and their shared helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bulk/collatz.h"
#include "collatz_cli.h"
#include "commands.h"
#include "dist.h"

static const char collatz_usage[] =
    "usage: bulk collatz SUBCOMMAND [ARGS...]   (bulk collatz SUBCOMMAND --help for details)\n"
    "\n"
    "  verify   --from A --to B   show every n in [A, B) drops below itself (checksum, overflows)\n"
    "  merge    FILE...           combine the --json results of verify --part runs\n"
    "  delay    N...              delay, glide and peak of each N (exact, any size)\n"
    "  delays   --from A --to B   delays of a range (--out, --stats BATCH, --png)\n"
    "  records  --kind K --from A --to B   delay, glide or path records of a range\n"
    "  sieve    --k K             sizes s_j of the sieve of mandatory residues, j = 0..K\n"
    "\n"
    "Map: n even -> n/2, n odd -> 3n+1, one step each. Bounds accept decimal, 0x hex and\n"
    "expressions with + - * ^ such as 2^64, 3*2^60, 2^68+2^40, 2^90-1. See docs/collatz.md.\n";

int cmd_collatz(int argc, char **argv)
{
    if (argc < 2) {
        fputs(collatz_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help") || !strcmp(sub, "help")) {
        fputs(collatz_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (dist_launched() && (!strcmp(sub, "verify") || !strcmp(sub, "delays") || !strcmp(sub, "records")))
        return dist_collatz_main(argc, argv); /* under mpirun: docs/scale-out.md */
    if (!strcmp(sub, "verify")) return cmd_collatz_verify(argc - 1, argv + 1);
    if (!strcmp(sub, "merge")) return cmd_collatz_merge(argc - 1, argv + 1);
    if (!strcmp(sub, "delay")) return cmd_collatz_delay(argc - 1, argv + 1);
    if (!strcmp(sub, "delays")) return cmd_collatz_delays(argc - 1, argv + 1);
    if (!strcmp(sub, "records")) return cmd_collatz_records(argc - 1, argv + 1);
    if (!strcmp(sub, "sieve")) return cmd_collatz_sieve(argc - 1, argv + 1);
    fprintf(stderr, "bulk: collatz: unknown subcommand '%s'\n", sub);
    fputs(collatz_usage, stderr);
    return CLI_EXIT_USAGE;
}

static const char sieve_usage[] =
    "usage: bulk collatz sieve --k K [--threads N]\n"
    "Prints j and s_j, the number of mandatory residues modulo 2^j (seed 004 Table 3), for\n"
    "j = 0..K (K <= 39), without storing the sieve.\n"
    "  --threads N   CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n";

int cmd_collatz_sieve(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, sieve_usage);
    int k = -1, threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_opt_value(argc, argv, &i, "--k"))) k = (int)cli_parse_ll("--k", v, 0, BULK_COLLATZ_MAX_K);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else cli_die(CLI_EXIT_USAGE, "collatz sieve: unknown argument '%s'", argv[i]);
    }
    if (k < 0) cli_die(CLI_EXIT_USAGE, "collatz sieve: --k is required");
    bulk_ctx *ctx = cli_open_ctx(BULK_BACKEND_CPU, threads);
    uint64_t counts[BULK_COLLATZ_MAX_K + 1];
    int st = bulk_collatz_sieve_count(ctx, k, counts);
    bulk_ctx_close(ctx);
    if (st) cli_die(CLI_EXIT_FAIL, "sieve: %s", bulk_status_string(st));
    for (int j = 0; j <= k; j++) printf("%d %llu\n", j, (unsigned long long)counts[j]);
    return CLI_EXIT_OK;
}
