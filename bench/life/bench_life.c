/* bench_life: cell updates per second of the Life steppers, with the logic operations counted per
 * word so that the rate can be put against the machine's integer-throughput limit.
 *
 *   bench_life [--cpu-only | --gpu-only] [--quick] [--machine NAME] [--results DIR]
 *
 * Prints a table and writes DIR/<date>-<machine>-life.txt (DIR defaults to bench/results of
 * the source tree). CPU: tori of 1K^2 (in cache), 4K^2 and 16K^2 cells, each instruction-set
 * version, 1..16 generations per pass, one thread and all threads. GPU: seed 001's benchmark,
 * a 16K x 16K torus run 1K generations, for 4..32 generations per pass, timed on the device
 * (kernels only) and end to end; a generic rule; out of core with a universe 4x the memory budget.
 *
 * Logic operations per word per generation (from life_core.h; two-input ops on the CPU, where
 * AVX-512's ternary logic may merge some; LOP3/SHF on the GPU):
 *   CPU, 64-bit word, Conway: shifts 6 + row sum 5 + sum9 13 + rule 5 = 29
 *   GPU, 32-bit word, Conway on a torus: funnel shifts 2 + row sum 2 + sum9 6 + rule 2 = 12, plus 2
 *   SHFL; the sm_90 SASS of the T = 16 kernel has exactly these per level and word, plus about 2.5
 *   instructions of loop and addressing overhead (16.7 in all, nvdisasm, 2026-11-21)
 * Limits assumed: CPU 16 64-bit logic ops per cycle per core (four 256-bit vector ALUs, or two
 * 512-bit); GPU 64 32-bit integer ops per cycle per SM (sm_80/sm_90). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/context.h"
#include "life/life_backend.h"
#include "life/life_internal.h"
#include "bulk/life.h"
#include "atomic_file.h"
#include "common/hostinfo.h"
#include "splitmix.h"
#include "progress_line.h"

#define CPU_OPS_CONWAY 29.0
#define CPU_OPS_PER_CYCLE 16.0
#define GPU_OPS_CONWAY 12.0
#define GPU_OPS_PER_CYCLE_SM 64.0

/* The results file, written atomically (committed at the end): a killed run leaves no torn table. */
static bulk_afile res_file;
static FILE *res;
static char line[512];

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fputs(line, stdout);
    fflush(stdout);
    if (res) fputs(line, res);
}

static uint64_t rng = 0x1234567887654321ull;
static uint64_t rnd(void) { return bulk_splitmix64(&rng); }

static uint64_t *soup(uint64_t w, uint64_t h)
{
    uint64_t n = bulk_life_words(w) * h;
    uint64_t *c = malloc(n * 8);
    if (!c) {
        fprintf(stderr, "bench_life: out of memory\n");
        exit(1);
    }
    for (uint64_t i = 0; i < n; i++) c[i] = rnd() & rnd() ? rnd() : rnd() & rnd(); /* ~ 1/3 alive */
    return c;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Best of three runs. "per core" divides by the process's CPU time (all threads), so it is the
 * rate of one busy core even when the machine is shared; "wall" is what a user waits for. */
static void cpu_row(const char *isa, uint64_t w, uint64_t gens, int threads, unsigned pp,
                    const bulk_life_rule *rule, const char *rname, double mhz)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, threads) != BULK_OK) return;
    char tune[32];
    snprintf(tune, sizeof tune, "life.isa=%s", isa);
    bulk_ctx_set_tune(ctx, tune);
    uint64_t *c = soup(w, w);
    int st = bulk_life_grid_step(ctx, c, w, w, 1, rule, 1, pp); /* warm up */
    double best_wall = 1e30, best_cpu = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double c0 = cpu_seconds(), t0 = bulk_now();
        st |= bulk_life_grid_step(ctx, c, w, w, 1, rule, gens, pp);
        double wall = bulk_now() - t0, cpu = cpu_seconds() - c0;
        if (wall < best_wall) best_wall = wall;
        if (cpu < best_cpu) best_cpu = cpu;
    }
    double cells = (double)w * (double)w * (double)gens;
    double core = cells / best_cpu;
    double opc = mhz > 0 ? core / 64.0 * CPU_OPS_CONWAY / (mhz * 1e6) : 0;
    out("cpu  %-7s %6" PRIu64 "^2 %5" PRIu64 " %3d %4u %-9s %8.4f %10.3e %10.3e %6.2f %5.0f%%%s\n", isa, w, gens,
        threads, pp, rname, best_wall, cells / best_wall, core, opc, 100 * opc / CPU_OPS_PER_CYCLE,
        st ? " (FAILED)" : "");
    free(c);
    bulk_ctx_close(ctx);
}

