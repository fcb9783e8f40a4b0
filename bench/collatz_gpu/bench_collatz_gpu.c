/* Benchmark of the CUDA Collatz backend (seed 004 section 6: Table 4, Table 5, Figures 5 and 7;
 * seed 003 section 8): numbers per second against d (B, C, J in shared vs global memory) and
 * against the sieve bits k (also beyond the seed's 37 when memory allows), the delay rate
 * against d and the delay-table bits a, the kernel variants, the share of time on the overflow
 * path, one GPU against all, and the speed-up over the CPU backend on all cores of the machine.
 * Every GPU point is also a correctness point: one per section is compared with the CPU.
 *
 * Numbers near 2^68 (verify) and 2^64 (delays); rates count numbers covered per second
 * (verify: every n of the range, sieved or iterated), as the seed does. Each point is timed
 * after a warm-up (tables uploaded), with the range doubled until it runs >= --seconds.
 *
 * Usage: bench_collatz_gpu [--out FILE] [--png FILE] [--kmax K] [--seconds S] [--quick] [--layouts]
 *        [--delays] [--ncu] [--ncu-verify]
 * --layouts: only the verify layouts side by side (FLAT_BATCH at several refill thresholds,
 * UNIFORM at several d, extension rows; k = 32 and 37, d = 12, near 2^68), results checked
 * identical; < 90 s on an H200.
 * Without a CUDA device it says so and exits 0. */
#include <inttypes.h>
#include <math.h>
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
#include "pictures/plot.h"

#include "../bench_util.h"

/* The CUDA context whose Collatz GPU state the runs use (the engines stay on the CPU context,
 * whose tuning the CUDA paths read), and its backend table. */
static bulk_ctx *g_gpu;
#define CZ (g_gpu->gpu->collatz)

typedef unsigned __int128 u128;

static FILE *g_out;
static double g_seconds = 0.5;
/* measure_verify times whole level-k rows (count a multiple of 2^k from an aligned first), as
 * a long run does (2^64..2^68 at k = 37 is 2^31 rows: its two ragged ends are negligible). A
 * short range with ragged ends spends most of its time in the WALK pieces (a thread per
 * number walking up to k sieve bits: ~100x the cost of a covered number of the rows), so
 * g_ragged = 1 keeps the count as given, to measure that share separately. */
static int g_ragged = 0;
static int g_layout = 0, g_refill = 0;
static int g_only37 = 0; /* --layouts --k37: only k = 37 */
static int g_short = 0;  /* --layouts --short: only the rows marked sh */

static bulk_u128 U(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}
static u128 W(bulk_u128 v) { return (u128)v.hi << 64 | v.lo; }

/* A line to stdout and to the results file (g_out). */
#define emit(...) bench_emit_to(g_out, __VA_ARGS__)

/* The context every engine is made on: the CUDA paths read its tuning. */
static bulk_ctx *g_ctx;

static void set_opts(int kernel, int mem, int devices)
{
    bulk_collatz_cuda_opts o;
    memset(&o, 0, sizeof o);
    o.kernel = kernel;
    o.table_mem = mem;
    o.devices = devices;
    o.verify_layout = g_layout;
    o.refill_lanes = g_refill;
    bulk_collatz_cuda_set_opts(g_ctx, &o);
}

/* An engine with the tables of d bits and the sieve borrowed from `sieve` (so that the sieve
 * is built once for a sweep over d); give it back with unborrow before freeing. */
struct borrowed {
    int k;
    uint64_t s_k, G_k, *Sr, *Sc;
    uint8_t *Sj;
};
static void borrow(bulk_collatz_engine *e, const bulk_collatz_engine *sieve, struct borrowed *b)
{
    b->k = e->k;
    b->s_k = e->s_k;
    b->G_k = e->G_k;
    b->Sr = e->Sr;
    b->Sc = e->Sc;
    b->Sj = e->Sj;
    e->k = sieve->k;
    e->s_k = sieve->s_k;
    e->G_k = sieve->G_k;
    e->Sr = sieve->Sr;
    e->Sc = sieve->Sc;
    e->Sj = sieve->Sj;
}
static void unborrow(bulk_collatz_engine *e, const struct borrowed *b)
{
    e->k = b->k;
    e->s_k = b->s_k;
    e->G_k = b->G_k;
    e->Sr = b->Sr;
    e->Sc = b->Sc;
    e->Sj = b->Sj;
}

struct vpoint {
    double rate, iter_rate, seconds;
    bulk_collatz_cuda_stats st;
    int status;
    u128 first, count;
};

/* Verify [first, first + count) on the GPUs, doubling count until the run takes >= g_seconds. */
static struct vpoint measure_verify(const bulk_collatz_engine *e, u128 first, u128 count)
{
    struct vpoint p;
    memset(&p, 0, sizeof p);
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    /* warm-up: tables and S to the devices */
    p.status = CZ->verify_chunk(g_gpu, e, U(first), U(first + ((u128)1 << e->k) * 4 - 1), r);
    for (int it = 0; p.status == BULK_OK && it < 40; it++) {
        double t0 = bench_now();
        p.status = CZ->verify_chunk(g_gpu, e, U(first), U(first + count - 1), r);
        double dt = bench_now() - t0;
        if (p.status != BULK_OK) break;
        p.seconds = dt;
        p.rate = (double)count / dt;
        p.iter_rate = (double)W(r->iterated) / dt;
        CZ->last_stats(g_gpu, &p.st);
        p.first = first;
        p.count = count;
        if (dt >= g_seconds) break;
        double f = dt > 0 ? g_seconds * 1.3 / dt : 16;
        if (f > 16) f = 16;
        if (f < 2) f = 2;
        count = (u128)((double)count * f);
        /* whole rows (of 2^K with a generated sieve of K = k + kx bits: a ragged end would run
         * its blocks of levels k..K-1 through the stored k bits, slower per number) */
        const int rb = e->k + e->kx;
        if (!g_ragged) count = count >> rb << rb;
    }
    free(r);
    return p;
}

struct dpoint {
    double rate, seconds;
    bulk_collatz_cuda_stats st;
    int status;
};

