/* The transport of builds without MPI: one process, rank 0 of 1. No message is ever sent (the
 * driver's rank 0 computes every chunk itself), so send and receive report failure. */
#include <stdlib.h>

#include "dist_comm.h"

int dist_comm_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}
int dist_comm_rank(void) { return 0; }
int dist_comm_size(void) { return 1; }
int dist_comm_has_mpi(void) { return 0; }
int dist_comm_send(int dest, int tag, const void *buf, size_t len)
{
    (void)dest, (void)tag, (void)buf, (void)len;
    return -1;
}
int dist_comm_poll(int tag, int *from, int *tag_out, size_t *len)
{
    (void)tag, (void)from, (void)tag_out, (void)len;
    return 0;
}
int dist_comm_recv(int from, int tag, char **buf, size_t len)
{
    (void)from, (void)tag, (void)len;
    *buf = NULL;
    return -1;
}
int dist_comm_wait(int from, int tag, int *from_out, char **buf, size_t *len)
{
    (void)from, (void)tag, (void)from_out, (void)len;
    *buf = NULL;
    return -1;
}
void dist_comm_finalize(void) {}
void dist_comm_abort(int code) { exit(code); }
