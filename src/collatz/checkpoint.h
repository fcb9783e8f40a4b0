/* Checkpoint files of verification runs (format in checkpoint.c and docs/collatz.md). */
#ifndef BULK_COLLATZ_CHECKPOINT_H
#define BULK_COLLATZ_CHECKPOINT_H
#include <stdio.h>

#include "collatz/collatz_internal.h"

/* Atomically writes the state "numbers below `next` are done, with result r". */
int bulk_cz_checkpoint_write(const char *path, const char *identity, bulk_u128 next, int peaks,
                             const bulk_collatz_verify_result *r);
/* 1: no such file; BULK_OK: read; BULK_ERR_ARG: another run's checkpoint, or one without peaks
 * (format 1, or "peak none") for a run with peaks (a run without peaks ignores the peak lines); BULK_ERR_PARSE: malformed. Failures record
 * "<fn>: checkpoint <path>: <why>" on ctx. */
int bulk_cz_checkpoint_read(const bulk_ctx *ctx, const char *fn, const char *path, const char *identity,
                            int peaks, bulk_u128 *next, bulk_collatz_verify_result *r);

/* The header shared by the verify checkpoints and the delays/records run states (runstate.h):
 * opens path and checks its first two lines, `magic` (newline included) and "identity <identity>".
 * 1: no such file; BULK_OK: *fp is open after line 2 (*line = 2); BULK_ERR_PARSE: a bad header
 * (file closed, "line N is malformed"); BULK_ERR_ARG: another run's file (closed), or something
 * other than a regular file at path (a device or FIFO cannot give a checkpoint back). Failures
 * record "<fn>: checkpoint <path>: <why>" on ctx. */
int bulk_cz_state_open(const bulk_ctx *ctx, const char *fn, const char *path, const char *magic,
                       const char *identity, FILE **fp, int *line);

#endif
