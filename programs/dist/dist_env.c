/* Launch detection and placement of a distributed run (dist.h): which rank of the host this is,
 * which GPU it takes, how many CPU threads it uses. Reads only the environment, so it can run
 * before MPI and before the bulk context (CUDA reads CUDA_VISIBLE_DEVICES when it starts). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dist.h"
#include "dist_comm.h"

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end;
    long x = strtol(v, &end, 10);
    return (*end || x < 0 || x > 1 << 24) ? dflt : (int)x;
}

int dist_launched(void)
{
    const char *off = getenv("BULK_DIST");
    if (off && !strcmp(off, "0")) return 0;
    if (!dist_comm_has_mpi()) return 0;
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK") ||
           getenv("MPI_LOCALNRANKS");
}

/* The size of the launch: the first of OMPI_COMM_WORLD_SIZE (Open MPI), PMI_SIZE (MPICH, Intel
 * MPI, Slurm's PMI-2), PMIX_SIZE, and, inside an srun step (SLURM_STEP_ID set),
 * SLURM_STEP_NUM_TASKS or SLURM_NTASKS (a batch script alone is not a step). PMIX_RANK = r > 0
 * without a size means at least r + 1. *from names the variable; 1 when none applies. */
static int launch_size(const char **from)
{
    static const char *sizes[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE" };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int v = env_int(sizes[i], 0);
        if (v >= 1) return *from = sizes[i], v;
    }
    if (getenv("SLURM_STEP_ID")) {
        int v = env_int(*from = "SLURM_STEP_NUM_TASKS", 0);
        if (v < 1) v = env_int(*from = "SLURM_NTASKS", 0);
        if (v >= 1) return v;
    }
    int r = env_int(*from = "PMIX_RANK", 0);
    return r >= 1 ? r + 1 : 1;
}

int dist_refuse_copies(int argc, char **argv)
{
    const char *off = getenv("BULK_DIST"), *from = NULL;
    if (dist_comm_has_mpi() || (off && !strcmp(off, "0")) || argc < 1) return 0;
    if (!strcmp(argv[0], "info") || (argc > 1 && !strcmp(argv[1], "help"))) return 0;
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 0;
    int n = launch_size(&from);
    if (n <= 1) return 0;
    fprintf(stderr,
            "bulk: this bulk was built without MPI; %s%d ranks would each run the whole range "
            "(%s=%s). Rebuild with MPI (cmake/mpi.cmake, docs/scale-out.md) or run one process; "
            "BULK_DIST=0 runs the copies anyway\n",
            strcmp(from, "PMIX_RANK") ? "" : "at least ", n, from, getenv(from));
    return CLI_EXIT_USAGE;
}

int dist_local_rank(void)
{
    static const char *names[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                   "PMI_LOCAL_RANK", "SLURM_LOCALID" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int v = env_int(names[i], -1);
        if (v >= 0) return v;
    }
    return 0;
}

int dist_local_size(void)
{
    static const char *names[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS",
                                   "PMI_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int v = env_int(names[i], -1);
        if (v >= 1) return v;
    }
    return 1;
}

/* GPUs the driver exposes, without starting CUDA: one directory per GPU under
 * /proc/driver/nvidia/gpus, or, where that is missing (containers, gVisor), one /dev/nvidiaN
 * device file per GPU (nvidiactl, nvidia-uvm, ... are not counted). */
static int nvidia_gpus(void)
{
    int n = 0;
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (e->d_name[0] != '.') n++;
        closedir(d);
        if (n > 0) return n;
    }
    d = opendir("/dev");
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *p = e->d_name;
        if (strncmp(p, "nvidia", 6) || !p[6]) continue;
        p += 6;
        while (*p >= '0' && *p <= '9') p++;
        if (!*p) n++;
    }
    closedir(d);
    return n;
}

/* Appends entry i of the host's GPU list (the entries of CUDA_VISIBLE_DEVICES when set, else
 * 0..G-1) to the comma-separated list out. */
static void add_gpu(char *out, size_t cap, const char *vis, int i)
{
    char one[64];
    if (vis) {
        const char *p = vis;
        for (int idx = 0; idx < i && p; idx++)
            if ((p = strchr(p, ','))) p++;
        if (!p) return;
        size_t n = strcspn(p, ",");
        if (n >= sizeof one) return;
        memcpy(one, p, n);
        one[n] = 0;
    } else {
        snprintf(one, sizeof one, "%d", i);
    }
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s%s", len ? "," : "", one);
}

int dist_place(int threads_option)
{
    int lr = dist_local_rank(), ls = dist_local_size();
    /* The host's G GPUs are dealt out to its L ranks: with G >= L, local rank l takes the GPUs
     * g with g mod L = l (one each when G = L, and none left idle when G > L); with G < L, ranks
     * share: l takes GPU l mod G. The CUDA backend then uses all GPUs it can see. */
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis && !*vis) vis = NULL;
    int g = 0;
    if (vis) {
        g = 1;
        for (const char *p = vis; *p; p++) g += *p == ',';
    } else {
        g = nvidia_gpus();
    }
    if (g > 0) {
        char pick[512] = "";
        if (g >= ls) {
            for (int i = lr; i < g; i += ls) add_gpu(pick, sizeof pick, vis, i);
        } else {
            add_gpu(pick, sizeof pick, vis, lr % g);
        }
        if (pick[0]) setenv("CUDA_VISIBLE_DEVICES", pick, 1);
    }
    const char *bt = getenv("BULK_THREADS"); /* 0 or empty: the default, as --threads 0 */
    if (threads_option > 0 || (bt && *bt && strcmp(bt, "0") != 0)) return threads_option;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1) cpus = 1;
    long t = cpus / ls;
    return (int)(t < 1 ? 1 : t);
}
