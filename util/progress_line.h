/* Progress lines for long runs: rate, percentage and ETA on stderr, only when stderr is a
 * terminal (so logs and pipes stay clean), at most a few times per second. */
#ifndef BULK_UTIL_PROGRESS_H
#define BULK_UTIL_PROGRESS_H
#include <stdint.h>

typedef struct progress_line {
    const char *label;
    double total;      /* units of work in the whole run (> 0), e.g. numbers covered */
    double start_time; /* seconds, monotonic */
    double last_print;
    int enabled;
    /* set by progress_line_init_count only (the plain line leaves them unused) */
    const char *unit;      /* what done and total count, e.g. "generations" */
    const char *work_unit; /* NULL, or the quantity whose rate is shown, e.g. "cell updates" */
    double done0, work0;   /* done and work at the first update (a resumed run's rate and ETA
                            * count only this run's work) */
    int started;
} progress_line;

/* Monotonic clock in seconds. */
double bulk_now(void);

/* enabled = stderr is a terminal, unless the environment sets BULK_PROGRESS=0 or =1. */
void progress_line_init(progress_line *p, const char *label, double total);
/* done: units finished so far (may start above 0 for a resumed run). */
void progress_line_update(progress_line *p, double done);
/* A line with counts: "label: 45.0%  450/1000 unit  1.2e+09 work_unit/s  ETA 3s" (the rate
 * of `work` when work_unit is given, else of done). Enabled as progress_line_init says. */
void progress_line_init_count(progress_line *p, const char *label, double total, const char *unit,
                              const char *work_unit);
/* done: units finished so far (counted from 0 even when resumed); work: the work_unit quantity
 * done so far (ignored without work_unit). The first call, made at the start with the work
 * already done (0, or what a resumed run found done), is the origin of the rate and the ETA. */
void progress_line_update_count(progress_line *p, double done, double work);
/* Clears the progress line. */
void progress_line_finish(progress_line *p);

#endif
