/* Reading a whole stream into memory: the one growth loop behind every "read this file" of the
 * library (AIGER circuits, grammars, RLE patterns) and of the CLI (programs/cli.c). */
#ifndef BULK_UTIL_READ_STREAM_H
#define BULK_UTIL_READ_STREAM_H
#include <stddef.h>
#include <stdio.h>

/* Reads `f` to its end. On BULK_OK, *buf is a malloc'ed buffer of *len bytes plus a terminating
 * NUL (so text parsers may rely on it; the caller frees it). BULK_ERR_NOMEM when an allocation
 * failed, BULK_ERR_IO when ferror(f) was set: in both cases *buf is NULL and nothing leaks. The
 * stream is neither closed nor rewound; opening it and naming it in messages is the caller's. */
int bulk_read_stream(FILE *f, char **buf, size_t *len);

/* Opens `path` (binary) and reads it whole with bulk_read_stream. On BULK_ERR_IO, *open_errno
 * is the errno of the failed fopen, or 0 when the file opened but reading it failed (errno then
 * holds the cause), so that callers can word the two cases as before. */
int bulk_read_path(const char *path, char **buf, size_t *len, int *open_errno);

/* bulk_read_path for readers that report into a message buffer: on BULK_ERR_IO, err (when not
 * NULL and errlen > 0) gets "PATH: <strerror of the failed open or read>". */
int bulk_read_path_msg(const char *path, char **buf, size_t *len, char *err, size_t errlen);

#endif
