/* Benchmark of powmod and invmod on the CUDA backend against GMP on all cores of this machine,
 * in the same run: powmod at 1024, 2048 and 4096 bits with 512-bit exponents (CGBN's perf test
 * workload) and with full-width exponents, device-resident (bulk_int_dev_powmod) and through
 * the host API (bulk_int_powmod on a CUDA context, transfers included); invmod at 1024, 2048
 * and 4096 bits (device-resident, host API, the library's CPU context, GMP's mpz_invert). Every row
 * checks its first 16 results against GMP ("ok" / "WRONG" in the column chk); the last column
 * is the kernel's shape (lanes per instance x words per lane; 1x: one thread per instance).
 *
 *   bench_int_gpu_powmod [--sweep] [--only powmod,invmod] [--out FILE]
 *
 * --sweep adds, for every powmod row, the device-resident rate under each int.powmod_tpi
 * (1 = one thread per instance; 4, 8, 16, 32 lanes per instance) - the measurement that sets
 * BG_MC_MIN_WORDS and the default shape of bg_mc_shape (src/int/cuda/core/mont_coop.h); and
 * for every invmod row the rate under each int.invmod_tpi (1; 2 .. 32 lanes: the shapes of
 * bg_ic_shape, src/int/cuda/core/invmod_coop.h).
 * Instance counts are calibrated so that each timed run lasts about 0.3 s (the whole run,
 * sweep included, about a minute on an H200). FILE defaults to
 * bench/results/int_gpu_powmod-HOST-DATE.txt. Without a CUDA device it says so and exits 0. */
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
#include "int/cuda/core/invmod_coop.h"

#include "../bench_util.h"

#define OUT bench_table_printf

static uint64_t rng = 0x7e57ab1e;
static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* n instances of L limbs: a (bases / values), e (exponents of eb bits, top bit set), m (odd,
 * full size). */
struct data {
    size_t n, L;
    bulk_limb_t *a, *e, *m, *r;
};

static int data_make(struct data *d, size_t n, size_t L, size_t eb)
{
    d->n = n, d->L = L;
    d->a = malloc(n * L * 8), d->e = malloc(n * L * 8), d->m = malloc(n * L * 8), d->r = malloc(n * L * 8);
    if (!d->a || !d->e || !d->m || !d->r) return BULK_ERR_NOMEM;
    for (size_t i = 0; i < n * L; i++) d->a[i] = rnd(), d->m[i] = rnd(), d->e[i] = 0;
    for (size_t i = 0; i < n; i++) {
        bulk_limb_t *e = d->e + i * L;
        for (size_t j = 0; j < (eb + 63) / 64; j++) e[j] = rnd();
        if (eb % 64) e[eb / 64] &= ((bulk_limb_t)1 << (eb % 64)) - 1;
        e[(eb - 1) / 64] |= (bulk_limb_t)1 << ((eb - 1) % 64);
        d->m[i * L] |= 1;
        d->m[i * L + L - 1] |= 1ull << 63;
    }
    return BULK_OK;
}

static void data_free(struct data *d)
{
    free(d->a), free(d->e), free(d->m), free(d->r);
    memset(d, 0, sizeof *d);
}

/* ---- GMP on all cores --------------------------------------------------------------------- */

struct gjob {
    const struct data *d;
    int inv;
};

static void gmp_range(void *p, size_t begin, size_t end, int worker)
{
    (void)worker;
    const struct gjob *j = p;
    size_t L = j->d->L;
    mpz_t x, y, m, z;
    mpz_inits(x, y, m, z, NULL);
    for (size_t i = begin; i < end; i++) {
        mpz_import(x, L, -1, 8, 0, 0, j->d->a + i * L);
        mpz_import(m, L, -1, 8, 0, 0, j->d->m + i * L);
        if (j->inv) {
            mpz_invert(z, x, m);
        } else {
            mpz_import(y, L, -1, 8, 0, 0, j->d->e + i * L);
            mpz_powm(z, x, y, m);
        }
    }
    mpz_clears(x, y, m, z, NULL);
}

/* GMP's rate on all threads: whole rounds over the data until 0.3 s have passed (the first
 * 2^k instances, k growing). */
static double gmp_rate(const struct data *d, int inv, int threads)
{
    struct gjob j = {d, inv};
    size_t cnt = (size_t)threads * 4;
    for (;;) {
        if (cnt > d->n) cnt = d->n;
        double t0 = bench_now();
        bulk_parallel_for(threads, cnt, 1, gmp_range, &j);
        double t = bench_now() - t0;
        if (t > 0.3 || cnt == d->n) return (double)cnt / t;
        cnt *= t < 0.03 ? 8 : 2;
    }
}

