/* Benchmark of the glide and delay records engines (src/collatz/records_glide.c,
 * records_delay.c), one thread, against their peers measured in the same run on the same ranges:
 *   glide records (bulk_collatz_records, kind GLIDE) vs full-glide verify (bulk_collatz_verify_chunk,
 *   the sieve `bulk collatz verify` picks for the length: k = min(37, log2(len) - 6), min(k, 28)
 *   stored, d = 11) and vs the per-number path the records used before (bulk_cz_glide_of and a
 *   running maximum, on 2^22 numbers of the range);
 *   delay records (kind DELAY) vs bulk_collatz_delays on the same range and vs the per-number
 *   path (bulk_cz_delay_of). Ranges: from 2^40 and from 2^64 (windows: the predecessor
 *   exclusions of delay records do not apply there), and [2^22, 2^22 + len) (they apply from 2^25).
 * Rates are numbers per second of process CPU time (the one-core figure on a shared machine).
 * Prints a table and writes <out-dir>/collatz-records-vm.txt.
 * Options: --out-dir DIR, --quick (2^26 numbers per range instead of 2^30). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bulk/collatz.h"
#include "collatz/collatz_internal.h"

#include "../bench_util.h"

typedef unsigned __int128 u128;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bulk_u128 B(u128 v) { return (bulk_u128){ (uint64_t)v, (uint64_t)(v >> 64) }; }

static void die(const char *what)
{
    fprintf(stderr, "bench_collatz_records: %s failed\n", what);
    exit(1);
}

/* records of [lo, lo + len) by the library; rate, count of records into *nrec */
static double records_rate(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind, u128 lo,
                           uint64_t len, size_t *nrec)
{
    bulk_collatz_record *r;
    double t = cpu_now();
    if (bulk_collatz_records(ctx, e, kind, B(lo), B(lo + len - 1), &r, nrec) != BULK_OK) die("records");
    t = cpu_now() - t;
    free(r);
    return (double)len / t;
}

/* the per-number path of before: value of every n and a running maximum */
static double per_number_rate(const bulk_collatz_engine *e, bulk_collatz_kind kind, u128 lo, uint64_t len)
{
    uint64_t best = 0, nrec = 0;
    double t = cpu_now();
    for (uint64_t i = 0; i < len; i++) {
        uint64_t v;
        if (kind == BULK_COLLATZ_DELAY) {
            v = (uint64_t)bulk_cz_delay_of(e, B(lo + i));
        } else {
            u128 g;
            if (bulk_cz_glide_of(e, B(lo + i), &g)) die("glide_of");
            v = (uint64_t)g;
        }
        if (!i || v > best) {
            best = v;
            nrec++;
        }
    }
    t = cpu_now() - t;
    return nrec ? (double)len / t : 0;
}

static double verify_rate(bulk_ctx *ctx, u128 lo, uint64_t len)
{
    int k = 63 - __builtin_clzll(len) - 6;
    if (k > 37) k = 37;
    int ks = k < 28 ? k : 28;
    bulk_collatz_engine *e;
    if (bulk_collatz_engine_new(&e, ctx, 11, ks, 0) != BULK_OK || bulk_collatz_engine_extend(e, k - ks) != BULK_OK)
        die("verify engine");
    bulk_collatz_verify_result r;
    double t = cpu_now();
    if (bulk_collatz_verify_chunk(e, B(lo), B(lo + len - 1), &r) != BULK_OK) die("verify");
    t = cpu_now() - t;
    bulk_collatz_engine_free(e);
    return (double)len / t;
}

static double delays_rate(bulk_ctx *ctx, const bulk_collatz_engine *e, u128 lo, uint64_t len)
{
    const uint64_t piece = 1ull << 24; /* whole merge-class blocks, 64 MB of output at a time */
    uint32_t *d = malloc(piece * sizeof *d);
    if (!d) die("malloc");
    double t = cpu_now();
    for (uint64_t off = 0; off < len; off += piece)
        if (bulk_collatz_delays(ctx, e, B(lo + off), len - off < piece ? len - off : piece, d) != BULK_OK) die("delays");
    t = cpu_now() - t;
    free(d);
    return (double)len / t;
}

int main(int argc, char **argv)
{
    const char *dir = "bench/results";
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out-dir") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else {
            fprintf(stderr, "usage: bench_collatz_records [--out-dir DIR] [--quick]\n");
            return 2;
        }
    }
    char path[512], date[32], cpu[256];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    bench_cpu_model(cpu, sizeof cpu, "unknown");
    snprintf(path, sizeof path, "%s/collatz-records-vm.txt", dir);
    FILE *res = fopen(path, "w");
    if (!res) fprintf(stderr, "bench_collatz_records: cannot write %s (printing only)\n", path);
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) != BULK_OK) return 1;
    bulk_collatz_engine *e;
    if (bulk_collatz_engine_new(&e, ctx, 11, 0, 20) != BULK_OK) die("engine");
    const uint64_t len = quick ? (1ull << 26) : (1ull << 30), plen = 1ull << 22;
    /* not timed: the records engines' tables (sieve, classes) are built on first use */
    size_t warm;
    records_rate(ctx, e, BULK_COLLATZ_GLIDE, (u128)1 << 40, 1 << 20, &warm);
    records_rate(ctx, e, BULK_COLLATZ_DELAY, (u128)1 << 40, 1 << 20, &warm);
    char head[1024];
    snprintf(head, sizeof head,
             "# bulk Collatz records benchmark, %s, one thread, rates in numbers/s of CPU time\n"
             "# machine: %s\n# command: bench_collatz_records%s (records engine d = 11, a = 20; len = 2^%d)\n"
             "%-6s %-16s %12s %12s %12s %8s %8s %6s\n",
             date, cpu, quick ? " --quick" : "", quick ? 26 : 30, "kind", "range", "records", "peer", "before", "x_peer",
             "x_before", "count");
    fputs(head, stdout);
    if (res) fputs(head, res);
    const struct {
        const char *name;
        u128 lo;
    } ranges[3] = { { "2^40 + len", (u128)1 << 40 }, { "2^64 + len", (u128)1 << 64 }, { "2^22 + len", (u128)1 << 22 } };
    for (int kind = 0; kind < 2; kind++) {
        bulk_collatz_kind k = kind ? BULK_COLLATZ_DELAY : BULK_COLLATZ_GLIDE;
        for (int w = 0; w < 3; w++) {
            size_t nrec;
            double rr = records_rate(ctx, e, k, ranges[w].lo, len, &nrec);
            double peer = k == BULK_COLLATZ_GLIDE ? verify_rate(ctx, ranges[w].lo, len)
                                                  : delays_rate(ctx, e, ranges[w].lo, len);
            double before = per_number_rate(e, k, ranges[w].lo, plen);
            char line[256];
            snprintf(line, sizeof line, "%-6s %-16s %12.4g %12.4g %12.4g %8.2f %8.1f %6zu\n",
                     kind ? "delay" : "glide", ranges[w].name, rr, peer, before, rr / peer, rr / before, nrec);
            fputs(line, stdout);
            fflush(stdout);
            if (res) fputs(line, res);
        }
    }
    const char *foot = "# peer: glide = full-glide verify (sieve of min(37, log2(len) - 6) bits), delay = bulk_collatz_delays;\n"
                       "# before: the per-number path (bulk_cz_glide_of / bulk_cz_delay_of, running maximum) on 2^22 numbers\n";
    fputs(foot, stdout);
    if (res) {
        fputs(foot, res);
        fclose(res);
        printf("wrote %s\n", path);
    }
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return 0;
}
