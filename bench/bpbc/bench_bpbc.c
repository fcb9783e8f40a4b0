/* Benchmarks of the bpbc area, after seed 001:
 *   Table 5.1  pairwise sums of 2^20 pairs of k-bit numbers, k = 1..32: naive 32-bit additions
 *              vs BPBC ripple-carry on bit-sliced words (plus the generic AIG evaluator running
 *              the adder circuit), CPU one thread, CPU all threads, and GPU when present;
 *   Table 7.2  CKY parsing of random strings of length 32 with random CNF grammars of 32..512
 *              non-terminals and up to 131072 binary rules, microseconds per string: the plain
 *              CKY reference (one string at a time) vs the bit-parallel parser, both on one CPU
 *              thread (per-core throughput); on a GPU the same grid with every CUDA kernel, the
 *              CPU on all threads, and the LOP3 and shared-load limits of the device;
 *   Table 7.1  (GPU only) time for M = 1024 .. 2^21 strings, 32 and 64 non-terminals, 8192 rules.
 * Prints the tables and writes them to --out FILE. Answers of the compared methods are checked
 * against each other; a mismatch aborts with exit status 1.
 *
 * usage: bench_bpbc [--out FILE] [--quick] [--cpu] [--gpu] [--skip-circuit] [--skip-cky]
 *                   [--gpu-scale K] [--gpu-thread] [--gpu-full-max P] [--gpu-row NNT:P2]
 *   --cpu / --gpu  run only that backend's parts (default: CPU, and GPU when a device is present)
 *   --quick        smaller CKY table (at most 128 non-terminals and 8192 rules)
 *   --gpu-scale K  GPU Table 7.2 with the seed's string counts divided by 2^K (0..8)
 *   --gpu-thread   GPU Table 7.2: the first kernel on every row up to 8192 rules, not one
 *   --gpu-full-max P  GPU Table 7.2: the kernel without early exit only on rows of <= P rules
 *   --gpu-row NNT:P2  GPU Table 7.2: only that row, and no Table 7.1 (for profiling) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "bulk/bulk.h"
#include "bulk/circuit.h"
#include "bulk/cky.h"
#include "atomic_file.h"
#include "progress_line.h"
#include "splitmix.h"
#include "circuit/circuit_backend.h"
#ifdef BULK_HAVE_CUDA
#include "cky/cky_cuda.h"
#endif

/* The results file, written atomically (committed at the end): a killed run leaves no torn table. */
static bulk_afile report_file;
static FILE *report;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    if (report) vfprintf(report, fmt, ap);
    va_end(ap);
    fflush(stdout);
}

static void die(const char *what, int st)
{
    fprintf(stderr, "bench_bpbc: %s: %s\n", what, bulk_status_string(st));
    exit(1);
}

/* ---- Table 5.1 ------------------------------------------------------------------------------- */
/* One row of seed 001 Table 5.1, best of `reps`, milliseconds. */
typedef struct pairsum_timing {
    double naive_ms, bitwise_ms, bitwise_threads_ms;
} pairsum_timing;

/* The naive method: one 32-bit addition per pair. `noinline` keeps the timed loop from being
 * merged with the check. */
