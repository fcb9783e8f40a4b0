/* The CLI's progress lines, driven by the library's progress callback (bulk_ctx_set_progress):
 * one line per library operation. A run made of several library calls draws one line with
 * run_progress.h instead. */
#ifndef BULK_PROGRAMS_CLI_PROGRESS_H
#define BULK_PROGRAMS_CLI_PROGRESS_H

#include "bulk/bulk.h"

/* Installs on ctx a callback that draws "label: 45.0%  450/1000 unit  1.2e+09 unit/s  ETA 3s"
 * on stderr (util/progress_line.h: only when stderr is a terminal, BULK_PROGRESS=1 forces it,
 * BULK_PROGRESS=0 turns it off). The unit is the operation's (bulk_progress.unit); the rate
 * and ETA count from the first report after the operation's start, so a resumed run's earlier
 * work is not its own. A new operation (another op, or a start at done 0) starts a new line.
 * label must stay valid until cli_progress_detach. One attached context at a time (the CLI
 * runs one command per process); never cancels. */
void cli_progress_attach(bulk_ctx *ctx, const char *label);

/* Clears the line and removes the callback from ctx (which may then be closed). */
void cli_progress_detach(bulk_ctx *ctx);

#endif
