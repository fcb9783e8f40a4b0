/* bulk collatz delay / delays. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collatz/collatz_internal.h"
#include "collatz/runstate.h"
#include "collatz_cli.h"
#include "collatz_plot.h"
#include "atomic_file.h"
#include "int/numtext.h"
#include "progress_line.h"
#include "pictures/png.h"

static const char delay_usage[] =
    "usage: bulk collatz delay N...\n"
    "Prints `N delay glide peak` for each N (decimal, 0x hex or an expression like 2^100+7; any\n"
    "size for plain numbers), computed exactly step by step. glide(1) is printed as 0.\n";

int cmd_collatz_delay(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, delay_usage);
    if (argc < 2) cli_die(CLI_EXIT_USAGE, "collatz delay: give at least one N");
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        size_t len = strlen(s), cap = bulk_parse_uint_limbs_bound(len);
        if (cap < 3) cap = 3;
        uint64_t *n = calloc(cap, sizeof *n);
        if (!n) cli_die(CLI_EXIT_FAIL, "out of memory");
        size_t limbs;
        if (strpbrk(s, "+-*^")) {
            size_t pos;
            int st = bulk_cz_parse_bound(s, n, &pos);
            if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "collatz delay: argument %d '%s' is negative", i, s);
            if (st) cli_die(CLI_EXIT_USAGE, "collatz delay: argument %d '%s' is not a number or expression (at character %zu)", i, s, pos + 1);
            limbs = 3;
        } else {
            size_t pos = 0;
            int st = bulk_parse_uint(s, len, n, cap, &pos);
            if (st < 0) cli_die(CLI_EXIT_USAGE, "collatz delay: argument %d '%s' is not a number (at character %zu)", i, s, pos + 1);
            limbs = cap;
        }
        size_t nl = limbs;
        while (nl && n[nl - 1] == 0) nl--;
        if (nl == 0) cli_die(CLI_EXIT_USAGE, "collatz delay: argument %d: N must be at least 1", i);
        size_t pcap = nl + 64;
        uint64_t *peak = calloc(pcap, sizeof *peak);
        uint64_t delay, glide;
        size_t pl;
        if (!peak) cli_die(CLI_EXIT_FAIL, "out of memory");
        int st = bulk_collatz_exact(n, nl, &delay, &glide, peak, pcap, &pl);
        if (st == BULK_ERR_OVERFLOW) {
            free(peak);
            pcap = pl;
            peak = calloc(pcap, sizeof *peak);
            if (!peak) cli_die(CLI_EXIT_FAIL, "out of memory");
            st = bulk_collatz_exact(n, nl, &delay, &glide, peak, pcap, &pl);
        }
        if (st) cli_die(CLI_EXIT_FAIL, "collatz delay: %s", bulk_status_string(st));
        char *ns = malloc(bulk_format_uint_size(nl, 0) + 1);
        char *ps = malloc(bulk_format_uint_size(pl, 0) + 1);
        if (!ns || !ps) cli_die(CLI_EXIT_FAIL, "out of memory");
        bulk_format_uint(ns, n, nl, 0);
        bulk_format_uint(ps, peak, pl, 0);
        printf("%s %llu %llu %s\n", ns, (unsigned long long)delay, (unsigned long long)glide, ps);
        free(ns);
        free(ps);
        free(n);
        free(peak);
    }
    return CLI_EXIT_OK;
}

static const char delays_usage[] =
    "usage: bulk collatz delays --from A --to B [options]\n"
    "Computes delay(n) for every n in [A, B) (tables B, C, J and A, seed 004 Algorithm 2; an\n"
    "exact path when a value leaves 128 bits).\n"
    "\n"
    "  --out FILE          write the delays (or the statistics) to FILE instead of stdout (a\n"
    "                      regular file atomically, a device or FIFO straight through;\n"
    "                      --png likewise: docs/cli.md)\n"
    "  --format F          text (lines `n delay`, default) or u16 / u32 (binary little-endian,\n"
    "                      one delay per n, no header)\n"
    "  --stats BATCH       instead of every delay: per batch of BATCH consecutive numbers the\n"
    "                      average, minimum and maximum delay (seed 003), as lines\n"
    "                      `first_n average min max`; B - A must be a multiple of BATCH\n"
    "  --png FILE          with --stats: a plot of the three curves against n (average, minimum,\n"
    "                      maximum delay per batch; axes with values, legend, title), 1024 x 600\n"
    "  --d D               base bits of B, C, J (default 14)   --a A  bits of table A (default 20;\n"
    "                      on a GPU, long runs: --d 15 --a 24 is the fastest measured, 1.0e11/s)\n"
    "  --threads N         CPU threads; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --backend cpu|cuda|auto  (default auto; BULK_BACKEND)\n"
    "  --checkpoint FILE   (needs --out) resume from / save the progress to FILE: the output\n"
    "                      grows in OUT.partial, renamed to OUT at the end; a rerun after a kill\n"
    "                      goes on from the last checkpoint; another run's FILE is refused.\n"
    "                      OUT must be a regular file or a new one (through a symbolic link:\n"
    "                      the file it points to); a device or FIFO is refused\n"
    "  --checkpoint-every S  seconds between checkpoints (default 5)\n";

/* I/O failures of an output (path; NULL = stdout) exit 1 with the cause; the atomic file f (when
 * given) is removed first. */
