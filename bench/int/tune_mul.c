/* tune_mul: measures the multiplication thresholds of src/int/cpu/mul_thresholds.h on this
 * machine, and compares the tuned AUTO multiplication with GMP's mpn_mul_n / mpn_sqr in the
 * same run (one thread).
 *
 *   tune_mul [--out FILE] [--quick]
 *
 * Method (as GMP's tuneup): the thresholds are found one after another, each with the ones
 * below it already set and the ones above it disabled. For a candidate method M at size n the
 * program times "M at the top level, sub-products by the current AUTO" against "the current
 * AUTO" (its Toom part: the NTT that AUTO takes from BULK_MUL_FFT_THRESHOLD is left out, see
 * toom_auto); the threshold is the first sampled n from which M wins at that size and the next two
 * samples, and at >= 80% of all larger samples. Once M has won three samples in a row from T,
 * the later candidate timings use threshold T for the sub-products as well (as the final AUTO
 * will). A time is the minimum over several batches of
 * thread CPU time (robust against other processes on a shared machine), base and candidate
 * batches interleaved. Thresholds not reached within the sampled range are reported as
 * "never" (SIZE_MAX in the header). Output: a table on stdout, the same text in FILE (written
 * atomically), ending with the #define block to paste into mul_thresholds.h. */
#include <gmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "common/hostinfo.h"
#include "int/cpu/mpn_mul_internal.h"

/* Thread CPU time: on a shared machine the time this thread was descheduled is not counted
 * (wall-clock minima were still disturbed by other processes on the 2-core tuning host). */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bulk_limb_t *A, *B, *R, *TMP;
static size_t MAXN = 16384;
static double batch_s = 0.004; /* seconds per timed batch */
static int batches = 7;

/* what to time */
enum what { W_AUTO, W_METHOD, W_SQR_AUTO, W_SQR_METHOD, W_COMBA, W_SCHOOL, W_MULLO_BASE,
            W_MULLO_REC, W_GMP_MUL, W_GMP_SQR, W_TOOM_AUTO, W_SQR_TOOM_AUTO };

/* The Toom method AUTO picks at n from thresholds thr, forced (bulk_mpn_*_method), so that a
 * Toom candidate is compared with Toom and not with the NTT that AUTO itself takes from
 * BULK_MUL_FFT_THRESHOLD limbs; AUTO_NONE: below every Toom threshold (AUTO is Toom-free). */
#define AUTO_NONE BULK_MUL_AUTO
static bulk_mul_method toom_auto(size_t n, const size_t *thr)
{
    static const bulk_mul_method tm[5] = { BULK_MUL_KARATSUBA, BULK_MUL_TOOM3, BULK_MUL_TOOM4,
                                           BULK_MUL_TOOM6, BULK_MUL_TOOM8 };
    for (int i = 4; i >= 0; i--)
        if (n >= thr[i] && n >= bulk_mpn_method_min_n(tm[i])) return tm[i];
    return AUTO_NONE;
}

/* While a threshold is being measured: the candidate's timings run with that threshold set to
 * probe_val (the start of the first winning streak so far, SIZE_MAX before), so that its
 * sub-products use the candidate too once it has been seen to win, as they will under the
 * final threshold; the base timings run with it disabled. */
static size_t *probe_var;
static size_t probe_val = SIZE_MAX;

