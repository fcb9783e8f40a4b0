/* bench_int_prime: bulk_int_isprime and bulk_int_nextprime against GMP (mpz_probab_prime_p
 * with reps 24, i.e. its plain BPSW, and mpz_nextprime) on the same random numbers and the
 * same threads, in the same run; every answer is compared and a mismatch fails the run.
 *
 *   bench_int_prime [--bits LIST] [--count N] [--threads N] [--time S] [--seed S] [--out FILE]
 *                   [--gpu | --gpu-only]
 *
 * Rows per width: isprime on random odd W-bit numbers (tests/s), and a nextprime sweep from
 * random W-bit starts (primes found/s), each at 1 thread and at --threads (default: all online
 * CPUs). GMP runs over the same numbers through bulk_parallel_for on as many threads. The two
 * sides alternate until each has run --time seconds (default 1); the table goes to stdout and
 * with --out to FILE (atomically). --gpu adds an isprime and a nextprime row per width with
 * libbulk on a CUDA context (threads column "gpu"; unless --count, 2^20 numbers for isprime up
 * to 1024 bits and 2^18 wider, 64 per thread for nextprime up to 1024 bits, 16 wider) against
 * GMP on --threads. --gpu-only: only those rows (the CPU rows take most of a run's time at
 * 2048 bits and up, a nextprime sweep at 1 thread above all).
 * Exit: 0, 1 (mismatch or failure), 2 (usage). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench_util.h"
#include "atomic_file.h"
#include "bulk/int.h"
#include "common/parallel.h"
#include "splitmix.h"

struct gmp_job {
    int next;
    const bulk_limb_t *a; /* limbs per instance */
    bulk_limb_t *r; /* nextprime results, limbs per instance */
    uint8_t *out;
    size_t limbs;
};

static void gmp_range(void *p, size_t begin, size_t end, int worker)
{
    (void)worker;
    const struct gmp_job *j = p;
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    for (size_t i = begin; i < end; i++) {
        mpz_import(x, j->limbs, -1, 8, 0, 0, j->a + i * j->limbs);
        if (!j->next) {
            j->out[i] = mpz_probab_prime_p(x, 24) != 0;
            continue;
        }
        mpz_nextprime(y, x);
        memset(j->r + i * j->limbs, 0, j->limbs * 8);
        mpz_export(j->r + i * j->limbs, NULL, -1, 8, 0, 0, y);
    }
    mpz_clears(x, y, NULL);
}

/* One side's rate: calls repeated until `secs` pass; instances per second. */
struct side {
    double t;
    long reps;
};

static int run_bulk(bulk_ctx *ctx, int next, const bulk_limb_t *a, const bulk_limb_t *aw,
                    bulk_limb_t *r, uint8_t *out, size_t n, size_t limbs)
{
    if (!next) return bulk_int_isprime(ctx, out, a, n, limbs, 0);
    return bulk_int_nextprime(ctx, r, aw, n, limbs + 1, 0, NULL);
}

/* bulk on the CPU with `threads` threads (gpu = 0) or on a CUDA context (gpu = 1); GMP on
 * `threads` threads */
static int measure(int threads, int gpu, int next, size_t bits, size_t n, double secs, uint64_t seed,
                   double *bulk_rate, double *gmp_rate)
{
    size_t L = bits / 64;
    bulk_limb_t *a = malloc(n * L * 8), *aw = calloc(n * (L + 1), 8);
    bulk_limb_t *r = malloc(n * (L + 1) * 8), *rg = malloc(n * (L + 1) * 8);
    uint8_t *o = malloc(n), *og = malloc(n);
    bulk_ctx *ctx = NULL;
    int rc = 1;
    if (!a || !aw || !r || !rg || !o || !og) goto out;
    if (bulk_ctx_open(&ctx, gpu ? BULK_BACKEND_CUDA : BULK_BACKEND_CPU, threads) != BULK_OK) {
        fprintf(stderr, "bench_int_prime: cannot open a %s context: %s\n", gpu ? "CUDA" : "CPU",
                bulk_ctx_last_error(NULL));
        goto out;
    }
    uint64_t s = seed ^ bits;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < L; k++) a[i * L + k] = bulk_splitmix64(&s);
        a[i * L] |= 1;
        a[i * L + L - 1] |= 1ull << 63;
        memcpy(aw + i * (L + 1), a + i * L, L * 8);
    }
    struct gmp_job g = { next, next ? aw : a, rg, og, next ? L + 1 : L };
    struct side sb = { 0, 0 }, sg = { 0, 0 };
    run_bulk(ctx, next, a, aw, r, o, n, L); /* warm-up */
    while (sb.t < secs || sg.t < secs) {
        double t0 = bench_now();
        if (run_bulk(ctx, next, a, aw, r, o, n, L) != BULK_OK) goto out;
        double t1 = bench_now();
        bulk_parallel_for(threads, n, 1, gmp_range, &g);
        double t2 = bench_now();
        sb.t += t1 - t0, sg.t += t2 - t1;
        sb.reps++, sg.reps++;
    }
    if (next ? memcmp(r, rg, n * (L + 1) * 8) != 0 : memcmp(o, og, n) != 0) {
        fprintf(stderr, "bench_int_prime: %s at %zu bits: bulk and GMP differ\n",
                next ? "nextprime" : "isprime", bits);
        goto out;
    }
    *bulk_rate = (double)n * (double)sb.reps / sb.t;
    *gmp_rate = (double)n * (double)sg.reps / sg.t;
    rc = 0;
