/* tune_div: measures the division thresholds (bulk_div_dc_threshold in src/int/cpu/div_dc.c,
 * bulk_div_newton_threshold in src/int/cpu/divmod.c), powmod's REDC threshold (bulk_powmod_redc_mul_threshold in
 * src/int/cpu/powmod.c) and the single-core speed of divmod, gcd, invmod and powmod against GMP
 * (mpn_tdiv_qr, mpz_gcd, mpz_invert, mpz_powm) in the same run.
 *
 *   tune_div [--out FILE] [--quick] [--only div,unbal,redc,api,gcd,scaling]
 *
 * Thresholds: for 2n-by-n divisions at sampled n, Algorithm D, divide-and-conquer and Newton
 * division are timed on the same operands (tune_dc and tune_threshold below say how each
 * threshold is read off). A time is the minimum over several
 * batches of thread CPU time (robust on a shared machine). The bulk functions run through the
 * public API on a one-thread context, GMP in a plain loop over the same data. Output: a table
 * on stdout and the same text in FILE (written atomically). */
#include <gmp.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bulk/int.h"
#include "atomic_file.h"
#include "common/hostinfo.h"
#include "../bench_util.h"
#include "splitmix.h"
#include "int/mpn_div.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static char report[1 << 16];
static size_t report_len;

static void out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[1024];
    int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    fputs(line, stdout);
    fflush(stdout);
    size_t len = strlen(line);
    if (report_len + len < sizeof report) {
        memcpy(report + report_len, line, len);
        report_len += len;
    }
}

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t rnd(void) { return bulk_splitmix64(&rng); }

static void fill(bulk_limb_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) a[i] = rnd();
}

static void *xmalloc(size_t b)
{
    void *p = malloc(b ? b : 1);
    if (!p) {
        fprintf(stderr, "tune_div: out of memory\n");
        exit(1);
    }
    return p;
}

static int batches = 5;
static double batch_s = 0.02;

/* Seconds per call of fn(arg) (minimum over batches). */
typedef void (*op_fn)(void *);
static double time_op(op_fn fn, void *arg)
{
    size_t reps = 1;
    for (;;) { /* calibrate */
        double t0 = now();
        for (size_t i = 0; i < reps; i++) fn(arg);
        double t = now() - t0;
        if (t > batch_s / 4 || reps > (1u << 28)) break;
        reps *= 2;
    }
    double best = 1e30;
    for (int b = 0; b < batches; b++) {
        double t0 = now();
        for (size_t i = 0; i < reps; i++) fn(arg);
        double t = (now() - t0) / (double)reps;
        if (t < best) best = t;
    }
    return best;
}

/* ---- the division thresholds ------------------------------------------------------------- */

struct divarg {
    size_t n;
    bulk_limb_t *a, *d, *q, *r, *tp;
    int m; /* 0 Knuth, 1 divide and conquer, 2 Newton (all called directly: D&C has no
            * public method value), 3 AUTO through bulk_mpn_divmod */
};

static void div_bulk(void *p)
{
    struct divarg *x = p;
    size_t an = 2 * x->n, dn = x->n;
    switch (x->m) {
    case 0: bulk_mpn_div_knuth(x->q, x->r, x->a, an, x->d, dn, x->tp); break;
    case 1: bulk_mpn_div_dc(x->q, x->r, x->a, an, x->d, dn, x->tp); break;
    case 2: bulk_mpn_div_newton(x->q, x->r, x->a, an, x->d, dn, x->tp); break;
    default: bulk_mpn_divmod(x->q, x->r, x->a, an, x->d, dn, BULK_DIV_AUTO, x->tp); break;
    }
}

static void div_gmp(void *p)
{
    struct divarg *x = p;
    mpn_tdiv_qr((mp_limb_t *)x->q, (mp_limb_t *)x->r, 0, (const mp_limb_t *)x->a,
                (mp_size_t)(2 * x->n), (const mp_limb_t *)x->d, (mp_size_t)x->n);
}

static void divarg_init(struct divarg *x, size_t n)
{
    x->n = n;
    x->a = xmalloc(2 * n * 8), x->d = xmalloc(n * 8), x->q = xmalloc((n + 1) * 8 * 2);
    x->r = xmalloc(n * 8), x->tp = xmalloc(bulk_mpn_divmod_scratch(2 * n, n) * 8);
    fill(x->a, 2 * n);
    fill(x->d, n); /* random: the top limb is almost never small, the shift almost never 0 */
}

