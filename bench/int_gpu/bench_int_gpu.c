/* Benchmark of the CUDA integer backend: device-resident throughput (bulk/int_device.h, data
 * already on the GPU), end-to-end throughput (int_cuda.h host API: copies in and out, chunked
 * and overlapped) and GMP on all cores of this machine in the same run, for mul (256 .. 65536
 * bits), sqr, mul_lo, add, divmod 2W/W, gcd and powmod. Each row also gives the fraction of the
 * two ceilings measured at start (METHOD.md): 32-bit multiply-adds per second and device-memory
 * bytes per second, from the operation's schoolbook multiply-add count and its bytes in + out.
 *
 *   bench_int_gpu [--quick] [--only LIST] [--out FILE]
 *
 * FILE defaults to bench/results/int_gpu-HOST-DATE.txt. LIST (comma-separated) limits the run
 * to some parts, for short GPU runs: mul (mul 256 .. 16384), mulbig (mul 65536), sqr, mullo,
 * add, divmod, gcd, powmod, kernels (the kernel-choice table), eo (the even/odd per-thread
 * kernel against sum-rotate, 64 .. 1280 bits; eotop: from 1024 bits), mul1k (the default mul
 * 256, 512, 1024, 1088, sqr 1024, mul_lo 1024 rows alone), prof (each kernel under work
 * launched once, for a profiler).
 *
 * Prints a table; writes it to FILE atomically. Without a CUDA device it says so and exits 0. */
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

#include "../bench_util.h"

/* The CUDA int table: this program reaches the CUDA entry points through it, and only after
 * finding a device. */
#define GPU_INTS (bulk_cuda_tables()->ints)

static uint64_t rng = 0x1234567;
static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

enum op { OP_MUL, OP_SQR, OP_MULLO, OP_ADD, OP_DIVMOD, OP_GCD, OP_POWMOD };
static const char *op_name[] = {"mul", "sqr", "mul_lo", "add", "divmod", "gcd", "powmod"};

struct job {
    enum op op;
    size_t limbs, n, gmp_n;
    const bulk_limb_t *a, *b, *c;
    bulk_limb_t *r, *q;
};

/* ---- GMP on all cores -------------------------------------------------------------------- */

static void gmp_range(void *p, size_t begin, size_t end, int worker)
{
    (void)worker;
    const struct job *j = p;
    size_t L = j->limbs;
    mpz_t x, y, m, z, w;
    mpz_inits(x, y, m, z, w, NULL);
    for (size_t i = begin; i < end; i++) {
        const mp_limb_t *a = (const mp_limb_t *)(j->a + i * L), *b = (const mp_limb_t *)(j->b + i * L);
        mp_limb_t *r = (mp_limb_t *)(j->r + i * 2 * L);
        switch (j->op) {
        case OP_MUL: mpn_mul_n(r, a, b, (mp_size_t)L); break;
        case OP_SQR: mpn_sqr(r, a, (mp_size_t)L); break;
        case OP_MULLO: mpn_mul_n(r, a, b, (mp_size_t)L); break; /* GMP has no public mullo */
        case OP_ADD: mpn_add_n(r, a, b, (mp_size_t)L); break;
        case OP_DIVMOD: /* 2L / L: a,b as the dividend, c the divisor (top limb nonzero) */
            mpn_tdiv_qr((mp_limb_t *)(j->q + i * 2 * L), r, 0, a, (mp_size_t)(2 * L),
                        (const mp_limb_t *)(j->c + i * L), (mp_size_t)L);
            break;
        case OP_GCD:
            mpz_import(x, L, -1, 8, 0, 0, a);
            mpz_import(y, L, -1, 8, 0, 0, b);
            mpz_gcd(z, x, y);
            break;
        case OP_POWMOD:
            mpz_import(x, L, -1, 8, 0, 0, a);
            mpz_import(y, L, -1, 8, 0, 0, b);
            mpz_import(m, L, -1, 8, 0, 0, j->c + i * L);
            mpz_powm(z, x, y, m);
            break;
        }
    }
    mpz_clears(x, y, m, z, w, NULL);
}

