/* Benchmark of the GPU NTT multiplication (src/int/cuda/int_cuda_ntt.cu) against the other GPU
 * kernels and GMP on all cores of this machine, in the same run:
 *
 *   bench_int_gpu_ntt [--quick] [--only LIST] [--out FILE]
 *
 * Parts (LIST: comma-separated; default all):
 *   batch    batched products W = 8192 .. 524288 bits (device-resident, bulk_int_dev_mul):
 *            the automatic choice, the NTT forced (tuning int.mul=ntt), one Karatsuba level
 *            over NTT half products (karantt: int.mul=kara,int.ntt_min=16), GMP mpn_mul_n on
 *            all threads; both NTT versions' products are compared with the automatic
 *            choice's; then squares (bulk_int_dev_sqr) automatic and NTT;
 *   big      single products of 2^14 .. 2^24 limbs per operand: bulk_int_cuda_mul_big_dev
 *            (device-resident), bulk_int_cuda_mul_big (host memory, with the copies), the CPU
 *            NTT (bulk_mpn_mul_fft_threads, 3 threads: its most) and GMP's mpn_mul (one thread;
 *            GMP has no parallel multiplication), results compared;
 *   prof     (only when named) one batched NTT call at 65536 bits and one 2^20-limb product,
 *            for a profiler run (iter-gpu.sh runs it under ncu).
 * The table goes to stdout and, with --out, to FILE (written atomically). Without a CUDA device
 * it says so and exits 0. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bulk/int.h"
#include "bulk/int_device.h"
#include "atomic_file.h"
#include "common/parallel.h"
#include "progress_line.h"
#include "backend/context.h"
#include "int/int_backend.h"
#include "int/mul_fft.h"

#include "../bench_util.h"

/* The CUDA int table: this program reaches the CUDA entry points through it, and only after
 * finding a device. */
#define GPU_INTS (bulk_cuda_tables()->ints)

#define OUT bench_table_printf

static const char *only;
static int want(const char *part)
{
    if (!only) return 1;
    return bench_in_list(only, part);
}

static uint64_t rs = 0x1234567887654321ull;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct gjob {
    const bulk_limb_t *a, *b;
    bulk_limb_t *r;
    size_t L;
};

static void gmp_range(void *p, size_t begin, size_t end, int worker)
{
    (void)worker;
    const struct gjob *j = p;
    for (size_t i = begin; i < end; i++)
        mpn_mul_n((mp_limb_t *)(j->r + i * 2 * j->L), (const mp_limb_t *)(j->a + i * j->L),
                  (const mp_limb_t *)(j->b + i * j->L), (mp_size_t)j->L);
}

/* Device-resident rate of bulk_int_dev_mul with the tuning int.mul = mode (NULL: the automatic
 * choice) on top of the tuning `extra` (NULL: none, e.g. "int.ntt_min=0"); the product of the
 * last run downloaded into out (NULL: not). 0 on failure. The tuning is back to the defaults
 * afterwards. */
static double dev_rate(bulk_ctx *ctx, const char *mode, const char *extra, const bulk_limb_t *a,
                       const bulk_limb_t *b, size_t n, size_t L, bulk_limb_t *out, double min_t)
{
    /* b == NULL: squares (bulk_int_dev_sqr) */
    char t[96];
    snprintf(t, sizeof t, "%s%s%s%s", mode ? "int.mul=" : "", mode ? mode : "", mode && extra ? "," : "",
             extra ? extra : "");
    if (bulk_ctx_set_tune(ctx, t) != BULK_OK) fprintf(stderr, "bench_int_gpu_ntt: %s\n", bulk_ctx_last_error(ctx));
    bulk_int_dev *A = NULL, *B = NULL, *R = NULL;
    int rc = bulk_int_dev_alloc(ctx, &A, n, L);
    if (rc == BULK_OK && b) rc = bulk_int_dev_alloc(ctx, &B, n, L);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &R, n, 2 * L);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, A, a);
    if (rc == BULK_OK && b) rc = bulk_int_dev_upload(ctx, B, b);
