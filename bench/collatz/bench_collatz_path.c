/* Benchmark of path records (`records --kind path`, src/collatz/records_path.c) against their
 * peer, `verify --converge` with pre-drop peaks, measured in the same run on the same ranges:
 *   - windows of len numbers from 2^40 and 2^64 with above 0 (the CLI's `--above 0`), one thread;
 *   - the window of len from 2^39 above the peak of the last path record below 2^39 (the
 *     threshold a run from 1 has there, so few states come near it), one thread;
 *   - from 1 to 2^long on 2 threads (wall and CPU time): the basis of the 1..2^40 estimate.
 * Engines as the CLI builds them: records d = 11, a = 20, sieve min(30, log2(len) - 6) in
 * convergence mode; verify d = 11, sieve min(37, log2(len) - 6) (at most 28 stored), convergence
 * mode, peaks on. Engine builds are not timed. Rates are numbers per second of process CPU time.
 * Prints a table and writes <out-dir>/collatz-path-records-vm.txt.
 * Options: --out-dir DIR, --len L (log2 of the window, default 32), --long L (default 34). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bulk/collatz.h"

typedef unsigned __int128 u128;

static double clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bulk_u128 B(u128 v) { return (bulk_u128){ (uint64_t)v, (uint64_t)(v >> 64) }; }

static void die(const char *what)
{
    fprintf(stderr, "bench_collatz_path: %s failed\n", what);
    exit(1);
}

struct timing {
    double cpu, wall;
    size_t count; /* records, or hits */
};

static bulk_collatz_engine *engine(bulk_ctx *ctx, int k, int ks, int a, int peaks)
{
    bulk_collatz_engine *e;
    if (bulk_collatz_engine_new(&e, ctx, 11, ks, a) != BULK_OK || bulk_collatz_engine_set_converge(e) != BULK_OK ||
        bulk_collatz_engine_extend(e, k - ks) != BULK_OK || (peaks && bulk_collatz_engine_set_peaks(e, NULL) != BULK_OK))
        die("engine");
    return e;
}

static int lg(u128 len)
{
    int l = 0;
    while (l < 127 && (len >> (l + 1))) l++;
    return l;
}

/* path records of [lo, hi] above *above (NULL: from 1, plain records), or with peer = 1 verify
 * of the same range */
static struct timing run(int peer, int threads, u128 lo, u128 hi, const bulk_collatz_wide *above)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, threads) != BULK_OK) die("context");
    const int l = lg(hi - lo + 1);
    int k = peer ? (l - 6 > 37 ? 37 : l - 6) : (l - 6 > 30 ? 30 : l - 6);
    if (k < 0) k = 0;
    bulk_collatz_engine *e = peer ? engine(ctx, k, k < 28 ? k : 28, 0, 1) : engine(ctx, k, k, 20, 0);
    bulk_collatz_verify_result *vr = malloc(sizeof *vr);
    bulk_collatz_record *r = NULL;
    if (!vr) die("malloc");
    struct timing t = { clock_of(CLOCK_PROCESS_CPUTIME_ID), clock_of(CLOCK_MONOTONIC), 0 };
    int st = peer    ? bulk_collatz_verify(ctx, e, B(lo), B(hi), NULL, vr)
             : above ? bulk_collatz_path_records_run(ctx, e, B(lo), B(hi), above, NULL, &r, &t.count)
                     : bulk_collatz_records_run(ctx, e, BULK_COLLATZ_PATH, B(lo), B(hi), NULL, &r, &t.count);
    if (st != BULK_OK) die(peer ? "verify" : "records");
    t.cpu = clock_of(CLOCK_PROCESS_CPUTIME_ID) - t.cpu;
    t.wall = clock_of(CLOCK_MONOTONIC) - t.wall;
    free(r);
    free(vr);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(ctx);
    return t;
}

int main(int argc, char **argv)
{
    const char *dir = "bench/results";
    int lw = 32, ll = 34;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out-dir") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--len") && i + 1 < argc) lw = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--long") && i + 1 < argc) ll = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_collatz_path [--out-dir DIR] [--len L] [--long L]\n");
            return 2;
        }
    }
    if (lw < 20 || lw > 40 || ll < 20 || ll > 40) die("--len/--long (20..40)");
    char path[512], date[32], head[768];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    snprintf(path, sizeof path, "%s/collatz-path-records-vm.txt", dir);
    FILE *res = fopen(path, "w");
    if (!res) fprintf(stderr, "bench_collatz_path: cannot write %s (printing only)\n", path);
    FILE *la = fopen("/proc/loadavg", "r");
    char load[128] = "unknown";
    if (la) {
        if (!fgets(load, sizeof load, la)) strcpy(load, "unknown");
        load[strcspn(load, "\n")] = 0;
        fclose(la);
    }
    snprintf(head, sizeof head,
             "# bulk path records benchmark, %s, load average at start: %s\n"
             "# command: bench_collatz_path --len %d --long %d; rates in numbers per CPU-second\n"
             "%-26s %7s %9s %9s %11s %11s %7s %6s\n",
             date, load, lw, ll, "range", "threads", "cpu_s", "wall_s", "records/s", "verify/s", "x_peer", "count");
    fputs(head, stdout);
    if (res) fputs(head, res);
    /* the peak of 446559217279, the last path record below 2^39 */
    bulk_collatz_wide v39 = { { 0 } }, zero = { { 0 } };
    const u128 p39 = (u128)39533276910ull * 1000000000000ull + 778060381072ull;
    v39.limb[0] = (uint64_t)p39;
    v39.limb[1] = (uint64_t)(p39 >> 64);
    const u128 w = (u128)1 << lw;
    const struct {
        const char *name;
        int threads;
        u128 lo, hi;
        const bulk_collatz_wide *above;
    } rows[4] = { { "2^40 + 2^len, above 0", 1, (u128)1 << 40, ((u128)1 << 40) + w - 1, &zero },
                  { "2^64 + 2^len, above 0", 1, (u128)1 << 64, ((u128)1 << 64) + w - 1, &zero },
                  { "2^39 + 2^len, above P39", 1, (u128)1 << 39, ((u128)1 << 39) + w - 1, &v39 },
                  { "1 .. 2^long", 2, 1, ((u128)1 << ll) - 1, NULL } };
    for (int i = 0; i < 4; i++) {
        const struct timing r = run(0, rows[i].threads, rows[i].lo, rows[i].hi, rows[i].above);
        const struct timing v = run(1, rows[i].threads, rows[i].lo, rows[i].hi, NULL);
        const double n = (double)(rows[i].hi - rows[i].lo + 1);
        char line[256];
        snprintf(line, sizeof line, "%-26s %7d %9.2f %9.2f %11.4g %11.4g %7.2f %6zu\n", rows[i].name, rows[i].threads,
                 r.cpu, r.wall, n / r.cpu, n / v.cpu, v.cpu / r.cpu, r.count);
        fputs(line, stdout);
        fflush(stdout);
        if (res) fputs(line, res);
    }
    const char *foot = "# cpu_s, wall_s: the records run (engine build excluded); verify/s: verify --converge with peaks\n"
                       "# on the same range and threads; x_peer = verify CPU time / records CPU time\n";
    fputs(foot, stdout);
    if (res) {
        fputs(foot, res);
        fclose(res);
        printf("wrote %s\n", path);
    }
    return 0;
}
