/* bench_radix: decimal printing and parsing of n-limb numbers, one core: the library's
 * bulk_format_uint / bulk_parse_uint (divide and conquer of int/radix.c above
 * BULK_RADIX_DC_LIMBS limbs), the quadratic 19-digit loops alone (numtext.c's basecase), and
 * GMP's mpz_get_str / mpz_set_str, on the same random values in the same run; printing also
 * with the division choice of session 3 (before divide-and-conquer division), as olddiv_us. Every printed
 * string and parsed value is compared with GMP's before it is timed.
 *
 *   bench_radix [--out FILE] [--max LIMBS]
 *
 * Times are thread CPU time, the minimum of 3 batches of >= 20 ms (robust on a shared machine). */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bulk/bulk.h"
#include "atomic_file.h"
#include "common/hostinfo.h"
#include "int/numtext.h"
#include "splitmix.h"
#include "int/mpn_div.h"
#include "int/radix.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { FMT_BULK, FMT_BASE, FMT_GMP, PARSE_BULK, PARSE_BASE, PARSE_GMP, FMT_OLDDIV, NCASES };

/* The division choice of AUTO before divide-and-conquer division (session 3): Algorithm D, and
 * Newton for divisor and quotient of >= 256 limbs. FMT_OLDDIV prints with it, for the
 * comparison in the same run. */
static void old_division(int on)
{
    static size_t keep_n, keep_c;
    if (on) {
        keep_n = bulk_div_newton_threshold, keep_c = bulk_div_dc_threshold;
        bulk_div_newton_threshold = 256, bulk_div_dc_threshold = SIZE_MAX;
    } else {
        bulk_div_newton_threshold = keep_n, bulk_div_dc_threshold = keep_c;
    }
}

typedef struct {
    const uint64_t *a;
    size_t n;
    char *buf;
    const char *text;
    size_t len;
    uint64_t *out;
    size_t cap;
    mpz_t z;
} job;

static void run_case(job *j, int c)
{
    switch (c) {
    case FMT_BULK: bulk_format_uint(j->buf, j->a, j->n, 0); break;
    case FMT_BASE: bulk_format_dec_basecase(j->buf, j->a, j->n); break;
    case FMT_GMP: mpz_get_str(j->buf, 10, j->z); break;
    case FMT_OLDDIV:
        old_division(1);
        bulk_format_uint(j->buf, j->a, j->n, 0);
        old_division(0);
        break;
    case PARSE_BULK: bulk_parse_uint(j->text, j->len, j->out, j->cap, NULL); break;
    case PARSE_BASE:
        memset(j->out, 0, j->cap * sizeof *j->out);
        bulk_parse_dec_basecase(j->out, j->cap, j->text, j->len);
        break;
    default: mpz_set_str(j->z, j->text, 10); break;
    }
}

static double seconds_per_call(job *j, int c)
{
    double best = 1e30;
    for (int b = 0; b < 3; b++) {
        size_t reps = 0;
        double t0 = cpu_now(), t;
        do {
            run_case(j, c);
            reps++;
        } while ((t = cpu_now() - t0) < 0.02);
        if (t / (double)reps < best) best = t / (double)reps;
    }
    return best;
}

int main(int argc, char **argv)
{
    const char *outp = NULL;
    size_t max = 16384;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) outp = argv[++i];
        else if (!strcmp(argv[i], "--max") && i + 1 < argc) max = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: bench_radix [--out FILE] [--max LIMBS]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    char *report = NULL;
    size_t report_len = 0;
    FILE *rep = open_memstream(&report, &report_len);
    char host[256] = "unknown CPU";
    bulk_host_cpu_model(host, sizeof host);
    fprintf(rep, "# bench_radix: decimal text <-> limbs, one core, thread CPU time per number\n");
    fprintf(rep, "# %s; GMP %s; divide and conquer from %d limbs\n", host, gmp_version, BULK_RADIX_DC_LIMBS);
    fprintf(rep, "# print_us: bulk_format_uint (division AUTO: Algorithm D / divide and conquer from %zu limbs);\n"
            "# olddiv_us: the same with the session-3 division choice (Algorithm D, Newton from 256 limbs)\n",
            bulk_div_dc_threshold);
    fprintf(rep, "%-7s %-11s %-11s %-11s %-11s %-8s %-11s %-11s %-11s %-8s\n", "limbs", "print_us", "olddiv_us",
            "quadr_us", "gmp_us", "vs_gmp", "parse_us", "quadr_us", "gmp_us", "vs_gmp");
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int bad = 0;
    for (size_t n = 16; n <= max; n *= 2) {
        job j;
        uint64_t *a = malloc(n * sizeof *a);
        for (size_t i = 0; i < n; i++) a[i] = bulk_splitmix64(&rng);
        a[n - 1] |= 1ull << 63;
        mpz_init(j.z);
        mpz_import(j.z, n, -1, sizeof *a, 0, 0, a);
        char *want = mpz_get_str(NULL, 10, j.z);
        j.a = a;
        j.n = n;
        j.len = strlen(want);
        j.text = want;
        j.buf = malloc(bulk_format_uint_size(n, 0) + 2);
        j.cap = bulk_parse_uint_limbs_bound(j.len);
        j.out = malloc(j.cap * sizeof *j.out);
        /* correctness before speed */
        bulk_format_uint(j.buf, a, n, 0);
        int ok = !strcmp(j.buf, want);
        ok &= bulk_parse_uint(want, j.len, j.out, j.cap, NULL) == (int)n && !memcmp(j.out, a, n * sizeof *a);
        if (!ok) {
            fprintf(stderr, "bench_radix: %zu limbs: result differs from GMP\n", n);
            bad = 1;
        }
        double t[NCASES];
        for (int c = 0; c < NCASES; c++) {
            /* the quadratic loops beyond 4096 limbs take seconds each: skipped */
            t[c] = ((c == FMT_BASE || c == PARSE_BASE) && n > 4096) ? 0 : seconds_per_call(&j, c);
        }
        char q1[16] = "-", q2[16] = "-";
        if (t[FMT_BASE] > 0) snprintf(q1, sizeof q1, "%.1f", t[FMT_BASE] * 1e6);
        if (t[PARSE_BASE] > 0) snprintf(q2, sizeof q2, "%.1f", t[PARSE_BASE] * 1e6);
        fprintf(rep, "%-7zu %-11.1f %-11.1f %-11s %-11.1f %-8.2f %-11.1f %-11s %-11.1f %-8.2f\n", n,
                t[FMT_BULK] * 1e6, t[FMT_OLDDIV] * 1e6, q1, t[FMT_GMP] * 1e6, t[FMT_GMP] / t[FMT_BULK], t[PARSE_BULK] * 1e6, q2, t[PARSE_GMP] * 1e6,
                t[PARSE_GMP] / t[PARSE_BULK]);
        fprintf(stderr, "%zu limbs done\n", n); /* progress: the large sizes take a while */
        mpz_clear(j.z);
        free(want);
        free(a);
        free(j.buf);
        free(j.out);
    }
    fprintf(rep, "# vs_gmp: GMP's time / bulk's (above 1: bulk faster)%s\n", bad ? "; SOME RESULTS DIFFERED" : "");
    fclose(rep);
    fputs(report, stdout);
    if (outp && bulk_write_file_atomic(outp, report, report_len) != 0) {
        fprintf(stderr, "bench_radix: cannot write %s\n", outp);
        return 1;
    }
    free(report);
    return bad;
}