__attribute__((noinline)) static void naive_add(uint32_t *c, const uint32_t *a, const uint32_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

/* `pairs` (a multiple of 64) pairs of k-bit numbers from `seed` summed `reps` times. CPU: the
 * naive loop and bulk_bitslice_add on one thread (ctx1) and on all of ctx's threads, the sums
 * checked against each other (a mismatch is fatal). CUDA (gctx != NULL): the device-resident
 * kernel times of the library's own timing entry point (src/circuit/cuda/pairsum.cu). */
static void time_pairsum(bulk_ctx *ctx, bulk_ctx *ctx1, bulk_ctx *gctx, unsigned k, size_t pairs,
                         int reps, uint64_t seed, pairsum_timing *t)
{
    memset(t, 0, sizeof *t);
    if (gctx) {
#ifdef BULK_HAVE_CUDA
        int st = bulk_cuda_bench_pairsum(gctx, k, pairs, reps, seed, &t->naive_ms, &t->bitwise_ms);
        if (st) die("pairsum gpu", st);
        t->bitwise_threads_ms = t->bitwise_ms;
#endif
        return;
    }
    size_t nw = pairs / 64;
    uint32_t *a = malloc(pairs * 4), *b = malloc(pairs * 4), *c = malloc(pairs * 4);
    uint64_t *pa = calloc(k * nw, 8), *pb = calloc(k * nw, 8), *ps = calloc((k + 1) * nw, 8);
    if (!a || !b || !c || !pa || !pb || !ps) die("pairsum", BULK_ERR_NOMEM);
    bulk_pairsum_inputs(a, b, pa, pb, k, pairs, seed);
    t->naive_ms = t->bitwise_ms = t->bitwise_threads_ms = 1e300;
    for (int r = 0; r < reps; r++) {
        double t0 = bulk_now();
        naive_add(c, a, b, pairs);
        double t1 = bulk_now();
        int st = bulk_bitslice_add(ctx1, ps, pa, pb, k, nw);
        double t2 = bulk_now();
        if (st == BULK_OK) st = bulk_bitslice_add(ctx, ps, pa, pb, k, nw);
        double t3 = bulk_now();
        if (st) die("pairsum", st);
        if ((t1 - t0) * 1e3 < t->naive_ms) t->naive_ms = (t1 - t0) * 1e3;
        if ((t2 - t1) * 1e3 < t->bitwise_ms) t->bitwise_ms = (t2 - t1) * 1e3;
        if ((t3 - t2) * 1e3 < t->bitwise_threads_ms) t->bitwise_threads_ms = (t3 - t2) * 1e3;
    }
    for (size_t i = 0; i < pairs; i++) {
        uint32_t s = 0;
        for (unsigned jb = 0; jb < k + 1 && jb < 32; jb++) s |= (uint32_t)((ps[jb * nw + i / 64] >> (i % 64)) & 1) << jb;
        if (s != c[i]) die("pairsum: bitwise and naive sums differ", BULK_ERR_INTERNAL);
    }
    free(a), free(b), free(c), free(pa), free(pb), free(ps);
}

static double time_aig_adder(bulk_ctx *ctx1, unsigned k, size_t pairs)
{
    bulk_circuit *c;
    int st = bulk_circuit_adder(&c, k);
    if (st) die("adder", st);
    size_t nw = pairs / 64;
    uint64_t *in = malloc(8 * nw * 2 * k), *o = malloc(8 * nw * (k + 1));
    uint64_t s = k;
    for (size_t i = 0; i < nw * 2 * k; i++) in[i] = bulk_splitmix64(&s);
    double best = 1e300;
    for (int r = 0; r < 3; r++) {
        double t0 = bulk_now();
        if ((st = bulk_circuit_eval(ctx1, c, o, in, nw))) die("eval", st);
        double t = (bulk_now() - t0) * 1e3;
        if (t < best) best = t;
    }
    free(in), free(o);
    bulk_circuit_free(c);
    return best;
}

static void table_5_1(int cpu, int gpu)
{
    const size_t pairs = 1 << 20;
    bulk_ctx *ctx = NULL, *ctx1 = NULL, *gctx = NULL;
    if (cpu && (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 0) || bulk_ctx_open(&ctx1, BULK_BACKEND_CPU, 1))) die("context", BULK_ERR_ARG);
    if (gpu && bulk_ctx_open(&gctx, BULK_BACKEND_CUDA, 0)) die("cuda context", BULK_ERR_NO_BACKEND);
    out("\n## seed 001 Table 5.1: pairwise sums of %zu pairs of k-bit numbers (ms, best of 5)\n", pairs);
    if (cpu) out("# CPU: naive = one uint32 addition per pair; bitwise = BPBC ripple-carry on bit planes;\n"
                 "# aig = the generic evaluator running the adder AIG (7k-4 gates); %d threads for 'all'\n",
                 bulk_ctx_threads(ctx));
    out("%3s", "k");
    if (cpu) out(" %10s %10s %10s %10s %9s", "naive_1", "bitwise_1", "aig_1", "bitwise_all", "naive/bit");
    if (gpu) out(" %10s %10s %9s", "naive_gpu", "bitw_gpu", "naive/bit");
    out("\n");
    for (unsigned k = 1; k <= 32; k++) {
        out("%3u", k);
        pairsum_timing t;
        if (cpu) {
            time_pairsum(ctx, ctx1, NULL, k, pairs, 5, 99 + k, &t);
            double aig = time_aig_adder(ctx1, k, pairs);
            out(" %10.4f %10.4f %10.4f %10.4f %9.2f", t.naive_ms, t.bitwise_ms, aig, t.bitwise_threads_ms,
                t.naive_ms / t.bitwise_ms);
        }
        if (gpu) {
            time_pairsum(NULL, NULL, gctx, k, pairs, 5, 99 + k, &t);
            out(" %10.5f %10.5f %9.2f", t.naive_ms, t.bitwise_ms, t.naive_ms / t.bitwise_ms);
        }
        out("\n");
    }
    bulk_ctx_close(ctx), bulk_ctx_close(ctx1), bulk_ctx_close(gctx);
}