/* Delay statistics (batches of `batch`) of numbers from first, doubling until >= g_seconds. */
static struct dpoint measure_delays_b(const bulk_collatz_engine *e, u128 first, uint64_t batch, uint64_t nb)
{
    struct dpoint p;
    memset(&p, 0, sizeof p);
    for (int it = 0; it < 30; it++) {
        uint64_t *sum = malloc(nb * 8);
        uint32_t *mn = malloc(nb * 4), *mx = malloc(nb * 4);
        if (it == 0) CZ->delay_stats(g_gpu, e, U(first), batch, 16, sum, mn, mx, NULL, 0); /* warm-up */
        double t0 = bench_now();
        p.status = CZ->delay_stats(g_gpu, e, U(first), batch, nb, sum, mn, mx, NULL, 0);
        double dt = bench_now() - t0;
        free(sum);
        free(mn);
        free(mx);
        if (p.status != BULK_OK) break;
        p.seconds = dt;
        p.rate = (double)(nb * batch) / dt;
        CZ->last_stats(g_gpu, &p.st);
        if (dt >= g_seconds || nb * batch > ((uint64_t)1 << 36)) break;
        double f = dt > 0 ? g_seconds * 1.3 / dt : 16;
        if (f > 16) f = 16;
        if (f < 2) f = 2;
        nb = (uint64_t)((double)nb * f);
    }
    return p;
}

/* Delay statistics, batch 1024. */
static struct dpoint measure_delays(const bulk_collatz_engine *e, u128 first, uint64_t nb)
{
    return measure_delays_b(e, first, 1024, nb);
}

/* ---- the figure: four panels, y on decades ------------------------------------------------- */
struct series {
    int n;
    double x[48], y[48];
};

/* The four panels so far (rewritten after every point of the last section, so that a time
 * limit leaves a plot of what was measured). */
static struct series vd[2], vk[3], dd[2], da[1];

static void set_panel(pic_plot *p, const char *title, const char *xlabel, const struct series *s,
                      int ns, const char *const *names)
{
    memset(p, 0, sizeof *p);
    p->title = title;
    p->xlabel = xlabel;
    p->ylabel = "numbers/s";
    p->ylog = 1;
    p->nseries = ns;
    for (int i = 0; i < ns; i++) /* a series not measured (yet) gets no legend entry */
        p->series[i] = (pic_series){ s[i].n ? names[i] : NULL, s[i].x, s[i].y, (size_t)s[i].n };
}

static void write_plot(const char *png)
{
    if (!png) return;
    static const char *const tables[3] = { "shared tables", "global tables",
                                           "sieve of K bits, 28 stored (x = K)" };
    static const char *const one[1] = { NULL };
    pic_plot p[4];
    set_panel(&p[0], "verify, rate against d", "d (bits of tables B, C, J)", vd, 2, tables);
    set_panel(&p[1], "verify, rate against k", "k (bits of the sieve)", vk, 3, tables);
    set_panel(&p[2], "delays, rate against d", "d (bits of tables B, C, J)", dd, 2, tables);
    set_panel(&p[3], "delays, rate against a", "a (bits of table A)", da, 1, one);
    if (pic_plot_grid_png(png, 1280, 800, 2, p, 4) != 0) perror(png);
}

/* --layouts: the FLAT kernel (the default) and FLAT_BATCH (idle lanes refill together, at 8, 12
 * and 16 idle lanes) timed side by side on the same ranges, k = 32 and 37, d = 12, n near 2^68;
 * every variant's result on one fixed range (2^(k+2) numbers) must equal FLAT's bit for bit
 * (FLAT itself is compared with the CPU backend by tests/collatz_gpu/test_collatz_gpu). */
