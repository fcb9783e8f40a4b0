/* Writing an output file so that readers see either the old file or the complete new one.
 *
 * bulk_afile_open creates "<path>.tmp.<pid>" next to the target; bulk_afile_commit flushes,
 * fsyncs and renames it over the target; bulk_afile_abort removes it. A process that dies
 * in between leaves at most the temporary file, never a truncated target. */
#ifndef BULK_COMMON_ATOMIC_FILE_H
#define BULK_COMMON_ATOMIC_FILE_H
#include <stdio.h>

typedef struct bulk_afile {
    FILE *fp;
    char *path;
    char *tmp_path;
} bulk_afile;

/* Returns 0, or -1 with errno set (the message is the caller's to print). */
int bulk_afile_open(bulk_afile *f, const char *path, const char *mode);
/* Returns 0, or -1 with errno set; in both cases the temporary file is gone afterwards. */
int bulk_afile_commit(bulk_afile *f);
void bulk_afile_abort(bulk_afile *f);

/* Whole-buffer convenience: write `len` bytes atomically to `path`. 0 or -1 (errno). */
int bulk_write_file_atomic(const char *path, const void *data, size_t len);

#endif