static void once(enum what w, size_t n, bulk_mul_method m)
{
    switch (w) {
    case W_AUTO: bulk_mpn_mul_n(R, A, B, n); break;
    case W_METHOD:
        if (probe_var) *probe_var = probe_val;
        bulk_mpn_mul_n_method(R, A, B, n, m);
        if (probe_var) *probe_var = SIZE_MAX;
        break;
    case W_SQR_AUTO: bulk_mpn_sqr(R, A, n); break;
    case W_SQR_METHOD:
        if (probe_var) *probe_var = probe_val;
        bulk_mpn_sqr_method(R, A, n, m);
        if (probe_var) *probe_var = SIZE_MAX;
        break;
    case W_COMBA: bulk_mpn_mul_comba(R, A, n, B, n); break;
    case W_SCHOOL: bulk_mpn_mul_schoolbook(R, A, n, B, n); break;
    case W_MULLO_BASE: bulk_mpn_mullo_basecase(R, A, B, n); break;
    case W_MULLO_REC: { /* split at the top; below, split from probe_val on */
        size_t keep = bulk_mul_tuning.mullo_thr;
        bulk_mul_tuning.mullo_thr = probe_val < n ? probe_val : n;
        bulk_mpn_mullo_rec(R, A, B, n, TMP);
        bulk_mul_tuning.mullo_thr = keep;
        break;
    }
    case W_TOOM_AUTO: bulk_mpn_mul_n_method(R, A, B, n, toom_auto(n, bulk_mul_tuning.mul_thr)); break;
    case W_SQR_TOOM_AUTO: bulk_mpn_sqr_method(R, A, n, toom_auto(n, bulk_mul_tuning.sqr_thr)); break;
    case W_GMP_MUL: mpn_mul_n(R, A, B, (mp_size_t)n); break;
    case W_GMP_SQR: mpn_sqr(R, A, (mp_size_t)n); break;
    }
}

/* Seconds per call: the minimum over `batches` batches of about batch_s each. */
static __attribute__((unused)) double timeit(enum what w, size_t n, bulk_mul_method m)
{
    long reps = 1;
    for (;;) { /* calibrate */
        double t0 = now();
        for (long i = 0; i < reps; i++) once(w, n, m);
        double dt = now() - t0;
        if (dt > batch_s / 4 || reps > (1L << 28)) {
            reps = (long)((double)reps * batch_s / (dt > 1e-9 ? dt : 1e-9)) + 1;
            break;
        }
        reps *= 4;
    }
    double best = 1e30;
    for (int b = 0; b < batches; b++) {
        double t0 = now();
        for (long i = 0; i < reps; i++) once(w, n, m);
        double dt = (now() - t0) / (double)reps;
        if (dt < best) best = dt;
    }
    return best;
}

/* Both sides at size n, batches interleaved so that both see the same machine state. */
static void timepair(enum what w1, bulk_mul_method m1, enum what w2, bulk_mul_method m2, size_t n,
                     double *t1, double *t2)
{
    long reps = 1;
    for (;;) {
        double t0 = now();
        for (long i = 0; i < reps; i++) once(w1, n, m1);
        double dt = now() - t0;
        if (dt > batch_s / 4 || reps > (1L << 28)) {
            reps = (long)((double)reps * batch_s / (dt > 1e-9 ? dt : 1e-9)) + 1;
            break;
        }
        reps *= 4;
    }
    double b1 = 1e30, b2 = 1e30;
    for (int b = 0; b < batches; b++) {
        double t0 = now();
        for (long i = 0; i < reps; i++) once(w1, n, m1);
        double dt = (now() - t0) / (double)reps;
        if (dt < b1) b1 = dt;
        t0 = now();
        for (long i = 0; i < reps; i++) once(w2, n, m2);
        dt = (now() - t0) / (double)reps;
        if (dt < b2) b2 = dt;
    }
    *t1 = b1;
    *t2 = b2;
}

static char *report;
static size_t report_len, report_cap;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if ((size_t)k >= sizeof line) k = sizeof line - 1;
    fputs(line, stdout);
    fflush(stdout);
    if (report_len + (size_t)k + 1 > report_cap) {
        report_cap = (report_cap + (size_t)k + 1) * 2;
        report = realloc(report, report_cap);
        if (!report) {
            fprintf(stderr, "tune_mul: out of memory\n");
            exit(1);
        }
    }
    memcpy(report + report_len, line, (size_t)k + 1);
    report_len += (size_t)k;
}

/* Sample sizes: every n up to 32, then ~6% steps. */
static size_t next_size(size_t n) { return n < 32 ? n + 1 : n + n / 16; }

/* First sampled n in [lo, hi] from which `cand` beats `base` at n and the next two samples;
 * SIZE_MAX when never. Prints one row per sample. */