/* ---- the GPU, device-resident and end to end ----------------------------------------------- */

static int run_host(bulk_ctx *ctx, const struct job *j)
{
    size_t L = j->limbs, n = j->n;
    switch (j->op) {
    case OP_MUL: return GPU_INTS->mul(ctx, j->r, j->a, j->b, n, L);
    case OP_SQR: return GPU_INTS->sqr(ctx, j->r, j->a, n, L);
    case OP_MULLO: return GPU_INTS->mul_lo(ctx, j->r, j->a, j->b, n, L);
    case OP_ADD: return GPU_INTS->add(ctx, j->r, NULL, j->a, j->b, n, L);
    case OP_DIVMOD: return GPU_INTS->divmod(ctx, j->q, j->r, j->a, 2 * L, j->c, n, L, NULL);
    case OP_GCD: return GPU_INTS->gcd(ctx, j->r, j->a, j->b, n, L);
    case OP_POWMOD: return GPU_INTS->powmod(ctx, j->r, j->a, j->b, j->c, n, L, NULL);
    }
    return BULK_ERR_ARG;
}

/* Device arrays: A (a; for divmod the 2L-limb dividend), B, C, R (2L), Q (2L). */
struct dev {
    bulk_int_dev *A, *B, *C, *R, *Q;
};

static int run_dev(bulk_ctx *ctx, const struct job *j, struct dev *d)
{
    switch (j->op) {
    case OP_MUL: return bulk_int_dev_mul(ctx, d->R, d->A, d->B);
    case OP_SQR: return bulk_int_dev_sqr(ctx, d->R, d->A);
    case OP_MULLO: return bulk_int_dev_mul_lo(ctx, d->R, d->A, d->B);
    case OP_ADD: return bulk_int_dev_add(ctx, d->R, d->A, d->B);
    case OP_DIVMOD: return bulk_int_dev_divmod(ctx, d->Q, d->R, d->A, d->C, NULL);
    case OP_GCD: return bulk_int_dev_gcd(ctx, d->R, d->A, d->B);
    case OP_POWMOD: return bulk_int_dev_powmod(ctx, d->R, d->A, d->B, d->C, NULL);
    }
    return BULK_ERR_ARG;
}

/* Result widths (limbs) of the device arrays R and of A per op. */
static size_t r_limbs(enum op op, size_t L)
{
    return (op == OP_MUL || op == OP_SQR) ? 2 * L : L;
}

/* 32-bit multiply-adds of the schoolbook method per instance (w = W / 32 words): the count
 * the IMAD ceiling is taken against; 0 where the op is not multiply bound. */
static double imads(enum op op, size_t L)
{
    double w = 2.0 * (double)L;
    switch (op) {
    case OP_MUL: case OP_SQR: return 2 * w * w;
    case OP_MULLO: return w * w + w;
    case OP_DIVMOD: return 2 * (w + 1) * w; /* 2W/W Knuth: (w + 1) quotient words x w */
    case OP_POWMOD: return (64.0 * L * 1.2 + 10) * 4 * w * w; /* CIOS products, window 4 */
    case OP_GCD: return (64.0 * L * 2 / 30) * (w / 2) * 2; /* ~30 bits per step, avg w/2 */
    default: return 0;
    }
}

/* Bytes each instance must move through device memory (operands in, results out). */
static double io_bytes(enum op op, size_t L)
{
    double l = 8.0 * (double)L;
    switch (op) {
    case OP_MUL: return 4 * l;
    case OP_SQR: return 3 * l;
    case OP_MULLO: return 3 * l;
    case OP_ADD: return 3 * l;
    case OP_DIVMOD: return 2 * l + l + 2 * l + l;
    case OP_GCD: return 3 * l;
    case OP_POWMOD: return 4 * l;
    }
    return 0;
}

#define OUT bench_table_printf

