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
#include "commands.h"
#include "common/atomic_file.h"
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

static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    size_t k;
    while (b && (k = fread(b + n, 1, cap - n, fp)) > 0) {
        n += k;
        if (n == cap) {
            char *q = realloc(b, cap * 2 + 1);
            if (!q) {
                free(b);
                b = NULL;
                break;
            }
            b = q;
            cap *= 2;
        }
    }
    fclose(fp);
    if (b) b[n] = 0;
    *len = n;
    return b;
}

/* Start of slice r of n over text[0..size): the first line beginning at or after size*r/n. */
static size_t slice_start(const char *text, size_t size, int r, int n)
{
    if (r == 0) return 0;
    if (r >= n) return size;
    size_t p = (size_t)((unsigned __int128)size * (unsigned)r / (unsigned)n);
    if (p > 0 && text[p - 1] == '\n') return p;
    const char *nl = memchr(text + p, '\n', size - p);
    return nl ? (size_t)(nl - text) + 1 : size;
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

static char *recv_big(int from, size_t *len)
{
    char *b;
    size_t l;
    uint64_t total;
    if (dist_comm_wait(from, TAG_INT, NULL, &b, &l) || l != sizeof total) return NULL;
    memcpy(&total, b, sizeof total);
    free(b);
    char *all = malloc(total + 1);
    if (!all) return NULL;
    for (size_t off = 0; off < total;) {
        if (dist_comm_wait(from, TAG_INT, NULL, &b, &l) || off + l > total) {
            free(all);
            return NULL;
        }
        memcpy(all + off, b, l);
        free(b);
        off += l;
    }
    all[total] = 0;
    *len = total;
    return all;
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
        else if (!strncmp(argv[i], "--threads", 9)) have_threads = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "bench"))
            return cmd_int(argc, argv); /* help and benchmarks stay one-process */
    }
    if (outp && !strcmp(outp, "-")) outp = NULL;
    if (!in || !strcmp(in, "-"))
        cli_die(CLI_EXIT_USAGE, "int (distributed): --in FILE is required (stdin is not split)");
    static const char *const rn[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK" };
    static const char *const sn[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };
    int rank = env_num(rn, 3, 0), size = env_num(sn, 2, 1);
    if (!dist_launched() || size < 1 || rank < 0 || rank >= size) size = 1, rank = 0;

    /* my slice, and the number of lines before it */
    size_t tlen = 0;
    char *text = read_all(in, &tlen);
    int code = CLI_EXIT_OK;
    char *msg = NULL, *res = NULL;
    size_t res_len = 0;
    if (!text) {
        code = CLI_EXIT_USAGE;
        char b[4200];
        snprintf(b, sizeof b, "bulk: int: cannot read %s (%s)\n", in, strerror(errno));
        msg = strdup(b);
    } else {
        size_t a = slice_start(text, tlen, rank, size), z = slice_start(text, tlen, rank + 1, size);
        uint64_t off = 0;
        for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + a - p))); p++) off++;
        if (z > a) {
            const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
            char sin[4096], sout[4096], serr[4096];
            snprintf(sin, sizeof sin, "%s/bulk-int-slice.%d.%d.in", tmpdir, (int)getpid(), rank);
            snprintf(sout, sizeof sout, "%s/bulk-int-slice.%d.%d.out", tmpdir, (int)getpid(), rank);
            snprintf(serr, sizeof serr, "%s/bulk-int-slice.%d.%d.err", tmpdir, (int)getpid(), rank);
            if (bulk_write_file_atomic(sin, text + a, z - a) != 0)
                cli_die(CLI_EXIT_FAIL, "int: cannot write the slice file %s (%s)", sin, strerror(errno));
            int threads = dist_place(0);
            char tbuf[32];
            snprintf(tbuf, sizeof tbuf, "%d", threads);
            char **av = calloc((size_t)argc + 8, sizeof *av);
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
                int rc = cmd_int(ac, av);
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
            if (code == CLI_EXIT_OK) {
                res = read_all(sout, &res_len);
                if (!res) code = CLI_EXIT_FAIL, msg = strdup("bulk: int: the slice output is missing\n");
            }
            remove(sin);
            remove(sout);
            remove(serr);
            free(av);
        }
    }
    free(text);
    if (!res) res = strdup(""), res_len = 0;

    if (dist_comm_init(&argc, &argv)) return CLI_EXIT_FAIL;
    if (dist_comm_size() != size || dist_comm_rank() != rank)
        cli_die(CLI_EXIT_FAIL, "int: the launcher's rank %d of %d differs from MPI's %d of %d",
                rank, size, dist_comm_rank(), dist_comm_size());
    if (rank != 0) {
        char hdr[16];
        snprintf(hdr, sizeof hdr, "%d", code);
        if (send_big(0, hdr, strlen(hdr)) || send_big(0, msg ? msg : "", msg ? strlen(msg) : 0) ||
            send_big(0, code == CLI_EXIT_OK ? res : "", code == CLI_EXIT_OK ? res_len : 0))
            dist_comm_abort(CLI_EXIT_FAIL);
        free(res);
        free(msg);
        dist_comm_finalize();
        return CLI_EXIT_OK;
    }
    /* rank 0: collect in rank order; the first failure decides */
    char **outs = calloc((size_t)size, sizeof *outs);
    size_t *lens = calloc((size_t)size, sizeof *lens);
    if (!outs || !lens) dist_comm_abort(CLI_EXIT_FAIL);
    outs[0] = res, lens[0] = res_len;
    int fcode = code;
    char *fmsg = code ? msg : NULL;
    if (!code) free(msg);
    for (int r = 1; r < size; r++) {
        size_t l;
        char *h = recv_big(r, &l), *m = recv_big(r, &l), *o = recv_big(r, &lens[r]);
        if (!h || !m || !o) dist_comm_abort(CLI_EXIT_FAIL);
        int c = atoi(h);
        free(h);
        outs[r] = o;
        if (c && !fcode) fcode = c, fmsg = m;
        else free(m);
    }
    if (fcode) {
        if (fmsg) fputs(fmsg, stderr);
        else fprintf(stderr, "bulk: int: a slice failed (exit %d)\n", fcode);
    } else if (outp) {
        bulk_afile af;
        if (bulk_afile_open(&af, outp, "wb") != 0) {
            fprintf(stderr, "bulk: int: cannot create %s (%s)\n", outp, strerror(errno));
            fcode = CLI_EXIT_USAGE;
        } else {
            for (int r = 0; r < size; r++)
                if (lens[r] && fwrite(outs[r], 1, lens[r], af.fp) != lens[r]) fcode = CLI_EXIT_FAIL;
            if (fcode) bulk_afile_abort(&af);
            else if (bulk_afile_commit(&af) != 0) fcode = CLI_EXIT_FAIL;
            if (fcode) fprintf(stderr, "bulk: int: cannot write %s\n", outp);
        }
    } else {
        for (int r = 0; r < size; r++) fwrite(outs[r], 1, lens[r], stdout);
        fflush(stdout);
    }
    for (int r = 0; r < size; r++) free(outs[r]);
    free(outs);
    free(lens);
    free(fmsg);
    dist_comm_finalize();
    return fcode;
}