/* ---- CKY ----------------------------------------------------------------------------------- */
enum { LEN = 32, NTERM = 4 };

static void random_strings(int32_t *syms, size_t *off, size_t m, uint64_t seed)
{
    for (size_t i = 0; i <= m; i++) off[i] = i * LEN;
    for (size_t i = 0; i < m * LEN; i++) syms[i] = (int32_t)(bulk_splitmix64(&seed) % NTERM);
}

static void table_7_2(int quick)
{
    const unsigned nnts[] = { 32, 64, 128, 256, 512 };
    bulk_ctx *ctx1 = NULL;
    if (bulk_ctx_open(&ctx1, BULK_BACKEND_CPU, 1)) die("context", BULK_ERR_ARG);
    const size_t m_cpu = 512;
    out("\n## seed 001 Table 7.2: CKY, random CNF grammars, %d terminals, random strings of length %d,\n"
        "## microseconds per string\n", NTERM, LEN);
    out("# CPU one thread: plain = seed 001 section 7.1 CKY (min(64, max(1, 65536/p2)) strings),\n"
        "# bitpar = bit-parallel (%zu strings, 256 per group); best of 3 when p2 <= 8192;\n"
        "# plain/bitpar = per-core speed-up\n", m_cpu);
    out("%5s %7s %12s %10s %13s\n", "nnt", "p2", "plain_us", "bitpar_us", "plain/bitpar");
    for (size_t a = 0; a < sizeof nnts / sizeof nnts[0]; a++) {
        unsigned nnt = nnts[a];
        if (quick && nnt > 128) break;
        for (size_t p2 = 32; p2 <= 131072; p2 *= 2) {
            if (p2 < nnt || (uint64_t)p2 > (uint64_t)nnt * nnt * nnt) continue;
            if (quick && p2 > 8192) break;
            bulk_grammar *g;
            int st = bulk_grammar_random(&g, nnt, p2, NTERM, BULK_CKY_TOKENS, 1000 * nnt + p2);
            if (st) die("random grammar", st);
            out("%5u %7zu", nnt, p2);
            {
                /* about the same plain work per row (at least one string); best of 3 while cheap */
                size_t nplain = p2 >= 65536 ? 1 : 65536 / p2 < 64 ? 65536 / p2 : 64;
                int reps = p2 <= 8192 ? 3 : 1;
                int32_t *syms = malloc(sizeof(int32_t) * m_cpu * LEN);
                size_t *off = malloc(sizeof(size_t) * (m_cpu + 1));
                uint8_t *acc = malloc(m_cpu), *ref = malloc(m_cpu);
                random_strings(syms, off, m_cpu, p2 * 7 + nnt);
                double plain = 1e300, bp = 1e300;
                for (int r = 0; r < reps; r++) {
                    double t0 = bulk_now();
                    if ((st = bulk_cky_parse_plain(g, ref, syms, off, nplain))) die("plain", st);
                    double t1 = bulk_now();
                    if ((st = bulk_cky_parse(ctx1, g, acc, syms, off, m_cpu))) die("bitpar", st);
                    double t2 = bulk_now();
                    if ((t1 - t0) * 1e6 / (double)nplain < plain) plain = (t1 - t0) * 1e6 / (double)nplain;
                    if ((t2 - t1) * 1e6 / (double)m_cpu < bp) bp = (t2 - t1) * 1e6 / (double)m_cpu;
                }
                for (size_t i = 0; i < nplain; i++)
                    if (acc[i] != ref[i]) die("plain and bit-parallel answers differ", BULK_ERR_INTERNAL);
                out(" %12.1f %10.2f %13.1f", plain, bp, plain / bp);
                free(syms), free(off), free(acc), free(ref);
            }
            out("\n");
            bulk_grammar_free(g);
        }
    }
    bulk_ctx_close(ctx1);
}

