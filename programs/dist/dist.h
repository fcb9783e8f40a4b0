/* Distributed runs of the bulk CLI (docs/scale-out.md): `mpirun -np N bulk collatz verify|delays
 * --stats|records ... --checkpoint DIR` and `mpirun -np N bulk int OP --in FILE`.
 *
 * The work is cut into chunks that do not depend on the number of ranks; rank 0 hands them out
 * one at a time to whichever rank asks (faster ranks take more), collects each result, writes
 * it atomically to the checkpoint directory, and merges the results in chunk order at the end,
 * so the output equals a one-process run. Rank 0 computes chunks too, on a thread of its own.
 * The same code runs with one process when MPI is absent or not launched. */
#ifndef BULK_PROGRAMS_DIST_H
#define BULK_PROGRAMS_DIST_H
#include <stddef.h>
#include <stdint.h>

#include "bulk/bulk.h"

/* ---- launch and placement (dist_env.c; no MPI needed) ---- */

/* 1 when this process was started by an MPI launcher (OMPI_COMM_WORLD_SIZE, PMI_SIZE,
 * PMIX_RANK or MPI_LOCALNRANKS set) and the build has MPI. BULK_DIST=0 turns it off. */
int dist_launched(void);
/* Guard of the dispatcher (bulk.c) for builds without MPI: started as one of N > 1 ranks of a
 * launch (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_SIZE or PMIX_RANK, an srun step's task count),
 * every rank would run the whole job and write the same outputs, so any command except `info`
 * and --help is refused: prints why and returns 2 (the exit code). 0 means go on: a build with
 * MPI, one rank, BULK_DIST=0, or a command that computes nothing. argv[0] is the command. */
int dist_refuse_copies(int argc, char **argv);
/* This process's rank among the ranks of its host, and their number (0 and 1 when unknown). */
int dist_local_rank(void);
int dist_local_size(void);
/* Before the bulk context opens: one GPU per rank by local rank (CUDA_VISIBLE_DEVICES is set to
 * the local_rank % G-th of the G visible GPUs when G > 0), and, unless --threads or BULK_THREADS
 * give a nonzero count, threads = online CPUs / ranks on this host (at least 1). Returns the
 * thread count to pass to bulk_ctx_open (0: BULK_THREADS). */
int dist_place(int threads_option);

/* ---- the chunk scheduler (dist_sched.c) ---- */

typedef struct dist_job dist_job;
struct dist_job {
    const char *name;      /* for messages, e.g. "collatz verify" */
    const char *identity;  /* one line naming the run (parameters and chunking): a checkpoint
                              directory of another run is refused */
    uint64_t nchunks;
    /* Computes chunk i (0-based) into a malloc'd text payload *out of *len bytes. Called on
     * one thread at a time per rank. Returns BULK_OK or a status (the run fails). */
    int (*run)(dist_job *job, uint64_t i, char **out, size_t *len);
    void *state;
};

typedef struct dist_opts {
    const char *checkpoint_dir; /* NULL: none */
    double verify_fraction;     /* 0..1: chunks recomputed on another rank and compared */
    uint64_t seed;              /* picks those chunks (printed so that a run can be replayed) */
    int seed_given;
} dist_opts;

/* Runs the job on every rank. On rank 0 returns BULK_OK with (*payloads)[0..nchunks) the
 * results in chunk order (free with dist_free_payloads); on other ranks returns BULK_OK with
 * *payloads = NULL, and the caller only cleans up and exits 0. On failure it prints why and
 * returns BULK_ERR_ARG (a checkpoint of another run: exit 2), BULK_ERR_IO, or BULK_ERR_INTERNAL
 * (a rechecked chunk differed: exit 1). */
int dist_run(dist_job *job, const dist_opts *o, char ***payloads, size_t **lens);
void dist_free_payloads(char **payloads, size_t *lens, uint64_t n);

/* Parses the shared options --checkpoint DIR, --verify-chunks FRACTION, --seed S at argv[*i]
 * into o; 1 when argv[*i] was one of them. */
int dist_parse_opt(int argc, char **argv, int *i, dist_opts *o);

/* 64-bit FNV-1a of a buffer (the per-chunk checksum of payloads that carry none of their own). */
uint64_t dist_fnv1a(const void *p, size_t n);

/* ---- drivers ---- */
int dist_collatz_main(int argc, char **argv); /* argv[0] = "collatz", argv[1] = subcommand */
int dist_int_main(int argc, char **argv);     /* argv[0] = "int", argv[1] = OP */

#endif
