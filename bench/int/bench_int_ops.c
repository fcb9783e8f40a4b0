/* bench_int_ops OP: operations per second of libbulk and of GMP on the same random instances,
 * in the same run, with the same number of threads, and their ratio.
 *
 *   bench_int_ops OP [--bits W] [--count N] [--seed S] [--time SECONDS] [--backend B]
 *                 [--threads N] [--json] [--out FILE]
 *
 * Instances come from a fixed seed (splitmix64), so runs are repeatable. GMP runs over the
 * instances through bulk_parallel_for with as many threads as the bulk context has: the
 * comparison is bulk's batch against GMP used the obvious way on the same cores. Each side
 * runs once untimed, then the two run in alternation until they have taken 2 * --time seconds
 * together; afterwards every result of bulk's last timed call is compared with GMP's, and a
 * mismatch fails the run (exit 1) without any speed printed: a fast wrong answer is not a
 * speed. `sh bench/run.sh int` runs it for every op at several widths and thread counts and
 * writes bench/results/int-<machine>.txt. Exit codes: 0, 1 (run-time failure, a mismatch),
 * 2 (usage). */
#include <errno.h>
#include <gmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_util.h"
#include "bulk/int.h"
#include "atomic_file.h"
#include "common/parallel.h"
#include "splitmix.h"
#include "int_ops.h" /* the op table of `bulk int` (programs/int_ops.c) */

static const char bench_usage[] =
    "usage: bench_int_ops OP [--bits W] [--count N] [--backend cpu|cuda|auto] [--threads N]\n"
    "                     [--seed S] [--time SECONDS] [--json] [--out FILE]\n"
    "\n"
    "Measures OP (add sub mul sqr div mod divmod gcd powmod cmp) on N random W-bit instances\n"
    "with libbulk and with GMP in the same run and prints operations per second of each and\n"
    "the ratio bulk/GMP (above 1: bulk is faster).\n"
    "  add sub mul sqr cmp gcd   two W-bit operands (cmp: every fourth pair equal)\n"
    "  div mod divmod            a 2W-bit dividend by a W-bit divisor (top limb not 0)\n"
    "  powmod                    W-bit base, W-bit exponent, W-bit odd modulus\n"
    "GMP functions: mpn_add_n, mpn_sub_n, mpn_mul_n, mpn_sqr, mpn_tdiv_qr, mpz_gcd, mpz_powm,\n"
    "mpn_cmp, run over the instances on the same number of threads (bulk_parallel_for).\n"
    "\n"
    "  --bits W        operand width, a multiple of 64 (default 1024)\n"
    "  --count N       instances per call (default 65536)\n"
    "  --seed S        seed of the random operands (default 1)\n"
    "  --time SECONDS  timed run: the sides alternate, one call each, until they have taken\n"
    "                  2 x SECONDS together (default 1)\n"
    "  --backend B     cpu, cuda or auto (default auto)\n"
    "  --threads N     threads for bulk and for GMP; 0 or absent: BULK_THREADS, else all online CPUs\n"
    "  --json          print one JSON object instead of the table\n"
    "  --out FILE      also write what is printed to FILE (atomically, at the end)\n"
    "Every result of bulk is checked against GMP's; a mismatch is an error (exit 1).\n"
    "sh bench/run.sh int runs every op at several widths (bench/results/int-<machine>.txt).\n";

enum { EXIT_USAGE = 2 };

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bench_int_ops: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

