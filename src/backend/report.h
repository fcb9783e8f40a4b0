/* How library code reports to the caller: failures into the context's last error
 * (bulk_ctx_last_error) and the progress of long operations through the context's callback
 * (bulk_ctx_set_progress). Every module uses these two and nothing else for either. */
#ifndef BULK_BACKEND_REPORT_H
#define BULK_BACKEND_REPORT_H
#include "bulk/bulk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records a failure and returns `status`, so a call site reads
 *   return bulk_fail(ctx, BULK_ERR_ARG, "bulk_int_mul: limbs %zu: must be at least 1", limbs);
 * The message names the public function, then what and where. ctx NULL records it for the
 * calling thread (functions without a context). A message longer than 511 bytes is cut. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int bulk_fail(const bulk_ctx *ctx, int status, const char *fmt, ...);

/* One long operation's progress. Start it on the calling thread, step it from any thread
 * (calls into the user's callback are serialised and rate-limited to about 20 a second), end it
 * on success. All are no-ops returning BULK_OK when the context has no callback. A step or end
 * returns BULK_ERR_CANCELLED once the callback has asked to stop (and keeps returning it, so
 * workers can poll bulk_progress_cancelled cheaply). */
typedef struct bulk_progress_run {
    bulk_ctx *ctx; /* NULL: no callback, nothing reported */
    bulk_progress p;
    double last_call;   /* monotonic seconds of the last delivered call (accessed atomically) */
    int cancelled; /* read and written only through report.c (atomically) */
} bulk_progress_run;

int bulk_progress_start(bulk_progress_run *r, const bulk_ctx *ctx, const char *op, const char *unit,
                        double total);
/* `done` is the absolute count so far (not an increment); it is delivered when at least 50 ms
 * passed since the last call, or when force is nonzero. */
int bulk_progress_step(bulk_progress_run *r, double done, int force);
/* Delivers done == total (the final call) and returns BULK_OK, or BULK_ERR_CANCELLED. */
int bulk_progress_end(bulk_progress_run *r);
/* Nonzero once the callback has asked to stop. */
int bulk_progress_cancelled(bulk_progress_run *r);

#ifdef __cplusplus
}
#endif
#endif