/* Seed 001's SINGLE-WORD / DOUBLE-WORD (one thread, one generation per pass) against this
 * backend with the same shape of run: the ratio is what counts on a shared machine. */
static void peer_rows(uint64_t w, uint64_t gens, double mhz)
{
    const char *names[] = { "seed SINGLE-WORD", "seed DOUBLE-WORD" };
    double mine = 0;
    {
        bulk_ctx *ctx;
        if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) != BULK_OK) return;
        uint64_t *c = soup(w, w);
        bulk_life_rule r = bulk_life_rule_conway();
        double best = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            double c0 = cpu_seconds();
            bulk_life_grid_step(ctx, c, w, w, 1, &r, gens, 1);
            double t = cpu_seconds() - c0;
            if (t < best) best = t;
        }
        mine = (double)w * w * gens / best;
        free(c);
        bulk_ctx_close(ctx);
    }
    for (int dw = 0; dw < 2; dw++) {
        uint64_t *c = soup(w, w);
        double best = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            double c0 = cpu_seconds();
            life_cpu_step_seed(c, w, w, 1, gens, dw);
            double t = cpu_seconds() - c0;
            if (t < best) best = t;
        }
        double ups = (double)w * w * gens / best;
        double ops = dw ? 59.0 / 2 : 34.0;
        out("peer %-17s %6" PRIu64 "^2 %4" PRIu64 " gens: %10.3e updates/s per core, %5.2f ops/cycle; this backend (1 gen/pass) is %.1fx faster\n",
            names[dw], w, gens, ups, mhz > 0 ? ups / 64 * ops / (mhz * 1e6) : 0, mine / ups);
        free(c);
    }
}

/* rows per warp for gpu_row (0: the stepper's choice; the strip rows set it) */
static long long gpu_strip;
/* the CUDA context of the gpu rows: they reach the stepper through its Life table */
static bulk_ctx *gpu_ctx;

static void gpu_row(uint64_t w, uint64_t gens, unsigned pp, const bulk_life_rule *rule, const char *rname,
                    int sms, int khz)
{
    uint64_t *c = soup(w, w);
    double k = 0, t0 = bulk_now();
    int st = gpu_ctx->gpu->life->step_timed(gpu_ctx, c, w, w, 1, rule, gens, pp, gpu_strip, &k);
    double dt = bulk_now() - t0;
    double cells = (double)w * (double)w * (double)gens;
    double ups = cells / k, e2e = cells / dt;
    /* ops actually executed include the halo: 32/30 lanes, (S + 2T)/S rows (S unknown here: the
     * strip is chosen by the stepper; the useful-op fraction is reported) */
    double useful_ops = ups / 32.0 * GPU_OPS_CONWAY;
    double limit = (double)sms * (double)khz * 1e3 * GPU_OPS_PER_CYCLE_SM;
    out("gpu  %6" PRIu64 "^2 %5" PRIu64 " %4u %-13s %8.4f %10.3e %10.3e %6.1f%%%s\n", w, gens, pp, rname, k, ups,
        e2e, limit > 0 ? 100 * useful_ops / limit : 0, st ? " (FAILED)" : "");
    free(c);
}

