/* bulk collatz delay / delays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collatz/collatz_internal.h"
#include "collatz/plot.h"
#include "collatz_cli.h"
#include "common/atomic_file.h"
#include "common/numtext.h"
#include "common/progress.h"

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
    "  --out FILE          write the delays (or the statistics) to FILE instead of stdout\n"
    "  --format F          text (lines `n delay`, default) or u16 / u32 (binary little-endian,\n"
    "                      one delay per n, no header)\n"
    "  --stats BATCH       instead of every delay: per batch of BATCH consecutive numbers the\n"
    "                      average, minimum and maximum delay (seed 003), as lines\n"
    "                      `first_n average min max`; B - A must be a multiple of BATCH\n"
    "  --png FILE          with --stats: plot the three curves (blue average, red minimum,\n"
    "                      green maximum) against the batch\n"
    "  --d D               base bits of B, C, J (default 14)   --a A  bits of table A (default 20)\n"
    "  --threads N, --backend cpu|cuda|auto\n";

static void write_or_die(bulk_afile *f, const void *p, size_t n, const char *path)
{
    if (fwrite(p, 1, n, f->fp) != n) {
        bulk_afile_abort(f);
        cli_die(CLI_EXIT_FAIL, "cannot write %s", path);
    }
}

int cmd_collatz_delays(int argc, char **argv)
{
    cli_help_if_asked(argc, argv, delays_usage);
    const char *from = NULL, *to = NULL, *outp = NULL, *png = NULL, *fmt = "text", *v;
    int d = 14, a = 20, threads = 0;
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
        else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) threads = (int)cli_parse_ll("--threads", v, 1, 4096);
        else if ((v = cli_opt_value(argc, argv, &i, "--backend"))) backend = cli_parse_backend(v);
        else cli_die(CLI_EXIT_USAGE, "collatz delays: unknown argument '%s'", argv[i]);
    }
    int width = 0;
    if (!strcmp(fmt, "u16")) width = 2;
    else if (!strcmp(fmt, "u32")) width = 4;
    else if (strcmp(fmt, "text")) cli_die(CLI_EXIT_USAGE, "--format: '%s' is not text, u16 or u32", fmt);
    if (png && !batch) cli_die(CLI_EXIT_USAGE, "--png needs --stats BATCH");
    if (batch && width) cli_die(CLI_EXIT_USAGE, "--stats writes text; --format %s applies to raw delays only", fmt);
    if (a < d) cli_die(CLI_EXIT_USAGE, "--a %d must be at least --d %d", a, d);
    bulk_u128 first, last;
    czcli_range(from, to, &first, &last);
    unsigned __int128 F = ((unsigned __int128)first.hi << 64) | first.lo;
    unsigned __int128 len = (((unsigned __int128)last.hi << 64) | last.lo) - F + 1;
    if (len == 0 || (len >> 48)) cli_die(CLI_EXIT_USAGE, "collatz delays: the range is too long (at most 2^48 numbers)");
    if (batch && len % batch)
        cli_die(CLI_EXIT_USAGE, "--stats %llu: the range length is not a multiple of the batch", batch);
    bulk_ctx *ctx = cli_open_ctx(backend, threads);
    bulk_collatz_engine *e = czcli_engine(ctx, d, 0, a);
    bulk_afile f;
    FILE *out = stdout;
    if (outp) {
        if (bulk_afile_open(&f, outp, width ? "wb" : "w") != 0)
            cli_die(CLI_EXIT_USAGE, "cannot create %s", outp);
        out = f.fp;
    }
    double t0 = bulk_now();
    bulk_progress prog;
    bulk_progress_init(&prog, "collatz delays", (double)len);
    uint64_t total = (uint64_t)len;
    if (!batch) {
        const uint64_t piece = 1u << 22;
        uint32_t *buf = malloc(piece * sizeof *buf);
        uint8_t *bin = malloc(piece * 4);
        if (!buf || !bin) cli_die(CLI_EXIT_FAIL, "out of memory");
        for (uint64_t off = 0; off < total; off += piece) {
            uint64_t m = total - off < piece ? total - off : piece;
            unsigned __int128 s = F + off;
            bulk_u128 sv = { (uint64_t)s, (uint64_t)(s >> 64) };
            int st = bulk_collatz_delays(ctx, e, sv, m, buf);
            if (st) {
                if (outp) bulk_afile_abort(&f);
                cli_die(CLI_EXIT_FAIL, "collatz delays: %s", bulk_status_string(st));
            }
            if (width) {
                for (uint64_t i = 0; i < m; i++) {
                    if (width == 2 && buf[i] > 65535) {
                        if (outp) bulk_afile_abort(&f);
                        cli_die(CLI_EXIT_USAGE, "--format u16: the delay %u does not fit 16 bits", buf[i]);
                    }
                    for (int b = 0; b < width; b++) bin[i * (uint64_t)width + (uint64_t)b] = (uint8_t)(buf[i] >> (8 * b));
                }
                if (outp) write_or_die(&f, bin, m * (uint64_t)width, outp);
                else fwrite(bin, 1, m * (uint64_t)width, stdout);
            } else {
                for (uint64_t i = 0; i < m; i++) {
                    unsigned __int128 n = s + i;
                    bulk_u128 nv = { (uint64_t)n, (uint64_t)(n >> 64) };
                    fprintf(out, "%s %u\n", czcli_str(nv, 0), buf[i]);
                }
            }
            bulk_progress_update(&prog, (double)(off + m));
        }
        free(buf);
        free(bin);
    } else {
        uint64_t nb = total / batch, piece = (1u << 22) / batch + 1;
        uint64_t *sum = malloc(nb * sizeof *sum);
        uint32_t *mn = malloc(nb * sizeof *mn), *mx = malloc(nb * sizeof *mx);
        if (!sum || !mn || !mx) cli_die(CLI_EXIT_FAIL, "out of memory (%llu batches)", (unsigned long long)nb);
        for (uint64_t b0 = 0; b0 < nb; b0 += piece) {
            uint64_t m = nb - b0 < piece ? nb - b0 : piece;
            unsigned __int128 s = F + (unsigned __int128)b0 * batch;
            bulk_u128 sv = { (uint64_t)s, (uint64_t)(s >> 64) };
            int st = bulk_collatz_delay_stats(ctx, e, sv, batch, m, sum + b0, mn + b0, mx + b0);
            if (st) {
                if (outp) bulk_afile_abort(&f);
                cli_die(CLI_EXIT_FAIL, "collatz delays: %s", bulk_status_string(st));
            }
            bulk_progress_update(&prog, (double)((b0 + m) * batch));
        }
        for (uint64_t b = 0; b < nb; b++) {
            unsigned __int128 s = F + (unsigned __int128)b * batch;
            bulk_u128 sv = { (uint64_t)s, (uint64_t)(s >> 64) };
            fprintf(out, "%s %.6f %u %u\n", czcli_str(sv, 0), (double)sum[b] / (double)batch, mn[b], mx[b]);
        }
        if (png) {
            double *ys[3];
            for (int s = 0; s < 3; s++) {
                ys[s] = malloc(nb * sizeof(double));
                if (!ys[s]) cli_die(CLI_EXIT_FAIL, "out of memory");
            }
            for (uint64_t b = 0; b < nb; b++) {
                ys[0][b] = (double)sum[b] / (double)batch;
                ys[1][b] = mn[b];
                ys[2][b] = mx[b];
            }
            if (bulk_cz_plot(png, 1024, 600, NULL, (const double *const *)ys, 3, nb) != 0) {
                if (outp) bulk_afile_abort(&f);
                cli_die(CLI_EXIT_USAGE, "cannot write %s", png);
            }
            for (int s = 0; s < 3; s++) free(ys[s]);
        }
        free(sum);
        free(mn);
        free(mx);
    }
    bulk_progress_finish(&prog);
    if (outp && bulk_afile_commit(&f) != 0) cli_die(CLI_EXIT_FAIL, "cannot write %s", outp);
    if (outp) {
        double secs = bulk_now() - t0;
        fprintf(stderr, "bulk: collatz delays: %llu numbers in %.3f s (%.4g numbers/s)\n",
                (unsigned long long)total, secs, secs > 0 ? (double)total / secs : 0);
    }
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return CLI_EXIT_OK;
}