static size_t crossover(const char *label, enum what base, bulk_mul_method bm, enum what cand,
                        bulk_mul_method cm, size_t lo, size_t hi, size_t *var)
{
    size_t sizes[512];
    int wins[512];
    int cnt = 0;
    probe_var = var;
    probe_val = SIZE_MAX;
    out("# %s\n#   %6s %12s %12s %7s\n", label, "n", "base ns", "cand ns", "cand/base");
    for (size_t n = lo; n <= hi && cnt < 512; n = next_size(n)) {
        double tb, tc;
        timepair(base, bm, cand, cm, n, &tb, &tc);
        sizes[cnt] = n;
        wins[cnt] = tc < tb;
        cnt++;
        out("    %6zu %12.1f %12.1f %7.3f\n", n, tb * 1e9, tc * 1e9, tc / tb);
        if (probe_val == SIZE_MAX && cnt >= 3 && wins[cnt - 1] && wins[cnt - 2] && wins[cnt - 3])
            probe_val = sizes[cnt - 3];
        /* stop early once the candidate has clearly won for a while */
        if (cnt >= 6 && wins[cnt - 1] && wins[cnt - 2] && wins[cnt - 3] && wins[cnt - 4] &&
            wins[cnt - 5] && tc < 0.9 * tb)
            break;
    }
    /* the first sample that starts three wins in a row and from which the candidate wins at
     * >= 80% of all later samples (a short winning streak followed by losses, e.g. where the
     * halves of a Karatsuba split still hit a fully unrolled basecase, does not count) */
    int later_wins = 0;
    size_t best = SIZE_MAX;
    probe_var = NULL;
    probe_val = SIZE_MAX;
    for (int i = cnt - 1; i >= 0; i--) {
        later_wins += wins[i];
        if (i + 2 < cnt && wins[i] && wins[i + 1] && wins[i + 2] &&
            later_wins * 5 >= (cnt - i) * 4)
            best = sizes[i];
    }
    return best;
}

static void print_thr(const char *name, size_t v)
{
    if (v == SIZE_MAX) out("#define %s SIZE_MAX /* never won in the tuned range */\n", name);
    else out("#define %s %zu\n", name, v);
}