static void divarg_free(struct divarg *x) { free(x->a), free(x->d), free(x->q), free(x->r), free(x->tp); }

/* The divide-and-conquer threshold T (bulk_div_dc_threshold) has two roles: AUTO's choice
 * between Algorithm D and D&C, and the block size below which the recursion uses Algorithm D.
 * Both are measured at once: for each candidate T, 2n-by-n divisions by bulk_mpn_div_dc with
 * that T (which is Algorithm D itself for n < T) at sizes across both roles; the T with the
 * smallest sum of log times (geometric mean) wins. */
static size_t tune_dc(int quick)
{
    static const size_t ts[] = { 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96 };
    static const size_t ns[] = { 16, 24, 32, 40, 48, 64, 80, 96, 128, 192, 256, 384, 512 };
    size_t nt = sizeof ts / sizeof ts[0], nn = sizeof ns / sizeof ns[0] - (quick ? 2 : 0);
    size_t keep = bulk_div_dc_threshold, best_t = keep;
    double best = 1e300, tt[16][16];
    out("divide-and-conquer threshold T: microseconds per 2n-by-n bulk_mpn_div_dc with\n"
        "recursion threshold T (Algorithm D for n < T)\n%6s", "T \\ n");
    for (size_t j = 0; j < nn; j++) out(" %8zu", ns[j]);
    out(" %10s\n", "geo mean");
    for (size_t j = 0; j < nn; j++) {
        struct divarg x;
        divarg_init(&x, ns[j]);
        x.m = 1;
        for (size_t i = 0; i < nt; i++) {
            bulk_div_dc_threshold = ts[i];
            tt[i][j] = time_op(div_bulk, &x);
        }
        divarg_free(&x);
    }
    for (size_t i = 0; i < nt; i++) {
        double lg = 0;
        out("%6zu", ts[i]);
        for (size_t j = 0; j < nn; j++) {
            out(" %8.2f", tt[i][j] * 1e6);
            lg += log(tt[i][j]);
        }
        out(" %10.3f\n", exp(lg / (double)nn) * 1e6);
        if (lg < best) best = lg, best_t = ts[i];
    }
    bulk_div_dc_threshold = keep;
    out("threshold: divide and conquer from T = %zu limbs\n\n", best_t);
    return best_t;
}

/* The Newton threshold, with the measured T in place: the first sampled n from which Newton
 * beats divide-and-conquer at that size and at every larger sample ("never" when it does not);
 * also the table of all methods against GMP. */
static size_t tune_threshold(int quick, size_t dc_thr)
{
    static const size_t ns[] = { 8,   16,  32,  48,  64,   96,   128,  192,
                                 256, 384, 512, 768, 1024, 1536, 2048, 4096 };
    size_t cnt = sizeof ns / sizeof ns[0];
    if (quick) cnt -= 4;
    double ratio[32];
    size_t keep = bulk_div_dc_threshold;
    bulk_div_dc_threshold = dc_thr;
    out("2n-by-n division, one thread, D&C threshold %zu: microseconds per division\n", dc_thr);
    out("%8s %10s %10s %10s %10s %10s %9s %9s\n", "n limbs", "Knuth", "D&C", "Newton", "AUTO",
        "GMP", "D&C/GMP", "AUTO/GMP");
    for (size_t i = 0; i < cnt; i++) {
        size_t n = ns[i];
        struct divarg x;
        divarg_init(&x, n);
        x.m = 0;
        double tk = time_op(div_bulk, &x);
        x.m = 1;
        double tc = time_op(div_bulk, &x);
        x.m = 2;
        double tn = time_op(div_bulk, &x);
        x.m = 3;
        double ta = time_op(div_bulk, &x);
        double tg = time_op(div_gmp, &x);
        ratio[i] = tn / tc;
        out("%8zu %10.2f %10.2f %10.2f %10.2f %10.2f %9.2f %9.2f\n", n, tk * 1e6, tc * 1e6,
            tn * 1e6, ta * 1e6, tg * 1e6, tc / tg, ta / tg);
        divarg_free(&x);
    }
    bulk_div_dc_threshold = keep;
    size_t thr = 0;
    for (size_t i = cnt; i-- > 0;) {
        if (ratio[i] >= 1.0) break;
        thr = ns[i];
    }
    if (thr) out("threshold: Newton from n = %zu limbs (%zu bits)\n\n", thr, thr * 64);
    else out("threshold: never (Newton never beats D&C up to %zu limbs)\n\n", ns[cnt - 1]);
    return thr;
}

