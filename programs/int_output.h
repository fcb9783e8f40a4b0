/* Writing the results of `bulk int`: one text line per instance, formatted on all threads,
 * written in order, to stdout or atomically to a file (a temporary file renamed over the
 * target on success, removed on failure, so a failed run leaves no output file behind). */
#ifndef BULK_PROGRAMS_INT_OUTPUT_H
#define BULK_PROGRAMS_INT_OUTPUT_H
#include <stddef.h>
#include <stdio.h>

#include "bulk/int.h"
#include "atomic_file.h"

/* Writes the text of line i (no newline, at most the line_cap given to int_writer_lines) to
 * out and returns its length. scratch: scratch_limbs limbs owned by the calling worker. */
typedef size_t (*int_format_fn)(void *arg, size_t i, char *out, bulk_limb_t *scratch);

typedef struct int_writer {
    const char *op;    /* for messages */
    const char *name;  /* "stdout" or the path */
    int threads;
    FILE *fp;
    int atomic;        /* writing through af */
    bulk_afile af;
    char *buf;         /* formatted lines of one chunk */
    size_t buf_cap;
    size_t *lens;
    size_t lens_cap;
    bulk_limb_t *scratch;
    size_t scratch_cap;
} int_writer;

/* path NULL or "-": stdout. Returns 0, or -1 with the message printed. */
int int_writer_open(int_writer *w, const char *path, const char *op, int threads);

/* Formats lines 0..n-1 through fn in parallel and appends them in order, each followed by
 * '\n'. Returns 0, or -1 (no memory or a write error; the message is printed). */
int int_writer_lines(int_writer *w, size_t n, size_t line_cap, size_t scratch_limbs,
                     int_format_fn fn, void *arg);

/* Finishes: flushes stdout, or renames the temporary file over the target. 0 or -1 (printed). */
int int_writer_commit(int_writer *w);

/* Gives up: the temporary file is removed (stdout keeps what was already written). */
void int_writer_abort(int_writer *w);

#endif
