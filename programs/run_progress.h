/* One progress line over a run made of several library calls (Life in chunks between
 * checkpoints, circuit evaluation in batches): the library's progress callback reports each
 * call from 0, and the line adds what the calls before it did. */
#ifndef BULK_PROGRAMS_RUN_PROGRESS_H
#define BULK_PROGRAMS_RUN_PROGRESS_H
#include "bulk/bulk.h"
#include "progress_line.h"

typedef struct run_progress {
    progress_line line;
    bulk_ctx *ctx;
    double base;          /* units done before the current call */
    double work_base;     /* work done before the current call */
    double work_per_unit; /* work per unit of the current call (0 without a work unit) */
} run_progress;

/* Starts the line (total units of the whole run, `done` of them already finished, e.g. by a
 * resumed run) and attaches the callback to ctx. work_unit as progress_line_init_count. */
void run_progress_start(run_progress *r, bulk_ctx *ctx, const char *label, double total, double done,
                        const char *unit, const char *work_unit);
/* Before each call: units and work done so far, work per unit of the next call. */
void run_progress_next(run_progress *r, double done, double work, double work_per_unit);
/* Clears the line and detaches the callback. */
void run_progress_end(run_progress *r);

#endif