/* ---- unbalanced shapes ------------------------------------------------------------------- */

struct shapearg {
    size_t an, dn;
    bulk_limb_t *a, *d, *q, *r, *tp;
    int m; /* 0 Knuth, 1 divide and conquer, 2 GMP */
};

static void shape_op(void *p)
{
    struct shapearg *x = p;
    if (x->m == 0) bulk_mpn_div_knuth(x->q, x->r, x->a, x->an, x->d, x->dn, x->tp);
    else if (x->m == 1) bulk_mpn_div_dc(x->q, x->r, x->a, x->an, x->d, x->dn, x->tp);
    else
        mpn_tdiv_qr((mp_limb_t *)x->q, (mp_limb_t *)x->r, 0, (const mp_limb_t *)x->a,
                    (mp_size_t)x->an, (const mp_limb_t *)x->d, (mp_size_t)x->dn);
}

/* Quotients much shorter or much longer than the divisor (the blocks and the short-quotient
 * estimate of div_dc.c), with the D&C threshold in place. */
static void unbalanced(int quick)
{
    static const size_t shapes[][2] = { { 12, 512 },   { 32, 512 },  { 128, 1024 }, { 512, 1024 },
                                        { 1024, 64 },  { 4096, 16 }, { 4096, 256 } };
    size_t cnt = sizeof shapes / sizeof shapes[0] - (quick ? 2 : 0);
    out("unbalanced divisions, one thread: microseconds (quotient qn limbs, divisor dn limbs)\n");
    out("%6s %6s %10s %10s %10s %9s %9s\n", "qn", "dn", "Knuth", "D&C", "GMP", "D&C/Kn", "D&C/GMP");
    for (size_t i = 0; i < cnt; i++) {
        struct shapearg x = { .dn = shapes[i][1] };
        x.an = shapes[i][0] + x.dn - 1;
        x.a = xmalloc(x.an * 8), x.d = xmalloc(x.dn * 8), x.q = xmalloc((x.an + 1) * 8);
        x.r = xmalloc(x.dn * 8), x.tp = xmalloc(bulk_mpn_divmod_scratch(x.an, x.dn) * 8);
        fill(x.a, x.an);
        fill(x.d, x.dn);
        x.d[x.dn - 1] |= 1ull << 60; /* the full quotient length (GMP needs d's top limb != 0) */
        double t[3];
        for (x.m = 0; x.m < 3; x.m++) t[x.m] = time_op(shape_op, &x);
        out("%6zu %6zu %10.2f %10.2f %10.2f %9.2f %9.2f\n", shapes[i][0], x.dn, t[0] * 1e6,
            t[1] * 1e6, t[2] * 1e6, t[1] / t[0], t[1] / t[2]);
        free(x.a), free(x.d), free(x.q), free(x.r), free(x.tp);
    }
    out("\n");
}

/* ---- powmod's REDC threshold ---------------------------------------------------------------- */

struct powarg {
    size_t n;
    bulk_limb_t *b, *e, *m, *r, *tp;
};

static void pow_bulk(void *p)
{
    struct powarg *x = p;
    bulk_mpn_powmod(x->r, x->b, x->e, x->m, x->n, x->tp);
}

static size_t tune_redc(int quick)
{
    static const size_t ns[] = { 8, 16, 24, 32, 40, 48, 64, 96, 128, 192, 256 };
    size_t cnt = sizeof ns / sizeof ns[0];
    if (quick) cnt -= 2;
    double ratio[16];
    size_t keep = bulk_powmod_redc_mul_threshold;
    out("powmod with a 256-bit exponent, one thread: microseconds; REDC by the quadratic\n"
        "product-scanning loop vs by two products (mullo + mul)\n");
    out("%8s %12s %12s %10s\n", "n limbs", "loop REDC", "mul REDC", "mul/loop");
    for (size_t i = 0; i < cnt; i++) {
        size_t n = ns[i];
        struct powarg x = { .n = n };
        x.b = xmalloc(n * 8), x.e = xmalloc(n * 8), x.m = xmalloc(n * 8), x.r = xmalloc(n * 8);
        x.tp = xmalloc(bulk_mpn_powmod_scratch(n) * 8);
        fill(x.b, n), fill(x.m, n);
        x.m[0] |= 1;
        memset(x.e, 0, n * 8);
        fill(x.e, n < 4 ? n : 4);
        bulk_powmod_redc_mul_threshold = SIZE_MAX;
        double tl = time_op(pow_bulk, &x);
        bulk_powmod_redc_mul_threshold = 1;
        double tm = time_op(pow_bulk, &x);
        ratio[i] = tm / tl;
        out("%8zu %12.2f %12.2f %10.3f\n", n, tl * 1e6, tm * 1e6, tm / tl);
        free(x.b), free(x.e), free(x.m), free(x.r), free(x.tp);
    }
    bulk_powmod_redc_mul_threshold = keep;
    size_t thr = 0;
    for (size_t i = cnt; i-- > 0;) {
        if (ratio[i] >= 1.0) break;
        thr = ns[i];
    }
    if (thr) out("threshold: REDC by products from n = %zu limbs\n\n", thr);
    else out("threshold: never (the loop wins up to %zu limbs)\n\n", ns[cnt - 1]);
    return thr;
}

