/* Writing a user-named output (--out, --png, --checkpoint, checkpoint chunks): what is at the
 * path decides how, and nothing but a regular file is ever replaced.
 *
 * - A regular file, or nothing (a new file): the bytes go to a temporary file in the target's
 *   directory, created with an unpredictable name (O_CREAT | O_EXCL | O_NOFOLLOW), which commit
 *   flushes, fsyncs and renames over the target. Readers see the old file or the complete new
 *   one, never a part. A new file gets mode 0666 & ~umask, as fopen would give it; a replaced
 *   file keeps its permission bits (and its owner and group where the caller may set them).
 * - A symbolic link: followed to its final target, which is then handled as above in the
 *   target's directory, so the link stays a link. A dangling link creates the file it names.
 * - Anything else (a character or block device, a FIFO, a file of /proc or /sys): opened for
 *   writing as it is, without creating or truncating anything, and written straight through.
 *   /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N write to the process's own
 *   descriptor N (a duplicate of it, so the bytes go where standard output goes, appended to
 *   what was written there before). Commit reports the failure of any write, the flush or the
 *   close (e.g. ENOSPC from /dev/full); abort just closes.
 * - A directory: refused (EISDIR).
 *
 * Temporaries are named ".NAME.bulk-tmp-HOST-PID-RANDOM" (NAME the target's name, cut to 200
 * bytes; HOST 8 hex digits of a hash of the host name; PID the writer's process id). A process
 * that exits (exit(), not a signal) with an output still open removes its temporaries; one
 * that is killed leaves its temporary, and the first bulk_afile_open of a process in that
 * directory removes every temporary there whose writer ran on this host and is gone
 * (kill(PID, 0) fails with ESRCH). Temporaries of live processes, and those written on another
 * host sharing the directory, are never touched.
 *
 * Every function returns 0, or -1 with errno set; the message is the caller's to print, and
 * should name the path the caller was given. */
#ifndef BULK_UTIL_ATOMIC_FILE_H
#define BULK_UTIL_ATOMIC_FILE_H
#include <stddef.h>
#include <stdio.h>

typedef struct bulk_afile {
    FILE *fp;       /* write the output here (between open and commit/abort) */
    char *path;     /* where the bytes land: the target, symbolic links followed */
    char *tmp_path; /* the temporary renamed over `path`; NULL when writing straight through */
} bulk_afile;

/* mode: "w" or "wb" (the same on POSIX); anything else is EINVAL. A FIFO blocks here until a
 * reader opens it, as a shell redirection would. */
int bulk_afile_open(bulk_afile *f, const char *path, const char *mode);
/* Completes the output (see above). In success and failure alike the stream is closed and any
 * temporary is gone afterwards; after a failure a replaced target is unchanged. */
int bulk_afile_commit(bulk_afile *f);
/* Gives up: closes, removes the temporary (a replaced target keeps its old contents; bytes
 * already written straight through stay written). Does nothing on a closed bulk_afile. */
void bulk_afile_abort(bulk_afile *f);

/* Whole-buffer convenience: open, write `len` bytes, commit. */
int bulk_write_file_atomic(const char *path, const void *data, size_t len);

/* How bulk_afile_open would write `path`: *replaced = 1 when through a temporary renamed over
 * *target (a regular file or a new one; *target is malloc'ed, the caller frees it), 0 when
 * straight through (*target = NULL). For callers that keep their own files beside an output
 * (e.g. a resumable OUT.partial). EISDIR for a directory. */
int bulk_out_resolve(const char *path, char **target, int *replaced);

#endif