static int same_vr(const bulk_collatz_verify_result *a, const bulk_collatz_verify_result *b)
{
    return !memcmp(&a->covered, &b->covered, sizeof a->covered) &&
           !memcmp(&a->iterated, &b->iterated, sizeof a->iterated) &&
           !memcmp(&a->checksum, &b->checksum, sizeof a->checksum) && a->max_glide == b->max_glide &&
           !memcmp(&a->max_glide_n, &b->max_glide_n, sizeof a->max_glide_n) &&
           a->overflows == b->overflows;
}
static int same_totals(const bulk_collatz_verify_result *a, const bulk_collatz_verify_result *b)
{
    return !memcmp(&a->covered, &b->covered, sizeof a->covered) &&
           !memcmp(&a->checksum, &b->checksum, sizeof a->checksum) && a->max_glide == b->max_glide &&
           !memcmp(&a->max_glide_n, &b->max_glide_n, sizeof a->max_glide_n) && a->overflows == b->overflows;
}
static int bench_layouts(bulk_ctx *cpu, int kmax)
{
    /* d: 0 = 12; sh: 1 = in the --short table (the fallback layout, the default, the extension
     * rows); ks, K: an engine of ks stored sieve bits extended to K bits (collatz/sieve_ext.c; 0:
     * the row's k stored). The first row is the reference of the "vs batch" column. */
    static const struct { const char *name; int layout, refill, mem, d, sh, ks, K; } v[] = {
        /* FLAT_BATCH (record replays, incremental setup; mem 0 = AUTO resolves to global) */
        { "batch 16", BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, 16, 0, 0, 1, 0, 0 },
        { "batch 12", BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, 12, 0, 0, 0, 0, 0 },
        { "batch 20", BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, 20, 0, 0, 0, 0, 0 },
        { "batch 16 shared", BULK_CZ_CUDA_LAYOUT_FLAT_BATCH, 16, BULK_CZ_CUDA_MEM_SHARED, 0, 0, 0, 0 },
        /* the options left at AUTO: whatever the build's defaults are */
        { "default (auto)", 0, 0, 0, 0, 1, 0, 0 },
        /* the uniform trips (cg_verify_uni.h) at d = 12, 10, 14, 16 */
        { "uniform", BULK_CZ_CUDA_LAYOUT_UNIFORM, 0, 0, 0, 0, 0, 0 },
        { "uniform d=10", BULK_CZ_CUDA_LAYOUT_UNIFORM, 0, 0, 10, 0, 0, 0 },
        { "uniform d=14", BULK_CZ_CUDA_LAYOUT_UNIFORM, 0, 0, 14, 0, 0, 0 },
        { "uniform d=16", BULK_CZ_CUDA_LAYOUT_UNIFORM, 0, 0, 16, 0, 0, 0 },
        /* the generated sieve on the GPU (extension rows run k_uni whatever the layout) */
        { "ext", BULK_CZ_CUDA_LAYOUT_UNIFORM, 0, 0, 0, 1, 32, 0 },
        { "ext", BULK_CZ_CUDA_LAYOUT_UNIFORM, 0, 0, 0, 1, 28, 0 },
        { "ext", BULK_CZ_CUDA_LAYOUT_UNIFORM, 0, 0, 0, 1, 32, 39 },
        { "ext", BULK_CZ_CUDA_LAYOUT_UNIFORM, 0, 0, 0, 1, 30, 39 },
    };
    const int nv = (int)(sizeof v / sizeof v[0]);
    const int ks[] = { 32, 37 }, nk = kmax < 37 ? 1 : 2, k0 = g_only37 ? 1 : 0;
    const u128 two68 = (u128)1 << 68;
    int bad = 0;
    emit("\n## verify layouts side by side (d=12, n near 2^68, tables auto)\n");
    emit("%-4s %-18s %14s %14s %8s %8s %s\n", "k", "layout", "numbers/s", "iterated/s", "seconds",
         "vs batch", "result");
    for (int ki = k0; ki < nk; ki++) {
        const int k = ks[ki];
        bulk_collatz_engine *e;
        double t0 = bench_now();
        int st = bulk_collatz_engine_new(&e, cpu, 12, k, 0);
        if (st != BULK_OK) {
            emit("%-4d engine: %s (memory?)\n", k, bulk_status_string(st));
            return 1;
        }
        emit("# sieve k=%d built in %.1f s\n", k, bench_now() - t0);
        bulk_collatz_verify_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
        const u128 c0 = two68 + ((u128)4242 << k), c1 = c0 + ((u128)1 << (k + 2)) - 1;
        double ref_rate = 0;
        for (int i = 0; i < nv; i++) {
            if (g_short && !v[i].sh) continue;
            /* another d: an engine of those tables with this sieve borrowed */
            bulk_collatz_engine *ed = e;
            struct borrowed bw;
            memset(&bw, 0, sizeof bw);
            const int K = v[i].K ? v[i].K : k;
            if (v[i].ks) {
                if (v[i].ks >= K) continue;
                if (bulk_collatz_engine_new(&ed, cpu, 12, v[i].ks, 0) != BULK_OK) continue;
                if (bulk_cz_build_extension(ed, K - v[i].ks) != BULK_OK) {
                    bulk_collatz_engine_free(ed);
                    continue;
                }
            } else if (v[i].d && v[i].d != e->d) {
                if (bulk_collatz_engine_new(&ed, cpu, v[i].d, 0, 0) != BULK_OK) continue;
                borrow(ed, e, &bw);
            }
            g_layout = v[i].layout;
            g_refill = v[i].refill;
            set_opts(BULK_CZ_CUDA_KERNEL_FAST, v[i].mem, 0);
            struct vpoint p = measure_verify(ed, two68 + ((u128)99 << K), (u128)1 << (K + 3));
            int sc = CZ->verify_chunk(g_gpu, ed, U(c0), U(c1), i ? r : ref);
            if (ed != e) {
                if (!v[i].ks) unborrow(ed, &bw);
                bulk_collatz_engine_free(ed);
            }
            /* another K iterates other numbers: then only the totals (covered, checksum, the
             * largest glide and its n, overflows) must agree */
            int same = p.status == BULK_OK && sc == BULK_OK &&
                       (i == 0 || (K == k ? same_vr(ref, r) : same_totals(ref, r)));
            if (!same) bad++;
            if (i == 0) ref_rate = p.rate;
            char name[40];
            if (v[i].ks) snprintf(name, sizeof name, "%s %d+%d (K=%d)", v[i].name, v[i].ks, K - v[i].ks, K);
            else snprintf(name, sizeof name, "%s", v[i].name);
            emit("%-4d %-18s %14.4g %14.4g %8.3f %7.2fx %s\n", k, name, p.rate, p.iter_rate,
                 p.seconds, ref_rate > 0 ? p.rate / ref_rate : 0.0,
                 p.status != BULK_OK || sc != BULK_OK ? bulk_status_string(p.status ? p.status : sc)
                 : i == 0 ? "reference" : !same ? "DIFFERENT" : K == k ? "identical" : "same totals");
        }
        g_layout = g_refill = 0;
        free(ref);
        free(r);
        bulk_collatz_engine_free(e);
    }
    emit("# layouts: %s\n", bad ? "SOME RESULTS DIFFER OR FAILED" : "all results identical");
    return bad ? 1 : 0;
}

/* --delays: the delay loops side by side (V3: one step per trip, a block per batch; V4X2:
 * CG_DELAY_UNROLL three-limb steps per trip, deferred A loads, a warp per batch piece, two
 * numbers per lane; V5: the default, rounds without a test), batch statistics (batch 1024) from 2^64 at several (d, a), plus the CLI's
 * shape (batch 2^20). Each point: the call's rate and the kernels' own rate (CUDA events), and
 * the statistics of 2^22 numbers compared with V3's. --ncu: one launch of 2^27 numbers per loop
 * (d = 12, a = 24), nothing else, for `ncu -k regex:delays`. */