static double imad_peak, bw_peak;
/* The --only list (NULL: everything). */
static const char *only;
static int want(const char *part)
{
    if (!only)
        return strcmp(part, "prof") != 0 && strcmp(part, "mul1k") != 0 && strcmp(part, "eotop") != 0 &&
               strcmp(part, "div4") != 0;
    return bench_in_list(only, part);
}
/* The row's name when not the operation's (a variant forced through the environment). */
static const char *row_label;
static const char *name_of(int op) { return row_label ? row_label : op_name[op]; }

static void bench_one(bulk_ctx *ctx, enum op op, size_t bits, size_t n, size_t gmp_n, int threads)
{
    size_t L = bits / 64;
    size_t al = op == OP_DIVMOD ? 2 * L : L;
    bulk_limb_t *a = malloc(n * al * 8), *b = malloc(n * L * 8), *c = malloc(n * L * 8);
    bulk_limb_t *r = malloc(n * 2 * L * 8), *q = malloc(n * 2 * L * 8);
    if (!a || !b || !c || !r || !q) {
        OUT("%-7s %6zu: out of host memory\n", name_of(op), bits);
        free(a); free(b); free(c); free(r); free(q);
        return;
    }
    for (size_t k = 0; k < n * al; k++) a[k] = rnd();
    for (size_t k = 0; k < n * L; k++) b[k] = rnd();
    for (size_t k = 0; k < n * L; k++) c[k] = rnd();
    for (size_t i = 0; i < n; i++) {
        c[i * L] |= 1;                 /* odd moduli */
        c[i * L + L - 1] |= 1ull << 63; /* full-size divisors and moduli */
    }
    struct job j = {op, L, n, gmp_n < n ? gmp_n : n, a, b, c, r, q};

    /* device-resident */
    struct dev d = {0};
    double dev_rate = 0, e2e_rate = 0, gmp_rate = 0;
    int rc = bulk_int_dev_alloc(ctx, &d.A, n, al);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &d.B, n, L);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &d.C, n, L);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &d.R, n, r_limbs(op, L));
    if (rc == BULK_OK && op == OP_DIVMOD) rc = bulk_int_dev_alloc(ctx, &d.Q, n, 2 * L);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, d.A, a);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, d.B, b);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, d.C, c);
    if (rc == BULK_OK) rc = run_dev(ctx, &j, &d); /* warm-up: module load, pools */
    if (rc == BULK_OK) rc = bulk_int_dev_sync(ctx);
    if (rc == BULK_OK) {
        double t0 = bulk_now(), t;
        int reps = 0;
        do {
            rc = run_dev(ctx, &j, &d);
            if (rc == BULK_OK) rc = bulk_int_dev_sync(ctx);
            reps++;
            t = bulk_now() - t0;
        } while (rc == BULK_OK && (t < 0.3 || reps < 3) && reps < 50);
        dev_rate = (double)n * reps / t;
    }
    bulk_int_dev_free(d.A); bulk_int_dev_free(d.B); bulk_int_dev_free(d.C);
    bulk_int_dev_free(d.R); bulk_int_dev_free(d.Q);
    if (rc != BULK_OK) {
        OUT("%-7s %6zu: device-resident run failed: %s\n", name_of(op), bits, bulk_status_string(rc));
        free(a); free(b); free(c); free(r); free(q);
        return;
    }
    /* end to end (host arrays) */
    rc = run_host(ctx, &j);
    if (rc == BULK_OK) {
        double t0 = bulk_now();
        rc = run_host(ctx, &j);
        e2e_rate = (double)n / (bulk_now() - t0);
    }
    /* GMP on all cores, on the first gmp_n instances */
    {
        double t0 = bulk_now();
        bulk_parallel_for(threads, j.gmp_n, 64, gmp_range, &j);
        gmp_rate = (double)j.gmp_n / (bulk_now() - t0);
    }
    double im = imads(op, L), by = io_bytes(op, L);
    OUT("%-7s %6zu %9zu %11.3e %11.3e %11.3e %8.1f %7.1f%% %7.1f%%\n", name_of(op), bits, n,
        dev_rate, e2e_rate, gmp_rate, dev_rate / gmp_rate,
        im > 0 ? 100.0 * dev_rate * im / imad_peak : 0.0, 100.0 * dev_rate * by / bw_peak);
    if (rc != BULK_OK) OUT("  (end-to-end run failed: %s)\n", bulk_status_string(rc));
    free(a); free(b); free(c); free(r); free(q);
}

