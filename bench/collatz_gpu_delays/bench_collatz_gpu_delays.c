/* Benchmark of the CUDA delay loops (docs/collatz-gpu.md "V5"): every n, exact, from 2^64
 * (and 2^68), batch statistics as `bulk collatz delays --stats` computes them. For each point
 * (d, a, batch, start) and each loop: the call's rate (numbers per second, the host's part
 * included: escapes, copies) and the kernels' own rate (CUDA events), and a check that the
 * statistics of 2^22 numbers equal the first loop's of the point (V4X2, the loop V5 falls back
 * to). Nothing is timed before a warm-up call (tables uploaded).
 *
 * Usage: bench_collatz_gpu_delays [--out FILE] [--seconds S] [--quick] [--ncu LOOPS]
 * --quick: five points, V4X2, the default (the class path) and the lean loop; --ncu LOOPS: exactly one launch of 2^27
 * numbers (d = 14, a = 24, batch 1024, from 2^64) per loop of the comma list (e.g.
 * v4x2,v5u4), nothing else, for `ncu -k regex:delays`. Without a CUDA device it says so and
 * exits 0. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collatz/collatz_internal.h"
#include "backend/context.h"
#include "collatz/collatz_backend.h"
#include "collatz/cuda/collatz_cuda.h"

#include "../bench_util.h"

/* The CUDA context whose Collatz GPU state the runs use (the engines stay on the CPU context,
 * whose tuning the CUDA paths read), and its backend table. */
static bulk_ctx *g_gpu;
#define CZ (g_gpu->gpu->collatz)

typedef unsigned __int128 u128;

static FILE *g_out;
static double g_seconds = 0.25;

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

/* A line to stdout and to the results file (g_out). */
#define emit(...) bench_emit_to(g_out, __VA_ARGS__)

/* The loops compared: name, delay_loop, delay_unroll (0: default), table_mem (0: auto), cls = 0:
 * the tuning cz.classes=0 (no merge-class path; cls = 1: the default, the class path where it
 * applies: cg_delay6.h). */
struct loop {
    const char *name;
    int loop, unroll, mem, cls;
};
static const struct loop g_loops[] = {
    { "v4x2", BULK_CZ_CUDA_DELAY_V4X2, 8, 0, 0 },
    { "auto", 0, 0, 0, 1 },
    { "v5u4", BULK_CZ_CUDA_DELAY_V5, 4, 0, 0 },
    { "v5u8", BULK_CZ_CUDA_DELAY_V5, 8, 0, 0 },
    { "v5u4glob", BULK_CZ_CUDA_DELAY_V5, 4, BULK_CZ_CUDA_MEM_GLOBAL, 0 },
    { "v4x2u4", BULK_CZ_CUDA_DELAY_V4X2, 4, 0, 0 },
    { "v5u8glob", BULK_CZ_CUDA_DELAY_V5, 8, BULK_CZ_CUDA_MEM_GLOBAL, 0 },
    { "cls", 0, 0, 0, 1 },
    { "clsu4", BULK_CZ_CUDA_DELAY_V5, 4, 0, 1 },
    { "lean", 0, 0, 0, 0 },
};
#define NLOOPS (int)(sizeof g_loops / sizeof g_loops[0])

static const struct loop *find_loop(const char *name, size_t len)
{
    for (int i = 0; i < NLOOPS; i++)
        if (strlen(g_loops[i].name) == len && !strncmp(g_loops[i].name, name, len)) return &g_loops[i];
    return NULL;
}

/* On ctx, the context the engines are made on (their CUDA paths read its tuning). */
static void use_loop(bulk_ctx *ctx, const struct loop *l)
{
    bulk_ctx_set_tune(ctx, l->cls ? NULL : "cz.classes=0");
    bulk_collatz_cuda_opts o;
    memset(&o, 0, sizeof o);
    o.delay_loop = l->loop;
    o.delay_unroll = l->unroll;
    o.table_mem = l->mem;
    bulk_collatz_cuda_set_opts(ctx, &o);
}

struct dpoint {
    double rate, krate, seconds;
    bulk_collatz_cuda_stats st;
    int status;
};

