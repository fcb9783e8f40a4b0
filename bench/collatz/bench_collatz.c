/* Benchmark of the CPU Collatz engine, one core, near 2^64 (seed 004 section 6):
 *   verify rate (numbers covered per second) against d at fixed k (Table 4) and against k at the
 *   best d (Figure 6); delays rate against d at fixed a (Table 5) and against a (Figure 8).
 * Each point runs bulk_collatz_verify_chunk / the delays of whole blocks on the calling thread
 * (tables built beforehand, not timed) and reports both the thread's CPU time rate and the
 * wall-clock rate: on a shared machine the CPU-time rate is the one-core figure. Prints a table,
 * writes <out-dir>/<date>-cpu-collatz.txt and <date>-cpu-collatz.png (four panels).
 * Options: --out-dir DIR, --kmax K (largest sieve, default 37), --kstore S (bits of it stored,
 * default 28; the levels above are generated per block), --quick (small ranges), --peaks (verify
 * with pre-drop peaks on: bulk_collatz_engine_set_peaks);
 * --replot TXT PNG redraws the figure of an earlier results file. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bulk/collatz.h"
#include "collatz/collatz_internal.h"
#include "progress_line.h"
#include "pictures/plot.h"

#include "../bench_util.h"

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static FILE *res;
static int peaks; /* --peaks */

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    if (res) vfprintf(res, fmt, ap);
    va_end(ap);
    fflush(stdout);
}

struct point {
    double cpu_rate, wall_rate, secs;
    char checksum[48];
};

/* verify of [2^64, 2^64 + len) with tables d and a sieve of k bits, ks of them stored (the
 * rest generated per block, collatz/sieve_ext.c), on this thread */
static struct point verify_point(bulk_ctx *ctx, int d, int k, int ks, uint64_t len)
{
    bulk_collatz_engine *e;
    struct point p = { 0 };
    if (bulk_collatz_engine_new(&e, ctx, d, ks, 0) != BULK_OK ||
        bulk_cz_build_extension(e, k - ks) != BULK_OK || (peaks && bulk_collatz_engine_set_peaks(e, NULL) != BULK_OK)) {
        fprintf(stderr, "engine d=%d k=%d stored %d failed\n", d, k, ks);
        exit(1);
    }
    bulk_u128 first = { 0, 1 }, last = { len - 1, 1 };
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    double c0 = thread_cpu(), w0 = bulk_now();
    if (bulk_collatz_verify_chunk(e, first, last, r) != BULK_OK) {
        fprintf(stderr, "verify failed\n");
        exit(1);
    }
    double c1 = thread_cpu(), w1 = bulk_now();
    p.cpu_rate = (double)len / (c1 - c0);
    p.wall_rate = (double)len / (w1 - w0);
    p.secs = w1 - w0;
    bulk_cz_u128_str(r->checksum, p.checksum);
    free(r);
    bulk_collatz_engine_free(e);
    return p;
}

static struct point delays_point(bulk_ctx *ctx1, int d, int a, uint64_t len)
{
    bulk_collatz_engine *e;
    struct point p = { 0 };
    if (bulk_collatz_engine_new(&e, ctx1, d, 0, a) != BULK_OK) {
        fprintf(stderr, "engine d=%d a=%d failed\n", d, a);
        exit(1);
    }
    uint32_t *buf = malloc(len * sizeof *buf);
    bulk_u128 first = { 0, 1 };
    double c0 = thread_cpu(), w0 = bulk_now();
    if (bulk_collatz_delays(ctx1, e, first, len, buf) != BULK_OK) { /* ctx1: one thread */
        fprintf(stderr, "delays failed\n");
        exit(1);
    }
    double c1 = thread_cpu(), w1 = bulk_now();
    uint64_t sum = 0;
    for (uint64_t i = 0; i < len; i++) sum += buf[i];
    snprintf(p.checksum, sizeof p.checksum, "%llu", (unsigned long long)sum);
    p.cpu_rate = (double)len / (c1 - c0);
    p.wall_rate = (double)len / (w1 - w0);
    p.secs = w1 - w0;
    free(buf);
    bulk_collatz_engine_free(e);
    return p;
}

/* The four series of the benchmark (rate in 1e9/s for verify, 1e6/s for delays). */
struct series {
    double x[48], y[48];
    int n;
};

/* One PNG, 2 x 2 panels: verify against d (top left), verify against k (top right), delays
 * against d (bottom left), delays against a (bottom right); y from 0. */