/* The value of option `name` at argv[*i] (--name V or --name=V), or NULL when argv[*i] is
 * another argument. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != 0) return NULL;
    if (*i + 1 >= argc) die(EXIT_USAGE, "option %s needs a value", name);
    return argv[++*i];
}

static long long parse_ll(const char *opt, const char *text, long long min, long long max)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 0);
    if (errno || end == text || *end) die(EXIT_USAGE, "%s: '%s' is not an integer", opt, text);
    if (v < min || v > max)
        die(EXIT_USAGE, "%s: %lld is out of range [%lld, %lld]", opt, v, min, max);
    return v;
}

typedef struct bench {
    int_op op;
    size_t n, L;        /* instances, limbs per W-bit operand */
    size_t a_limbs;     /* limbs of operand a: 2L for the divisions, else L */
    size_t r_limbs;     /* limbs per result of r */
    bulk_limb_t *a, *b, *m;         /* operands (m: the powmod modulus) */
    bulk_limb_t *r, *q;             /* bulk's results */
    uint8_t *flag;
    int8_t *i8;
    bulk_limb_t *gr, *gq;           /* GMP's results */
    uint8_t *gflag;
    int8_t *gi8;
    mpz_t *wz;                      /* per-worker result of mpz_gcd / mpz_powm */
} bench;

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) die(EXIT_FAILURE, "out of memory");
    return p;
}

static void make_operands(bench *B, uint64_t seed)
{
    uint64_t s = seed;
    size_t n = B->n, L = B->L;
    for (size_t i = 0; i < n * B->a_limbs; i++) B->a[i] = bulk_splitmix64(&s);
    for (size_t i = 0; i < n * L; i++) B->b[i] = bulk_splitmix64(&s);
    for (size_t i = 0; i < n; i++) {
        bulk_limb_t *b = B->b + i * L;
        switch (B->op) {
        case INT_OP_DIV:
        case INT_OP_MOD:
        case INT_OP_DIVMOD:
            if (b[L - 1] == 0) b[L - 1] = 1; /* a W-bit divisor, as mpn_tdiv_qr requires */
            break;
        case INT_OP_POWMOD: {
            bulk_limb_t *m = B->m + i * L;
            for (size_t k = 0; k < L; k++) m[k] = bulk_splitmix64(&s);
            m[0] |= 1;
            m[L - 1] |= 1ull << 63;
            b[L - 1] |= 1ull << 63; /* a full W-bit exponent */
            break;
        }
        case INT_OP_CMP:
            if (i % 4 == 0) memcpy(b, B->a + i * L, L * sizeof *b); /* equal: a full scan */
            break;
        default:
            break;
        }
    }
}

/* ---- the two sides -------------------------------------------------------------------------- */

static int run_bulk(bulk_ctx *ctx, bench *B)
{
    size_t n = B->n, L = B->L;
    switch (B->op) {
    case INT_OP_ADD: return bulk_int_add(ctx, B->r, B->flag, B->a, B->b, n, L);
    case INT_OP_SUB: return bulk_int_sub(ctx, B->r, B->flag, B->a, B->b, n, L);
    case INT_OP_MUL: return bulk_int_mul(ctx, B->r, B->a, B->b, n, L);
    case INT_OP_SQR: return bulk_int_sqr(ctx, B->r, B->a, n, L);
    case INT_OP_DIV: return bulk_int_divmod(ctx, B->q, NULL, B->a, 2 * L, B->b, n, L, B->i8);
    case INT_OP_MOD: return bulk_int_divmod(ctx, NULL, B->r, B->a, 2 * L, B->b, n, L, B->i8);
    case INT_OP_DIVMOD: return bulk_int_divmod(ctx, B->q, B->r, B->a, 2 * L, B->b, n, L, B->i8);
    case INT_OP_GCD: return bulk_int_gcd(ctx, B->r, B->a, B->b, n, L);
    case INT_OP_POWMOD: return bulk_int_powmod(ctx, B->r, B->a, B->b, B->m, n, L, B->i8);
    case INT_OP_CMP: return bulk_int_cmp(ctx, B->i8, B->a, B->b, n, L);
    default: return BULK_ERR_ARG;
    }
}