/* ctx's tuning (bulk_ctx_set_tune): key = val, or the defaults when key is NULL. */
static void tune(bulk_ctx *ctx, const char *key, const char *val)
{
    char t[64] = "";
    if (key) snprintf(t, sizeof t, "%s=%s", key, val);
    if (bulk_ctx_set_tune(ctx, t) != BULK_OK) fprintf(stderr, "bench_int_gpu: %s\n", bulk_ctx_last_error(ctx));
}

/* bench_one with the tuning key = val (a kernel variant forced) and the row named label; the
 * tuning is back to the defaults afterwards. */
static void bench_forced(bulk_ctx *ctx, const char *label, const char *key, const char *val,
                         enum op op, size_t bits, size_t n, size_t gmp_n, int threads)
{
    tune(ctx, key, val);
    row_label = label;
    bench_one(ctx, op, bits, n, gmp_n, threads);
    row_label = NULL;
    tune(ctx, NULL, NULL);
}

/* For a profiler (ncu -k regex:...): each of the kernels under work launched exactly once on
 * 2^18 instances of 1024 bits (mul by the even/odd rows forced (teo), the automatic choice, gcd
 * by divsteps, divmod 2048/1024), in that order, no timing. */
static void profile_once(bulk_ctx *ctx)
{
    const size_t n = (size_t)1 << 18, L = 16;
    bulk_limb_t *h = malloc(n * 2 * L * 8);
    struct dev d = {0};
    int rc = h ? BULK_OK : BULK_ERR_NOMEM;
    if (rc == BULK_OK) {
        for (size_t k = 0; k < n * 2 * L; k++) h[k] = rnd();
        for (size_t i = 0; i < n; i++) h[i * L + L - 1] |= 1ull << 63; /* full-size divisors (C) */
        rc = bulk_int_dev_alloc(ctx, &d.A, n, 2 * L);
    }
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &d.B, n, L);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &d.C, n, L);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &d.R, n, 2 * L);
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &d.Q, n, 2 * L);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, d.A, h);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, d.B, h);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, d.C, h);
    bulk_int_dev *A1 = NULL;
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &A1, n, L);
    if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, A1, h + n * L);
    static const char *kinds[] = {"teo", NULL};
    for (int k = 0; k < 2 && rc == BULK_OK; k++) {
        if (kinds[k]) tune(ctx, "int.mul", kinds[k]);
        rc = bulk_int_dev_mul(ctx, d.R, A1, d.B);
        tune(ctx, NULL, NULL);
    }
    bulk_int_dev *G = NULL; /* L limbs: gcd, then the remainder */
    if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &G, n, L);
    if (rc == BULK_OK) rc = bulk_int_dev_gcd(ctx, G, A1, d.B);
    if (rc == BULK_OK) rc = bulk_int_dev_divmod(ctx, d.Q, G, d.A, d.C, NULL);
    bulk_int_dev_free(G);
    if (rc == BULK_OK) rc = bulk_int_dev_sync(ctx);
    OUT("# profile_once: %s\n", bulk_status_string(rc));
    bulk_int_dev_free(A1);
    bulk_int_dev_free(d.A); bulk_int_dev_free(d.B); bulk_int_dev_free(d.C);
    bulk_int_dev_free(d.R); bulk_int_dev_free(d.Q);
    free(h);
}

/* The default divmod's results must be right: 2048/1024-bit divmod of random data (every 7th
 * divisor's top word cleared: the bg_divmod fallback), quotients and remainders poisoned
 * first, against mpn_tdiv_qr on the first 4096 instances with a full-size divisor and the
 * flags all clear. Prints one line; returns nonzero when they differ or the run fails. */