#ifdef BULK_HAVE_CUDA
/* The GPU side of Table 7.2: per row, M strings (the seed's M = 2^21 * 32 / nonterminals,
 * divided by 2^scale) parsed by
 *   gpu     the CUDA parse with the default kernel (block kernel, rules grouped by B, two splits
 *           staged per pass, early exit): wall time of the call (string checks, copies, kernels)
 *           and kernel time alone;
 *   kblk, kbyb  the early-exit block kernels with the plain rule form and by-B one split a
 *           pass: kernel times;
 *   full, fullb, full2  the three block kernels without the early exit (all rules at all 5456
 *           splits): kernel times;
 *   thread  the first kernel, one thread per 64 strings (only on 64 nt / 8192 rules, or every
 *           row up to 8192 rules with --gpu-thread: it is slow);
 * against the CPU (bit-parallel, all threads, 4096 strings; up to 8192 rules and all rows of 64
 * non-terminals: beyond, a row costs the CPU seconds; see the one-thread CPU table). Limits for the full work on this device: every rule at every
 * (cell, split) pair is one LOP3 per 32-bit word (32 strings): lop3 = pairs * rules / 32 /
 * (SMs * 128 lanes * clock); it also needs its two operands from shared memory, 32 words per
 * SM and clock: lds = 2 * pairs * rules / 32 / (SMs * 32 * clock). full% = lds / the best
 * of full, fullb, full2.
 * All GPU answers are compared with each other and with the CPU's (exit 1 on a difference). */
