#include "cli_progress.h"

#include <stdlib.h>

#include "progress_line.h"

/* The attached line of each context (the CLI runs one at a time). */
static struct attached {
    bulk_ctx *ctx;
    progress_line line;
} *g_attached;

static int on_progress(const bulk_progress *p, void *user)
{
    progress_line *line = user;
    line->total = p->total > 0 ? p->total : 1;
    progress_line_update(line, p->done);
    return 0;
}

int cli_progress_attach(bulk_ctx *ctx, const char *label)
{
    cli_progress_detach(ctx);
    struct attached *a = malloc(sizeof *a);
    if (!a) return -1;
    a->ctx = ctx;
    progress_line_init(&a->line, label, 1);
    g_attached = a;
    bulk_ctx_set_progress(ctx, on_progress, &a->line);
    return 0;
}

void cli_progress_detach(bulk_ctx *ctx)
{
    if (!g_attached || g_attached->ctx != ctx) return;
    bulk_ctx_set_progress(ctx, NULL, NULL);
    progress_line_finish(&g_attached->line);
    free(g_attached);
    g_attached = NULL;
}
