/* The CLI's progress lines come from the library's one progress callback
 * (bulk_ctx_set_progress): every long operation on an attached context is shown as
 * "label: 45.0%  450/1000 unit  rate  ETA" on stderr (progress_line.h: only on a terminal unless
 * BULK_PROGRESS says otherwise). */
#ifndef BULK_PROGRAMS_CLI_PROGRESS_H
#define BULK_PROGRAMS_CLI_PROGRESS_H
#include "bulk/bulk.h"

/* Shows the operations run on ctx under `label` (kept, not copied) until
 * cli_progress_detach. One context at a time. */
void cli_progress_attach(bulk_ctx *ctx, const char *label);
/* Clears the line and removes the callback. */
void cli_progress_detach(bulk_ctx *ctx);

#endif