static int divmod_check(bulk_ctx *ctx, size_t n)
{
    const size_t L = 16;
    bulk_limb_t *a = malloc(n * 2 * L * 8), *d = malloc(n * L * 8);
    bulk_limb_t *q = malloc(n * 2 * L * 8), *r = malloc(n * L * 8);
    int8_t *e = malloc(n);
    int rc = a && d && q && r && e ? BULK_OK : BULK_ERR_NOMEM;
    if (rc == BULK_OK) {
        for (size_t k = 0; k < n * 2 * L; k++) a[k] = rnd();
        for (size_t k = 0; k < n * L; k++) d[k] = rnd();
        for (size_t i = 0; i < n; i += 7) d[i * L + L - 1] = 0;
        memset(q, 0xa5, n * 2 * L * 8); /* poisoned: every word must be written */
        memset(r, 0xa5, n * L * 8);
        rc = GPU_INTS->divmod(ctx, q, r, a, 2 * L, d, n, L, e);
    }
    int bad = rc != BULK_OK;
    for (size_t i = 0; !bad && i < n; i++) bad = e[i] != 0;
    for (size_t i = 0; !bad && i < n && i < 4096; i++) {
        if (i % 7 == 0) continue;
        mp_limb_t gq[2 * 16], gr[16];
        mpn_tdiv_qr(gq, gr, 0, (const mp_limb_t *)(a + i * 2 * L), (mp_size_t)(2 * L),
                    (const mp_limb_t *)(d + i * L), (mp_size_t)L);
        bad = memcmp(gq, q + i * 2 * L, (L + 1) * 8) != 0 || memcmp(gr, r + i * L, L * 8) != 0;
        for (size_t k = L + 1; k < 2 * L; k++) bad |= q[i * 2 * L + k] != 0;
    }
    OUT("# divmod 2048/1024 check, %zu instances: %s GMP (rc %d)\n", n,
        bad ? "DIFFERS FROM" : "identical to", rc);
    free(a); free(d); free(q); free(r); free(e);
    return bad;
}

/* The multiplication kernels forced one by one (the tuning int.mul) at the sizes where the choice
 * is made, device-resident: the data for replacing the cost model with measured thresholds. */
static void bench_kernels(bulk_ctx *ctx, size_t big)
{
    /* 512 .. 1024: the per-thread / sum-rotate boundary (832 bits = 13 limbs, the first width
     * given to sum-rotate); 131072 and 262144: Karatsuba over the batch (from 2048 limbs) */
    static const size_t bits_list[] = {512,  768,  832,   1024,  1088,  1536,   2048,
                                       3072, 4096, 8192, 16384, 32768, 65536, 131072, 262144};
    const int nbits = (int)(sizeof bits_list / sizeof bits_list[0]);
    static const char *kinds[] = {"teo", "sr", "cols", "kara", "coop", "ckara"};
    enum { NK = 6 };
    OUT("# kernel choice (device-resident mul/s; '-' = not applicable; kara = one Karatsuba level\n"
        "# over the automatic choice)\n");
    OUT("%-7s %12s %12s %12s %12s %12s %12s   %s\n", "bits", "teo", "sr", "cols", "kara", "coop",
        "ckara", "auto picks");
    for (int bi = 0; bi < nbits; bi++) {
        size_t bits = bits_list[bi], L = bits / 64;
        size_t n = bits <= 1024 ? big : bits <= 4096 ? big / 4 : bits <= 16384 ? big / 16 :
                   bits <= 65536 ? big / 64 : big / 256;
        double rate[NK] = {0};
        bulk_limb_t *h = malloc(n * L * 8);
        if (!h) return;
        for (size_t k = 0; k < n * L; k++) h[k] = rnd();
        bulk_int_dev *A = NULL, *B = NULL, *R = NULL;
        int rc = bulk_int_dev_alloc(ctx, &A, n, L);
        if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &B, n, L);
        if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &R, n, 2 * L);
        if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, A, h);
        if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, B, h);
        for (int k = 0; k < NK && rc == BULK_OK; k++) {
            if (k == 0 && L > 20) continue;
            if (k == 1 && 2 * L > 32 * 16) continue;
            if (k == 3 && L % 2) continue;
            if (k == 4 && L > 64) continue;
            if (k == 5 && L != 64) continue; /* ckara: 4096 bits only (the rows elsewhere) */
            tune(ctx, "int.mul", kinds[k]);
            int r2 = bulk_int_dev_mul(ctx, R, A, B);
            if (r2 == BULK_OK) r2 = bulk_int_dev_sync(ctx);
            double t0 = bulk_now(), t;
            int reps = 0;
            do {
                if (r2 == BULK_OK) r2 = bulk_int_dev_mul(ctx, R, A, B);
                if (r2 == BULK_OK) r2 = bulk_int_dev_sync(ctx);
                reps++;
                t = bulk_now() - t0;
            } while (r2 == BULK_OK && t < 0.2 && reps < 30);
            if (r2 == BULK_OK) rate[k] = (double)n * reps / t;
        }
        tune(ctx, NULL, NULL);
        char c[NK][16];
        for (int k = 0; k < NK; k++) {
            if (rate[k] > 0) snprintf(c[k], sizeof c[k], "%.3e", rate[k]);
            else snprintf(c[k], sizeof c[k], "-");
        }
        OUT("%-7zu %12s %12s %12s %12s %12s %12s   %s\n", bits, c[0], c[1], c[2], c[3], c[4],
            c[5], GPU_INTS->mul_kernel(ctx, L));
        bulk_int_dev_free(A);
        bulk_int_dev_free(B);
        bulk_int_dev_free(R);
        free(h);
    }
}