out:
    bulk_ctx_close(ctx);
    free(a), free(aw), free(r), free(rg), free(o), free(og);
    return rc;
}

int main(int argc, char **argv)
{
    const char *bits_list = "1024,2048", *out = NULL;
    long count = 0, threads = 0;
    int gpu = 0, cpu = 1;
    double secs = 1;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i += 2) { /* options come with their values */
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--help") == 0) {
            puts("usage: bench_int_prime [--bits LIST] [--count N] [--threads N] [--time S] "
                 "[--seed S] [--out FILE] [--gpu | --gpu-only]\n"
                 "isprime (tests/s on random odd W-bit numbers) and a nextprime sweep (primes/s)\n"
                 "of libbulk against GMP's mpz_probab_prime_p(x, 24) and mpz_nextprime, at 1\n"
                 "thread and at --threads (default all online CPUs); results are compared.\n"
                 "--gpu: also isprime and nextprime on a CUDA context against GMP on all threads;\n"
                 "--gpu-only: those rows alone.");
            return 0;
        }
        if (strcmp(argv[i], "--gpu") == 0 || strcmp(argv[i], "--gpu-only") == 0) {
            gpu = 1;
            cpu = strcmp(argv[i], "--gpu") == 0;
            i--; /* no value */
            continue;
        }
        if (!v) goto usage;
        if (strcmp(argv[i], "--bits") == 0) bits_list = v;
        else if (strcmp(argv[i], "--count") == 0) count = atol(v);
        else if (strcmp(argv[i], "--threads") == 0) threads = atol(v);
        else if (strcmp(argv[i], "--time") == 0) secs = atof(v);
        else if (strcmp(argv[i], "--seed") == 0) seed = strtoull(v, NULL, 0);
        else if (strcmp(argv[i], "--out") == 0) out = v;
        else goto usage;
    }
    if (threads <= 0) threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads <= 0) threads = 1;
    bench_table_printf("bench_int_prime: libbulk vs GMP %s (mpz_probab_prime_p reps 24 = BPSW, "
                       "mpz_nextprime), seed %llu, %.1f s per side\n", gmp_version,
                       (unsigned long long)seed, secs);
    bench_table_printf("%-10s %6s %8s %8s %14s %14s %8s\n", "op", "bits", "threads", "count",
                       "bulk /s", "GMP /s", "bulk/GMP");
    for (const char *p = bits_list; *p;) {
        size_t bits = strtoul(p, NULL, 10);
        if (bits < 64 || bits % 64) goto usage;
        for (int next = 0; cpu && next < 2; next++) {
            long thr[2] = { 1, threads };
            for (int k = 0; k < (threads > 1 ? 2 : 1); k++) {
                size_t n = count > 0 ? (size_t)count : (size_t)(next ? 16 : 256) * (size_t)thr[k];
                double rb, rg;
                if (measure((int)thr[k], 0, next, bits, n, secs, seed, &rb, &rg) != 0) return 1;
                bench_table_printf("%-10s %6zu %8ld %8zu %14.1f %14.1f %8.3f\n",
                                   next ? "nextprime" : "isprime", bits, thr[k], n, rb, rg, rb / rg);
            }
        }
        /* the CUDA context: isprime with its powers on the device, nextprime's candidates
         * tested in batches that way (docs/int-prime.md) */
        for (int next = 0; gpu && next < 2; next++) {
            /* isprime: a batch of the size bulk is for (2^16 numbers at 1024 bits leave some
             * 13000 base-2 tests for the device, a few percent of an H200's lanes, and the
             * ~200 probable primes to the CPU threads); nextprime: batches big enough for the
             * device, GMP's side a few seconds */
            size_t nn = (size_t)(bits <= 1024 ? 64 : 16) * (size_t)threads;
            size_t ni = (size_t)1 << (bits <= 1024 ? 20 : 18); /* GMP: ~10 s a call at 2048 */
            size_t n = count > 0 ? (size_t)count : next ? nn : ni;
            double rb, rg;
            if (measure((int)threads, 1, next, bits, n, secs, seed, &rb, &rg) != 0) return 1;
            bench_table_printf("%-10s %6zu %8s %8zu %14.1f %14.1f %8.3f\n", next ? "nextprime" : "isprime",
                               bits, "gpu", n, rb, rg, rb / rg);
        }
        p = strchr(p, ',');
        if (!p) break;
        p++;
    }
    if (out && bulk_write_file_atomic(out, bench_table, bench_table_len) != 0) {
        fprintf(stderr, "bench_int_prime: cannot write %s\n", out);
        return 1;
    }
    return 0;
usage:
    fprintf(stderr, "bench_int_prime: bad usage (try --help)\n");
    return 2;
}