/* ---- headline speeds through the public API ------------------------------------------------ */

struct apiarg {
    bulk_ctx *ctx;
    size_t n, L;
    bulk_limb_t *a, *b, *c, *r, *q;
    int8_t *err;
    mpz_t *za, *zb, *zc, zr;
    int which;
};

static void api_op(void *p)
{
    struct apiarg *x = p;
    switch (x->which) {
    case 0: bulk_int_divmod(x->ctx, x->q, x->r, x->a, 2 * x->L, x->b, x->n, x->L, x->err); break;
    case 1: bulk_int_gcd(x->ctx, x->r, x->a, x->b, x->n, x->L); break;
    case 2: bulk_int_invmod(x->ctx, x->r, x->a, x->b, x->n, x->L, x->err); break;
    case 3: bulk_int_powmod(x->ctx, x->r, x->a, x->b, x->c, x->n, x->L, x->err); break;
    }
}

static void gmp_op(void *p)
{
    struct apiarg *x = p;
    size_t L = x->L;
    for (size_t i = 0; i < x->n; i++) {
        switch (x->which) {
        case 0:
            mpn_tdiv_qr((mp_limb_t *)x->q + i * (L + 1), (mp_limb_t *)x->r + i * L, 0,
                        (const mp_limb_t *)x->a + i * 2 * L, (mp_size_t)(2 * L),
                        (const mp_limb_t *)x->b + i * L, (mp_size_t)L);
            break;
        case 1: mpz_gcd(x->zr, x->za[i], x->zb[i]); break;
        case 2: mpz_invert(x->zr, x->za[i], x->zb[i]); break;
        case 3: mpz_powm(x->zr, x->za[i], x->zb[i], x->zc[i]); break;
        }
    }
}

