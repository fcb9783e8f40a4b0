/* The MPI transport (compiled only when CMake finds MPI, cmake/mpi.cmake). */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dist.h"
#include "dist_comm.h"

static int inited, rank, size = 1;

int dist_comm_init(int *argc, char ***argv)
{
    if (inited) return 0;
    /* not started by a launcher (or BULK_DIST=0): one process, and MPI is not started at all */
    if (!dist_launched()) return 0;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "bulk: MPI_Init_thread failed\n");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    inited = 1;
    return 0;
}
int dist_comm_rank(void) { return rank; }
int dist_comm_size(void) { return size; }
int dist_comm_has_mpi(void) { return 1; }

int dist_comm_send(int dest, int tag, const void *buf, size_t len)
{
    if (len > INT_MAX) return -1;
    return MPI_Send(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

int dist_comm_poll(int tag, int *from, int *tag_out, size_t *len)
{
    int flag = 0, count;
    MPI_Status s;
    MPI_Iprobe(MPI_ANY_SOURCE, tag < 0 ? MPI_ANY_TAG : tag, MPI_COMM_WORLD, &flag, &s);
    if (!flag) return 0;
    MPI_Get_count(&s, MPI_BYTE, &count);
    *from = s.MPI_SOURCE;
    *tag_out = s.MPI_TAG;
    *len = (size_t)count;
    return 1;
}

int dist_comm_recv(int from, int tag, char **buf, size_t len)
{
    *buf = malloc(len + 1);
    if (!*buf) return -1;
    (*buf)[len] = 0;
    if (MPI_Recv(*buf, (int)len, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS) {
        free(*buf);
        *buf = NULL;
        return -1;
    }
    return 0;
}

int dist_comm_wait(int from, int tag, int *from_out, char **buf, size_t *len)
{
    struct timespec nap = { 0, 200000 }; /* 0.2 ms: idle ranks sleep instead of spinning */
    for (;;) {
        int flag = 0, count;
        MPI_Status s;
        MPI_Iprobe(from < 0 ? MPI_ANY_SOURCE : from, tag, MPI_COMM_WORLD, &flag, &s);
        if (flag) {
            MPI_Get_count(&s, MPI_BYTE, &count);
            if (from_out) *from_out = s.MPI_SOURCE;
            *len = (size_t)count;
            return dist_comm_recv(s.MPI_SOURCE, tag, buf, (size_t)count);
        }
        nanosleep(&nap, NULL);
    }
}

void dist_comm_finalize(void)
{
    if (inited) MPI_Finalize();
    inited = 0;
}

void dist_comm_abort(int code)
{
    if (inited) MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}