static void ooc_row(bulk_backend be, uint64_t w, uint64_t gens, const char *tmp)
{
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, be, 0) != BULK_OK) return;
    bulk_life_pattern p;
    memset(&p, 0, sizeof p);
    p.width = w;
    p.height = w;
    p.cells = soup(w, w);
    bulk_life_options opt;
    memset(&opt, 0, sizeof opt);
    opt.rule = bulk_life_rule_conway();
    opt.torus = 1;
    opt.torus_width = w;
    opt.torus_height = w;
    opt.max_memory = bulk_life_words(w) * w * 8 / 4; /* the universe is 4x the budget */
    opt.tmp_dir = tmp;
    bulk_life *u;
    int st = bulk_life_create(&u, ctx, &p, &opt);
    double t0 = bulk_now();
    if (st == BULK_OK) st = bulk_life_step(u, gens);
    double dt = bulk_now() - t0;
    out("ooc  %-4s %6" PRIu64 "^2 %5" PRIu64 " budget %6.1f MiB %8.3f s %10.3e updates/s%s\n", bulk_backend_name(be), w,
        gens, opt.max_memory / 1048576.0, dt, (double)w * w * gens / dt, st ? " (FAILED)" : "");
    if (st == BULK_OK) bulk_life_free(u);
    bulk_life_pattern_free(&p);
    bulk_ctx_close(ctx);
}