/* "ok" when the first 16 results in r match GMP. */
static const char *check(const struct data *d, int inv)
{
    size_t L = d->L, k = d->n < 16 ? d->n : 16;
    mpz_t x, y, m, z, w;
    mpz_inits(x, y, m, z, w, NULL);
    int ok = 1;
    for (size_t i = 0; i < k && ok; i++) {
        mpz_import(x, L, -1, 8, 0, 0, d->a + i * L);
        mpz_import(m, L, -1, 8, 0, 0, d->m + i * L);
        mpz_import(w, L, -1, 8, 0, 0, d->r + i * L);
        if (inv) {
            if (!mpz_invert(z, x, m)) mpz_set_ui(z, 0);
        } else {
            mpz_import(y, L, -1, 8, 0, 0, d->e + i * L);
            mpz_powm(z, x, y, m);
        }
        ok = mpz_cmp(z, w) == 0;
    }
    mpz_clears(x, y, m, z, w, NULL);
    return ok ? "ok" : "WRONG";
}

/* ---- the GPU -------------------------------------------------------------------------------- */

/* Device-resident rate over d (one untimed warm-up run, then timed runs for >= 0.3 s);
 * results downloaded into d->r. 0 on failure (printed). */
static double dev_rate(bulk_ctx *ctx, struct data *d, int inv)
{
    bulk_int_dev *A = NULL, *E = NULL, *M = NULL, *R = NULL;
    int rc = bulk_int_dev_alloc(ctx, &A, d->n, d->L);
    if (rc == BULK_OK && !inv) rc = bulk_int_dev_alloc(ctx, &E, d->n, d->L);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &M, d->n, d->L);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &R, d->n, d->L);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, A, d->a);
    if (rc == BULK_OK && !inv) rc = bulk_int_dev_upload(ctx, E, d->e);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, M, d->m);
    double rate = 0, t = 0, t0 = 0;
    for (int reps = -1; rc == BULK_OK && (reps < 1 || t < 0.3) && reps < 50; reps++) {
        if (reps == 0) t0 = bench_now();
        rc = inv ? bulk_int_dev_invmod(ctx, R, A, M, NULL) : bulk_int_dev_powmod(ctx, R, A, E, M, NULL);
        if (rc == BULK_ERR_NOT_INVERTIBLE) rc = BULK_OK; /* random a: some share a factor with m */
        if (rc == BULK_OK) rc = bulk_int_dev_sync(ctx);
        t = bench_now() - t0;
        if (reps >= 0) rate = (double)d->n * (reps + 1) / t;
    }
    if (rc == BULK_OK) rc = bulk_int_dev_download(ctx, R, d->r);
    bulk_int_dev_free(A), bulk_int_dev_free(E), bulk_int_dev_free(M), bulk_int_dev_free(R);
    if (rc != BULK_OK) OUT("# device-resident run failed: %s\n", bulk_ctx_last_error(ctx));
    return rc == BULK_OK ? rate : 0;
}

/* The host API's rate on ctx (a CUDA or the CPU context): one warm-up, one timed run. */
static double host_rate(bulk_ctx *ctx, struct data *d, int inv)
{
    double rate = 0;
    for (int k = 0; k < 2; k++) {
        double t0 = bench_now();
        int rc = inv ? bulk_int_invmod(ctx, d->r, d->a, d->m, d->n, d->L, NULL)
                     : bulk_int_powmod(ctx, d->r, d->a, d->e, d->m, d->n, d->L, NULL);
        if (rc != BULK_OK && rc != BULK_ERR_NOT_INVERTIBLE) {
            OUT("# host run failed: %s\n", bulk_ctx_last_error(ctx));
            return 0;
        }
        rate = (double)d->n / (bench_now() - t0);
    }
    return rate;
}

/* Instances for about 0.3 s of device work at this row: a calibration run on 2^13. */
static size_t calibrate(bulk_ctx *ctx, size_t L, size_t eb, int inv)
{
    struct data d;
    size_t n = (size_t)1 << 13;
    if (data_make(&d, n, L, eb) != BULK_OK) {
        data_free(&d);
        return 0;
    }
    double r = dev_rate(ctx, &d, inv);
    data_free(&d);
    size_t want = (size_t)(r * 0.3), cap = ((size_t)256 << 20) / (L * 8);
    if (want < n) want = n;
    if (want > cap) want = cap;
    return want;
}

static void tune(bulk_ctx *ctx, const char *t)
{
    if (bulk_ctx_set_tune(ctx, t) != BULK_OK) OUT("# tune %s: %s\n", t, bulk_ctx_last_error(ctx));
}

/* The kernel at this width for int.powmod_tpi (int.invmod_tpi when inv) = want: "1x" (one
 * thread per instance) or "TPIxL" (bg_mc_shape / bg_ic_shape, the choice the library makes;
 * invmod's even moduli always take the one-thread kernel, and the rows' moduli are odd). */
static const char *shape(size_t bits, int want, int inv, char *buf, size_t size)
{
    int tpi, L;
    int coop = inv ? bg_ic_shape((int)(bits / 32), want, &tpi, &L)
                   : bg_mc_shape((int)(bits / 32), want, &tpi, &L);
    if (coop) snprintf(buf, size, "%dx%d", tpi, L);
    else snprintf(buf, size, "1x");
    return buf;
}