int main(int argc, char **argv)
{
    const char *outpath = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) outpath = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: tune_mul [--out FILE] [--quick]\n"
                   "Measures the multiplication thresholds (src/int/cpu/mul_thresholds.h) and\n"
                   "compares AUTO mul/sqr with GMP's mpn_mul_n/mpn_sqr on one thread.\n"
                   "--quick: shorter timings and a smaller range (a smoke run).\n");
            return 0;
        } else {
            fprintf(stderr, "tune_mul: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (quick) {
        batch_s = 0.0005;
        batches = 2;
        MAXN = 1100;
    }
    A = malloc(MAXN * 8);
    B = malloc(MAXN * 8);
    R = malloc(2 * MAXN * 8);
    TMP = malloc(64 * MAXN * 8);
    if (!A || !B || !R || !TMP) {
        fprintf(stderr, "tune_mul: out of memory\n");
        return 1;
    }
    uint64_t s = 0x243f6a8885a308d3ull;
    for (size_t i = 0; i < MAXN; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        A[i] = s ^ (s >> 29);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        B[i] = s ^ (s >> 31);
    }

    time_t t = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    char cpu[256] = "unknown";
    bulk_host_cpu_model(cpu, sizeof cpu);
    out("# tune_mul: multiplication thresholds of libbulk, measured on one thread\n");
    out("# date: %s   cpu: %s   GMP %s\n", date, cpu, gmp_version);
    out("# command: tune_mul%s%s%s (build type Release, -O3)\n", quick ? " --quick" : "",
        outpath ? " --out " : "", outpath ? outpath : "");
    out("# times: thread CPU time, minimum over %d interleaved batches of %.1f ms\n", batches, batch_s * 1e3);

    struct bulk_mul_tuning *T = &bulk_mul_tuning;
    const size_t NEVER = SIZE_MAX;
    for (int i = 0; i < 5; i++) T->mul_thr[i] = T->sqr_thr[i] = NEVER;
    T->mullo_thr = NEVER;

    /* 1. basecase: Comba vs schoolbook */
    T->comba_max = NEVER;
    size_t sb = crossover("basecase: schoolbook (cand) vs Comba (base)", W_COMBA, 0, W_SCHOOL, 0, 1,
                          quick ? 80 : 160, NULL);
    T->comba_max = sb == NEVER ? NEVER : sb - 1;

    /* 2. mul: Karatsuba, Toom-3, -4, -6, -8, each against the AUTO of the ones below */
    static const bulk_mul_method meth[5] = { BULK_MUL_KARATSUBA, BULK_MUL_TOOM3, BULK_MUL_TOOM4,
                                             BULK_MUL_TOOM6, BULK_MUL_TOOM8 };
    static const char *mname[5] = { "KARATSUBA", "TOOM3", "TOOM4", "TOOM6", "TOOM8" };
    size_t lo = 4;
    for (int i = 0; i < 5; i++) {
        char label[96];
        snprintf(label, sizeof label, "mul: %s at the top (cand) vs Toom AUTO below it (base)", mname[i]);
        size_t thr = crossover(label, W_TOOM_AUTO, 0, W_METHOD, meth[i], lo, MAXN, &T->mul_thr[i]);
        T->mul_thr[i] = thr;
        if (thr == NEVER) break; /* the higher methods are measured against this AUTO anyway */
        lo = thr;
    }
    lo = 4;
    for (int i = 0; i < 5; i++) {
        char label[96];
        snprintf(label, sizeof label, "sqr: %s at the top (cand) vs Toom AUTO below it (base)", mname[i]);
        size_t thr = crossover(label, W_SQR_TOOM_AUTO, 0, W_SQR_METHOD, meth[i], lo, MAXN, &T->sqr_thr[i]);
        T->sqr_thr[i] = thr;
        if (thr == NEVER) break;
        lo = thr;
    }
    /* 3. mullo: one recursive split (sub short products basecase) vs the basecase */
    size_t mlo = crossover("mullo: split at the top (cand) vs basecase (base)", W_MULLO_BASE, 0,
                           W_MULLO_REC, 0, 4, quick ? 200 : 400, NULL);
    T->mullo_thr = mlo;

    out("\n# thresholds for src/int/cpu/mul_thresholds.h\n");
    print_thr("BULK_MUL_COMBA_MAX", T->comba_max);
    for (int i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "BULK_MUL_%s_THRESHOLD", mname[i]);
        print_thr(name, T->mul_thr[i]);
    }
    for (int i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "BULK_SQR_%s_THRESHOLD", mname[i]);
        print_thr(name, T->sqr_thr[i]);
    }
    print_thr("BULK_MULLO_THRESHOLD", T->mullo_thr);

    /* 4. the tuned AUTO against GMP, same run, one thread */
    out("\n# tuned AUTO vs GMP %s (one thread); ratio = GMP time / bulk time (1 = as fast)\n",
        gmp_version);
    out("# %6s %6s %12s %12s %7s %12s %12s %7s\n", "bits", "limbs", "mul ns", "GMP mul ns", "ratio",
        "sqr ns", "GMP sqr ns", "ratio");
    const size_t bits[] = { 256, 512, 1024, 2048, 4096, 8192, 16384, 65536, 262144, 1048576 };
    for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++) {
        size_t n = bits[k] / 64;
        if (n > MAXN) break;
        double tm, gm, ts, gs;
        timepair(W_AUTO, 0, W_GMP_MUL, 0, n, &tm, &gm);
        timepair(W_SQR_AUTO, 0, W_GMP_SQR, 0, n, &ts, &gs);
        out("  %6zu %6zu %12.1f %12.1f %7.3f %12.1f %12.1f %7.3f\n", bits[k], n, tm * 1e9, gm * 1e9,
            gm / tm, ts * 1e9, gs * 1e9, gs / ts);
    }

    if (outpath && bulk_write_file_atomic(outpath, report, report_len) != 0) {
        perror(outpath);
        return 1;
    }
    if (outpath) printf("written: %s\n", outpath);
    free(A), free(B), free(R), free(TMP), free(report);
    return 0;
}