/* The even/odd per-thread kernel (int.mul=teo) against sum-rotate, forced, at the
 * widths where the choice between them is made, on one set of operands per width; teo timed
 * twice (the spread of one version against itself). Each
 * kind's products are compared with the automatic choice's before it is timed. 2^20
 * instances unless --quick. */
static void bench_eo(bulk_ctx *ctx, size_t big, size_t min_bits)
{
    static const size_t bits_list[] = {64, 128, 192, 256, 320, 512, 768, 832, 1024, 1088, 1280};
    const int nbits = (int)(sizeof bits_list / sizeof bits_list[0]);
    static const char *kinds[] = {"teo", "teo", "sr"}; /* int.mul */
    enum { NK = 3 };
    OUT("# even/odd rows (device-resident mul/s, int.mul forced; 1088 and 1280 bits: teo's\n"
        "# 20-limb capacity; IMAD%% of the best teo counts 2 w^2 multiply-adds against the measured\n"
        "# ceiling)\n");
    OUT("%-7s %9s %12s %12s %12s %8s   %s\n", "bits", "count", "teo", "teo again", "sr", "IMAD%",
        "auto picks");
    const size_t n = big;
    for (int bi = 0; bi < nbits; bi++) {
        if (bits_list[bi] < min_bits) continue;
        size_t L = bits_list[bi] / 64;
        bulk_limb_t *h = malloc(n * 2 * L * 8), *x = malloc(n * 2 * L * 8);
        bulk_int_dev *A = NULL, *B = NULL, *R = NULL;
        double rate[NK] = {0};
        int rc = h && x ? BULK_OK : BULK_ERR_NOMEM;
        if (rc == BULK_OK) {
            for (size_t k = 0; k < n * 2 * L; k++) h[k] = rnd();
            rc = bulk_int_dev_alloc(ctx, &A, n, L);
        }
        if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &B, n, L);
        if (rc == BULK_OK) rc = bulk_int_dev_alloc(ctx, &R, n, 2 * L);
        if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, A, h);
        if (rc == BULK_OK) rc = bulk_int_dev_upload(ctx, B, h + n * L);
        if (rc == BULK_OK) rc = bulk_int_dev_mul(ctx, R, A, B); /* the automatic choice */
        if (rc == BULK_OK) rc = bulk_int_dev_download(ctx, R, h);
        for (int k = 0; k < NK && rc == BULK_OK; k++) {
            tune(ctx, "int.mul", kinds[k]);
            int r2 = bulk_int_dev_mul(ctx, R, A, B);
            if (r2 == BULK_OK) r2 = bulk_int_dev_download(ctx, R, x);
            if (r2 == BULK_OK && memcmp(x, h, n * 2 * L * 8) != 0) {
                OUT("# %s at %zu bits differs from the automatic choice\n", kinds[k], 64 * L);
                r2 = BULK_ERR_INTERNAL;
            }
            double t0 = bulk_now(), t = 0;
            int reps = 0;
            while (r2 == BULK_OK && (t < 0.2 || reps < 3) && reps < 50) {
                r2 = bulk_int_dev_mul(ctx, R, A, B);
                if (r2 == BULK_OK) r2 = bulk_int_dev_sync(ctx);
                reps++;
                t = bulk_now() - t0;
            }
            if (r2 == BULK_OK) rate[k] = (double)n * reps / t;
            tune(ctx, NULL, NULL);
        }
        double em = rate[0] > rate[1] ? rate[0] : rate[1];
        OUT("%-7zu %9zu %12.3e %12.3e %12.3e %7.1f%%   %s\n", 64 * L, n, rate[0], rate[1], rate[2],
            100.0 * em * imads(OP_MUL, L) / imad_peak, GPU_INTS->mul_kernel(ctx, L));
        if (rc != BULK_OK) OUT("# %zu bits: %s\n", 64 * L, bulk_status_string(rc));
        bulk_int_dev_free(A);
        bulk_int_dev_free(B);
        bulk_int_dev_free(R);
        free(h);
        free(x);
    }
}

