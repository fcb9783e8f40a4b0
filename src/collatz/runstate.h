/* Checkpoint files of `bulk collatz delays` and `bulk collatz records` runs (verify has its own,
 * checkpoint.h). Text, one field per line (docs/collatz.md):
 *
 *   bulk-collatz-run 1
 *   identity <the run's parameters, one line>
 *   next <first number not yet done, decimal>      (last + 1 when the run is complete)
 *   out_bytes <bytes of the partial output file that hold the done prefix>
 *   best none | best <value>                        (records: the running maximum)
 *   record <n> <value>                              (records so far, in order)
 *   end
 *
 * Written atomically (util/atomic_file.h): a kill leaves the previous or the new state. */
#ifndef BULK_COLLATZ_RUNSTATE_H
#define BULK_COLLATZ_RUNSTATE_H
#include <stddef.h>
#include <stdint.h>

#include "collatz/collatz_internal.h"

typedef struct bulk_cz_runstate {
    bulk_u128 next;
    uint64_t out_bytes;
    int have_best;
    bulk_collatz_wide best;
    bulk_collatz_record *recs; /* malloc'ed (read), or the caller's (write) */
    size_t nrecs;
} bulk_cz_runstate;

/* BULK_OK or BULK_ERR_IO. */
int bulk_cz_runstate_write(const char *path, const char *identity, const bulk_cz_runstate *s);
/* 1: no such file (s untouched); BULK_OK: read (free s->recs); BULK_ERR_ARG: another run's file;
 * BULK_ERR_PARSE: malformed (file and line in the message); BULK_ERR_NOMEM. Failures record
 * "<fn>: checkpoint <path>: <why>" on ctx. */
int bulk_cz_runstate_read(const bulk_ctx *ctx, const char *fn, const char *path, const char *identity,
                          bulk_cz_runstate *s);

#endif