static const char *gmp_function(int_op op)
{
    switch (op) {
    case INT_OP_ADD: return "mpn_add_n";
    case INT_OP_SUB: return "mpn_sub_n";
    case INT_OP_MUL: return "mpn_mul_n";
    case INT_OP_SQR: return "mpn_sqr";
    case INT_OP_DIV:
    case INT_OP_MOD:
    case INT_OP_DIVMOD: return "mpn_tdiv_qr";
    case INT_OP_GCD: return "mpz_gcd";
    case INT_OP_POWMOD: return "mpz_powm";
    case INT_OP_CMP: return "mpn_cmp";
    default: return "?";
    }
}

/* A read-only mpz over an n-limb operand (high zero limbs dropped). */
static mpz_srcptr ro(mpz_t z, const bulk_limb_t *p, size_t n)
{
    while (n && p[n - 1] == 0) n--;
    return mpz_roinit_n(z, (mp_srcptr)p, (mp_size_t)n);
}

/* Copies an mpz into an n-limb result (it fits: the result is below an n-limb operand). */
static void put(bulk_limb_t *dst, mpz_srcptr z, size_t n)
{
    size_t k = mpz_size(z);
    memcpy(dst, mpz_limbs_read(z), k * sizeof *dst);
    memset(dst + k, 0, (n - k) * sizeof *dst);
}

static void gmp_range(void *arg, size_t begin, size_t end, int worker)
{
    bench *B = arg;
    size_t L = B->L;
    mp_size_t l = (mp_size_t)L;
    for (size_t i = begin; i < end; i++) {
        const mp_limb_t *a = (const mp_limb_t *)B->a + i * B->a_limbs;
        const mp_limb_t *b = (const mp_limb_t *)B->b + i * L;
        mp_limb_t *r = (mp_limb_t *)B->gr + i * B->r_limbs;
        switch (B->op) {
        case INT_OP_ADD: B->gflag[i] = (uint8_t)mpn_add_n(r, a, b, l); break;
        case INT_OP_SUB: B->gflag[i] = (uint8_t)mpn_sub_n(r, a, b, l); break;
        case INT_OP_MUL: mpn_mul_n(r, a, b, l); break;
        case INT_OP_SQR: mpn_sqr(r, a, l); break;
        case INT_OP_DIV:
        case INT_OP_MOD:
        case INT_OP_DIVMOD:
            /* quotient: 2L - L + 1 limbs; the bulk quotient has 2L */
            mpn_tdiv_qr((mp_limb_t *)B->gq + i * 2 * L, r, 0, a, 2 * l, b, l);
            break;
        case INT_OP_GCD: {
            mpz_t x, y;
            mpz_gcd(B->wz[worker], ro(x, B->a + i * L, L), ro(y, B->b + i * L, L));
            put(B->gr + i * L, B->wz[worker], L);
            break;
        }
        case INT_OP_POWMOD: {
            mpz_t x, y, z;
            mpz_powm(B->wz[worker], ro(x, B->a + i * L, L), ro(y, B->b + i * L, L),
                     ro(z, B->m + i * L, L));
            put(B->gr + i * L, B->wz[worker], L);
            break;
        }
        case INT_OP_CMP: {
            int c = mpn_cmp(a, b, l);
            B->gi8[i] = (int8_t)(c < 0 ? -1 : c > 0);
            break;
        }
        default: break;
        }
    }
}

static void run_gmp(bench *B, int threads)
{
    bulk_parallel_for(threads, B->n, 0, gmp_range, B);
}