static void headline(void)
{
    static const char *names[] = { "divmod 2048/1024", "gcd 1024", "invmod 1024",
                                   "powmod 1024 (1024-bit exp)" };
    const size_t L = 16;
    out("one core, public API (one-thread context) vs GMP in a loop over the same data\n");
    out("%-28s %8s %14s %14s %10s\n", "operation", "method", "bulk ops/s", "GMP ops/s",
        "bulk/GMP");
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) != BULK_OK) exit(1);
    for (int which = 0; which < 4; which++) {
        size_t n = which == 3 ? 64 : 2048;
        struct apiarg x = { .ctx = ctx, .n = n, .L = L, .which = which };
        x.a = xmalloc(n * 2 * L * 8), x.b = xmalloc(n * L * 8), x.c = xmalloc(n * L * 8);
        x.r = xmalloc(n * L * 8), x.q = xmalloc(n * 2 * L * 8), x.err = xmalloc(n);
        fill(x.a, n * 2 * L);
        fill(x.b, n * L);
        fill(x.c, n * L);
        for (size_t i = 0; i < n; i++) {
            x.c[i * L] |= 1;                      /* odd moduli for powmod */
            if (which == 2) x.b[i * L] |= 1;      /* invmod: odd m, mostly invertible */
            if (which == 0) x.b[i * L + L - 1] |= 1ull << 63; /* full-size divisor */
        }
        x.za = xmalloc(n * sizeof(mpz_t)), x.zb = xmalloc(n * sizeof(mpz_t));
        x.zc = xmalloc(n * sizeof(mpz_t));
        mpz_init(x.zr);
        for (size_t i = 0; i < n; i++) {
            mpz_init(x.za[i]), mpz_init(x.zb[i]), mpz_init(x.zc[i]);
            mpz_import(x.za[i], L, -1, 8, 0, 0, x.a + i * (which == 0 ? 2 * L : L));
            mpz_import(x.zb[i], L, -1, 8, 0, 0, x.b + i * L);
            mpz_import(x.zc[i], L, -1, 8, 0, 0, x.c + i * L);
        }
        int methods = which == 0 ? 3 : which == 1 ? 2 : 1;
        double tg = time_op(gmp_op, &x) / (double)n;
        for (int m = 0; m < methods; m++) {
            const char *mname = "auto";
            if (which == 0) {
                bulk_int_set_methods(ctx, BULK_MUL_AUTO, (bulk_div_method)m, BULK_GCD_AUTO);
                mname = m == 0 ? "auto" : m == 1 ? "knuth" : "newton";
            } else if (which == 1) {
                bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO,
                                     m == 0 ? BULK_GCD_APPROX_EUCLID : BULK_GCD_BINARY);
                mname = m == 0 ? "approx" : "binary";
            }
            double tb = time_op(api_op, &x) / (double)n;
            out("%-28s %8s %14.0f %14.0f %10.3f\n", names[which], mname, 1 / tb, 1 / tg, tg / tb);
        }
        bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO, BULK_GCD_AUTO);
        for (size_t i = 0; i < n; i++) mpz_clear(x.za[i]), mpz_clear(x.zb[i]), mpz_clear(x.zc[i]);
        mpz_clear(x.zr);
        free(x.za), free(x.zb), free(x.zc);
        free(x.a), free(x.b), free(x.c), free(x.r), free(x.q), free(x.err);
    }
    bulk_ctx_close(ctx);
    out("\n");
}

/* ---- gcd methods by size ------------------------------------------------------------------ */

static void gcd_sizes(int quick)
{
    static const size_t Ls[] = { 1, 2, 4, 8, 16, 32, 64, 256 };
    size_t cnt = sizeof Ls / sizeof Ls[0] - (quick ? 1 : 0);
    out("gcd by size, public API, one thread: microseconds per gcd (AUTO = approximate Euclid)\n");
    out("%8s %12s %12s %12s\n", "bits", "approx", "binary", "GMP mpz_gcd");
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, BULK_BACKEND_CPU, 1) != BULK_OK) exit(1);
    for (size_t k = 0; k < cnt; k++) {
        size_t L = Ls[k], n = 4096 / L + 16;
        struct apiarg x = { .ctx = ctx, .n = n, .L = L, .which = 1 };
        x.a = xmalloc(n * L * 8), x.b = xmalloc(n * L * 8), x.r = xmalloc(n * L * 8);
        fill(x.a, n * L), fill(x.b, n * L);
        x.za = xmalloc(n * sizeof(mpz_t)), x.zb = xmalloc(n * sizeof(mpz_t));
        mpz_init(x.zr);
        for (size_t i = 0; i < n; i++) {
            mpz_init(x.za[i]), mpz_init(x.zb[i]);
            mpz_import(x.za[i], L, -1, 8, 0, 0, x.a + i * L);
            mpz_import(x.zb[i], L, -1, 8, 0, 0, x.b + i * L);
        }
        bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO, BULK_GCD_APPROX_EUCLID);
        double ta = time_op(api_op, &x) / (double)n;
        bulk_int_set_methods(ctx, BULK_MUL_AUTO, BULK_DIV_AUTO, BULK_GCD_BINARY);
        double tb = time_op(api_op, &x) / (double)n;
        double tg = time_op(gmp_op, &x) / (double)n;
        out("%8zu %12.3f %12.3f %12.3f\n", 64 * L, ta * 1e6, tb * 1e6, tg * 1e6);
        for (size_t i = 0; i < n; i++) mpz_clear(x.za[i]), mpz_clear(x.zb[i]);
        mpz_clear(x.zr);
        free(x.za), free(x.zb), free(x.a), free(x.b), free(x.r);
    }
    bulk_ctx_close(ctx);
    out("\n");
}