static void table_7_2_gpu(int quick, int scale, int thread_all, size_t full_max, unsigned only_nnt, size_t only_p2)
{
    const unsigned nnts[] = { 32, 64, 128, 256, 512 };
    const double pairs = (double)LEN * LEN * LEN / 6.0 - LEN / 6.0; /* sum (LEN+1-s)(s-1) = 5456 */
    bulk_ctx *cctx = NULL, *gctx = NULL;
    if (bulk_ctx_open(&cctx, BULK_BACKEND_CPU, 0)) die("context", BULK_ERR_ARG);
    if (bulk_ctx_open(&gctx, BULK_BACKEND_CUDA, 0)) die("cuda context", BULK_ERR_NO_BACKEND);
    out("\n## seed 001 Table 7.2 on the GPU: CKY, random CNF grammars, %d terminals, length %d,\n"
        "## microseconds per string (M = 2^21 * 32 / nonterminals / 2^%d strings)\n", NTERM, LEN, scale);
    out("# gpu = wall time of the CUDA parse with the default kernel (by-B, two splits a pass, early exit),\n"
        "# copy = its string and answer copies, kern = its kernel time; kblk, kbyb = kernel times of the\n"
        "# early-exit kernels with the plain rule form and with by-B one split a pass;\n"
        "# full, fullb, full2 = the three without the early exit (full, fullb up to 8192 rules, full2 up to\n"
        "# %zu; * = two splits did not fit, ran fullb); thread = the first kernel (one thread per 64 strings);\n"
        "# cpu = bit-parallel on %d CPU threads (4096 strings; p2 <= 8192 and all of nnt 64);\n"
        "# lop3/lds = limits of the full work; full%% = lds / the best full kernel\n",
        full_max, bulk_ctx_threads(cctx));
    out("%5s %7s %8s %9s %9s %8s %9s %9s %9s %9s %9s %9s %9s %9s %9s %6s %8s\n", "nnt", "p2", "M", "cpu_us", "gpu_us",
        "copy_us", "kern_us", "kblk_us", "kbyb_us", "full_us", "fullb_us", "full2_us", "thread_us", "lop3_us", "lds_us",
        "full%", "cpu/gpu");
    const size_t mcpu = 4096;
    const int hthreads = bulk_ctx_threads(cctx); /* host side of the GPU parse */
    for (size_t a = 0; a < sizeof nnts / sizeof nnts[0]; a++) {
        unsigned nnt = nnts[a];
        if (quick && nnt > 128) break;
        if (only_nnt && nnt != only_nnt) continue;
        size_t m = (((size_t)1 << 21) * 32 / nnt) >> scale;
        if (m < mcpu) m = mcpu;
        int32_t *syms = malloc(sizeof(int32_t) * m * LEN);
        size_t *off = malloc(sizeof(size_t) * (m + 1));
        uint8_t *acc = malloc(m), *other = malloc(m), *ref = malloc(mcpu);
        if (!syms || !off || !acc || !other || !ref) die("gpu strings", BULK_ERR_NOMEM);
        random_strings(syms, off, m, 77 + nnt);
        for (size_t p2 = 32; p2 <= 131072; p2 *= 2) {
            if (p2 < nnt || (uint64_t)p2 > (uint64_t)nnt * nnt * nnt) continue;
            if (quick && p2 > 8192) break;
            if (only_p2 && p2 != only_p2) continue;
            bulk_grammar *g;
            int st = bulk_grammar_random(&g, nnt, p2, NTERM, BULK_CKY_TOKENS, 1000 * nnt + p2);
            if (st) die("random grammar", st);
            bulk_cky_gpu_stats sd;
            if ((st = bulk_cuda_cky_parse_ex(gctx, g, acc, syms, off, 1024, BULK_CKY_GPU_AUTO, hthreads, &sd))) die("gpu warm-up", st);
            if ((st = bulk_cuda_cky_parse_ex(gctx, g, acc, syms, off, m, BULK_CKY_GPU_AUTO, hthreads, &sd))) die("gpu parse", st);
            /* the other kernels, in a fixed launch order (iter-gpu.sh's profile counts on it):
             * kblk, kbyb, full, fullb, full2, thread; -1 = not run */
            const int vs[6] = { BULK_CKY_GPU_BLOCK, BULK_CKY_GPU_BYB, BULK_CKY_GPU_BLOCK_FULL, BULK_CKY_GPU_BYB_FULL,
                                BULK_CKY_GPU_BYB2_FULL, BULK_CKY_GPU_THREAD };
            const int run[6] = { 1, 1, p2 <= 8192 && p2 <= full_max, p2 <= 8192 && p2 <= full_max, p2 <= full_max,
                                 (nnt == 64 && p2 == 8192) || (thread_all && p2 <= 8192) };
            double us[6];
            int ran2 = BULK_CKY_GPU_BYB2_FULL;
            for (int k = 0; k < 6; k++) {
                us[k] = -1;
                if (!run[k]) continue;
                bulk_cky_gpu_stats sx;
                if ((st = bulk_cuda_cky_parse_ex(gctx, g, other, syms, off, m, vs[k], hthreads, &sx))) die("gpu parse", st);
                if (memcmp(acc, other, m)) die("GPU kernels disagree", BULK_ERR_INTERNAL);
                us[k] = sx.kernel_ms * 1e3 / (double)m;
                if (k == 4) ran2 = sx.variant;
            }
            double cpu_us = -1;
            if (p2 <= 8192 || nnt == 64) {
                double t0 = bulk_now();
                if ((st = bulk_cky_parse(cctx, g, ref, syms, off, mcpu))) die("cpu parse", st);
                cpu_us = (bulk_now() - t0) * 1e6 / (double)mcpu;
                if (memcmp(acc, ref, mcpu)) die("GPU and CPU answers differ", BULK_ERR_INTERNAL);
            }
            const double rules = (double)bulk_grammar_binary_rules(g), lanes_per_s = sd.sms * sd.clock_ghz * 1e9;
            const double lop3 = pairs * rules / 32 / (lanes_per_s * 128) * 1e6, lds = 2 * pairs * rules / 32 / (lanes_per_s * 32) * 1e6;
            const double gpu_us = sd.total_ms * 1e3 / (double)m;
            char b[6][32], cbuf[32] = "-", rbuf[32] = "-", pbuf[32] = "-";
            double best = -1;
            for (int k = 0; k < 6; k++) {
                if (us[k] < 0) {
                    snprintf(b[k], sizeof b[k], "-");
                    continue;
                }
                snprintf(b[k], sizeof b[k], k == 5 ? "%.3f" : "%.4f%s", us[k],
                         k == 4 && ran2 != BULK_CKY_GPU_BYB2_FULL ? "*" : "");
                if (k >= 2 && k <= 4 && (best < 0 || us[k] < best)) best = us[k];
            }
            if (best > 0) snprintf(pbuf, sizeof pbuf, "%.1f", 100 * lds / best);
            if (cpu_us >= 0) snprintf(cbuf, sizeof cbuf, "%.2f", cpu_us), snprintf(rbuf, sizeof rbuf, "%.0f", cpu_us / gpu_us);
            out("%5u %7zu %8zu %9s %9.4f %8.4f %9.4f %9s %9s %9s %9s %9s %9s %9.4f %9.4f %6s %8s%s\n", nnt, p2, m, cbuf,
                gpu_us, sd.copy_ms * 1e3 / (double)m, sd.kernel_ms * 1e3 / (double)m, b[0], b[1], b[2], b[3], b[4], b[5],
                lop3, lds, pbuf, rbuf,
                sd.variant == BULK_CKY_GPU_THREAD ? " (thread kernel: block does not fit)"
                : sd.variant != BULK_CKY_GPU_BYB2 ? " (default ran by-B one split a pass)" : "");
            if (p2 == 8192)
                out("# nnt %u p2 %zu, default call of %zu strings: total %.1f ms = checks+sort %.1f, setup %.1f, gather "
                    "%.1f, copies %.1f, kernels %.1f, other %.1f\n",
                    nnt, p2, m, sd.total_ms, sd.prep_ms, sd.setup_ms, sd.gather_ms, sd.copy_ms, sd.kernel_ms,
                    sd.total_ms - sd.prep_ms - sd.setup_ms - sd.gather_ms - sd.copy_ms - sd.kernel_ms);
            bulk_grammar_free(g);
        }
        free(syms), free(off), free(acc), free(other), free(ref);
    }
    bulk_ctx_close(cctx);
    bulk_ctx_close(gctx);
}
#endif

