/* One progress line over several library calls (run_progress.h). */
#include "run_progress.h"

static int on_progress(const bulk_progress *p, void *user)
{
    run_progress *r = user;
    double done = r->base + p->done; /* a call may count padding past the run's total */
    progress_line_update_count(&r->line, done < r->line.total ? done : r->line.total,
                               r->work_base + r->work_per_unit * p->done);
    return 0;
}

void run_progress_start(run_progress *r, bulk_ctx *ctx, const char *label, double total, double done,
                        const char *unit, const char *work_unit)
{
    r->ctx = ctx;
    r->base = done;
    r->work_base = r->work_per_unit = 0;
    progress_line_init_count(&r->line, label, total, unit, work_unit);
    progress_line_update_count(&r->line, done, 0);
    if (r->line.enabled) bulk_ctx_set_progress(ctx, on_progress, r);
}

void run_progress_next(run_progress *r, double done, double work, double work_per_unit)
{
    r->base = done;
    r->work_base = work;
    r->work_per_unit = work_per_unit;
}

void run_progress_end(run_progress *r)
{
    progress_line_finish(&r->line);
    bulk_ctx_set_progress(r->ctx, NULL, NULL);
}
