/* bulk dist: the distributed drivers (dist.h) by name, with or without mpirun. Under mpirun the
 * usual commands (`bulk collatz verify ...`, `bulk int OP ...`) reach the same drivers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dist.h"
#include "dist_comm.h"

static const char dist_usage[] =
    "usage: [mpirun -np N] bulk dist collatz verify|delays|records ...   (bulk dist collatz --help)\n"
    "       [mpirun -np N] bulk dist int OP --in FILE [--out FILE] ...   (--in -: standard\n"
    "                      input, in one process only: it is not split among ranks)\n"
    "       [mpirun -np N] bulk dist placement [--threads N]   (what each rank would use)\n"
    "       bulk dist SUBCOMMAND --help   (each subcommand)\n"
    "\n"
    "Runs the command cut into chunks that rank 0 hands out (collatz; --checkpoint DIR makes it\n"
    "restartable) or into slices of the input (int), and prints what the one-process command\n"
    "prints. Without mpirun, or in a build without MPI, it runs as one process. A build\n"
    "without MPI started as N > 1 ranks (mpirun, srun) refuses every command with exit 2\n"
    "(BULK_DIST=0 runs the copies anyway). See docs/scale-out.md.\n";

static const char placement_usage[] =
    "usage: [mpirun -np N] bulk dist placement [--threads N]\n"
    "Prints one line per rank: its rank, its local rank on the host, the CUDA_VISIBLE_DEVICES it\n"
    "would use (one GPU per rank by local rank) and its CPU threads: --threads N when N > 0,\n"
    "else BULK_THREADS when set and not 0, else the host's online CPUs divided among its ranks.\n";

/* One line per rank: its rank, local rank, the GPU list it would see and its thread count
 * (dist_place), so that a job script can check its mapping before a long run. */
static int placement(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, placement_usage);
    int threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else cli_die(CLI_EXIT_USAGE, "dist placement: unknown argument '%s'", argv[i]);
    }
    int t = dist_place(threads);
    if (dist_comm_init(&argc, &argv)) return CLI_EXIT_FAIL;
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES"), *bt = getenv("BULK_THREADS");
    const int from_env = t == 0 && bt; /* 0 from dist_place: BULK_THREADS decides */
    if (from_env) t = atoi(bt);
    printf("rank %d of %d: local rank %d of %d, CUDA_VISIBLE_DEVICES=%s, threads %d%s\n",
           dist_comm_rank(), dist_comm_size(), dist_local_rank(), dist_local_size(),
           cvd ? cvd : "(unset)", t, from_env ? " (BULK_THREADS)" : "");
    dist_comm_finalize();
    return CLI_EXIT_OK;
}

int cmd_dist(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fputs(dist_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    }
    if (!strcmp(argv[1], "collatz")) return dist_collatz_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "int")) return dist_int_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "placement")) return placement(argc - 1, argv + 1);
    cli_die(CLI_EXIT_USAGE, "dist: '%s' does not run distributed (collatz, int)", argv[1]);
}