static void table_7_1(void)
{
    bulk_ctx *gctx = NULL;
    if (bulk_ctx_open(&gctx, BULK_BACKEND_CUDA, 0)) die("cuda context", BULK_ERR_NO_BACKEND);
    out("\n## seed 001 Table 7.1 (GPU): seconds for M strings of length %d, 8192 binary rules\n", LEN);
    out("%9s %12s %10s %12s %10s\n", "M", "s_32nt", "us/str_32", "s_64nt", "us/str_64");
    bulk_grammar *g32, *g64;
    int st;
    if ((st = bulk_grammar_random(&g32, 32, 8192, NTERM, BULK_CKY_TOKENS, 32)) ||
        (st = bulk_grammar_random(&g64, 64, 8192, NTERM, BULK_CKY_TOKENS, 64)))
        die("grammar", st);
    size_t mmax = (size_t)1 << 21;
    int32_t *syms = malloc(sizeof(int32_t) * mmax * LEN);
    size_t *off = malloc(sizeof(size_t) * (mmax + 1));
    uint8_t *acc = malloc(mmax);
    if (!syms || !off || !acc) die("strings", BULK_ERR_NOMEM);
    random_strings(syms, off, mmax, 71);
    if ((st = bulk_cky_parse(gctx, g32, acc, syms, off, 64))) die("warm-up", st);
    for (size_t m = 1024; m <= mmax; m *= 2) {
        double t[2];
        bulk_grammar *gs[2] = { g32, g64 };
        for (int i = 0; i < 2; i++) {
            double t0 = bulk_now();
            if ((st = bulk_cky_parse(gctx, gs[i], acc, syms, off, m))) die("gpu parse", st);
            t[i] = bulk_now() - t0;
        }
        out("%9zu %12.4f %10.3f %12.4f %10.3f\n", m, t[0], t[0] * 1e6 / (double)m, t[1], t[1] * 1e6 / (double)m);
    }
    free(syms), free(off), free(acc);
    bulk_grammar_free(g32), bulk_grammar_free(g64);
    bulk_ctx_close(gctx);
}