/* First instance where bulk and GMP differ, or (size_t)-1. */
static size_t first_mismatch(const bench *B)
{
    size_t L = B->L;
    for (size_t i = 0; i < B->n; i++) {
        int same = 1;
        switch (B->op) {
        case INT_OP_ADD:
        case INT_OP_SUB:
            same = B->flag[i] == B->gflag[i] &&
                   memcmp(B->r + i * L, B->gr + i * L, L * sizeof *B->r) == 0;
            break;
        case INT_OP_CMP: same = B->i8[i] == B->gi8[i]; break;
        case INT_OP_DIV:
        case INT_OP_DIVMOD:
            /* GMP's quotient has L + 1 limbs; bulk's L + 1 .. 2L must be 0 */
            same = memcmp(B->q + i * 2 * L, B->gq + i * 2 * L, (L + 1) * sizeof *B->q) == 0;
            for (size_t k = L + 1; k < 2 * L; k++) same = same && B->q[i * 2 * L + k] == 0;
            if (B->op == INT_OP_DIVMOD)
                same = same && memcmp(B->r + i * L, B->gr + i * L, L * sizeof *B->r) == 0;
            break;
        default: /* mod, mul, sqr, gcd, powmod: r */
            same = memcmp(B->r + i * B->r_limbs, B->gr + i * B->r_limbs,
                          B->r_limbs * sizeof *B->r) == 0;
            break;
        }
        if (!same) return i;
    }
    return (size_t)-1;
}

/* ---- timing ------------------------------------------------------------------------------- */

struct timing {
    double ops_per_s, seconds;
    long reps;
};

static void bulk_call(bulk_ctx *ctx, bench *B, const char *name)
{
    int st = run_bulk(ctx, B);
    if (st != BULK_OK)
        die(EXIT_FAILURE, "%s: libbulk failed: %s", name, bulk_status_string(st));
}

/* Times both sides in alternation, one call of each per round, so that a change in the load of
 * a shared machine hits both alike and the ratio stays meaningful. Each side first runs once
 * untimed (first touch of the result pages, warm caches). Rounds go on until the two sides
 * together have run 2 * min_time seconds (and at least one round). */
static void time_both(bulk_ctx *ctx, bench *B, int threads, double min_time, const char *name,
                      struct timing *tb, struct timing *tg)
{
    bulk_call(ctx, B, name);
    run_gmp(B, threads);
    memset(tb, 0, sizeof *tb);
    memset(tg, 0, sizeof *tg);
    do {
        double t0 = bench_now();
        bulk_call(ctx, B, name);
        double t1 = bench_now();
        run_gmp(B, threads);
        double t2 = bench_now();
        tb->seconds += t1 - t0;
        tg->seconds += t2 - t1;
        tb->reps++;
        tg->reps++;
    } while (tb->seconds + tg->seconds < 2 * min_time);
    /* a clock that did not move (a tiny --count) must not make an infinite rate */
    if (tb->seconds < 1e-9) tb->seconds = 1e-9;
    if (tg->seconds < 1e-9) tg->seconds = 1e-9;
    tb->ops_per_s = (double)tb->reps * (double)B->n / tb->seconds;
    tg->ops_per_s = (double)tg->reps * (double)B->n / tg->seconds;
}

/* ---- the program ----------------------------------------------------------------------------- */

struct args {
    int op, json, threads;
    long long bits, count;
    uint64_t seed;
    double min_time;
    bulk_backend backend;
    const char *out;
};