static int bench_delays(bulk_ctx *cpu, int ncu)
{
    static const struct { const char *name; int loop, unroll, mem; } v[] = {
        { "v3", BULK_CZ_CUDA_DELAY_V3, 0, 0 },       { "v4x2", BULK_CZ_CUDA_DELAY_V4X2, 8, 0 },
        { "v5", BULK_CZ_CUDA_DELAY_V5, 8, 0 },       { "v5u4", BULK_CZ_CUDA_DELAY_V5, 4, 0 },
        { "v4x2u4", BULK_CZ_CUDA_DELAY_V4X2, 4, 0 }, { "v4x2glob", BULK_CZ_CUDA_DELAY_V4X2, 8, BULK_CZ_CUDA_MEM_GLOBAL },
    };
    static const int da[][3] = { { 12, 24, 1024 }, { 20, 24, 1024 }, { 14, 20, 1 << 20 }, { 20, 28, 1024 } };
    const int nda = ncu ? 1 : (int)(sizeof da / sizeof da[0]);
    const u128 two64 = (u128)1 << 64;
    int bad = 0;
    if (!ncu) {
        emit("\n## delays: loops side by side (batch statistics from 2^64, tables auto)\n");
        emit("%-3s %-3s %-8s %-5s %12s %12s %8s %7s %9s %s\n", "d", "a", "batch", "loop", "numbers/s",
             "kernel n/s", "seconds", "vs v3", "escapes", "result");
    }
    for (int t = 0; t < nda; t++) {
        const int d = da[t][0], a = da[t][1];
        const uint64_t batch = (uint64_t)da[t][2];
        bulk_collatz_engine *e;
        double t0 = bench_now();
        int st = bulk_collatz_engine_new(&e, cpu, d, 0, a);
        if (st != BULK_OK) {
            emit("%-3d %-3d engine: %s\n", d, a, bulk_status_string(st));
            return 1;
        }
        if (!ncu) emit("# tables d=%d a=%d built in %.1f s\n", d, a, bench_now() - t0);
        const uint64_t cnb = ((uint64_t)1 << 22) / batch ? ((uint64_t)1 << 22) / batch : 1;
        uint64_t *s0 = calloc(cnb, 8), *s1 = calloc(cnb, 8);
        uint32_t *m0 = calloc(2 * cnb, 4), *m1 = calloc(2 * cnb, 4);
        double v3rate = 0;
        /* all rows at d = 12, a = 24 (shared vs global tables there); three elsewhere and under ncu */
        const int nv = ncu || t != 0 ? 3 : 6;
        for (int i = 0; i < nv; i++) {
            bulk_collatz_cuda_opts o;
            memset(&o, 0, sizeof o);
            o.delay_loop = v[i].loop;
            o.delay_unroll = v[i].unroll;
            o.table_mem = v[i].mem;
            bulk_collatz_cuda_set_opts(g_ctx, &o);
            if (ncu) {
                /* exactly one launch of 2^27 numbers per loop (tables uploaded by the first) */
                uint64_t nb = ((uint64_t)1 << 27) / batch;
                uint64_t *sum = malloc(nb * 8);
                uint32_t *mn = malloc(nb * 4), *mx = malloc(nb * 4);
                st = CZ->delay_stats(g_gpu, e, U(two64 + 12345), batch, nb, sum, mn, mx, NULL, 0);
                bulk_collatz_cuda_stats cs;
                CZ->last_stats(g_gpu, &cs);
                emit("# ncu point %s: %s, %.4g numbers/s in the kernel, %llu launches\n", v[i].name,
                     bulk_status_string(st), cs.kernel_seconds > 0 ? (double)(nb * batch) / cs.kernel_seconds : 0.0,
                     (unsigned long long)cs.launches);
                free(sum);
                free(mn);
                free(mx);
                continue;
            }
            struct dpoint p = measure_delays_b(e, two64 + 777, batch, batch >= 4096 ? 64 : 4096);
            uint64_t *cs = i ? s1 : s0;
            uint32_t *cm = i ? m1 : m0;
            int sc = CZ->delay_stats(g_gpu, e, U(two64 + 99), batch, cnb, cs, cm, cm + cnb, NULL, 0);
            int same = p.status == BULK_OK && sc == BULK_OK &&
                       (i == 0 || (!memcmp(s0, s1, cnb * 8) && !memcmp(m0, m1, cnb * 8)));
            if (!same) bad++;
            if (i == 0) v3rate = p.rate;
            emit("%-3d %-3d %-8llu %-5s %12.4g %12.4g %8.3f %6.2fx %9llu %s\n", d, a, (unsigned long long)batch,
                 v[i].name, p.rate, p.st.kernel_seconds > 0 ? p.rate * p.seconds / p.st.kernel_seconds : 0.0,
                 p.seconds, v3rate > 0 ? p.rate / v3rate : 0.0, (unsigned long long)p.st.escapes,
                 p.status != BULK_OK || sc != BULK_OK ? bulk_status_string(p.status ? p.status : sc)
                 : i == 0 ? "reference" : same ? "identical" : "DIFFERENT");
        }
        free(s0);
        free(s1);
        free(m0);
        free(m1);
        bulk_collatz_engine_free(e);
    }
    bulk_collatz_cuda_opts none;
    memset(&none, 0, sizeof none);
    bulk_collatz_cuda_set_opts(g_ctx, &none);
    if (!ncu) {
        /* the fixed cost of a call: tiny calls (one batch of 1024; one row of 2^20 numbers),
         * tables and buffers warm */
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, cpu, 12, 20, 16) == BULK_OK) {
            uint64_t s1;
            uint32_t m1[2];
            bulk_collatz_verify_result *vr = malloc(sizeof *vr);
            const u128 f68 = ((u128)1 << 68) + ((u128)77 << 20);
            int st1 = CZ->delay_stats(g_gpu, e, U(two64), 1024, 1, &s1, m1, m1 + 1, NULL, 0);
            int st2 = CZ->verify_chunk(g_gpu, e, U(f68), U(f68 + ((u128)1 << 20) - 1), vr);
            double t0 = bench_now();
            for (int i = 0; i < 20 && st1 == BULK_OK; i++)
                st1 = CZ->delay_stats(g_gpu, e, U(two64), 1024, 1, &s1, m1, m1 + 1, NULL, 0);
            double t1 = bench_now();
            for (int i = 0; i < 20 && st2 == BULK_OK; i++)
                st2 = CZ->verify_chunk(g_gpu, e, U(f68), U(f68 + ((u128)1 << 20) - 1), vr);
            double t2 = bench_now();
            emit("# call cost (tiny calls, warm): delay_stats of 1024 numbers %.3f ms (%s), verify_chunk of one "
                 "k=20 row %.3f ms (%s)\n", (t1 - t0) / 20 * 1e3, bulk_status_string(st1), (t2 - t1) / 20 * 1e3,
                 bulk_status_string(st2));
            free(vr);
            bulk_collatz_engine_free(e);
        }
        emit("# delays: %s\n", bad ? "SOME RESULTS DIFFER OR FAILED" : "all results identical");
    }
    return bad ? 1 : 0;
}

