/* Progress lines from the library's progress callback (cli_progress.h). */
#include "cli_progress.h"

#include <stddef.h>

#include "progress_line.h"

static struct {
    progress_line line;
    const char *label;
    int open; /* a line was started for the current operation */
} shown;

static int on_progress(const bulk_progress *p, void *user)
{
    (void)user;
    if (!shown.open || p->done == 0) { /* an operation starts */
        if (shown.open) progress_line_finish(&shown.line);
        progress_line_init_count(&shown.line, shown.label, p->total, p->unit, NULL);
        shown.open = 1;
    }
    progress_line_update_count(&shown.line, p->done, 0);
    return 0;
}

void cli_progress_attach(bulk_ctx *ctx, const char *label)
{
    shown.label = label;
    shown.open = 0;
    bulk_ctx_set_progress(ctx, on_progress, NULL);
}

void cli_progress_detach(bulk_ctx *ctx)
{
    if (shown.open) progress_line_finish(&shown.line);
    shown.open = 0;
    bulk_ctx_set_progress(ctx, NULL, NULL);
}
