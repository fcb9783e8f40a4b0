/* The progress callback of the CLI (cli_progress.h). */
#include "cli_progress.h"

#include <string.h>

#include "progress_line.h"

static struct {
    const char *label;
    const char *op; /* the operation the line shows; NULL before the first report */
    double done;    /* its last report */
    progress_line line;
} g;

static int on_progress(const bulk_progress *p, void *user)
{
    (void)user;
    if (p->total <= 0) return 0; /* nothing to draw a share of */
    if (!g.op || strcmp(g.op, p->op) != 0 || p->done < g.done) {
        /* an operation starts: a new line, drawn from the next report on (the origin of the
         * rate: a resumed run's starting point) */
        if (g.op) progress_line_finish(&g.line);
        progress_line_init_count(&g.line, g.label, p->total, p->unit, NULL);
        g.op = p->op;
        g.done = p->done;
        return 0;
    }
    g.done = p->done;
    progress_line_update_count(&g.line, p->done, 0);
    return 0;
}

void cli_progress_attach(bulk_ctx *ctx, const char *label)
{
    memset(&g, 0, sizeof g);
    g.label = label;
    bulk_ctx_set_progress(ctx, on_progress, NULL);
}

void cli_progress_detach(bulk_ctx *ctx)
{
    if (g.op) progress_line_finish(&g.line);
    g.op = NULL;
    bulk_ctx_set_progress(ctx, NULL, NULL);
}