/* --kscan (also the end of the full run): verify rate against the sieve depth K near 2^68, d = 12,
 * the default options (docs/collatz-gpu.md): the stored k = 28 and k = 37 sieves beside
 * K = 36..44 generated from 28 stored bits (46 from 30) in the default form (cz.ext=gen: level-K
 * slices expanded on the device and run by the stored-sieve kernel), and K = 39 in the unsorted
 * runs (the form where the j-sorted sieve does not fit the device). Every point runs the same 2^42 numbers from an aligned
 * start (whole rows for every K <= 42; K = 43, 44, 46: one row of 2^K numbers) after a
 * warm-up of one row (K <= 42); its totals (covered, checksum, largest glide and n, overflows) must equal
 * the stored k = 28 sieve's on 2^42 (K <= 42), and iterated must be rows x s_K exactly. The
 * green series of the PNG's k panel. */
static int bench_kscan(bulk_ctx *cpu)
{
    /* sh: in the --short scan (a device run's time cap) */
    static const struct { int ks, K; const char *form; int sh; } v[] = {
        /* the longest points last (a device run's time limit cuts those) */
        { 28, 28, "stored", 1 }, { 37, 37, "stored", 1 }, { 28, 36, "gen", 0 }, { 28, 37, "gen", 1 },
        { 28, 39, "gen", 0 },    { 28, 40, "gen", 1 },    { 28, 42, "gen", 0 }, { 28, 43, "gen", 1 },
        { 28, 44, "gen", 0 },    { 30, 46, "gen", 0 },    { 28, 39, "unsorted", 0 },
    };
    const int nv = (int)(sizeof v / sizeof v[0]);
    const u128 a = ((u128)1 << 68) + ((u128)777 << 46), R = (u128)1 << 42; /* a: aligned for K <= 46 */
    bulk_collatz_verify_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
    int bad = 0, have_ref = 0;
    emit("\n## verify: rate vs sieve depth K (d=12, n from 2^68+777*2^46, default options)\n");
    emit("%-3s %-3s %-9s %12s %11s %14s %14s %8s %9s %s\n", "K", "ks", "form", "s_K/2^K", "numbers", "numbers/s",
         "iterated/s", "seconds", "escapes", "result");
    for (int i = 0; i < nv; i++) {
        const int ks = v[i].ks, K = v[i].K;
        if (g_short && !v[i].sh) continue;
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, cpu, 12, ks, 0) != BULK_OK) {
            emit("%-3d %-3d engine: memory?\n", K, ks);
            bad++;
            continue;
        }
        if (K > ks && bulk_cz_build_extension(e, K - ks) != BULK_OK) {
            emit("%-3d %-3d extension: %s\n", K, ks, bulk_ctx_last_error(cpu));
            bulk_collatz_engine_free(e);
            bad++;
            continue;
        }
        const uint64_t sK = K > ks ? e->s_kx : e->s_k;
        const u128 n = K <= 42 ? R : (u128)1 << K, rows = n >> K;
        bulk_ctx_set_tune(g_ctx, strcmp(v[i].form, "unsorted") ? NULL : "cz.ext=unsorted");
        set_opts(0, 0, 0);
        /* warm-up (one row; K > 42: none, the row is the measurement and its one-time costs,
         * the sorted S and the slice buffers, are milliseconds of seconds) */
        int st = K <= 42 ? CZ->verify_chunk(g_gpu, e, U(a), U(a + ((u128)1 << K) - 1), r) : BULK_OK;
        double t0 = bench_now();
        if (st == BULK_OK) st = CZ->verify_chunk(g_gpu, e, U(a), U(a + n - 1), r);
        const double dt = bench_now() - t0;
        bulk_ctx_set_tune(g_ctx, NULL);
        bulk_collatz_cuda_stats cs;
        CZ->last_stats(g_gpu, &cs);
        int ok = st == BULK_OK && W(r->iterated) == rows * sK;
        if (ok && n == R) {
            if (!have_ref) {
                memcpy(ref, r, sizeof *r);
                have_ref = 1;
            } else ok = same_totals(ref, r);
        }
        if (!ok) bad++;
        emit("%-3d %-3d %-9s %12.5f %11.4g %14.4g %14.4g %8.3f %9llu %s\n", K, ks, v[i].form,
             (double)sK / (double)((u128)1 << K), (double)n, (double)n / dt, (double)W(r->iterated) / dt, dt,
             (unsigned long long)cs.escapes,
             st != BULK_OK ? bulk_status_string(st) : !ok ? "DIFFERENT" : i == 0 ? "reference" : n == R ? "same totals" : "iterated = s_K");
        if (st == BULK_OK && !strcmp(v[i].form, "gen")) { /* the green series: gen, default kernel */
            vk[2].x[vk[2].n] = K;
            vk[2].y[vk[2].n++] = (double)n / dt;
        }
        bulk_collatz_engine_free(e);
    }
    emit("# kscan: %s\n", bad ? "SOME RESULTS DIFFER OR FAILED" : "all totals equal, iterated = rows x s_K");
    free(ref);
    free(r);
    return bad ? 1 : 0;
}

/* --ncu-verify: a few verify launches with the default options (k = 32, d = 12, near 2^68), for
 * `ncu -k regex:k_flat --launch-skip 2 -c 1`. */
