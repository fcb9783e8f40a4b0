/* Launch detection and placement of a distributed run (dist.h): which rank of the host this is,
 * which GPU it takes, how many CPU threads it uses. Reads only the environment, so it can run
 * before MPI and before the bulk context (CUDA reads CUDA_VISIBLE_DEVICES when it starts). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* GPUs the driver exposes (one directory per GPU), without starting CUDA. */
static int nvidia_gpus(void)
{
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

int dist_place(int threads_option)
{
    int lr = dist_local_rank(), ls = dist_local_size();
    if (ls > 1) {
        const char *vis = getenv("CUDA_VISIBLE_DEVICES");
        char pick[64] = "";
        if (vis && *vis) { /* take the (lr mod G)-th entry of the given list */
            int g = 1;
            for (const char *p = vis; *p; p++) g += *p == ',';
            int want = lr % g, idx = 0;
            const char *p = vis;
            while (idx < want && (p = strchr(p, ','))) p++, idx++;
            size_t n = strcspn(p, ",");
            if (n < sizeof pick) memcpy(pick, p, n), pick[n] = 0;
        } else {
            int g = nvidia_gpus();
            if (g > 0) snprintf(pick, sizeof pick, "%d", lr % g);
        }
        if (pick[0]) setenv("CUDA_VISIBLE_DEVICES", pick, 1);
    }
    const char *bt = getenv("BULK_THREADS");
    if (threads_option > 0 || (bt && *bt)) return threads_option;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1) cpus = 1;
    long t = cpus / ls;
    return (int)(t < 1 ? 1 : t);
}
