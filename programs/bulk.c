/* bulk: the command-line front end. Dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dist.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    { "info", cmd_info, "version, backends and devices of this build" },
    { "circuit", cmd_circuit, "Boolean circuits (AIGER) on many inputs, 64 per word (bulk circuit --help)" },
    { "cky", cmd_cky, "CKY parsing of many strings at once (bulk cky --help)" },
    { "collatz", cmd_collatz, "Collatz: verify ranges, delays, records (bulk collatz --help)" },
    { "life", cmd_life, "Game of Life and Life-like rules on huge universes (bulk life --help)" },
    { "int", cmd_int, "big-integer arithmetic on every line of a file (bulk int --help)" },
    { "gcd", cmd_gcd, "moduli that share a factor: all-pairs and batch GCD (bulk gcd --help)" },
    { "dist", cmd_dist, "collatz and int runs over MPI ranks, restartable (bulk dist --help)" },
};

static void usage(FILE *out)
{
    fprintf(out, "usage: bulk COMMAND [ARGS...]   (bulk COMMAND --help for details)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\nenvironment (an invalid value is an error, exit 2; empty = unset):\n"
            "  BULK_BACKEND=cpu|cuda|auto  the backend when --backend is not given (default auto)\n"
            "  BULK_THREADS=N              CPU threads when --threads is not given or 0; 1..%d,\n"
            "                              0 = all online CPUs (the default)\n"
            "  BULK_PROGRESS=0|1           progress lines on stderr never / always (default: when\n"
            "                              stderr is a terminal)\n"
            "  BULK_TUNE=key=value,...     force a fallback path (tests, benchmarks; results never\n"
            "                              change): int.mul, cz.layout, life.isa, ... (the keys:\n"
            "                              docs/architecture.md \"Tuning\")\n"
            "\nexit codes: 0 success; 1 run-time failure (writing an output, standard output\n"
            "included, a device, memory); 2 bad input or usage (an input that cannot be read\n"
            "included). Messages name the file and the cause. A reader that closes the pipe\n"
            "early (bulk ... | head) ends the run by SIGPIPE. Every COMMAND and SUBCOMMAND\n"
            "takes --help; '--in -' (or FILE '-') reads standard input; --threads 0 is the\n"
            "default.\n",
            CLI_MAX_THREADS);
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("bulk %s\n", bulk_version());
        return CLI_EXIT_OK;
    }
    if (dist_refuse_copies(argc - 1, argv + 1)) return CLI_EXIT_USAGE; /* launched, no MPI */
    int help = 0;
    for (int i = 2; i < argc; i++) help |= strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0;
    if (!help) cli_check_env(); /* --help works whatever the environment says */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "bulk: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    cli_init(); /* first: standard output is checked at every exit (cli.h) */
    cli_exit(run(argc, argv));
}