static int bench_ncu_verify(bulk_ctx *cpu)
{
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, cpu, 12, 32, 0);
    if (st != BULK_OK) return 1;
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    const u128 f = ((u128)1 << 68) + ((u128)4242 << 32);
    st = CZ->verify_chunk(g_gpu, e, U(f), U(f + ((u128)64 << 32) - 1), r);
    bulk_collatz_cuda_stats cs;
    CZ->last_stats(g_gpu, &cs);
    emit("# ncu-verify: %s, %llu launches, %.3f s\n", bulk_status_string(st), (unsigned long long)cs.launches,
         cs.seconds);
    free(r);
    bulk_collatz_engine_free(e);
    return st == BULK_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *png = NULL;
    int kmax = 37, quick = 0, layouts = 0, delays = 0, ncu = 0, kscan = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--png") && i + 1 < argc) png = argv[++i];
        else if (!strcmp(argv[i], "--kmax") && i + 1 < argc) kmax = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) g_seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--layouts")) layouts = 1;
        else if (!strcmp(argv[i], "--delays")) delays = 1;
        else if (!strcmp(argv[i], "--ncu")) delays = ncu = 1;
        else if (!strcmp(argv[i], "--ncu-verify")) ncu = 2;
        else if (!strcmp(argv[i], "--k37")) g_only37 = 1;
        else if (!strcmp(argv[i], "--kscan")) kscan = 1;
        else if (!strcmp(argv[i], "--short")) g_short = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: bench_collatz_gpu [--out FILE] [--png FILE] [--kmax K (24..40, default 37)]\n"
                   "                         [--seconds S per point, default 0.5] [--quick] [--layouts]\n"
                   "--layouts: only the verify layouts (FLAT, FLAT_BATCH; T-step or record replays; k=32, 37,\n"
                   "           only 32 with --kmax < 37, only 37 with --k37; d=12; near 2^68), checked identical\n"
                   "           to FLAT's.\n"
                   "--delays: only the delay loops v3 / v4 / v4x2 side by side (from 2^64), checked identical.\n"
                   "--ncu: one delay launch of 2^27 numbers per loop (d=12, a=24), for ncu -k regex:delays.\n"
                   "--ncu-verify: verify launches with the default options (k=32, d=12), for ncu -k regex:k_flat.\n"
                   "--kscan: only the verify rate against the sieve depth K (stored 28 / 37, generated from 28\n"
                   "         stored bits up to K=44; d=12; near 2^68), totals checked equal, iterated = s_K.\n"
                   "Rates of the CUDA Collatz backend against d, k, a; overflow share; CPU speed-up.\n");
            return 0;
        } else {
            fprintf(stderr, "bench_collatz_gpu: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (kmax < 24 || kmax > BULK_COLLATZ_MAX_K) {
        fprintf(stderr, "bench_collatz_gpu: --kmax %d is out of range [24, %d]\n", kmax, BULK_COLLATZ_MAX_K);
        return 2;
    }
    int G = bulk_cuda_device_count();
    if (G == 0) {
        printf("bench_collatz_gpu: no CUDA device: nothing to measure\n");
        return 0;
    }
    if (out && !(g_out = fopen(out, "w"))) {
        perror(out);
        return 2;
    }
    bulk_ctx *cpu;
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;
    if (bulk_ctx_open(&g_gpu, BULK_BACKEND_CUDA, 0) != BULK_OK || !g_gpu->gpu) {
        fprintf(stderr, "bench_collatz_gpu: cannot open a CUDA context: %s\n", bulk_ctx_last_error(NULL));
        return 1;
    }
    g_ctx = cpu;
    char host[64] = "?";
    gethostname(host, sizeof host);
    emit("# bench_collatz_gpu on %s: %d GPU(s), %d CPU threads; %s\n", host, G, bulk_ctx_threads(cpu),
         ncu ? "ncu" : delays ? "delays" : layouts ? "layouts" : kscan ? "kscan" : quick ? "quick" : "full");
    if (layouts || delays || ncu == 2 || kscan) {
        int rc = ncu == 2 ? bench_ncu_verify(cpu) : delays ? bench_delays(cpu, ncu)
                 : kscan ? bench_kscan(cpu) : bench_layouts(cpu, kmax);
        if (kscan) write_plot(png);
        CZ->release(g_gpu->cuda);
        bulk_ctx_close(g_gpu);
        bulk_ctx_close(cpu);
        if (g_out) fclose(g_out);
        return rc;
    }
    const u128 two68 = (u128)1 << 68, two64 = (u128)1 << 64;
    int st;

    /* ---- 1. verify: rate against d, tables in shared vs global memory (seed 004 Table 4) -- */
    const int k1 = quick ? 28 : 32;
    bulk_collatz_engine *sieve;
    double t0 = bench_now();
    if ((st = bulk_collatz_engine_new(&sieve, cpu, 12, k1, 0)) != BULK_OK) {
        fprintf(stderr, "engine: %s\n", bulk_status_string(st));
        return 1;
    }
    emit("# sieve k=%d: s_k=%" PRIu64 " built on the CPU in %.1f s\n", k1, sieve->s_k, bench_now() - t0);
    emit("\n## verify: rate vs d (k=%d, n near 2^68), fast kernel\n", k1);
    emit("%-4s %-7s %14s %14s %8s\n", "d", "tables", "numbers/s", "iterated/s", "seconds");
    double best = 0;
    int best_d = 12, best_mem = BULK_CZ_CUDA_MEM_SHARED;
    for (int d = 8; d <= 20; d += quick ? 4 : 1) {
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, cpu, d, 0, 0) != BULK_OK) continue;
        struct borrowed b;
        borrow(e, sieve, &b);
        for (int mem = BULK_CZ_CUDA_MEM_SHARED; mem <= BULK_CZ_CUDA_MEM_GLOBAL; mem++) {
            if (mem == BULK_CZ_CUDA_MEM_SHARED && d > 14) continue;
            set_opts(BULK_CZ_CUDA_KERNEL_FAST, mem, 0);
            struct vpoint p = measure_verify(e, two68 + ((u128)12345 << k1), (u128)1 << (k1 + 4));
            if (p.status != BULK_OK) {
                emit("%-4d %-7s failed: %s %s\n", d, mem == 1 ? "shared" : "global",
                     bulk_status_string(p.status), bulk_ctx_last_error(g_gpu));
                continue;
            }
            emit("%-4d %-7s %14.4g %14.4g %8.3f\n", d, mem == 1 ? "shared" : "global", p.rate,
                 p.iter_rate, p.seconds);
            struct series *s = &vd[mem - 1];
            s->x[s->n] = d;
            s->y[s->n++] = p.rate;
            if (p.rate > best) {
                best = p.rate;
                best_d = d;
                best_mem = mem;
            }
        }
        unborrow(e, &b);
        bulk_collatz_engine_free(e);
    }
    emit("# best: d=%d, tables in %s memory\n", best_d, best_mem == 1 ? "shared" : "global");

    /* ---- 2. kernels: fast (32-bit limbs, PTX) vs core (the engine's 64-bit cz_ functions) -- */
    emit("\n## verify: kernel variants (d=12, k=%d)\n", k1);
    {
        bulk_collatz_engine *e;
        bulk_collatz_engine_new(&e, cpu, 12, 0, 0);
        struct borrowed b;
        borrow(e, sieve, &b);
        const char *names[] = { "fast/shared", "fast/global", "core/shared", "core/global",
                                "fast/global, ragged ends (2^(k-1)+777 WALK numbers)" };
        int kv[] = { 1, 1, 2, 2, 1 }, mem[] = { 1, 2, 1, 2, 2 };
        for (int v = 0; v < 5; v++) {
            g_ragged = v == 4;
            set_opts(kv[v], mem[v], 0);
            u128 cnt = ((u128)1 << (k1 + 4)) + (g_ragged ? ((u128)1 << (k1 - 1)) + 777 : 0);
            struct vpoint p = measure_verify(e, two68 + ((u128)777 << k1), cnt);
            emit("%-12s %14.4g numbers/s %14.4g iterated/s %s\n", names[v], p.rate, p.iter_rate,
                 p.status == BULK_OK ? "" : bulk_status_string(p.status));
        }
        g_ragged = 0;
        unborrow(e, &b);
        bulk_collatz_engine_free(e);
    }
    /* the CPU backend on every core, same engine (d=12, k=k1): 32 chunks of 2^k1 so that all
     * threads work (the CPU driver's chunks are aligned to 2^k) */
    {
        bulk_collatz_verify_result *rc = malloc(sizeof *rc), *rg = malloc(sizeof *rg);
        u128 cnt = (u128)1 << (k1 + 5);
        t0 = bench_now();
        st = bulk_collatz_verify(cpu, sieve, U(two68), U(two68 + cnt - 1), NULL, rc);
        double tc = bench_now() - t0;
        set_opts(0, 0, 0);
        struct vpoint p = measure_verify(sieve, two68, cnt);
        int sg = CZ->verify_chunk(g_gpu, sieve, U(two68), U(two68 + cnt - 1), rg);
        int same = st == BULK_OK && sg == BULK_OK &&
                   !memcmp(&rc->checksum, &rg->checksum, sizeof rc->checksum) &&
                   !memcmp(&rc->iterated, &rg->iterated, sizeof rc->iterated) &&
                   !memcmp(&rc->covered, &rg->covered, sizeof rc->covered) &&
                   rc->max_glide == rg->max_glide && rc->overflows == rg->overflows;
        double cpu_rate = (double)cnt / tc;
        emit("\n## CPU backend (%d threads) vs GPU, d=12, k=%d, %.3g numbers from 2^68\n",
             bulk_ctx_threads(cpu), k1, (double)cnt);
        emit("CPU %.4g numbers/s, GPU %.4g numbers/s: speed-up %.1fx; results %s\n", cpu_rate, p.rate,
             p.rate / cpu_rate, same ? "identical" : "DIFFERENT");
        free(rc);
        free(rg);
    }
    bulk_collatz_engine_free(sieve);

    /* ---- 3. delays: rate against d (seed 004 Table 5) and against a (Figure 7) ------------- */
    emit("\n## delays (batch statistics, batch 1024, n from 2^64): rate vs d, a=24\n");
    emit("%-4s %14s %14s\n", "d", "shared", "global");
    for (int d = 8; d <= 20; d += quick ? 4 : 2) {
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, cpu, d, 4, 24) != BULK_OK) continue;
        double r[2] = { 0, 0 };
        for (int mem = 1; mem <= 2; mem++) {
            if (mem == 1 && d > 14) continue;
            set_opts(BULK_CZ_CUDA_KERNEL_FAST, mem, 0);
            struct dpoint p = measure_delays(e, two64, 1 << 12);
            r[mem - 1] = p.status == BULK_OK ? p.rate : 0;
            if (r[mem - 1] > 0) {
                dd[mem - 1].x[dd[mem - 1].n] = d;
                dd[mem - 1].y[dd[mem - 1].n++] = r[mem - 1];
            }
        }
        emit("%-4d %14.4g %14.4g\n", d, r[0], r[1]);
        bulk_collatz_engine_free(e);
    }
    emit("\n## delays: rate vs a (d=12, auto placement), n from 2^64 and from 2^68\n");
    emit("%-4s %14s %14s\n", "a", "from 2^64", "from 2^68");
    double best_delay = 0;
    int best_a = 24;
    for (int a = 16; a <= BULK_COLLATZ_MAX_A; a += quick ? 7 : 2) {
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, cpu, 12, 4, a) != BULK_OK) continue;
        set_opts(0, 0, 0);
        struct dpoint p = measure_delays(e, two64, 1 << 12);
        struct dpoint q = measure_delays(e, two68, 1 << 12);
        emit("%-4d %14.4g %14.4g\n", a, p.rate, q.rate);
        da[0].x[da[0].n] = a;
        da[0].y[da[0].n++] = p.rate;
        if (p.rate > best_delay) best_delay = p.rate, best_a = a;
        bulk_collatz_engine_free(e);
    }
    {
        bulk_collatz_engine *e;
        if (bulk_collatz_engine_new(&e, cpu, 12, 4, best_a) == BULK_OK) {
            uint64_t nb = 1 << 12;
            uint64_t *s1 = malloc(nb * 8 * 2);
            uint32_t *m1 = malloc(nb * 4 * 4);
            double tc = 0;
            for (int it = 0; it < 20; it++) {
                t0 = bench_now();
                bulk_collatz_delay_stats(cpu, e, U(two64), 1024, nb, s1, m1, m1 + nb);
                tc = bench_now() - t0;
                if (tc >= g_seconds) break;
                nb *= 2;
                s1 = realloc(s1, nb * 8 * 2);
                m1 = realloc(m1, nb * 4 * 4);
            }
            double cpu_rate = (double)nb * 1024 / tc;
            set_opts(0, 0, 0);
            CZ->delay_stats(g_gpu, e, U(two64), 1024, nb, s1 + nb, m1 + 2 * nb, m1 + 3 * nb, NULL, 0);
            int same = !memcmp(s1, s1 + nb, nb * 8) && !memcmp(m1, m1 + 2 * nb, 2 * nb * 4);
            emit("delays CPU backend, %d threads, a=%d: %.4g numbers/s -> GPU speed-up %.1fx; results %s\n",
                 bulk_ctx_threads(cpu), best_a, cpu_rate, best_delay / cpu_rate, same ? "identical" : "DIFFERENT");
            free(s1);
            free(m1);
            bulk_collatz_engine_free(e);
        }
    }
    /* ---- 4. verify: rate against k (seed 004 Figure 5), beyond 37 when memory allows; last,
     * because the largest k take longest and a time limit should cut only those ------------ */
    emit("\n## verify: rate vs k (n near 2^68), d=12, tables in shared and in global memory\n");
    emit("%-4s %12s %9s %14s %14s %8s %10s %9s\n", "k", "s_k", "build s", "shared d=12", "global",
         "seconds", "escapes", "esc. s");
    double best_k_rate = 0;
    int best_k = 24;
    for (int k = 24; k <= kmax; k += (quick ? 4 : (k < 32 ? 2 : 1))) {
        bulk_collatz_engine *e;
        t0 = bench_now();
        st = bulk_collatz_engine_new(&e, cpu, 12, k, 0);
        double tb = bench_now() - t0;
        if (st != BULK_OK) {
            emit("%-4d engine: %s (memory?)\n", k, bulk_status_string(st));
            break;
        }
        set_opts(BULK_CZ_CUDA_KERNEL_FAST, BULK_CZ_CUDA_MEM_SHARED, 0);
        struct vpoint ps = measure_verify(e, two68 + ((u128)99 << k), (u128)1 << (k + 3));
        set_opts(BULK_CZ_CUDA_KERNEL_FAST, BULK_CZ_CUDA_MEM_GLOBAL, 0);
        struct vpoint pg = measure_verify(e, two68 + ((u128)99 << k), (u128)1 << (k + 3));
        emit("%-4d %12" PRIu64 " %9.1f %14.4g %14.4g %8.3f %10" PRIu64 " %9.4f\n", k, e->s_k, tb,
             ps.rate, pg.rate, ps.seconds, ps.st.escapes, ps.st.escape_seconds + ps.st.tail_seconds);
        vk[0].x[vk[0].n] = k;
        vk[0].y[vk[0].n++] = ps.rate;
        vk[1].x[vk[1].n] = k;
        vk[1].y[vk[1].n++] = pg.rate;
        if (ps.rate > best_k_rate) best_k_rate = ps.rate, best_k = k;
        if (pg.rate > best_k_rate) best_k_rate = pg.rate, best_k = k;
        write_plot(png);
        emit("# summary: verify best %.4g numbers/s (k=%d; target 2e13), delays best %.4g numbers/s "
             "(a=%d; target 1e11)\n", best_k_rate, best_k, best_delay, best_a);
        /* at k = 37 (the seed's largest; or the largest swept): the overflow share and one GPU
         * vs all, before the points beyond 37, which are the longest (sieve build, upload) */
        if (k == (kmax < 37 ? kmax : 37) || (quick && k + 4 > kmax)) {
            set_opts(0, 0, 0);
            emit("\n## at k=%d, d=12: the overflow path\n", k);
            struct vpoint p = measure_verify(e, two68 + ((u128)5 << k), (u128)1 << (k + 3));
            emit("GPU: %.4g numbers/s (%.4g iterated/s), %" PRIu64 " escapes, host exact path %.4f s "
                 "overlapped + %.4f s after the GPU, of %.3f s (%.3f%%)\n",
                 p.rate, p.iter_rate, p.st.escapes, p.st.escape_seconds, p.st.tail_seconds, p.seconds,
                 100.0 * (p.st.escape_seconds + p.st.tail_seconds) / (p.seconds > 0 ? p.seconds : 1));
            /* many escapes: n near 2^120, where trajectories often leave 128 bits (a short
             * range: the host's exact path takes microseconds per escape) */
            {
                bulk_collatz_verify_result *rq = malloc(sizeof *rq);
                bulk_collatz_cuda_stats qs;
                u128 q0 = ((u128)1 << 120) + ((u128)3 << 30);
                t0 = bench_now();
                st = CZ->verify_chunk(g_gpu, e, U(q0), U(q0 + ((u128)1 << 24) - 1), rq);
                double tq = bench_now() - t0;
                CZ->last_stats(g_gpu, &qs);
                emit("near 2^120, 2^24 numbers: %.3f s, %" PRIu64 " escapes (%" PRIu64
                     " overflows reported), host exact path %.4f s overlapped + %.4f s after the GPU "
                     "(%.1f%% of the time) %s\n",
                     tq, qs.escapes, rq->overflows, qs.escape_seconds, qs.tail_seconds,
                     100.0 * (qs.escape_seconds + qs.tail_seconds) / (tq > 0 ? tq : 1),
                     st == BULK_OK ? "" : bulk_status_string(st));
                free(rq);
            }
            if (G > 1) {
                set_opts(0, 0, 1);
                struct vpoint p1 = measure_verify(e, two68, (u128)1 << (k + 3));
                set_opts(0, 0, 0);
                emit("1 GPU: %.4g numbers/s, %d GPUs: %.4g numbers/s (%.2fx)\n", p1.rate, G, p.rate,
                     p.rate / p1.rate);
            }
        }
        bulk_collatz_engine_free(e);
    }
    /* ---- 5. verify: rate against the sieve depth K, generated levels -------------------- */
    bench_kscan(cpu);

    write_plot(png);
    if (png)
        emit("# plot %s: top left verify rate vs d, top right vs k, bottom left delays vs d, "
             "bottom right delays vs a; blue = shared tables, red = global, green = the sieve of "
             "K bits generated from 28 stored (x = K); y on decades\n", png);
    CZ->release(g_gpu->cuda);
    bulk_ctx_close(g_gpu);
    bulk_ctx_close(cpu);
    if (g_out) fclose(g_out);
    return 0;
}