#define RUN() (b ? bulk_int_dev_mul(ctx, R, A, B) : bulk_int_dev_sqr(ctx, R, A))
    if (rc == BULK_OK) rc = RUN(); /* warm-up */
    if (rc == BULK_OK) rc = bulk_int_dev_sync(ctx);
    double rate = 0;
    if (rc == BULK_OK) {
        double t0 = bulk_now(), t;
        int reps = 0;
        do {
            rc = RUN();
            if (rc == BULK_OK) rc = bulk_int_dev_sync(ctx);
            reps++;
            t = bulk_now() - t0;
        } while (rc == BULK_OK && (t < min_t || reps < 3) && reps < 50);
        if (rc == BULK_OK) rate = (double)n * reps / t;
    }
    if (rc == BULK_OK && out) rc = bulk_int_dev_download(ctx, R, out);
    if (rc != BULK_OK) {
        fprintf(stderr, "dev mul %s %zu limbs: %s\n", mode ? mode : "auto", L, bulk_status_string(rc));
        rate = 0;
    }
#undef RUN
    bulk_int_dev_free(A), bulk_int_dev_free(B), bulk_int_dev_free(R);
    bulk_ctx_set_tune(ctx, NULL);
    return rate;
}

static void bench_batch(bulk_ctx *ctx, int threads, int quick)
{
    static const size_t bits_list[] = {8192, 16384, 32768, 65536, 131072, 262144, 524288};
    /* the choice before the NTT (int.ntt_min=0) against the NTT between the measured widths:
     * full products 256 .. 512 limbs, squares 128 .. 256 limbs */
    OUT("# crossover (device-resident): old = the choice without the NTT (int.ntt_min=0)\n");
    OUT("%-5s %7s %7s %-6s %11s %11s %8s\n", "op", "limbs", "count", "old", "old/s", "ntt/s", "ntt/old");
    static const size_t xl[] = {288, 320, 352, 384, 448, 144, 160, 192, 224};
    for (int k = 0; k < 9; k++) {
        size_t L = xl[k], n = ((size_t)1 << (quick ? 23 : 24)) / L;
        int sq = k >= 5;
        bulk_limb_t *a = malloc(n * L * 8), *b = malloc(n * L * 8);
        if (!a || !b) {
            free(a), free(b);
            break;
        }
        for (size_t i = 0; i < n * L; i++) a[i] = rnd(), b[i] = rnd();
        double ro = dev_rate(ctx, NULL, "int.ntt_min=0", a, sq ? NULL : b, n, L, NULL, 0.15);
        bulk_ctx_set_tune(ctx, "int.ntt_min=0");
        const char *kn = GPU_INTS->mul_kernel(ctx, L);
        bulk_ctx_set_tune(ctx, NULL);
        double rn = dev_rate(ctx, "ntt", NULL, a, sq ? NULL : b, n, L, NULL, 0.15);
        OUT("%-5s %7zu %7zu %-6s %11.3e %11.3e %8.2f\n", sq ? "sqr" : "mul", L, n, sq ? "-" : kn, ro,
            rn, ro > 0 ? rn / ro : 0);
        free(a), free(b);
    }
    OUT("# batched products, device-resident (bulk_int_dev_mul); auto = the size choice now,\n"
        "# old = the choice without the NTT (int.ntt_min=0); ntt = int.mul=ntt;\n"
        "# GMP = mpn_mul_n on %d threads; xGMP = ntt / GMP;\n"
        "# check = ntt products == auto products (all instances)\n", threads);
    OUT("%-7s %7s %-6s %11s %-6s %11s %11s %8s %11s %11s %8s %8s %6s\n", "bits", "count", "auto",
        "auto/s", "old", "old/s", "ntt/s", "ntt/old", "karantt/s", "GMP/s", "xGMP", "xGMPauto",
        "check");
    for (size_t k = 0; k < sizeof bits_list / sizeof bits_list[0]; k++) {
        size_t bits = bits_list[k], L = bits / 64;
        size_t n = ((size_t)1 << (quick ? 29 : 30)) / bits; /* 65536 bits: 16384 (8192 quick) */
        bulk_limb_t *a = malloc(n * L * 8), *b = malloc(n * L * 8);
        bulk_limb_t *r1 = malloc(n * 2 * L * 8), *r2 = malloc(n * 2 * L * 8);
        if (!a || !b || !r1 || !r2) {
            OUT("%-7zu out of host memory\n", bits);
            free(a), free(b), free(r1), free(r2);
            return;
        }
        for (size_t i = 0; i < n * L; i++) a[i] = rnd(), b[i] = rnd();
        for (size_t i = 0; i < 4 && i < n; i++) /* all ones: the largest coefficients */
            for (size_t j = 0; j < L; j++) a[i * L + j] = b[i * L + j] = ~0ull;
        double ra = dev_rate(ctx, NULL, NULL, a, b, n, L, r1, quick ? 0.15 : 0.4);
        /* the choice without the NTT */
        double ro = dev_rate(ctx, NULL, "int.ntt_min=0", a, b, n, L, NULL, quick ? 0.1 : 0.3);
        bulk_ctx_set_tune(ctx, "int.ntt_min=0");
        const char *kold = GPU_INTS->mul_kernel(ctx, L);
        bulk_ctx_set_tune(ctx, NULL);
        double rn;
        /* one Karatsuba level over NTT half products (int.ntt_min: the NTT preferred from 16
         * limbs, so the halves take it) */
        double rk = dev_rate(ctx, "kara", "int.ntt_min=16", a, b, n, L, r2, quick ? 0.1 : 0.3);
        int same_k = rk > 0 && memcmp(r1, r2, n * 2 * L * 8) == 0;
        rn = dev_rate(ctx, "ntt", NULL, a, b, n, L, r2, quick ? 0.15 : 0.4); /* r2: the NTT again */
        int same = ra > 0 && rn > 0 && memcmp(r1, r2, n * 2 * L * 8) == 0;
        size_t gn = n / 8 < 64 ? (n < 64 ? n : 64) : n / 8;
        struct gjob j = {a, b, r1, L};
        double t0 = bulk_now();
        bulk_parallel_for(threads, gn, 1, gmp_range, &j);
        double rg = (double)gn / (bulk_now() - t0);
        OUT("%-7zu %7zu %-6s %11.3e %-6s %11.3e %11.3e %8.2f %11.3e %11.3e %8.1f %8.1f %6s\n", bits,
            n, GPU_INTS->mul_kernel(ctx, L), ra, kold, ro, rn, ro > 0 ? rn / ro : 0, rk, rg, rn / rg,
            ra / rg, same && same_k ? "ok" : "FAIL");
        /* squares: the NTT saves one forward transform per prime */
        double sa = dev_rate(ctx, NULL, NULL, a, NULL, n, L, r1, quick ? 0.1 : 0.3);
        double sn = dev_rate(ctx, "ntt", NULL, a, NULL, n, L, r2, quick ? 0.1 : 0.3);
        same = sa > 0 && sn > 0 && memcmp(r1, r2, n * 2 * L * 8) == 0;
        OUT("%-7s %7zu %-6s %11.3e %-6s %11s %11.3e %8s %11s %11s %8s %8s %6s\n", "  sqr", n, "", sa,
            "", "-", sn, "-", "-", "-", "-", "-", same ? "ok" : "FAIL");
        free(a), free(b), free(r1), free(r2);
    }
}