static void out_failed(bulk_afile *f, const char *path, int err)
{
    if (!path) cli_stdout_error(err);
    if (f) bulk_afile_abort(f);
    cli_die(CLI_EXIT_FAIL, "collatz delays: writing %s: %s", path, strerror(err ? err : EIO));
}

/* After each piece: a failed write stops the run at once instead of computing the rest. */
static void out_check(bulk_afile *f, FILE *fp, const char *path)
{
    if (ferror(fp)) out_failed(f, path, errno);
}

static void write_or_die(bulk_afile *f, FILE *fp, const void *p, size_t n, const char *path)
{
    if (fwrite(p, 1, n, fp) != n) out_failed(f, path, errno);
}

/* ---- checkpointed output (--checkpoint) ------------------------------------------------------
 * The output grows in OUT.partial; the run state (collatz/runstate.h) records how many numbers
 * are done and how many bytes of OUT.partial hold them. It is written after the partial file
 * was flushed and fsync'ed, so the state never claims bytes that are not on disk; a resumed run
 * truncates OUT.partial to those bytes (dropping what a killed run wrote after its last
 * checkpoint) and appends. At the end the complete state is saved, then OUT.partial is renamed
 * to OUT: a kill in between is finished by the rerun. OUT stands for the file --out leads to
 * (symbolic links followed, so a link stays a link); a device or FIFO cannot be resumed and is
 * refused. */
struct resume {
    const char *ckpt, *identity, *outp;
    char *target; /* the file OUT is renamed to */
    char partial[4096];
    FILE *fp;
    bulk_u128 first;
    uint64_t total, done;
    double every, last;
};

static void resume_save(struct resume *r, uint64_t done)
{
    if (fflush(r->fp) != 0 || fsync(fileno(r->fp)) != 0) out_failed(NULL, r->partial, errno);
    long pos = ftell(r->fp);
    unsigned __int128 nx = (((unsigned __int128)r->first.hi << 64) | r->first.lo) + done;
    bulk_cz_runstate s = { { (uint64_t)nx, (uint64_t)(nx >> 64) }, (uint64_t)pos, 0, { 0, 0 }, NULL, 0 };
    if (pos < 0 || bulk_cz_runstate_write(r->ckpt, r->identity, &s) != BULK_OK)
        cli_die(CLI_EXIT_FAIL, "cannot write the checkpoint file %s: %s", r->ckpt, strerror(errno ? errno : EIO));
    r->done = done;
    r->last = bulk_now();
}

