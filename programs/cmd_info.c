/* bulk info: what this build can run on. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char info_usage[] =
    "usage: bulk info [--json]\n"
    "Prints the version, whether the CUDA backend is built in, the CUDA devices found and the\n"
    "backend that --backend auto would choose.\n";

int cmd_info(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, info_usage);
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else cli_die(CLI_EXIT_USAGE, "info: unknown argument '%s'", argv[i]);
    }
#ifdef BULK_HAVE_CUDA
    const int built = 1;
#else
    const int built = 0;
#endif
    int devices = bulk_cuda_device_count();
    const char *chosen = devices > 0 ? "cuda" : "cpu";
    bulk_ctx *ctx = cli_open_ctx(BULK_BACKEND_CPU, 0);
    int threads = bulk_ctx_threads(ctx);
    bulk_ctx_close(ctx);
    if (json)
        printf("{\"version\":\"%s\",\"cuda_built\":%s,\"cuda_devices\":%d,\"auto_backend\":\"%s\","
               "\"cpu_threads\":%d}\n",
               bulk_version(), built ? "true" : "false", devices, chosen, threads);
    else
        printf("bulk %s\nCUDA backend built: %s\nCUDA devices: %d\nauto backend: %s\nCPU threads: %d\n",
               bulk_version(), built ? "yes" : "no", devices, chosen, threads);
    return CLI_EXIT_OK;
}
