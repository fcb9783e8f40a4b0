/* bulk collatz delay / delays. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bulk/collatz.h"
#include "bulk/int.h"
#include "atomic_file.h"
#include "cli_progress.h"
#include "collatz_cli.h"
#include "collatz_plot.h"
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
        /* limbs that hold any len-digit number: a limb takes 16 hex or 19 decimal digits */
        size_t len = strlen(s), cap = len / 16 + 2;
        if (cap < 3) cap = 3;
        uint64_t *n = calloc(cap, sizeof *n);
        if (!n) cli_die(CLI_EXIT_FAIL, "out of memory");
        size_t limbs;
        if (strpbrk(s, "+-*^")) {
            size_t pos;
            int st = bulk_collatz_parse_bound(s, n, &pos);
            if (st == BULK_ERR_ARG) cli_die(CLI_EXIT_USAGE, "collatz delay: argument %d '%s' is negative", i, s);
            if (st) cli_die(CLI_EXIT_USAGE, "collatz delay: argument %d '%s' is not a number or expression (at character %zu)", i, s, pos + 1);
            limbs = 3;
        } else {
            size_t pos = 0;
            int st = bulk_int_from_str(n, s, cap, 0, &pos);
            if (st != BULK_OK) cli_die(CLI_EXIT_USAGE, "collatz delay: argument %d '%s' is not a number (at character %zu)", i, s, pos + 1);
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
        if (st) cli_die(CLI_EXIT_FAIL, "collatz delay: %s", bulk_ctx_last_error(NULL));
        size_t ncap = bulk_int_str_size(nl, 10) + 1, pscap = bulk_int_str_size(pl, 10) + 1;
        char *ns = malloc(ncap), *ps = malloc(pscap);
        if (!ns || !ps || bulk_int_to_str(ns, ncap, n, nl, 10, NULL) != BULK_OK ||
            bulk_int_to_str(ps, pscap, peak, pl, 10, NULL) != BULK_OK)
            cli_die(CLI_EXIT_FAIL, "out of memory");
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

/* ---- the output of a delays run ---------------------------------------------------------------
 * The library runs the range (bulk_collatz_delays_run) and keeps the checkpoint; this sink
 * writes what it computes. With --checkpoint the output grows in OUT.partial and the checkpoint
 * records how many bytes of it hold the numbers done (sync: flushed and fsync'ed first, so it
 * never claims bytes that are not on disk); a resumed run truncates OUT.partial to those bytes
 * (dropping what a killed run wrote after its last checkpoint) and appends. At the end
 * OUT.partial is renamed to OUT: a kill in between is finished by the rerun. OUT stands for the
 * file --out leads to (symbolic links followed, so a link stays a link); a device or FIFO cannot
 * be resumed and is refused. */
struct dsink {
    FILE *out;
    const char *outp;  /* --out (NULL: stdout) */
    bulk_afile *f;     /* the atomic --out file of a run without a checkpoint, else NULL */
    int width;         /* 0: text; 2, 4: binary delays */
    uint8_t *bin;      /* binary conversion buffer (grown as needed) */
    uint64_t bin_cap;
    uint64_t batch;    /* --stats */
    /* --stats --png without a checkpoint: every batch, for the plot */
    unsigned __int128 F;
    uint64_t *sum;
    uint32_t *mn, *mx;
    /* --checkpoint */
    const char *ckpt;
    char *target;      /* the file OUT is renamed to */
    char partial[4096];
    uint64_t total;
    uint64_t kept;     /* out_bytes of a completed run whose partial file is gone */
    int complete;      /* that case: the output is already in place */
};

/* begin: opens or resumes the partial output (--checkpoint only). */
static int sink_begin(void *user, uint64_t done, uint64_t out_bytes)
{
    struct dsink *k = user;
    if (!k->ckpt) return 0;
    if (done == 0 && out_bytes == 0) {
        int fd = open(k->partial, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
        k->out = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (!k->out) cli_die(CLI_EXIT_FAIL, "cannot create %s: %s", k->partial, strerror(errno));
        return 0;
    }
    int fd = open(k->partial, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    k->out = fd >= 0 ? fdopen(fd, "r+b") : NULL;
    if (!k->out) {
        if (done == k->total && access(k->target, F_OK) == 0) {
            k->complete = 1;
            k->kept = out_bytes;
            return 0;
        }
        cli_die(CLI_EXIT_USAGE, "checkpoint %s: the partial output %s is missing", k->ckpt, k->partial);
    }
    struct stat sb;
    if (fstat(fileno(k->out), &sb) != 0 || (uint64_t)sb.st_size < out_bytes)
        cli_die(CLI_EXIT_USAGE, "checkpoint %s: %s is shorter than the %llu bytes it records", k->ckpt,
                k->partial, (unsigned long long)out_bytes);
    if (ftruncate(fileno(k->out), (off_t)out_bytes) != 0 || fseek(k->out, 0, SEEK_END) != 0)
        cli_die(CLI_EXIT_FAIL, "cannot truncate %s: %s", k->partial, strerror(errno));
    return 0;
}

/* sync: the output on disk, and its length for the checkpoint. */
static int sink_sync(void *user, uint64_t *out_bytes)
{
    struct dsink *k = user;
    if (k->complete) {
        *out_bytes = k->kept;
        return 0;
    }
    if (fflush(k->out) != 0 || fsync(fileno(k->out)) != 0) out_failed(NULL, k->partial, errno);
    long pos = ftell(k->out);
    if (pos < 0) out_failed(NULL, k->partial, errno);
    *out_bytes = (uint64_t)pos;
    return 0;
}

/* put: the lines (or binary delays) of one piece, written as they are done. */
static int sink_put(void *user, const bulk_collatz_delays_piece *pc)
{
    struct dsink *k = user;
    const char *where = k->ckpt ? k->partial : k->outp;
    unsigned __int128 s = ((unsigned __int128)pc->first.hi << 64) | pc->first.lo;
    if (k->batch) {
        for (uint64_t b = 0; b < pc->n; b++) {
            unsigned __int128 s1 = s + (unsigned __int128)b * k->batch;
            bulk_u128 sv1 = { (uint64_t)s1, (uint64_t)(s1 >> 64) };
            fprintf(k->out, "%s %.6f %u %u\n", czcli_str(sv1, 0), (double)pc->sum[b] / (double)k->batch,
                    pc->min[b], pc->max[b]);
        }
        if (k->sum) {
            uint64_t b0 = (uint64_t)((s - k->F) / k->batch);
            memcpy(k->sum + b0, pc->sum, pc->n * sizeof *k->sum);
            memcpy(k->mn + b0, pc->min, pc->n * sizeof *k->mn);
            memcpy(k->mx + b0, pc->max, pc->n * sizeof *k->mx);
        }
    } else if (k->width) {
        if (pc->n * (uint64_t)k->width > k->bin_cap) {
            free(k->bin);
            k->bin_cap = pc->n * (uint64_t)k->width;
            k->bin = malloc(k->bin_cap);
            if (!k->bin) cli_die(CLI_EXIT_FAIL, "out of memory");
        }
        for (uint64_t i = 0; i < pc->n; i++) {
            if (k->width == 2 && pc->delays[i] > 65535) {
                if (k->f) bulk_afile_abort(k->f);
                cli_die(CLI_EXIT_USAGE, "--format u16: the delay %u does not fit 16 bits", pc->delays[i]);
            }
            for (int b = 0; b < k->width; b++)
                k->bin[i * (uint64_t)k->width + (uint64_t)b] = (uint8_t)(pc->delays[i] >> (8 * b));
        }
        if (k->outp) write_or_die(k->f, k->out, k->bin, pc->n * (uint64_t)k->width, k->outp);
        else fwrite(k->bin, 1, pc->n * (uint64_t)k->width, stdout);
    } else {
        for (uint64_t i = 0; i < pc->n; i++) {
            unsigned __int128 n = s + i;
            bulk_u128 nv = { (uint64_t)n, (uint64_t)(n >> 64) };
            fprintf(k->out, "%s %u\n", czcli_str(nv, 0), pc->delays[i]);
        }
    }
    out_check(k->f, k->out, where);
    return 0;
}

/* --checkpoint: where the output goes (exits 2 when OUT cannot be resumed). */
static void sink_resolve(struct dsink *k, const char *outp)
{
    int replaced;
    if (bulk_out_resolve(outp, &k->target, &replaced) != 0) cli_die(CLI_EXIT_FAIL, "--out %s: %s", outp, strerror(errno));
    if (!replaced)
        cli_die(CLI_EXIT_USAGE, "--checkpoint needs --out to be a regular file or a new one; %s is a "
                "device, FIFO or socket, which cannot be resumed", outp);
    if ((size_t)snprintf(k->partial, sizeof k->partial, "%s.partial", k->target) >= sizeof k->partial)
        cli_die(CLI_EXIT_USAGE, "--out: the path is too long");
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
    const uint64_t total = (uint64_t)len, nb = batch ? total / batch : 0;
    struct dsink k = { stdout, outp, NULL, width, NULL, 0, batch, F, NULL, NULL, NULL, ckpt, NULL, "", total, 0, 0 };
    char identity[512];
    bulk_collatz_run_opts opts = { NULL, NULL, every > 0 ? every : 0.001, 0 };
    if (ckpt) {
        snprintf(identity, sizeof identity, "collatz delays from=%s to=%s format=%s stats=%llu d=%d a=%d",
                 from, to, fmt, batch, d, a);
        if (strlen(identity) >= sizeof identity - 1 || strchr(identity, '\n'))
            cli_die(CLI_EXIT_USAGE, "collatz delays: bounds too long");
        sink_resolve(&k, outp);
        opts.checkpoint = ckpt;
        opts.identity = identity;
    } else if (outp) {
        if (bulk_afile_open(&f, outp, width ? "wb" : "w") != 0)
            cli_die(CLI_EXIT_FAIL, "cannot create %s: %s", outp, strerror(errno));
        k.out = f.fp;
        k.f = &f;
    }
    if (png && !ckpt) { /* the plot of a run without a checkpoint: from every batch kept here */
        k.sum = malloc(nb * sizeof *k.sum);
        k.mn = malloc(nb * sizeof *k.mn);
        k.mx = malloc(nb * sizeof *k.mx);
        if (!k.sum || !k.mn || !k.mx) cli_die(CLI_EXIT_FAIL, "out of memory (%llu batches)", (unsigned long long)nb);
    }
    double t0 = bulk_now();
    bulk_collatz_delays_sink sink = { sink_begin, sink_put, sink_sync, &k };
    cli_progress_attach(ctx, "collatz delays");
    int st = bulk_collatz_delays_run(ctx, e, first, last, batch, &opts, &sink);
    cli_progress_detach(ctx);
    if (st) {
        if (k.f) bulk_afile_abort(k.f);
        cli_die(st == BULK_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL, "collatz delays: %s", bulk_ctx_last_error(ctx));
    }
    free(k.bin);
    if (k.complete) {
        fprintf(stderr, "bulk: collatz delays: %s is complete (checkpoint %s)\n", outp, ckpt);
        free(k.target);
        bulk_collatz_engine_free(e);
        bulk_ctx_close(ctx);
        return CLI_EXIT_OK;
    }
    if (png && ckpt) {
        /* the batches of a resumed run are partly in the stats file only: the plot from it,
         * before the rename (a kill in between redoes the plot) */
        if (fflush(k.out) != 0) out_failed(NULL, k.partial, errno);
        struct plot_range pr = { from, to, first, batch };
        plot_from_stats_file(k.partial, png, &pr, nb);
    } else if (png) {
        double *ys[3];
        for (int s = 0; s < 3; s++) {
            ys[s] = malloc(nb * sizeof(double));
            if (!ys[s]) cli_die(CLI_EXIT_FAIL, "out of memory");
        }
        for (uint64_t b = 0; b < nb; b++) {
            ys[0][b] = avg6(k.sum[b], batch);
            ys[1][b] = k.mn[b];
            ys[2][b] = k.mx[b];
        }
        struct plot_range pr = { from, to, first, batch };
        plot_or_die(png, &pr, ys, nb, k.f);
        for (int s = 0; s < 3; s++) free(ys[s]);
        free(k.sum);
        free(k.mn);
        free(k.mx);
    }
    if (ckpt) {
        if (fclose(k.out) != 0) out_failed(NULL, k.partial, errno);
        if (rename(k.partial, k.target) != 0)
            cli_die(CLI_EXIT_FAIL, "cannot rename %s to %s: %s", k.partial, k.target, strerror(errno));
        free(k.target);
    } else if (outp && bulk_afile_commit(&f) != 0) {
        cli_die(CLI_EXIT_FAIL, "cannot write %s: %s", outp, strerror(errno));
    }
    if (outp) {
        double secs = bulk_now() - t0;
        fprintf(stderr, "bulk: collatz delays: %llu numbers in %.3f s (%.4g numbers/s)\n",
                (unsigned long long)total, secs, secs > 0 ? (double)total / secs : 0);
    }
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}