int main(int argc, char **argv)
{
    int cpu = 1, gpu = 1, quick = 0;
    const char *machine = getenv("BULK_BENCH_MACHINE"), *dir = BULK_SOURCE_DIR "/bench/results";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--cpu-only") == 0) gpu = 0;
        else if (strcmp(argv[i], "--gpu-only") == 0) cpu = 0;
        else if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--machine") == 0 && i + 1 < argc) machine = argv[++i];
        else if (strcmp(argv[i], "--results") == 0 && i + 1 < argc) dir = argv[++i];
        else {
            fprintf(stderr, "usage: bench_life [--cpu-only|--gpu-only] [--quick] [--machine NAME] [--results DIR]\n");
            return 2;
        }
    }
    char host[128] = "unknown";
    if (!machine) {
        gethostname(host, sizeof host - 1);
        machine = host;
    }
    char date[32], path[1024];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    snprintf(path, sizeof path, "%s/%s-%s-life.txt", dir, date, machine);
    if (bulk_afile_open(&res_file, path, "w") == 0) res = res_file.fp;
    else fprintf(stderr, "bench_life: cannot write %s (printing only)\n", path);

    char model[128];
    snprintf(model, sizeof model, "unknown CPU");
    bulk_host_cpu_model(model, sizeof model);
    double mhz = bulk_host_cpu_mhz();
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    char stamp[64];
    strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    out("# bench_life %s, machine %s: %s, %ld threads, %.0f MHz (from /proc/cpuinfo)\n", stamp, machine, model,
        ncpu, mhz);
    out("# command: bench_life%s%s%s\n", quick ? " --quick" : "", cpu && !gpu ? " --cpu-only" : "",
        gpu && !cpu ? " --gpu-only" : "");
    bulk_life_rule conway = bulk_life_rule_conway(), high = { 0x48, 0xc };

    if (cpu) {
        out("# CPU: torus W^2, generations, threads, generations per pass; updates/s; 64-bit logic ops\n");
        out("# per cycle per core at %.0f ops/word (Conway) and its share of %.0f ops/cycle\n", CPU_OPS_CONWAY,
            CPU_OPS_PER_CYCLE);
        out("# best of 3; 'per core' = updates per second of process CPU time (honest on a shared machine)\n");
        out("cpu  isa        size  gens thr pass rule      wall s   updates/s  per core   ops/c limit\n");
        const char *isas[] = { "avx512", "avx2", "base" };
        uint64_t g1 = quick ? 64 : 512, g4 = quick ? 8 : 64, g16 = quick ? 2 : 16;
        for (int i = 0; i < 3; i++) cpu_row(isas[i], 1024, g1, 1, 1, &conway, "B3/S23", mhz);
        for (int i = 0; i < 3; i++) cpu_row(isas[i], 4096, g4, 1, 1, &conway, "B3/S23", mhz);
        unsigned passes[] = { 1, 2, 4, 8, 16 };
        for (int i = 0; i < 5; i++) cpu_row("avx512", 4096, g4, 1, passes[i], &conway, "B3/S23", mhz);
        cpu_row("avx512", 4096, g4, 1, 4, &high, "B36/S23", mhz);
        cpu_row("avx512", 16384, g16, 1, 1, &conway, "B3/S23", mhz);
        cpu_row("avx512", 16384, g16, 1, 4, &conway, "B3/S23", mhz);
        cpu_row("avx512", 4096, g4, (int)ncpu, 4, &conway, "B3/S23", mhz);
        cpu_row("avx512", 16384, g16, (int)ncpu, 4, &conway, "B3/S23", mhz);
        peer_rows(4096, quick ? 8 : 32, mhz);
        ooc_row(BULK_BACKEND_CPU, quick ? 2048 : 4096, quick ? 16 : 64, NULL);
    }
    if (gpu) {
        char name[128];
        int sms = 0, khz = 0;
        if (bulk_cuda_device_count() == 0 || bulk_ctx_open(&gpu_ctx, BULK_BACKEND_CUDA, 0) != BULK_OK ||
            gpu_ctx->gpu->life->info(gpu_ctx, name, sizeof name, &sms, &khz) != BULK_OK) {
            out("# GPU: no CUDA device here; run `sh bench/run.sh life --gpu` on a GPU machine\n");
        } else {
            out("# GPU: %s, %d SMs, %d MHz; integer limit %.3e 32-bit ops/s; Conway %.0f ops per 32-bit word\n",
                name, sms, khz / 1000, (double)sms * khz * 1e3 * GPU_OPS_PER_CYCLE_SM, GPU_OPS_CONWAY);
            out("# kernel time on the device clock (copies excluded); end to end includes the copies\n");
            out("gpu    size  gens pass rule           kernel s  updates/s  end2end/s  useful ops/limit\n");
            unsigned passes[] = { 1, 2, 4, 8, 16, 32 };
            uint64_t gens = quick ? 256 : 1024;
            for (int i = 0; i < 6; i++) gpu_row(16384, gens, passes[i], &conway, "B3/S23", sms, khz);
            gpu_row(16384, gens, 0, &conway, "B3/S23", sms, khz);
            /* rows per warp (strip): the stepper's choice (one wave of warps) against fixed ones */
            const int strips[] = { 64, 128, 256, 512, 1024 };
            for (int p = 2; p < 5; p++)
                for (int i = 0; i < 5; i++) {
                    char label[32];
                    gpu_strip = strips[i];
                    snprintf(label, sizeof label, "B3/S23 s=%d", strips[i]);
                    gpu_row(16384, gens, passes[p] * 2, &conway, label, sms, khz);
                }
            gpu_strip = 0;
            gpu_row(16384, gens, 16, &high, "B36/S23", sms, khz);
            gpu_row(32768, gens / 4, 16, &conway, "B3/S23", sms, khz);
            ooc_row(BULK_BACKEND_CUDA, quick ? 8192 : 32768, quick ? 64 : 256, NULL);
        }
        bulk_ctx_close(gpu_ctx);
    }
    if (res) {
        if (bulk_afile_commit(&res_file) != 0) {
            fprintf(stderr, "bench_life: cannot write %s\n", path);
            return 1;
        }
        printf("# written to %s\n", path);
    }
    return 0;
}