/* ---- throughput on 1 and 2 threads (wall clock: several threads) ---------------------------- */

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void scaling(int quick)
{
    static const char *names[] = { "divmod 2048/1024", "gcd 1024", "invmod 1024",
                                   "powmod 1024 (1024-bit exp)" };
    const size_t L = 16;
    out("throughput on 1 and 2 threads, public API, wall clock (best of 3; the machine is shared)\n");
    out("%-28s %8s %14s %14s %8s\n", "operation", "batch", "1 thread/s", "2 threads/s", "ratio");
    for (int which = 0; which < 4; which++) {
        size_t n = which == 3 ? (quick ? 256 : 2048) : (size_t)1 << (quick ? 12 : 16);
        struct apiarg x = { .n = n, .L = L, .which = which };
        x.a = xmalloc(n * 2 * L * 8), x.b = xmalloc(n * L * 8), x.c = xmalloc(n * L * 8);
        x.r = xmalloc(n * L * 8), x.q = xmalloc(n * 2 * L * 8), x.err = xmalloc(n);
        fill(x.a, n * 2 * L), fill(x.b, n * L), fill(x.c, n * L);
        for (size_t i = 0; i < n; i++) {
            x.c[i * L] |= 1;
            x.b[i * L] |= 1;
            if (which == 0) x.b[i * L + L - 1] |= 1ull << 63;
        }
        double rate[2];
        for (int t = 1; t <= 2; t++) {
            if (bulk_ctx_open(&x.ctx, BULK_BACKEND_CPU, t) != BULK_OK) exit(1);
            double best = 1e30;
            for (int rep = 0; rep < 3; rep++) {
                double t0 = wall();
                api_op(&x);
                double dt = wall() - t0;
                if (dt < best) best = dt;
            }
            rate[t - 1] = (double)n / best;
            bulk_ctx_close(x.ctx);
        }
        out("%-28s %8zu %14.0f %14.0f %8.2f\n", names[which], n, rate[0], rate[1], rate[1] / rate[0]);
        free(x.a), free(x.b), free(x.c), free(x.r), free(x.q), free(x.err);
    }
    out("\n");
}

int main(int argc, char **argv)
{
    const char *path = NULL, *only = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) path = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: tune_div [--out FILE] [--quick] [--only LIST]\n"
                   "Measures the division thresholds (Algorithm D / divide and conquer /\n"
                   "Newton), powmod's REDC threshold and one-core speeds of divmod, gcd,\n"
                   "invmod, powmod against GMP; writes the tables to FILE.\n"
                   "--quick: fewer sizes and batches; --only: comma-separated parts among\n"
                   "div, unbal, redc, api, gcd, scaling (default all).\n");
            return 0;
        } else {
            fprintf(stderr, "tune_div: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (quick) batches = 3, batch_s = 0.01;
    char host[256] = "unknown CPU";
    bulk_host_cpu_model(host, sizeof host);
    time_t t = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    char load[64] = "?";
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (!fgets(load, sizeof load, f)) load[0] = 0;
        load[strcspn(load, "\n")] = 0;
        fclose(f);
    }
    out("tune_div: %s, %s, GMP %s, thread CPU time, min of %d batches\n", date, host,
        gmp_version, batches);
    out("load average at start: %s (other jobs share the machine)\n\n", load);
    size_t cthr = 0, dthr = 0, rthr = 0;
    if (!only || bench_in_list(only, "div")) {
        cthr = tune_dc(quick);
        dthr = tune_threshold(quick, cthr);
    }
    if (!only || bench_in_list(only, "unbal")) unbalanced(quick);
    if (!only || bench_in_list(only, "redc")) rthr = tune_redc(quick);
    if (!only || bench_in_list(only, "api")) headline();
    if (!only || bench_in_list(only, "gcd")) gcd_sizes(quick);
    if (!only || bench_in_list(only, "scaling")) scaling(quick);
    if (cthr) out("for src/int/cpu/div_dc.c:  size_t bulk_div_dc_threshold = %zu;\n", cthr);
    if (!only || bench_in_list(only, "div"))
        out("for src/int/cpu/divmod.c:  size_t bulk_div_newton_threshold = %zu;%s\n",
            dthr ? dthr : (size_t)1000000, dthr ? "" : " /* never won */");
    if (!only || bench_in_list(only, "redc"))
        out("for src/int/cpu/powmod.c:  size_t bulk_powmod_redc_mul_threshold = %zu;\n",
            rthr ? rthr : (size_t)1000000);
    if (path && bulk_write_file_atomic(path, report, report_len) != 0) {
        fprintf(stderr, "tune_div: cannot write %s\n", path);
        return 1;
    }
    return 0;
}