/* Batch statistics of nb batches from first, the count doubled until the call runs >= g_seconds. */
static struct dpoint measure(const bulk_collatz_engine *e, u128 first, uint64_t batch, uint64_t nb)
{
    struct dpoint p;
    memset(&p, 0, sizeof p);
    for (int it = 0; it < 30; it++) {
        uint64_t *sum = malloc(nb * 8);
        uint32_t *mn = malloc(nb * 4), *mx = malloc(nb * 4);
        if (!sum || !mn || !mx) {
            p.status = BULK_ERR_NOMEM;
            free(sum);
            free(mn);
            free(mx);
            break;
        }
        if (it == 0) CZ->delay_stats(g_gpu, e, U(first), batch, nb < 64 ? nb : 64, sum, mn, mx, NULL, 0); /* warm-up */
        double t0 = bench_now();
        p.status = CZ->delay_stats(g_gpu, e, U(first), batch, nb, sum, mn, mx, NULL, 0);
        double dt = bench_now() - t0;
        free(sum);
        free(mn);
        free(mx);
        if (p.status != BULK_OK) break;
        CZ->last_stats(g_gpu, &p.st);
        p.seconds = dt;
        p.rate = (double)(nb * batch) / dt;
        p.krate = p.st.kernel_seconds > 0 ? (double)(nb * batch) / p.st.kernel_seconds : 0;
        if (dt >= g_seconds || nb * batch > ((uint64_t)1 << 37)) break;
        double f = dt > 0 ? g_seconds * 1.3 / dt : 16;
        if (f > 16) f = 16;
        if (f < 2) f = 2;
        nb = (uint64_t)((double)nb * f);
    }
    return p;
}

/* One point: every loop of the mask, rates and the check against the first loop's statistics. */
static int bench_point(bulk_ctx *cpu, int d, int a, uint64_t batch, int from_bits, const int *loops, int nloops)
{
    const u128 first = ((u128)1 << from_bits) + 777;
    bulk_collatz_engine *e;
    double t0 = bench_now();
    int st = bulk_collatz_engine_new(&e, cpu, d, 0, a);
    if (st != BULK_OK) {
        emit("%-3d %-3d engine: %s\n", d, a, bulk_status_string(st));
        return 1;
    }
    emit("# tables d=%d a=%d built in %.1f s\n", d, a, bench_now() - t0);
    const uint64_t cnb = ((uint64_t)1 << 22) / batch ? ((uint64_t)1 << 22) / batch : 1;
    uint64_t *s0 = calloc(cnb, 8), *s1 = calloc(cnb, 8);
    uint32_t *m0 = calloc(2 * cnb, 4), *m1 = calloc(2 * cnb, 4);
    double r0 = 0;
    int bad = 0;
    for (int k = 0; k < nloops; k++) {
        const struct loop *l = &g_loops[loops[k]];
        use_loop(cpu, l);
        struct dpoint p = measure(e, first, batch, batch >= 4096 ? 64 : 4096);
        uint64_t *cs = k ? s1 : s0;
        uint32_t *cm = k ? m1 : m0;
        int sc = CZ->delay_stats(g_gpu, e, U(first + 99), batch, cnb, cs, cm, cm + cnb, NULL, 0);
        int same = p.status == BULK_OK && sc == BULK_OK &&
                   (k == 0 || (!memcmp(s0, s1, cnb * 8) && !memcmp(m0, m1, cnb * 8)));
        if (!same) bad++;
        if (k == 0) r0 = p.rate;
        emit("%-3d %-3d %-8llu 2^%-3d %-9s %12.4g %12.4g %6.2fx %-5s %-4d %7.3f %9llu %s\n", d, a,
             (unsigned long long)batch, from_bits, l->name, p.rate, p.krate, r0 > 0 ? p.rate / r0 : 0.0,
             p.st.table_mem == BULK_CZ_CUDA_MEM_SHARED ? "shar" : "glob", p.st.delay_loop, p.seconds,
             (unsigned long long)p.st.escapes,
             p.status != BULK_OK || sc != BULK_OK ? bulk_status_string(p.status ? p.status : sc)
             : k == 0 ? "reference" : same ? "identical" : "DIFFERENT");
    }
    free(s0);
    free(s1);
    free(m0);
    free(m1);
    bulk_collatz_engine_free(e);
    return bad;
}