/* Opens or resumes the partial output; returns 1 when the run had already completed. */
static int resume_open(struct resume *r, const char *ckpt, const char *identity, const char *outp,
                       bulk_u128 first, uint64_t total, double every)
{
    r->ckpt = ckpt;
    r->identity = identity;
    r->outp = outp;
    r->first = first;
    r->total = total;
    r->every = every;
    int replaced;
    if (bulk_out_resolve(outp, &r->target, &replaced) != 0) cli_die(CLI_EXIT_FAIL, "--out %s: %s", outp, strerror(errno));
    if (!replaced)
        cli_die(CLI_EXIT_USAGE, "--checkpoint needs --out to be a regular file or a new one; %s is a "
                "device, FIFO or socket, which cannot be resumed", outp);
    if ((size_t)snprintf(r->partial, sizeof r->partial, "%s.partial", r->target) >= sizeof r->partial)
        cli_die(CLI_EXIT_USAGE, "--out: the path is too long");
    bulk_cz_runstate s;
    int st = bulk_cz_runstate_read(ckpt, identity, &s);
    if (st == BULK_ERR_ARG || st == BULK_ERR_PARSE) cli_die(CLI_EXIT_USAGE, "collatz delays: %s", bulk_collatz_last_error());
    if (st < 0) cli_die(CLI_EXIT_FAIL, "collatz delays: %s", bulk_status_string(st));
    if (st == 1) {
        int fd = open(r->partial, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
        r->fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (!r->fp) cli_die(CLI_EXIT_FAIL, "cannot create %s: %s", r->partial, strerror(errno));
        resume_save(r, 0);
        return 0;
    }
    free(s.recs);
    unsigned __int128 F = ((unsigned __int128)first.hi << 64) | first.lo;
    unsigned __int128 nx = ((unsigned __int128)s.next.hi << 64) | s.next.lo;
    if (nx < F || nx - F > total)
        cli_die(CLI_EXIT_USAGE, "checkpoint %s: next is outside the range", ckpt);
    r->done = (uint64_t)(nx - F);
    int fd = open(r->partial, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    r->fp = fd >= 0 ? fdopen(fd, "r+b") : NULL;
    if (!r->fp) {
        if (r->done == total && access(r->target, F_OK) == 0) {
            fprintf(stderr, "bulk: collatz delays: %s is complete (checkpoint %s)\n", outp, ckpt);
            return 1;
        }
        cli_die(CLI_EXIT_USAGE, "checkpoint %s: the partial output %s is missing", ckpt, r->partial);
    }
    struct stat sb;
    if (fstat(fileno(r->fp), &sb) != 0 || (uint64_t)sb.st_size < s.out_bytes)
        cli_die(CLI_EXIT_USAGE, "checkpoint %s: %s is shorter than the %llu bytes it records", ckpt,
                r->partial, (unsigned long long)s.out_bytes);
    if (ftruncate(fileno(r->fp), (off_t)s.out_bytes) != 0 || fseek(r->fp, 0, SEEK_END) != 0)
        cli_die(CLI_EXIT_FAIL, "cannot truncate %s: %s", r->partial, strerror(errno));
    r->last = bulk_now();
    return 0;
}

/* `done` numbers are written: checkpoint when `every` seconds have passed. */
static void resume_note(struct resume *r, uint64_t done)
{
    if (bulk_now() - r->last >= r->every) resume_save(r, done);
}

static void resume_finish(struct resume *r)
{
    resume_save(r, r->total);
    if (fclose(r->fp) != 0) out_failed(NULL, r->partial, errno);
    if (rename(r->partial, r->target) != 0)
        cli_die(CLI_EXIT_FAIL, "cannot rename %s to %s: %s", r->partial, r->target, strerror(errno));
    free(r->target);
    r->target = NULL;
}

/* The average of a batch as the plot draws it: the value of its "%.6f" text, so that a plot
 * made from the numbers of one run and a plot made from a resumed run's stats file (the batches
 * done before the resume are only there) are the same picture, byte for byte. */
static double avg6(uint64_t sum, uint64_t batch)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.6f", (double)sum / (double)batch);
    return strtod(buf, NULL);
}

/* What --png draws: the range as given and the batches of the run. */
struct plot_range {
    const char *from, *to;
    bulk_u128 first;
    uint64_t batch;
};

/* --png: the three curves of nb batches into png (exit 1 when it cannot be written; f, when
 * not NULL, is the --out file to abandon then). */
static void plot_or_die(const char *png, const struct plot_range *r, double *const ys[3],
                        uint64_t nb, bulk_afile *f)
{
    errno = 0;
    if (czcli_plot_delays(png, r->from, r->to, r->first, r->batch, nb, ys[0], ys[1], ys[2]) != 0) {
        int e = errno;
        if (f) bulk_afile_abort(f);
        cli_die(CLI_EXIT_FAIL, "cannot write %s: %s", png, strerror(e ? e : EIO));
    }
}

/* --png with --checkpoint: the batches of a resumed run are partly in the stats file only, so
 * the plot is drawn from the complete file (nb lines "first_n average minimum maximum"). */
static void plot_from_stats_file(const char *path, const char *png, const struct plot_range *r,
                                 uint64_t nb)
{
    FILE *fp = fopen(path, "r");
    if (!fp) cli_die(CLI_EXIT_FAIL, "cannot read %s: %s", path, strerror(errno));
    double *ys[3];
    for (int s = 0; s < 3; s++) {
        ys[s] = malloc((nb ? nb : 1) * sizeof(double));
        if (!ys[s]) cli_die(CLI_EXIT_FAIL, "out of memory");
    }
    char line[256];
    uint64_t b = 0;
    while (b < nb && fgets(line, sizeof line, fp)) {
        char *sp = strchr(line, ' ');
        unsigned mn, mx;
        double av;
        if (!sp || sscanf(sp, "%lf %u %u", &av, &mn, &mx) != 3)
            cli_die(CLI_EXIT_FAIL, "%s:%llu: not a stats line", path, (unsigned long long)b + 1);
        ys[0][b] = av;
        ys[1][b] = mn;
        ys[2][b] = mx;
        b++;
    }
    fclose(fp);
    if (b != nb)
        cli_die(CLI_EXIT_FAIL, "%s: %llu stats lines, expected %llu", path, (unsigned long long)b,
                (unsigned long long)nb);
    plot_or_die(png, r, ys, nb, NULL);
    for (int s = 0; s < 3; s++) free(ys[s]);
}

int cmd_collatz_delays(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, delays_usage);
    const char *from = NULL, *to = NULL, *outp = NULL, *png = NULL, *fmt = "text", *v;
    const char *ckpt = NULL;
    int d = 14, a = 20, threads = 0;
    double every = 5;
    unsigned long long batch = 0;
    bulk_backend backend = BULK_BACKEND_AUTO;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt_value(argc, argv, &i, "--from"))) from = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--to"))) to = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--out"))) outp = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--format"))) fmt = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--png"))) png = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--stats"))) batch = (unsigned long long)cli_parse_ll("--stats", v, 1, 1ll << 40);
        else if ((v = cli_opt_value(argc, argv, &i, "--d"))) d = (int)cli_parse_ll("--d", v, 1, BULK_COLLATZ_MAX_D);
        else if ((v = cli_opt_value(argc, argv, &i, "--a"))) a = (int)cli_parse_ll("--a", v, 1, BULK_COLLATZ_MAX_A);
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = cli_parse_threads(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint"))) ckpt = v;
        else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint-every"))) every = (double)cli_parse_ll("--checkpoint-every", v, 0, 86400);
        else cli_die(CLI_EXIT_USAGE, "collatz delays: unknown argument '%s'", argv[i]);
    }
    int width = 0;
    if (!strcmp(fmt, "u16")) width = 2;
    else if (!strcmp(fmt, "u32")) width = 4;
    else if (strcmp(fmt, "text")) cli_die(CLI_EXIT_USAGE, "--format: '%s' is not text, u16 or u32", fmt);
    if (png && !batch) cli_die(CLI_EXIT_USAGE, "--png needs --stats BATCH");
    if (png && !pic_available()) cli_die(CLI_EXIT_USAGE, "--png: " PIC_MISSING);
    if (batch && width) cli_die(CLI_EXIT_USAGE, "--stats writes text; --format %s applies to raw delays only", fmt);
    if (a < d) cli_die(CLI_EXIT_USAGE, "--a %d must be at least --d %d", a, d);
    if (ckpt && !outp) cli_die(CLI_EXIT_USAGE, "--checkpoint needs --out FILE");
    bulk_u128 first, last;
    czcli_range(from, to, &first, &last);
    unsigned __int128 F = ((unsigned __int128)first.hi << 64) | first.lo;
    unsigned __int128 len = (((unsigned __int128)last.hi << 64) | last.lo) - F + 1;
    if (len == 0 || (len >> 48)) cli_die(CLI_EXIT_USAGE, "collatz delays: the range is too long (at most 2^48 numbers)");
    if (batch && len % batch)
        cli_die(CLI_EXIT_USAGE, "--stats %llu: the range length is not a multiple of the batch", batch);
    bulk_ctx *ctx = cli_open_ctx(backend, threads);
    bulk_collatz_engine *e = czcli_engine(ctx, d, 0, a);
    bulk_afile f = { 0 };
    FILE *out = stdout;
    struct resume rs = { 0 };
    uint64_t start = 0; /* numbers already done (a resumed run) */
    char identity[512]; /* referenced by rs until the end */
    if (ckpt) {
        snprintf(identity, sizeof identity, "collatz delays from=%s to=%s format=%s stats=%llu d=%d a=%d",
                 from, to, fmt, batch, d, a);
        if (strlen(identity) >= sizeof identity - 1 || strchr(identity, '\n'))
            cli_die(CLI_EXIT_USAGE, "collatz delays: bounds too long");
        if (resume_open(&rs, ckpt, identity, outp, first, (uint64_t)len, every > 0 ? every : 0.001)) {
            bulk_collatz_engine_free(e);
            bulk_ctx_close(ctx);
            return CLI_EXIT_OK; /* already complete */
        }
        start = rs.done;
        out = rs.fp;
    } else if (outp) {
        if (bulk_afile_open(&f, outp, width ? "wb" : "w") != 0)
            cli_die(CLI_EXIT_FAIL, "cannot create %s: %s", outp, strerror(errno));
        out = f.fp;
    }
    const int gpu = bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA;
    double t0 = bulk_now();
    progress_line prog;
    progress_line_init(&prog, "collatz delays", (double)len);
    uint64_t total = (uint64_t)len;
    if (!batch) {
        /* numbers per engine call: larger on a GPU so that one call fills the devices */
        const uint64_t piece = (uint64_t)1 << (gpu ? 25 : 22);
        uint32_t *buf = malloc(piece * sizeof *buf);
        uint8_t *bin = malloc(piece * 4);
        if (!buf || !bin) cli_die(CLI_EXIT_FAIL, "out of memory");
        /* pieces end on multiples of `piece` of n (whole merge-class blocks on the CPU) */
        for (uint64_t off = start, m; off < total; off += m) {
            m = piece - (uint64_t)((F + off) & (piece - 1));
            if (m > total - off) m = total - off;
            unsigned __int128 s = F + off;
            bulk_u128 sv = { (uint64_t)s, (uint64_t)(s >> 64) };
            int st = bulk_collatz_delays(ctx, e, sv, m, buf);
            if (st) {
                if (outp && !ckpt) bulk_afile_abort(&f);
                cli_die(CLI_EXIT_FAIL, "collatz delays: %s", bulk_status_string(st));
            }
            if (width) {
                for (uint64_t i = 0; i < m; i++) {
                    if (width == 2 && buf[i] > 65535) {
                        if (outp && !ckpt) bulk_afile_abort(&f);
                        cli_die(CLI_EXIT_USAGE, "--format u16: the delay %u does not fit 16 bits", buf[i]);
                    }
                    for (int b = 0; b < width; b++) bin[i * (uint64_t)width + (uint64_t)b] = (uint8_t)(buf[i] >> (8 * b));
                }
                if (outp) write_or_die(ckpt ? NULL : &f, out, bin, m * (uint64_t)width, outp);
                else fwrite(bin, 1, m * (uint64_t)width, stdout);
            } else {
                for (uint64_t i = 0; i < m; i++) {
                    unsigned __int128 n = s + i;
                    bulk_u128 nv = { (uint64_t)n, (uint64_t)(n >> 64) };
                    fprintf(out, "%s %u\n", czcli_str(nv, 0), buf[i]);
                }
            }
            out_check(outp && !ckpt ? &f : NULL, out, ckpt ? rs.partial : outp);
            if (ckpt) resume_note(&rs, off + m);
            progress_line_update(&prog, (double)(off + m));
        }
        free(buf);
        free(bin);
    } else {
        /* numbers per engine call: on GPUs about a second of work (2^34), because each call
         * pays a set-up (host threads, buffers) that 2^30 did not amortise (measured on 4 H200s:
         * ~0.2 s per call) */
        uint64_t nb = total / batch, piece = ((uint64_t)1 << 34) / batch + 1;
        uint64_t *sum = malloc(nb * sizeof *sum);
        uint32_t *mn = malloc(nb * sizeof *mn), *mx = malloc(nb * sizeof *mx);
        if (!sum || !mn || !mx) cli_die(CLI_EXIT_FAIL, "out of memory (%llu batches)", (unsigned long long)nb);
        for (uint64_t b0 = start / batch, m; b0 < nb; b0 += m) {
            unsigned __int128 s = F + (unsigned __int128)b0 * batch;
            m = piece;
            if (!gpu) {
                /* on the CPU calls of about 2^24 numbers that end on a multiple of 2^24 of n
                 * where the batch allows (a cut merge-class block costs a whole block) */
                const unsigned __int128 step = (unsigned __int128)1 << 24;
                unsigned __int128 gap = ((s >> 24) + 1) * step - s;
                if (gap < batch) gap += step;
                m = (uint64_t)(gap / batch);
            }
            if (m > nb - b0) m = nb - b0;
            bulk_u128 sv = { (uint64_t)s, (uint64_t)(s >> 64) };
            int st = bulk_collatz_delay_stats(ctx, e, sv, batch, m, sum + b0, mn + b0, mx + b0);
            if (st) {
                if (outp && !ckpt) bulk_afile_abort(&f);
                cli_die(CLI_EXIT_FAIL, "collatz delays: %s", bulk_status_string(st));
            }
            /* the lines of this piece's batches, written as they are done */
            for (uint64_t b = b0; b < b0 + m; b++) {
                unsigned __int128 s1 = F + (unsigned __int128)b * batch;
                bulk_u128 sv1 = { (uint64_t)s1, (uint64_t)(s1 >> 64) };
                fprintf(out, "%s %.6f %u %u\n", czcli_str(sv1, 0), (double)sum[b] / (double)batch, mn[b], mx[b]);
            }
            out_check(outp && !ckpt ? &f : NULL, out, ckpt ? rs.partial : outp);
            if (ckpt) resume_note(&rs, (b0 + m) * batch);
            progress_line_update(&prog, (double)((b0 + m) * batch));
        }
        if (png && ckpt) {
            /* before the final state: a kill in between redoes the tail and the plot */
            if (fflush(rs.fp) != 0) out_failed(NULL, rs.partial, errno);
            struct plot_range pr = { from, to, first, batch };
            plot_from_stats_file(rs.partial, png, &pr, nb);
        } else if (png) {
            double *ys[3];
            for (int s = 0; s < 3; s++) {
                ys[s] = malloc(nb * sizeof(double));
                if (!ys[s]) cli_die(CLI_EXIT_FAIL, "out of memory");
            }
            for (uint64_t b = 0; b < nb; b++) {
                ys[0][b] = avg6(sum[b], batch);
                ys[1][b] = mn[b];
                ys[2][b] = mx[b];
            }
            struct plot_range pr = { from, to, first, batch };
            plot_or_die(png, &pr, ys, nb, outp && !ckpt ? &f : NULL);
            for (int s = 0; s < 3; s++) free(ys[s]);
        }
        free(sum);
        free(mn);
        free(mx);
    }
    progress_line_finish(&prog);
    if (ckpt) resume_finish(&rs);
    else if (outp && bulk_afile_commit(&f) != 0) cli_die(CLI_EXIT_FAIL, "cannot write %s: %s", outp, strerror(errno));
    if (outp) {
        double secs = bulk_now() - t0;
        fprintf(stderr, "bulk: collatz delays: %llu numbers in %.3f s (%.4g numbers/s)\n",
                (unsigned long long)total, secs, secs > 0 ? (double)total / secs : 0);
    }
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}
