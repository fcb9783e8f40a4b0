/* Message transport of the distributed drivers (programs/dist_*.c): the small subset of MPI they
 * need, behind an interface with two implementations, so that MPI stays out of libbulk and out
 * of every build where it is absent (cmake/mpi.cmake picks one):
 *   programs/dist/comm_mpi.c     Open MPI (or any MPI): ranks of mpirun
 *   programs/dist/comm_single.c  no MPI: one process, rank 0 of 1
 *
 * Contract: only the thread that called dist_comm_init calls the other functions (MPI is
 * initialised with MPI_THREAD_FUNNELED); compute threads never touch the transport. Waiting is
 * done by polling with short sleeps so that an idle rank does not burn a core (Open MPI's
 * blocking calls spin, which hurts oversubscribed runs such as CI's -np 3 on 2 cores). */
#ifndef BULK_PROGRAMS_DIST_COMM_H
#define BULK_PROGRAMS_DIST_COMM_H
#include <stddef.h>

/* Initialises the transport once (later calls do nothing). 0, or -1 after printing why. */
int dist_comm_init(int *argc, char ***argv);
int dist_comm_rank(void);
int dist_comm_size(void);
/* 1 when this build has an MPI transport. */
int dist_comm_has_mpi(void);
/* Sends len bytes to rank dest with tag (>= 0). 0 or -1. */
int dist_comm_send(int dest, int tag, const void *buf, size_t len);
/* Nonblocking: 1 when a message with `tag` (any tag when tag < 0) from any rank is waiting;
 * then *from, *tag_out and *len describe it. */
int dist_comm_poll(int tag, int *from, int *tag_out, size_t *len);
/* Receives the message of (from, tag) announced by dist_comm_poll into a malloc'd buffer
 * (*buf, NUL-terminated one byte past len). 0 or -1. */
int dist_comm_recv(int from, int tag, char **buf, size_t len);
/* Waits (polling, sleeping between polls) for a message with `tag` from rank `from` (< 0: any)
 * and receives it. 0 or -1. */
int dist_comm_wait(int from, int tag, int *from_out, char **buf, size_t *len);
/* Ends the transport (every rank calls it once before exiting normally). */
void dist_comm_finalize(void);
/* Ends every rank of the job with `code` (after a fatal error on one rank). */
void dist_comm_abort(int code) __attribute__((noreturn));

#endif
