/* `mpirun -np N bulk int OP --in FILE [--out FILE]`: the input is split into N slices of whole
 * lines (by bytes, each slice starting at the first line that begins in its byte range); rank r
 * runs the one-process `bulk int` on slice r in a child process, and rank 0 gathers the outputs
 * and writes them in input order, atomically to --out (or to stdout). Bad input anywhere: the
 * message of the first failing slice, with the file name and line numbers of the whole input,
 * exit 2, no output file — the contract of the one-process command.
 *
 * The child is forked before MPI starts (forking an MPI process is not portable); the slice and
 * the rank come from the launcher's environment and are checked against MPI afterwards. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "int_run.h"
#include "atomic_file.h"
#include "read_stream.h"
#include "dist.h"
#include "dist_comm.h"

enum { TAG_INT = 21 };

static int env_num(const char *const *names, size_t n, int dflt)
{
    for (size_t i = 0; i < n; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) return atoi(v);
    }
    return dflt;
}

/* The whole file (NUL-terminated), or NULL when it cannot be opened or read. */
static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *b;
    int st = bulk_read_stream(fp, &b, len);
    fclose(fp);
    return st == BULK_OK ? b : NULL;
}

/* Start of slice r of n of the file fp of `size` bytes: the first line beginning at or after
 * size*r/n (reads forward from there in blocks; never the whole file). */
static uint64_t slice_start(FILE *fp, uint64_t size, int r, int n)
{
    if (r == 0) return 0;
    if (r >= n) return size;
    uint64_t p = (uint64_t)((unsigned __int128)size * (unsigned)r / (unsigned)n);
    if (p == 0) return 0;
    if (fseeko(fp, (off_t)(p - 1), SEEK_SET)) return size;
    char buf[1 << 16];
    uint64_t at = p - 1;
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, fp)) > 0) {
        const char *nl = memchr(buf, '\n', k);
        if (nl) return at + (uint64_t)(nl - buf) + 1;
        at += k;
    }
    return size;
}

/* Newlines in bytes [0, end) of fp (the line number offset of a slice). */
static uint64_t count_lines(FILE *fp, uint64_t end)
{
    char buf[1 << 16];
    uint64_t n = 0, at = 0;
    if (fseeko(fp, 0, SEEK_SET)) return 0;
    while (at < end) {
        size_t want = end - at < sizeof buf ? (size_t)(end - at) : sizeof buf;
        size_t k = fread(buf, 1, want, fp);
        if (k == 0) break;
        for (const char *p = buf; (p = memchr(p, '\n', (size_t)(buf + k - p))); p++) n++;
        at += k;
    }
    return n;
}

/* Copies bytes [a, z) of fp to a new file at path. 0 or -1. */
static int copy_range(FILE *fp, uint64_t a, uint64_t z, const char *path)
{
    bulk_afile f;
    if (fseeko(fp, (off_t)a, SEEK_SET) || bulk_afile_open(&f, path, "wb")) return -1;
    char buf[1 << 16];
    while (a < z) {
        size_t want = z - a < sizeof buf ? (size_t)(z - a) : sizeof buf;
        size_t k = fread(buf, 1, want, fp);
        if (k == 0 || fwrite(buf, 1, k, f.fp) != k) {
            bulk_afile_abort(&f);
            return -1;
        }
        a += k;
    }
    return bulk_afile_commit(&f);
}