static void bench_big(int quick)
{
    OUT("# single products (limbs per operand); seconds: dev = bulk_int_cuda_mul_big_dev\n"
        "# (device-resident), host = bulk_int_cuda_mul_big (with the copies through pinned slots),\n"
        "# cpuntt = the CPU NTT on 3 threads, gmp = mpn_mul (one thread); check = GPU == GMP (or ==\n"
        "# CPU NTT)\n");
    OUT("%-9s %10s %10s %10s %10s %8s %6s\n", "limbs", "dev_s", "host_s", "cpuntt_s", "gmp_s",
        "xcpuntt", "check");
    int top = quick ? 22 : 24;
    for (int lg = 14; lg <= top; lg += 2) {
        size_t n = (size_t)1 << lg;
        bulk_limb_t *a = malloc(n * 8), *b = malloc(n * 8), *r = malloc(2 * n * 8),
                    *w = malloc(2 * n * 8);
        if (!a || !b || !r || !w) {
            OUT("%-9zu out of host memory\n", n);
            free(a), free(b), free(r), free(w);
            return;
        }
        for (size_t i = 0; i < n; i++) a[i] = rnd(), b[i] = rnd();
        double tdev = -1, thost = -1, tcpu = -1, tgmp = -1;
        void *da = NULL, *db = NULL, *dr = NULL;
        int rc = GPU_INTS->raw_alloc(0, &da, n * 8);
        if (rc == BULK_OK) rc = GPU_INTS->raw_alloc(0, &db, n * 8);
        if (rc == BULK_OK) rc = GPU_INTS->raw_alloc(0, &dr, 2 * n * 8);
        if (rc == BULK_OK) rc = GPU_INTS->raw_put(0, da, a, n * 8);
        if (rc == BULK_OK) rc = GPU_INTS->raw_put(0, db, b, n * 8);
        if (rc == BULK_OK) rc = GPU_INTS->mul_big_dev(0, dr, da, n, db, n); /* warm-up */
        if (rc == BULK_OK) {
            int reps = 0;
            double t0 = bulk_now(), t;
            do {
                rc = GPU_INTS->mul_big_dev(0, dr, da, n, db, n);
                reps++;
                t = bulk_now() - t0;
            } while (rc == BULK_OK && t < 0.2 && reps < 20);
            tdev = t / reps;
        }
        GPU_INTS->raw_free(0, da), GPU_INTS->raw_free(0, db), GPU_INTS->raw_free(0, dr);
        if (rc == BULK_OK) {
            double t0 = bulk_now();
            rc = GPU_INTS->mul_big(0, r, a, n, b, n);
            thost = bulk_now() - t0;
        }
        if (rc != BULK_OK) OUT("# %zu limbs: GPU failed: %s\n", n, bulk_status_string(rc));
        double t0 = bulk_now();
        const char *check = "-";
        if (lg <= (quick ? 20 : 24)) { /* the CPU NTT: seconds at 2^22 limbs */
            int crc = bulk_mpn_mul_fft_threads(w, a, n, b, n, 3);
            tcpu = bulk_now() - t0;
            if (crc == BULK_OK && rc == BULK_OK) check = memcmp(r, w, 2 * n * 8) == 0 ? "ok" : "FAIL";
        }
        if (lg <= (quick ? 18 : 22)) {
            t0 = bulk_now();
            mpn_mul_n((mp_limb_t *)w, (const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
            tgmp = bulk_now() - t0;
            if (rc == BULK_OK) check = memcmp(r, w, 2 * n * 8) == 0 ? "ok" : "FAIL";
        }
        OUT("%-9zu %10.4f %10.4f %10.4f %10.4f %8.1f %6s\n", n, tdev, thost, tcpu, tgmp,
            tdev > 0 && tcpu > 0 ? tcpu / tdev : 0.0, check);
        free(a), free(b), free(r), free(w);
    }
}

int main(int argc, char **argv)
{
    int quick = 0;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
        else {
            printf("usage: bench_int_gpu_ntt [--quick] [--only LIST] [--out FILE]\n"
                   "  LIST: comma-separated parts among batch, big (default: all)\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (bulk_cuda_device_count() == 0) {
        printf("bench_int_gpu_ntt: no CUDA device; nothing to measure\n");
        return 0;
    }
    bulk_ctx *ctx = NULL;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CUDA, 0) != BULK_OK) {
        fprintf(stderr, "bench_int_gpu_ntt: cannot open a CUDA context\n");
        return 1;
    }
    int threads = bulk_ctx_threads(ctx);
    char host[256] = "?", name[256] = "?";
    gethostname(host, sizeof host - 1);
    double imad = 0, bw = 0;
    GPU_INTS->peaks(ctx, &imad, &bw, name);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    OUT("# bench_int_gpu_ntt  %s  host %s  device %s  CPU threads %d  GMP %s\n", date, host, name,
        threads, gmp_version);
    if (only && want("prof")) { /* one launch of each kernel under work, for ncu */
        size_t L = 1024, n = 8192, nb = (size_t)1 << 20;
        bulk_limb_t *a = malloc(n * L * 8), *b = malloc(n * L * 8), *r = malloc(2 * nb * 8);
        if (a && b && r) {
            for (size_t i = 0; i < n * L; i++) a[i] = rnd(), b[i] = rnd();
            OUT("# prof: ntt 65536 bits %.3e/s\n", dev_rate(ctx, "ntt", NULL, a, b, n, L, NULL, 0));
            int rc = GPU_INTS->mul_big(0, r, a, nb, b, nb);
            OUT("# prof: big %zu limbs: %s\n", nb, bulk_status_string(rc));
        }
        free(a), free(b), free(r);
    }
    if (want("batch")) bench_batch(ctx, threads, quick);
    if (want("big")) bench_big(quick);
    bulk_ctx_close(ctx);
    if (out && bulk_write_file_atomic(out, bench_table, bench_table_len) != 0) {
        fprintf(stderr, "bench_int_gpu_ntt: cannot write %s\n", out);
        return 1;
    }
    return 0;
}