int main(int argc, char **argv)
{
    int quick = 0;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: bench_int_gpu [--quick] [--only LIST] [--out FILE]\n"
                   "  LIST: comma-separated parts among mul, mulbig, sqr, mullo, add, divmod,\n"
                   "  gcd, powmod, kernels, eo, eotop, mul1k, prof (default: all but prof, eotop\n"
                   "  and mul1k, whose rows the others contain)\n");
            return 0;
        } else {
            fprintf(stderr, "bench_int_gpu: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (bulk_cuda_device_count() == 0) {
        printf("bench_int_gpu: no CUDA device; nothing to measure\n");
        return 0;
    }
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CUDA, 0) != BULK_OK) {
        fprintf(stderr, "bench_int_gpu: cannot open a CUDA context\n");
        return 1;
    }
    int threads = bulk_ctx_threads(ctx);
    char name[256] = "?", host[128] = "?";
    gethostname(host, sizeof host - 1);
    if (GPU_INTS->peaks(ctx, &imad_peak, &bw_peak, name) != BULK_OK) {
        fprintf(stderr, "bench_int_gpu: measuring the device ceilings failed\n");
        return 1;
    }
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    OUT("# bench_int_gpu  %s  host %s  device %s  CPU threads %d  GMP %s\n", date, host, name,
        threads, gmp_version);
    OUT("# measured ceilings: %.3e 32-bit multiply-adds/s, %.3e bytes/s (device copy)\n",
        imad_peak, bw_peak);
    OUT("# rates in instances/s; dev = device-resident, e2e = host arrays incl. transfers;\n"
        "# xGMP = dev / GMP (all %d threads); IMAD%% = dev x schoolbook multiply-adds / ceiling;\n"
        "# BW%% = dev x (operand + result bytes) / ceiling\n", threads);
    OUT("%-7s %6s %9s %11s %11s %11s %8s %8s %8s\n", "op", "bits", "count", "dev/s", "e2e/s",
        "GMP/s", "xGMP", "IMAD%", "BW%");
    size_t big = quick ? (1u << 18) : (1u << 20);
    if (want("prof")) profile_once(ctx);
    static const size_t mul_bits[] = {256, 1024, 2048, 4096, 8192, 16384, 65536};
    for (int k = 0; k < 7; k++) {
        size_t bits = mul_bits[k];
        /* 2048 bits: as many instances as 1024 (a call of 2^18 takes 0.17 ms, and the launch and
         * synchronisation around it cost several per cent) */
        size_t n = bits <= 2048 ? big : bits <= 4096 ? big / 4 : bits <= 16384 ? big / 32 : big / 64;
        if (want(bits > 16384 ? "mulbig" : "mul"))
            bench_one(ctx, OP_MUL, bits, n, bits <= 4096 ? n : n / 4, threads);
    }
    if (want("mulbig")) { /* Karatsuba over the batch with one, two, three levels at 65536 bits
                           * (int.kara_min: the threshold, also for the half products) */
        static const char *mins[] = {"1024", "512", "256"}, *labels[] = {"kara1", "kara2", "kara3"};
        for (int k = 0; k < 3; k++)
            bench_forced(ctx, labels[k], "int.kara_min", mins[k], OP_MUL, 65536, big / 64,
                         big / 256, threads);
    }
    if (want("mul1k")) { /* the default paths up to 1088 bits (the even/odd rows) */
        bench_one(ctx, OP_MUL, 256, big, big, threads);
        bench_one(ctx, OP_MUL, 512, big, big, threads);
        bench_one(ctx, OP_MUL, 1024, big, big, threads);
        bench_one(ctx, OP_MUL, 1088, big, big, threads);
        bench_one(ctx, OP_SQR, 1024, big, big, threads);
        bench_one(ctx, OP_MULLO, 1024, big, big, threads);
    }
    if (want("sqr")) bench_one(ctx, OP_SQR, 1024, big, big, threads);
    if (want("mullo")) bench_one(ctx, OP_MULLO, 1024, big, big, threads);
    if (want("add")) bench_one(ctx, OP_ADD, 1024, 4 * big, 4 * big, threads);
    int div_bad = 0;
    if (want("divmod")) {
        bench_one(ctx, OP_DIVMOD, 1024, big, big / 4, threads);
        div_bad = divmod_check(ctx, big / 4);
    }
    if (want("gcd")) {
        /* the default (batched divsteps in registers up to 2048 bits), then seed 001's
         * approximate Euclidean kernel forced, on the same data */
        bench_one(ctx, OP_GCD, 1024, big, big / 16, threads);
        bench_one(ctx, OP_GCD, 2048, big / 4, big / 64, threads);
        bench_forced(ctx, "gcdapprox", "int.gcd", "approx", OP_GCD, 1024, big, big / 16,
                     threads);
        bench_forced(ctx, "gcdapprox", "int.gcd", "approx", OP_GCD, 2048, big / 4, big / 64,
                     threads);
    }
    /* powmod 1024 runs one instance per thread at 252 registers: 256 resident threads per SM,
     * 33792 on 132 SMs. The first H200 run used 16384 instances (under half of that, one
     * partial wave); 131072 fills about four waves, whatever --quick says. */
    if (want("powmod")) {
        bench_one(ctx, OP_POWMOD, 1024, 131072, 4096, threads);
        bench_one(ctx, OP_POWMOD, 2048, big / 64, 1024, threads);
    }
    if (want("kernels")) bench_kernels(ctx, big);
    if (want("eo")) bench_eo(ctx, big, 0);
    else if (want("eotop")) bench_eo(ctx, big, 1024); /* the same from 1024 bits (short runs) */
    bulk_ctx_close(ctx);

    char path[512];
    if (!out) {
        char day[16];
        strftime(day, sizeof day, "%Y%m%d", gmtime(&now));
        snprintf(path, sizeof path, "bench/results/int_gpu-%s-%s.txt", host, day);
        out = path;
    }
    if (bulk_write_file_atomic(out, bench_table, bench_table_len) != 0) {
        fprintf(stderr, "bench_int_gpu: cannot write %s\n", out);
        return 1;
    }
    printf("# written to %s\n", out);
    return div_bad ? 1 : 0; /* the table is kept either way; the divmod check's line says why */
}