static void row(bulk_ctx *ctx, bulk_ctx *cpu, int inv, size_t bits, size_t eb, int threads, int sweep)
{
    char sh[32];
    size_t L = bits / 64;
    size_t n = calibrate(ctx, L, eb, inv);
    struct data d;
    if (n == 0 || data_make(&d, n, L, eb) != BULK_OK) {
        OUT("%-7s %6zu %6zu: out of host memory\n", inv ? "invmod" : "powmod", bits, eb);
        if (n) data_free(&d);
        return;
    }
    double dv = dev_rate(ctx, &d, inv);
    const char *ok = check(&d, inv);
    double hv = host_rate(ctx, &d, inv);
    double cv = inv ? host_rate(cpu, &d, inv) : 0;
    double gv = gmp_rate(&d, inv, threads);
    OUT("%-7s %6zu %6zu %9zu %11.3e %11.3e %11.3e %11.3e %8.1f %-5s %s\n", inv ? "invmod" : "powmod",
        bits, eb, n, dv, hv, cv, gv, dv / gv, ok, shape(bits, 0, inv, sh, sizeof sh));
    if (sweep) {
        static const char *const t[] = {"int.powmod_tpi=1", "int.powmod_tpi=4",
                                        "int.powmod_tpi=8", "int.powmod_tpi=16",
                                        "int.powmod_tpi=32"};
        static const char *const ti[] = {"int.invmod_tpi=1", "int.invmod_tpi=2",
                                         "int.invmod_tpi=4", "int.invmod_tpi=8",
                                         "int.invmod_tpi=16", "int.invmod_tpi=32"};
        for (int k = 0; k < (inv ? 6 : 5); k++) {
            const char *tk = inv ? ti[k] : t[k];
            /* one thread per instance is slow from 2048 bits: a slice of the data */
            struct data s = d;
            if (k == 0 && bits >= 2048) s.n = n / 32 > 4096 ? n / 32 : (n < 4096 ? n : 4096);
            tune(ctx, tk);
            double r = dev_rate(ctx, &s, inv);
            tune(ctx, "");
            OUT("  sweep %-11s %6zu %6zu %9zu %11.3e %11s %11s %11s %8.1f %-5s %s\n", tk + 4, bits,
                eb, s.n, r, "-", "-", "-", r / gv, check(&s, inv),
                shape(bits, atoi(tk + 15), inv, sh, sizeof sh));
        }
    }
    data_free(&d);
}

int main(int argc, char **argv)
{
    int sweep = 0;
    const char *out = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sweep") == 0) sweep = 1;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: bench_int_gpu_powmod [--sweep] [--only powmod,invmod] [--out FILE]\n");
            return 0;
        } else {
            fprintf(stderr, "bench_int_gpu_powmod: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (bulk_cuda_device_count() == 0) {
        printf("bench_int_gpu_powmod: no CUDA device; nothing to measure\n");
        return 0;
    }
    bulk_ctx *ctx, *cpu;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CUDA, 0) != BULK_OK || bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) {
        fprintf(stderr, "bench_int_gpu_powmod: cannot open the contexts\n");
        return 1;
    }
    int threads = bulk_ctx_threads(ctx);
    char host[128] = "?";
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    OUT("# bench_int_gpu_powmod  %s  host %s  CPU threads %d  GMP %s\n", date, host, threads, gmp_version);
    OUT("# rates in instances/s; dev = device-resident; host = the host API on the CUDA context\n"
        "# (transfers included); cpu = the CPU context (invmod); GMP on all %d threads;\n"
        "# xGMP = dev / GMP; chk = the first 16 results against GMP\n", threads);
    OUT("%-7s %6s %6s %9s %11s %11s %11s %11s %8s %-5s %s\n", "op", "bits", "exp", "count", "dev/s",
        "host/s", "cpu/s", "GMP/s", "xGMP", "chk", "lanes x words");
    static const size_t bits[] = {1024, 2048, 4096};
    if (!only || bench_in_list(only, "powmod"))
        for (int k = 0; k < 3; k++) {
            row(ctx, cpu, 0, bits[k], 512, threads, sweep);
            row(ctx, cpu, 0, bits[k], bits[k], threads, sweep);
        }
    if (!only || bench_in_list(only, "invmod"))
        for (int k = 0; k < 3; k++) row(ctx, cpu, 1, bits[k], bits[k], threads, sweep);
    bulk_ctx_close(ctx);
    bulk_ctx_close(cpu);
    char path[512];
    if (!out) {
        char day[16];
        strftime(day, sizeof day, "%Y%m%d", gmtime(&now));
        snprintf(path, sizeof path, "bench/results/int_gpu_powmod-%s-%s.txt", host, day);
        out = path;
    }
    if (bulk_write_file_atomic(out, bench_table, bench_table_len) != 0) {
        fprintf(stderr, "bench_int_gpu_powmod: cannot write %s\n", out);
        return 1;
    }
    printf("# written to %s\n", out);
    return 0;
}