static void parse_args(int argc, char **argv, struct args *a)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(bench_usage, stdout);
            exit(0);
        }
    }
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = opt_value(argc, argv, &i, "--bits"))) {
            a->bits = parse_ll("--bits", v, 64, (long long)1 << 26);
            if (a->bits % 64) die(EXIT_USAGE, "--bits %lld is not a multiple of 64", a->bits);
        } else if ((v = opt_value(argc, argv, &i, "--count"))) {
            a->count = parse_ll("--count", v, 1, (long long)1 << 32);
        } else if ((v = opt_value(argc, argv, &i, "--seed"))) {
            a->seed = (uint64_t)parse_ll("--seed", v, 0, 0x7fffffffffffffffll);
        } else if ((v = opt_value(argc, argv, &i, "--time"))) {
            char *end;
            a->min_time = strtod(v, &end);
            if (*end || end == v || !(a->min_time >= 0 && a->min_time <= 3600))
                die(EXIT_USAGE, "--time: '%s' is not a number of seconds in [0, 3600]", v);
        } else if ((v = opt_value(argc, argv, &i, "--backend"))) {
            if (bulk_backend_parse(v, &a->backend) != BULK_OK)
                die(EXIT_USAGE, "--backend: '%s' is not one of cpu, cuda, auto", v);
        } else if ((v = opt_value(argc, argv, &i, "--threads"))) {
            a->threads = (int)parse_ll("--threads", v, 0, 4096);
        } else if ((v = opt_value(argc, argv, &i, "--out"))) {
            a->out = v;
        } else if (strcmp(argv[i], "--json") == 0) {
            a->json = 1;
        } else if (argv[i][0] == '-') {
            die(EXIT_USAGE, "unknown option '%s' (bench_int_ops --help)", argv[i]);
        } else if (a->op < 0) {
            a->op = int_op_find(argv[i]);
            if (a->op < 0)
                die(EXIT_USAGE, "unknown operation '%s' (one of: %s)", argv[i], int_op_names());
            if (a->op == INT_OP_ISPRIME || a->op == INT_OP_NEXTPRIME)
                die(EXIT_USAGE, "%s: measured by bench_int_prime", argv[i]);
        } else {
            die(EXIT_USAGE, "unexpected argument '%s'", argv[i]);
        }
    }
    if (a->op < 0) die(EXIT_USAGE, "which operation? one of: %s", int_op_names());
}

