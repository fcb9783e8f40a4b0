/* Progress lines for long runs: rate, percentage and ETA on stderr, only when stderr is a
 * terminal (so logs and pipes stay clean), at most a few times per second. */
#ifndef BULK_COMMON_PROGRESS_H
#define BULK_COMMON_PROGRESS_H
#include <stdint.h>

typedef struct bulk_progress {
    const char *label;
    double total;      /* units of work in the whole run (> 0), e.g. numbers covered */
    double start_time; /* seconds, monotonic */
    double last_print;
    int enabled;
} bulk_progress;

/* Monotonic clock in seconds. */
double bulk_now(void);

/* enabled = stderr is a terminal, unless the environment sets BULK_PROGRESS=0 or =1. */
void bulk_progress_init(bulk_progress *p, const char *label, double total);
/* done: units finished so far (may start above 0 for a resumed run). */
void bulk_progress_update(bulk_progress *p, double done);
/* Clears the progress line. */
void bulk_progress_finish(bulk_progress *p);

#endif