static int write_figure(const char *path, const struct series *s)
{
    static const char *const title[4] = { "verify, rate against d", "verify, rate against k",
                                          "delays, rate against d", "delays, rate against a" };
    static const char *const xlabel[4] = { "d (bits of tables B, C, J)", "k (bits of the sieve)",
                                           "d (bits of tables B, C, J)", "a (bits of table A)" };
    static const char *const ylabel[4] = { "10\u2079 numbers/s, one core", "10\u2079 numbers/s, one core",
                                           "10\u2076 numbers/s, one core", "10\u2076 numbers/s, one core" };
    pic_plot p[4];
    memset(p, 0, sizeof p);
    for (int i = 0; i < 4; i++) {
        p[i].title = title[i];
        p[i].xlabel = xlabel[i];
        p[i].ylabel = ylabel[i];
        p[i].y_from_zero = 1;
        p[i].nseries = 1;
        p[i].series[0] = (pic_series){ NULL, s[i].x, s[i].y, (size_t)s[i].n };
    }
    return pic_plot_grid_png(path, 1280, 800, 2, p, 4);
}

/* Rebuilds the figure from a results file written by this program. */
static int replot(const char *txt, const char *png)
{
    FILE *f = fopen(txt, "r");
    if (!f) {
        fprintf(stderr, "bench_collatz: cannot read %s\n", txt);
        return 2;
    }
    struct series s[4];
    memset(s, 0, sizeof s);
    int sec = -1;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "verify, rate against d", 22)) sec = 0;
        else if (!strncmp(line, "verify, rate against k", 22)) sec = 1;
        else if (!strncmp(line, "delays, rate against d", 22)) sec = 2;
        else if (!strncmp(line, "delays, rate against a", 22)) sec = 3;
        else if (sec >= 0 && line[0] == ' ') {
            /* columns: x cpu_rate ...; the k table: k stored s_k cpu_rate ... */
            double x, c1, c2, c3;
            int got = sscanf(line, "%lf %lf %lf %lf", &x, &c1, &c2, &c3);
            if (got < 2 || (sec == 1 && got < 4) || s[sec].n >= 48) continue;
            s[sec].x[s[sec].n] = x;
            s[sec].y[s[sec].n++] = (sec == 1 ? c3 : c1) / (sec < 2 ? 1e9 : 1e6);
        }
    }
    fclose(f);
    if (write_figure(png, s) != 0) {
        fprintf(stderr, "bench_collatz: cannot write %s\n", png);
        return 1;
    }
    printf("wrote %s\n", png);
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = "bench/results";
    int kmax = 37, kstore = 28, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out-dir") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--kmax") && i + 1 < argc) kmax = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--kstore") && i + 1 < argc) kstore = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--peaks")) peaks = 1;
        else if (!strcmp(argv[i], "--replot") && i + 2 < argc) return replot(argv[i + 1], argv[i + 2]);
        else {
            fprintf(stderr, "usage: bench_collatz [--out-dir DIR] [--kmax K] [--kstore S] [--quick] [--peaks]\n"
                            "       bench_collatz --replot RESULTS.txt FIGURE.png\n");
            return 2;
        }
    }
    if (kmax > BULK_COLLATZ_MAX_K) kmax = BULK_COLLATZ_MAX_K;
    char date[32], path[512], cpu[256];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    bench_cpu_model(cpu, sizeof cpu, "unknown");
    double load = 0;
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load) != 1) load = 0;
        fclose(la);
    }
    snprintf(path, sizeof path, "%s/%s-cpu-collatz%s.txt", dir, date, peaks ? "-peaks" : "");
    res = fopen(path, "w");
    if (!res) fprintf(stderr, "bench_collatz: cannot write %s (printing only)\n", path);
    bulk_ctx *ctx1;
    if (bulk_ctx_open(&ctx1, BULK_BACKEND_CPU, 1) != BULK_OK) return 1;
    out("# bulk Collatz CPU benchmark, %s, one thread, numbers from 2^64\n", date);
    out("# machine: %s, load average at start %.2f (shared machine: cpu_rate = numbers per second\n"
        "# of this thread's CPU time, the one-core figure; wall_rate includes waiting for the CPU)\n",
        cpu, load);
    out("# command: bench_collatz%s%s --kmax %d --kstore %d\n\n", quick ? " --quick" : "", peaks ? " --peaks" : "",
        kmax, kstore);

    /* ---- verify against d (seed 004 Table 4: k = 32 there) ---- */
    int kfix = quick ? 24 : 32;
    uint64_t vlen = quick ? (1ull << 28) : (1ull << 33);
    double dv[32], dr[32];
    int nd = 0, best_d = 12;
    double best = 0;
    out("verify, rate against d (k = %d, %llu numbers from 2^64)\n", kfix, (unsigned long long)vlen);
    out("%4s %14s %14s %8s %s\n", "d", "cpu_rate", "wall_rate", "secs", "checksum");
    for (int d = 8; d <= 20; d++) {
        struct point p = verify_point(ctx1, d, kfix, kfix, vlen);
        out("%4d %14.4g %14.4g %8.2f %s\n", d, p.cpu_rate, p.wall_rate, p.secs, p.checksum);
        dv[nd] = d;
        dr[nd++] = p.cpu_rate / 1e9;
        if (p.cpu_rate > best) {
            best = p.cpu_rate;
            best_d = d;
        }
    }
    /* ---- verify against k (Figure 6) ---- */
    double kv[48], kr[48];
    int nk = 0;
    out("\nverify, rate against k (d = %d; max(2^32, 2^k) numbers from 2^64, %s; the sieve of k\n"
        "bits with min(k, %d) of them stored and the levels above generated per block, the CLI default)\n",
        best_d, quick ? "quick: 2^28" : "whole sieve blocks", kstore);
    out("%4s %7s %12s %14s %14s %8s %s\n", "k", "stored", "s_k", "cpu_rate", "wall_rate", "secs",
        "checksum");
    for (int k = 16; k <= kmax; k += (k < 28 ? 4 : 1)) {
        uint64_t len = quick ? (1ull << 28) : (k > 32 ? (1ull << k) : (1ull << 32));
        uint64_t counts[BULK_COLLATZ_MAX_K + 1];
        if (bulk_collatz_sieve_count(ctx1, k, counts) != BULK_OK) break;
        int ks = k < kstore ? k : kstore;
        struct point p = verify_point(ctx1, best_d, k, ks, len);
        out("%4d %7d %12llu %14.4g %14.4g %8.2f %s\n", k, ks, (unsigned long long)counts[k],
            p.cpu_rate, p.wall_rate, p.secs, p.checksum);
        kv[nk] = k;
        kr[nk++] = p.cpu_rate / 1e9;
    }
    /* ---- delays against d (Table 5: a = 25 there) and against a (Figure 8) ---- */
    uint64_t dlen = quick ? (1ull << 20) : (1ull << 26); /* 64 blocks of the 2^20 merge classes */
    double ddv[32], ddr[32], av[32], ar[32];
    int ndd = 0, na = 0, best_dd = 11;
    best = 0;
    out("\ndelays, rate against d (a = 20, %llu numbers from 2^64, merge classes of %d bits)\n",
        (unsigned long long)dlen, BULK_CZ_MERGE_BITS);
    out("%4s %14s %14s %8s %s\n", "d", "cpu_rate", "wall_rate", "secs", "sum of delays");
    for (int d = 8; d <= 18; d++) {
        struct point p = delays_point(ctx1, d, 20, dlen);
        out("%4d %14.4g %14.4g %8.2f %s\n", d, p.cpu_rate, p.wall_rate, p.secs, p.checksum);
        ddv[ndd] = d;
        ddr[ndd++] = p.cpu_rate / 1e6;
        if (p.cpu_rate > best) {
            best = p.cpu_rate;
            best_dd = d;
        }
    }
    out("\ndelays, rate against a (d = %d)\n", best_dd);
    out("%4s %14s %14s %8s %s\n", "a", "cpu_rate", "wall_rate", "secs", "sum of delays");
    for (int a = best_dd; a <= 26; a += 2) {
        struct point p = delays_point(ctx1, best_dd, a, dlen);
        out("%4d %14.4g %14.4g %8.2f %s\n", a, p.cpu_rate, p.wall_rate, p.secs, p.checksum);
        av[na] = a;
        ar[na++] = p.cpu_rate / 1e6;
    }
    out("\n# targets (issue 3): verify >= 4e9 numbers/s, delays >= 1e8 numbers/s on one core\n");
    out("# seed 004 CPU (i7-4790): verify 5.25e9 (k = 37, d = 12), delays 1.39e7\n");
    char png[512];
    struct series fig[4];
    memset(fig, 0, sizeof fig);
    fig[0].n = nd;
    fig[1].n = nk;
    fig[2].n = ndd;
    fig[3].n = na;
    memcpy(fig[0].x, dv, sizeof(double) * (size_t)nd);
    memcpy(fig[0].y, dr, sizeof(double) * (size_t)nd);
    memcpy(fig[1].x, kv, sizeof(double) * (size_t)nk);
    memcpy(fig[1].y, kr, sizeof(double) * (size_t)nk);
    memcpy(fig[2].x, ddv, sizeof(double) * (size_t)ndd);
    memcpy(fig[2].y, ddr, sizeof(double) * (size_t)ndd);
    memcpy(fig[3].x, av, sizeof(double) * (size_t)na);
    memcpy(fig[3].y, ar, sizeof(double) * (size_t)na);
    snprintf(png, sizeof png, "%s/%s-cpu-collatz.png", dir, date);
    if (write_figure(png, fig) == 0)
        out("# %s: cpu rates, 2 x 2 panels, y from 0: verify (1e9/s) against d = 8..20 | against\n"
            "#   k = 16..%d; delays (1e6/s) against d = 8..18 | against a\n", png, kmax);
    bulk_ctx_close(ctx1);
    if (res) {
        fclose(res);
        printf("wrote %s\n", path);
    }
    return 0;
}