int main(int argc, char **argv)
{
    struct args a = { .op = -1, .bits = 1024, .count = 65536, .seed = 1, .min_time = 1.0,
                      .backend = BULK_BACKEND_AUTO };
    parse_args(argc, argv, &a);
    int op = a.op;
    long long bits = a.bits;
    uint64_t seed = a.seed;

    bench B;
    memset(&B, 0, sizeof B);
    B.op = (int_op)op;
    B.n = (size_t)a.count;
    B.L = (size_t)bits / 64;
    int division = op == INT_OP_DIV || op == INT_OP_MOD || op == INT_OP_DIVMOD;
    B.a_limbs = division ? 2 * B.L : B.L;
    B.r_limbs = (op == INT_OP_MUL || op == INT_OP_SQR) ? 2 * B.L : B.L;
    size_t n = B.n, L = B.L;
    B.a = xcalloc(n * B.a_limbs, sizeof *B.a);
    B.b = xcalloc(n * L, sizeof *B.b);
    B.m = xcalloc(op == INT_OP_POWMOD ? n * L : 1, sizeof *B.m);
    B.r = xcalloc(n * B.r_limbs, sizeof *B.r);
    B.gr = xcalloc(n * B.r_limbs, sizeof *B.gr);
    B.q = xcalloc(division ? n * 2 * L : 1, sizeof *B.q);
    B.gq = xcalloc(division ? n * 2 * L : 1, sizeof *B.gq);
    B.flag = xcalloc(n, 1);
    B.gflag = xcalloc(n, 1);
    B.i8 = xcalloc(n, 1);
    B.gi8 = xcalloc(n, 1);
    make_operands(&B, seed);

    bulk_ctx *ctx;
    int st = bulk_ctx_open(&ctx, a.backend, a.threads);
    if (st == BULK_ERR_NO_BACKEND)
        die(EXIT_USAGE, "backend '%s' is not available here (CUDA devices found: %d)",
            bulk_backend_name(a.backend), bulk_cuda_device_count());
    if (st != BULK_OK) die(EXIT_FAILURE, "cannot open a context: %s", bulk_status_string(st));
    int threads = bulk_ctx_threads(ctx);
    B.wz = xcalloc((size_t)threads, sizeof *B.wz);
    for (int t = 0; t < threads; t++) mpz_init2(B.wz[t], (mp_bitcnt_t)(2 * bits + 64));
    const char *name = int_op_get(B.op)->name;

    struct timing tb, tg;
    time_both(ctx, &B, threads, a.min_time, name, &tb, &tg);
    /* Fault injection for the tests (tests/int/bench_int_ops.sh): BULK_BENCH_FAULT=1 flips one
     * result bit of bulk's last instance, which the check below must catch. */
    const char *fault = getenv("BULK_BENCH_FAULT");
    if (fault && strcmp(fault, "1") == 0) {
        size_t last = B.n - 1;
        if (B.op == INT_OP_CMP) B.i8[last] = (int8_t)(B.i8[last] == 1 ? 0 : 1);
        else if (B.op == INT_OP_DIV) B.q[last * 2 * L] ^= 1;
        else B.r[last * B.r_limbs] ^= 1;
    }
    size_t bad = first_mismatch(&B);
    if (bad != (size_t)-1)
        die(EXIT_FAILURE,
            "%s: libbulk's result for instance %zu (W = %lld, seed %llu) differs from GMP's; no "
            "speed reported",
            name, bad, bits, (unsigned long long)seed);
    double ratio = tb.ops_per_s / tg.ops_per_s;
    const char *bname = bulk_backend_name(bulk_ctx_backend(ctx));
    if (a.json) {
        bench_table_printf(
            "{\"op\":\"%s\",\"bits\":%lld,\"count\":%zu,\"seed\":%llu,\"backend\":\"%s\","
            "\"threads\":%d,\"bulk_ops_per_s\":%.6g,\"bulk_reps\":%ld,\"bulk_seconds\":%.6g,"
            "\"gmp_function\":\"%s\",\"gmp_version\":\"%s\",\"gmp_threads\":%d,"
            "\"gmp_ops_per_s\":%.6g,\"gmp_reps\":%ld,\"gmp_seconds\":%.6g,\"ratio\":%.4f,"
            "\"verified\":%zu}\n",
            name, bits, n, (unsigned long long)seed, bname, threads, tb.ops_per_s, tb.reps,
            tb.seconds, gmp_function(B.op), gmp_version, threads, tg.ops_per_s, tg.reps,
            tg.seconds, ratio, n);
    } else {
        bench_table_printf("bench_int_ops %s: W = %lld bits, %zu instances, seed %llu\n", name,
                           bits, n, (unsigned long long)seed);
        bench_table_printf("  %-38s %14s %12s %6s\n", "", "ops/s", "us/op", "reps");
        char who[64];
        if (bulk_ctx_backend(ctx) == BULK_BACKEND_CUDA) /* the GPU does the work */
            snprintf(who, sizeof who, "bulk (cuda)");
        else
            snprintf(who, sizeof who, "bulk (%s, %d thread%s)", bname, threads,
                     threads == 1 ? "" : "s");
        bench_table_printf("  %-38s %14.4g %12.4g %6ld\n", who, tb.ops_per_s, 1e6 / tb.ops_per_s,
                           tb.reps);
        snprintf(who, sizeof who, "GMP %s %s (%d thread%s)", gmp_version, gmp_function(B.op),
                 threads, threads == 1 ? "" : "s");
        bench_table_printf("  %-38s %14.4g %12.4g %6ld\n", who, tg.ops_per_s, 1e6 / tg.ops_per_s,
                           tg.reps);
        bench_table_printf("  ratio bulk/GMP: %.3f   (GMP on the same threads via "
                           "bulk_parallel_for)\n", ratio);
        bench_table_printf("  verified: all %zu results of bulk's last call equal GMP's\n", n);
    }
    int code = 0;
    if (a.out && bulk_write_file_atomic(a.out, bench_table, bench_table_len) != 0) {
        fprintf(stderr, "bench_int_ops: cannot write %s: %s\n", a.out, strerror(errno));
        code = EXIT_FAILURE;
    }
    for (int t = 0; t < threads; t++) mpz_clear(B.wz[t]);
    free(B.wz);
    free(B.a);
    free(B.b);
    free(B.m);
    free(B.r);
    free(B.gr);
    free(B.q);
    free(B.gq);
    free(B.flag);
    free(B.gflag);
    free(B.i8);
    free(B.gi8);
    bulk_ctx_close(ctx);
    return code;
}