/* Rewrites "<tmp>:N" as "<in>:N+off" and "line N" as "line N+off" in a child's message. */
static char *fix_message(const char *msg, const char *tmp, const char *in, uint64_t off)
{
    size_t cap = strlen(msg) * 2 + strlen(in) * 8 + 256, n = 0, tl = strlen(tmp);
    char *out = malloc(cap);
    if (!out) return NULL;
    for (const char *p = msg; *p && n + strlen(in) + 64 < cap;) {
        if (!strncmp(p, tmp, tl) && p[tl] == ':' && p[tl + 1] >= '0' && p[tl + 1] <= '9') {
            char *end;
            unsigned long long v = strtoull(p + tl + 1, &end, 10);
            n += (size_t)snprintf(out + n, cap - n, "%s:%llu", in, v + off);
            p = end;
        } else if (!strncmp(p, "line ", 5) && p[5] >= '0' && p[5] <= '9') {
            char *end;
            unsigned long long v = strtoull(p + 5, &end, 10);
            n += (size_t)snprintf(out + n, cap - n, "line %llu", v + off);
            p = end;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = 0;
    return out;
}

/* A message stream to rank 0: its length (u64), then pieces of at most 1 GiB. */
static int send_big(int dest, const char *p, size_t len)
{
    uint64_t l = len;
    if (dist_comm_send(dest, TAG_INT, &l, sizeof l)) return -1;
    for (size_t off = 0; off < len;) {
        size_t k = len - off > (1u << 30) ? (1u << 30) : len - off;
        if (dist_comm_send(dest, TAG_INT, p + off, k)) return -1;
        off += k;
    }
    return 0;
}

/* The same stream from a file (the slice's output), read piece by piece. */
static int send_file(int dest, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return -1;
    fseeko(fp, 0, SEEK_END);
    uint64_t l = (uint64_t)ftello(fp), piece = (uint64_t)1 << 26;
    fseeko(fp, 0, SEEK_SET);
    int r = dist_comm_send(dest, TAG_INT, &l, sizeof l);
    char *buf = malloc(piece);
    for (uint64_t off = 0; !r && off < l;) {
        size_t k = buf ? fread(buf, 1, (size_t)(l - off < piece ? l - off : piece), fp) : 0;
        if (k == 0 || dist_comm_send(dest, TAG_INT, buf, k)) r = -1;
        off += k;
    }
    free(buf);
    fclose(fp);
    return r;
}

/* Receives a stream from `from`: into *text (malloc'd, NUL-terminated) when text is given,
 * else written to out (NULL: discarded). 0, or -1 (failed transport or a failed write). */
static int recv_big(int from, char **text, FILE *out)
{
    char *b;
    size_t l;
    uint64_t total;
    if (dist_comm_wait(from, TAG_INT, NULL, &b, &l) || l != sizeof total) return -1;
    memcpy(&total, b, sizeof total);
    free(b);
    char *all = NULL;
    if (text && !(all = malloc(total + 1))) return -1;
    int bad = 0;
    for (uint64_t off = 0; off < total;) {
        if (dist_comm_wait(from, TAG_INT, NULL, &b, &l) || off + l > total) {
            free(all);
            return -1;
        }
        if (all) memcpy(all + off, b, l);
        else if (out && fwrite(b, 1, l, out) != l) bad = 1;
        free(b);
        off += l;
    }
    if (all) all[total] = 0, *text = all;
    return bad ? -1 : 0;
}

/* Copies a file to out (rank 0's own slice output). 0 or -1. */
static int append_file(FILE *out, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return -1;
    char buf[1 << 16];
    size_t k;
    int r = 0;
    while ((k = fread(buf, 1, sizeof buf, fp)) > 0)
        if (fwrite(buf, 1, k, out) != k) r = -1;
    fclose(fp);
    return r;
}

int dist_int_main(int argc, char **argv)
{
    const char *in = NULL, *outp = NULL;
    int have_threads = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--in") && i + 1 < argc) in = argv[++i];
        else if (!strncmp(argv[i], "--in=", 5)) in = argv[i] + 5;
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) outp = argv[++i];
        else if (!strncmp(argv[i], "--out=", 6)) outp = argv[i] + 6;
        /* --threads 0 is the default: the share of the host's CPUs below */
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) have_threads = atoi(argv[++i]) != 0;
        else if (!strncmp(argv[i], "--threads=", 10)) have_threads = atoi(argv[i] + 10) != 0;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "bench")) {
            setenv("BULK_DIST", "0", 1); /* help, and the notice of `bench`, stay one-process */
            return int_run(argc, argv);
        }
    }
    if (outp && !strcmp(outp, "-")) outp = NULL;
    if (!in) cli_die(CLI_EXIT_USAGE, "int (distributed): --in FILE is required (stdin is not split)");
    static const char *const rn[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK" };
    static const char *const sn[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };
    int rank = env_num(rn, 3, 0), size = env_num(sn, 2, 1);
    if (!dist_launched() || size < 1 || rank < 0 || rank >= size) size = 1, rank = 0;
    if (!strcmp(in, "-")) { /* standard input: one process reads it all, as `bulk int` does */
        if (size > 1)
            cli_die(CLI_EXIT_USAGE, "int (distributed): --in -: standard input is not split among "
                    "%d ranks; give --in FILE", size);
        setenv("BULK_DIST", "0", 1);
        return int_run(argc, argv);
    }

    /* my slice, and the number of lines before it; memory stays bounded however large */
    int code = CLI_EXIT_OK, have_out = 0;
    char *msg = NULL, sdir[4096], sin[4200], sout[4200], serr[4200];
    /* the slice files live in a private directory of this rank (mkdtemp: no other user can
       plant a link where they are written) */
    const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(sdir, sizeof sdir, "%s/bulk-int-slice.XXXXXX", tmpdir);
    if (!mkdtemp(sdir)) cli_die(CLI_EXIT_FAIL, "int: cannot create a directory in %s (%s)", tmpdir, strerror(errno));
    snprintf(sin, sizeof sin, "%s/%d.in", sdir, rank);
    snprintf(sout, sizeof sout, "%s/%d.out", sdir, rank);
    snprintf(serr, sizeof serr, "%s/%d.err", sdir, rank);
    FILE *fp = fopen(in, "rb");
    if (!fp) {
        code = CLI_EXIT_USAGE;
        char b[4200];
        snprintf(b, sizeof b, "bulk: int: cannot read %s (%s)\n", in, strerror(errno));
        msg = strdup(b);
    } else {
        fseeko(fp, 0, SEEK_END);
        uint64_t fsize = (uint64_t)ftello(fp);
        uint64_t a = slice_start(fp, fsize, rank, size), z = slice_start(fp, fsize, rank + 1, size);
        uint64_t off = z > a ? count_lines(fp, a) : 0;
        int copied = z > a ? copy_range(fp, a, z, sin) : 0;
        fclose(fp);
        if (copied) {
            int e = errno;
            rmdir(sdir);
            cli_die(CLI_EXIT_FAIL, "int: cannot write the slice file %s (%s)", sin, strerror(e));
        }
        if (z > a) {
            int threads = dist_place(0);
            char tbuf[32];
            snprintf(tbuf, sizeof tbuf, "%d", threads);
            char **av = calloc((size_t)argc + 8, sizeof *av);
            if (!av) cli_die(CLI_EXIT_FAIL, "out of memory");
            int ac = 0;
            for (int i = 0; i < argc; i++) {
                if ((!strcmp(argv[i], "--in") || !strcmp(argv[i], "--out")) && i + 1 < argc) {
                    i++;
                    continue;
                }
                if (!strncmp(argv[i], "--in=", 5) || !strncmp(argv[i], "--out=", 6)) continue;
                av[ac++] = argv[i];
            }
            av[ac++] = "--in", av[ac++] = sin, av[ac++] = "--out", av[ac++] = sout;
            if (!have_threads && threads > 0) av[ac++] = "--threads", av[ac++] = tbuf;
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) cli_die(CLI_EXIT_FAIL, "int: fork failed (%s)", strerror(errno));
            if (pid == 0) {
                int fd = open(serr, O_WRONLY | O_CREAT | O_TRUNC, 0600);
                if (fd >= 0) dup2(fd, 2);
                setenv("BULK_DIST", "0", 1);
                int rc = int_run(ac, av);
                fflush(NULL);
                _exit(rc);
            }
            int wst;
            while (waitpid(pid, &wst, 0) < 0 && errno == EINTR) {}
            code = WIFEXITED(wst) ? WEXITSTATUS(wst) : CLI_EXIT_FAIL;
            size_t el;
            char *err = read_all(serr, &el);
            if (err && *err) msg = fix_message(err, sin, in, off);
            free(err);
            have_out = code == CLI_EXIT_OK;
            remove(sin);
            remove(serr);
            free(av);
        }
    }

    if (dist_comm_init(&argc, &argv)) return CLI_EXIT_FAIL;
    if (dist_comm_size() != size || dist_comm_rank() != rank)
        cli_die(CLI_EXIT_FAIL, "int: the launcher's rank %d of %d differs from MPI's %d of %d",
                rank, size, dist_comm_rank(), dist_comm_size());
    if (rank != 0) {
        char hdr[16];
        snprintf(hdr, sizeof hdr, "%d", code);
        if (send_big(0, hdr, strlen(hdr)) || send_big(0, msg ? msg : "", msg ? strlen(msg) : 0) ||
            (have_out ? send_file(0, sout) : send_big(0, "", 0)))
            dist_comm_abort(CLI_EXIT_FAIL);
        if (have_out) remove(sout);
        rmdir(sdir);
        free(msg);
        dist_comm_finalize();
        return CLI_EXIT_OK;
    }
    /* rank 0: write the slices' outputs in rank order as they arrive; the first failure
       decides (the rest is still received, so that no rank waits forever, and discarded) */
    int fcode = code;
    char *fmsg = code ? msg : NULL;
    if (!code) free(msg);
    bulk_afile af;
    FILE *out = NULL;
    if (!fcode) {
        if (!outp) {
            out = stdout;
        } else if (bulk_afile_open(&af, outp, "wb") != 0) {
            char b[4200];
            snprintf(b, sizeof b, "bulk: int: cannot create %s: %s\n", outp, strerror(errno));
            fcode = CLI_EXIT_FAIL;
            fmsg = strdup(b);
        } else {
            out = af.fp;
        }
        if (out && have_out && append_file(out, sout)) fcode = CLI_EXIT_FAIL;
    }
    if (have_out) remove(sout);
    rmdir(sdir);
    for (int r = 1; r < size; r++) {
        char *h = NULL, *m = NULL;
        if (recv_big(r, &h, NULL) || recv_big(r, &m, NULL)) dist_comm_abort(CLI_EXIT_FAIL);
        int c = atoi(h);
        free(h);
        if (c && !fcode) fcode = c, fmsg = m;
        else free(m);
        if (recv_big(r, NULL, fcode ? NULL : out) && !fcode) fcode = CLI_EXIT_FAIL;
    }
    int werr = 0; /* the cause of a failed write of the output */
    if (outp && out) {
        if (fcode) bulk_afile_abort(&af);
        else if (bulk_afile_commit(&af) != 0) fcode = CLI_EXIT_FAIL, werr = errno ? errno : EIO;
    } else if (out && (fflush(stdout) != 0 || ferror(stdout))) {
        werr = errno ? errno : EIO; /* standard output: said once, below, after MPI is done */
    }
    if (werr && !outp) {
        dist_comm_finalize();
        cli_stdout_error(werr);
    }
    if (fcode) {
        if (fmsg) fputs(fmsg, stderr);
        else if (werr) fprintf(stderr, "bulk: int: cannot write %s: %s\n", outp, strerror(werr));
        else fprintf(stderr, "bulk: int: %s\n", outp ? "cannot write the output" : "a slice failed");
    }
    free(fmsg);
    dist_comm_finalize();
    return fcode;
}