int main(int argc, char **argv)
{
    const char *outpath = NULL;
    int quick = 0, only_cpu = 0, only_gpu = 0, skip_circuit = 0, skip_cky = 0, scale = 0, thread_all = 0;
    size_t full_max = (size_t)1 << 20, only_p2 = 0;
    unsigned only_nnt = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) outpath = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--cpu") == 0) only_cpu = 1;
        else if (strcmp(argv[i], "--gpu") == 0) only_gpu = 1;
        else if (strcmp(argv[i], "--skip-circuit") == 0) skip_circuit = 1;
        else if (strcmp(argv[i], "--skip-cky") == 0) skip_cky = 1;
        else if (strcmp(argv[i], "--gpu-scale") == 0 && i + 1 < argc) scale = atoi(argv[++i]);
        else if (strcmp(argv[i], "--gpu-thread") == 0) thread_all = 1;
        else if (strcmp(argv[i], "--gpu-row") == 0 && i + 1 < argc && sscanf(argv[i + 1], "%u:%zu", &only_nnt, &only_p2) == 2)
            i++;
        else if (strcmp(argv[i], "--gpu-full-max") == 0 && i + 1 < argc) full_max = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench_bpbc [--out FILE] [--quick] [--cpu] [--gpu] [--skip-circuit] [--skip-cky]\n"
                            "                  [--gpu-scale K] [--gpu-thread] [--gpu-full-max P] [--gpu-row NNT:P2]\n");
            return 2;
        }
    }
#ifndef BULK_HAVE_CUDA
    (void)scale, (void)thread_all, (void)full_max; /* GPU table options; no GPU table in this build */
#endif
    int devices = bulk_cuda_device_count();
    int cpu = !only_gpu, gpu = devices > 0 && !only_cpu;
    if (only_gpu && devices == 0) {
        fprintf(stderr, "bench_bpbc: --gpu but no CUDA device is usable in this build\n");
        return 1;
    }
    if (outpath) {
        if (bulk_afile_open(&report_file, outpath, "w") != 0) {
            perror(outpath);
            return 1;
        }
        report = report_file.fp;
    }
    struct utsname u;
    uname(&u);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    bulk_ctx *c;
    int threads = 0;
    if (bulk_ctx_open(&c, BULK_BACKEND_CPU, 0) == BULK_OK) threads = bulk_ctx_threads(c), bulk_ctx_close(c);
    out("# bench_bpbc (bulk %s), %s, machine %s (%s), %d CPU threads, %d CUDA device(s)\n", bulk_version(), date,
        u.nodename, u.machine, threads, devices);
    out("# command: bench_bpbc");
    for (int i = 1; i < argc; i++) out(" %s", argv[i]);
    out("\n");
    if (!skip_circuit) table_5_1(cpu, gpu);
    if (!skip_cky) {
        if (cpu) table_7_2(quick);
#ifdef BULK_HAVE_CUDA
        if (gpu) table_7_2_gpu(quick, scale < 0 ? 0 : scale > 8 ? 8 : scale, thread_all, full_max, only_nnt, only_p2);
#endif
        if (gpu && !only_nnt) table_7_1();
    }
    if (report && bulk_afile_commit(&report_file) != 0) {
        perror(outpath);
        return 1;
    }
    return 0;
}
