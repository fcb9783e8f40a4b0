/* Result lines of `bulk int`; see int_output.h. Decimal printing is quadratic in the length of
 * a number and costs far more than the arithmetic for wide operands, so lines are formatted in
 * parallel, in chunks of bounded text, each line into a slot of its own; the slots are then
 * packed and written with one fwrite, which keeps the output order. */
#include "int_output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_parallel.h"

/* Formatted text held at once (one line longer than this is still formatted, alone). */
#define INT_OUT_CHUNK_BYTES ((size_t)16 << 20)

int int_writer_open(int_writer *w, const char *path, const char *op, int threads)
{
    memset(w, 0, sizeof *w);
    w->op = op;
    w->threads = threads < 1 ? 1 : threads;
    if (!path || strcmp(path, "-") == 0) {
        w->fp = stdout;
        w->name = "stdout";
        return 0;
    }
    w->name = path;
    if (bulk_afile_open(&w->af, path, "w") != 0) {
        cli_warn("int %s: cannot create output '%s': %s", op, path, strerror(errno));
        return -1;
    }
    w->atomic = 1;
    w->fp = w->af.fp;
    return 0;
}

struct format_job {
    int_writer *w;
    size_t first, slot, scratch_limbs;
    int_format_fn fn;
    void *arg;
};

static void format_range(void *arg, size_t begin, size_t end, int worker)
{
    struct format_job *job = arg;
    int_writer *w = job->w;
    bulk_limb_t *scratch = w->scratch + (size_t)worker * job->scratch_limbs;
    for (size_t j = begin; j < end; j++)
        w->lens[j] = job->fn(job->arg, job->first + j, w->buf + j * job->slot, scratch);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    void *q = realloc(*p, need * elem);
    if (!q) return -1;
    *p = q;
    *cap = need;
    return 0;
}

int int_writer_lines(int_writer *w, size_t n, size_t line_cap, size_t scratch_limbs,
                     int_format_fn fn, void *arg)
{
    size_t slot = line_cap + 1; /* room for the newline */
    size_t chunk = INT_OUT_CHUNK_BYTES / slot;
    if (chunk == 0) chunk = 1;
    if (chunk > n) chunk = n;
    size_t sl = scratch_limbs ? scratch_limbs : 1;
    if (grow((void **)&w->buf, &w->buf_cap, chunk * slot, 1) != 0 ||
        grow((void **)&w->lens, &w->lens_cap, chunk, sizeof *w->lens) != 0 ||
        grow((void **)&w->scratch, &w->scratch_cap, (size_t)w->threads * sl,
             sizeof *w->scratch) != 0) {
        cli_warn("int %s: out of memory formatting results", w->op);
        return -1;
    }
    for (size_t first = 0; first < n; first += chunk) {
        size_t m = n - first < chunk ? n - first : chunk;
        struct format_job job = { w, first, slot, sl, fn, arg };
        cli_parallel_for(w->threads, m, 0, format_range, &job);
        size_t pos = 0;
        for (size_t j = 0; j < m; j++) {
            memmove(w->buf + pos, w->buf + j * slot, w->lens[j]);
            pos += w->lens[j];
            w->buf[pos++] = '\n';
        }
        if (fwrite(w->buf, 1, pos, w->fp) != pos) {
            if (!w->atomic) cli_stdout_error(errno);
            cli_warn("int %s: writing %s: %s", w->op, w->name, strerror(errno ? errno : EIO));
            return -1;
        }
    }
    return 0;
}

static void release(int_writer *w)
{
    free(w->buf);
    free(w->lens);
    free(w->scratch);
    w->buf = NULL;
    w->lens = NULL;
    w->scratch = NULL;
    w->fp = NULL;
}

int int_writer_commit(int_writer *w)
{
    int st = 0;
    if (w->atomic) {
        if (bulk_afile_commit(&w->af) != 0) {
            cli_warn("int %s: writing %s: %s", w->op, w->name, strerror(errno));
            st = -1;
        }
    } else {
        cli_flush_stdout(); /* exits 1 when a write failed */
    }
    release(w);
    return st;
}

void int_writer_abort(int_writer *w)
{
    if (w->atomic && w->fp) bulk_afile_abort(&w->af);
    else if (w->fp) fflush(w->fp);
    release(w);
}