/* --ncu: one launch of 2^27 numbers per loop of the list (tables uploaded by a small call first). */
static int bench_ncu(bulk_ctx *cpu, const char *list)
{
    bulk_collatz_engine *e;
    if (bulk_collatz_engine_new(&e, cpu, 14, 0, 24) != BULK_OK) return 1;
    const u128 first = ((u128)1 << 64) + 12345;
    const uint64_t batch = 1024, nb = ((uint64_t)1 << 27) / batch;
    uint64_t *sum = malloc(nb * 8);
    uint32_t *mn = malloc(nb * 4), *mx = malloc(nb * 4);
    for (const char *p = list; p && *p;) {
        const char *c = strchr(p, ',');
        const size_t len = c ? (size_t)(c - p) : strlen(p);
        const struct loop *l = find_loop(p, len);
        p = c ? c + 1 : NULL;
        if (!l) continue;
        use_loop(cpu, l);
        CZ->delay_stats(g_gpu, e, U(first), batch, 64, sum, mn, mx, NULL, 0);
        int st = CZ->delay_stats(g_gpu, e, U(first), batch, nb, sum, mn, mx, NULL, 0);
        bulk_collatz_cuda_stats cs;
        CZ->last_stats(g_gpu, &cs);
        emit("# ncu point %s (d=14 a=24 batch 1024 from 2^64): %s, %.4g numbers/s in the kernel, %llu launches\n",
             l->name, bulk_status_string(st), cs.kernel_seconds > 0 ? (double)(nb * batch) / cs.kernel_seconds : 0.0,
             (unsigned long long)cs.launches);
    }
    free(sum);
    free(mn);
    free(mx);
    bulk_collatz_engine_free(e);
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *ncu = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) g_seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--ncu") && i + 1 < argc) ncu = argv[++i];
        else {
            printf("usage: bench_collatz_gpu_delays [--out FILE] [--seconds S] [--quick] [--ncu LOOPS]\n"
                   "The CUDA delay loops side by side (batch statistics from 2^64 and 2^68), each point\n"
                   "checked identical to the first loop's; --ncu: one launch per loop for ncu.\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    int G = bulk_cuda_device_count();
    if (G == 0) {
        printf("bench_collatz_gpu_delays: no CUDA device, nothing to measure\n");
        return 0;
    }
    if (out && !(g_out = fopen(out, "w"))) {
        fprintf(stderr, "cannot write %s\n", out);
        return 2;
    }
    bulk_ctx *cpu;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;
    if (bulk_ctx_open(&g_gpu, BULK_BACKEND_CUDA, 0) != BULK_OK || !g_gpu->gpu) {
        fprintf(stderr, "bench_collatz_gpu_delays: cannot open a CUDA context: %s\n", bulk_ctx_last_error(NULL));
        return 1;
    }
    char host[64] = "?";
    gethostname(host, sizeof host);
    emit("# bench_collatz_gpu_delays on %s: %d GPU(s), %d CPU threads; %s\n", host, G, bulk_ctx_threads(cpu),
         ncu ? "ncu" : quick ? "quick" : "full");
    int bad = 0;
    if (ncu) {
        bad = bench_ncu(cpu, ncu);
    } else {
        emit("%-3s %-3s %-8s %-5s %-9s %12s %12s %7s %-5s %-4s %7s %9s %s\n", "d", "a", "batch", "from", "loop",
             "numbers/s", "kernel n/s", "vs 1st", "table", "used", "seconds", "escapes", "result");
        /* indices into g_loops */
        /* auto = the class path (the default), lean = V5 with the lean round end and no classes,
         * v5u8 = the same forced through the options, clsu4 = classes with rounds of 4 steps */
        static const int all[] = { 0, 1, 9, 3, 8 };
        static const int v5[] = { 0, 1, 9, 3 };
        static const int few[] = { 0, 1, 9, 3, 5 };
        struct pt {
            int d, a;
            uint64_t batch;
            int from;
            const int *loops;
            int n;
        };
        const struct pt full[] = {
            { 14, 24, 1024, 64, all, 5 },     { 14, 20, 1 << 20, 64, few, 5 }, { 15, 22, 1 << 20, 64, v5, 4 },
            { 15, 24, 1024, 64, v5, 4 },      { 14, 24, 1024, 68, v5, 4 },      { 16, 24, 1024, 64, v5, 4 },
            { 15, 26, 1024, 64, v5, 4 },      { 15, 24, 1024, 68, v5, 4 },      { 15, 20, 1 << 20, 64, v5, 4 },
            { 13, 22, 1 << 20, 64, v5, 4 },
        };
        /* --quick (a check of the default): V4X2, the default and the lean loop */
        static const int fin[] = { 0, 1, 9 };
        const struct pt qk[] = { { 14, 24, 1024, 64, fin, 3 }, { 14, 20, 1 << 20, 64, fin, 3 },
                                 { 15, 24, 1024, 64, fin, 3 }, { 15, 22, 1 << 20, 64, fin, 3 },
                                 { 14, 24, 1024, 68, fin, 3 } };
        const struct pt *pts = quick ? qk : full;
        const int np = quick ? (int)(sizeof qk / sizeof qk[0]) : (int)(sizeof full / sizeof full[0]);
        for (int i = 0; i < np; i++) bad += bench_point(cpu, pts[i].d, pts[i].a, pts[i].batch, pts[i].from, pts[i].loops, pts[i].n);
        bulk_collatz_cuda_opts none;
        memset(&none, 0, sizeof none);
        bulk_collatz_cuda_set_opts(cpu, &none);
        emit("# delays: %s\n", bad ? "SOME RESULTS DIFFER OR FAILED" : "all results identical");
    }
    bulk_ctx_close(cpu);
    CZ->release(g_gpu->cuda);
    bulk_ctx_close(g_gpu);
    if (g_out) fclose(g_out);
    return bad ? 1 : 0;
}
