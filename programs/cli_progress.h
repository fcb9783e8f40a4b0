/* The CLI's progress line driven by the library's progress callback (bulk_ctx_set_progress):
 * attach before a long operation, detach after it. The line goes to stderr only when stderr
 * is a terminal (util/progress_line.h). One attachment per context at a time. */
#ifndef BULK_CLI_PROGRESS_H
#define BULK_CLI_PROGRESS_H

#include "bulk/bulk.h"

/* Sets ctx's progress callback to draw "label: ..." lines; 0, or -1 when out of memory (then
 * nothing is drawn, the run is not affected). */
int cli_progress_attach(bulk_ctx *ctx, const char *label);
/* Clears the line and removes the callback. */
void cli_progress_detach(bulk_ctx *ctx);

#endif
