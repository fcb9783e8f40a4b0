/* tune_fft: the size from which the three-prime NTT (bulk_mpn_mul_fft) beats the tuned Toom
 * multiplication, i.e. BULK_MUL_FFT_THRESHOLD of src/int/mul_fft.h, with GMP's mpn_mul_n in the
 * same run as the peer. One thread; each time is the minimum thread CPU time over several runs
 * (robust on a shared machine).
 *
 * The Toom column is forced Toom: the method that AUTO's Toom thresholds pick at n, run by
 * bulk_mpn_mul_n_method (its sub-products go through the Toom recursion, which never calls the
 * NTT). AUTO itself (bulk_mpn_mul_n) now takes the NTT from BULK_MUL_FFT_THRESHOLD limbs, so
 * timing it would compare the NTT with itself above the threshold.
 *
 *   tune_fft [--out FILE] [--max N]     (N: largest size in limbs, default 4194304)
 *
 * The crossover printed is the first sampled size from which the NTT wins at every larger
 * sampled size. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "int/cpu/mpn_mul_internal.h"
#include "int/mpn.h"
#include "int/mul_fft.h"

#include "../bench_util.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bulk_limb_t *A, *B, *R;

/* The Toom method AUTO uses at n when the NTT is left out (thresholds of mul_thresholds.h). */
static bulk_mul_method toom_method(size_t n)
{
    static const bulk_mul_method tm[5] = { BULK_MUL_KARATSUBA, BULK_MUL_TOOM3, BULK_MUL_TOOM4,
                                           BULK_MUL_TOOM6, BULK_MUL_TOOM8 };
    for (int i = 4; i >= 0; i--)
        if (n >= bulk_mul_tuning.mul_thr[i] && n >= bulk_mpn_method_min_n(tm[i])) return tm[i];
    return BULK_MUL_COMBA; /* below every Toom threshold (not reached at the sampled sizes) */
}

static double time_one(int what, size_t n)
{
    double best = 1e30, spent = 0;
    for (int rep = 0; rep < 5 && (rep < 2 || spent < 0.3); rep++) {
        double t0 = now();
        int iters = 0;
        do {
            if (what == 0) bulk_mpn_mul_n_method(R, A, B, n, toom_method(n));
            else if (what == 1) bulk_mpn_mul_fft(R, A, n, B, n);
            else mpn_mul_n((mp_limb_t *)R, (const mp_limb_t *)A, (const mp_limb_t *)B, (mp_size_t)n);
            iters++;
        } while (now() - t0 < 0.02);
        double t = (now() - t0) / iters;
        spent += now() - t0;
        if (t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    size_t maxn = (size_t)1 << 22;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) maxn = strtoull(argv[++i], NULL, 0);
        else {
            printf("usage: tune_fft [--out FILE] [--max N]\n");
            return 2;
        }
    }
    A = malloc(maxn * 8);
    B = malloc(maxn * 8);
    R = malloc(2 * maxn * 8);
    uint64_t s = 12345;
    for (size_t i = 0; i < maxn; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        A[i] = s;
        B[i] = s ^ (s >> 29);
    }
    size_t sizes[64], ns = 0;
    for (double n = 256; n <= (double)maxn && ns < 64; n *= 1.41421356) sizes[ns++] = (size_t)n;
    double tt[64], tf[64], tg[64];
    char buf[16384];
    size_t len = 0;
    char model[256];
    bench_cpu_model(model, sizeof model, "unknown CPU");
    time_t now_t = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now_t));
    len += (size_t)snprintf(buf + len, sizeof buf - len, "# machine: %s, %ld cores online, %s\n", model,
                            sysconf(_SC_NPROCESSORS_ONLN), date);
    len += (size_t)snprintf(buf + len, sizeof buf - len,
                            "# tune_fft: forced Toom (AUTO's Toom method at n, no NTT) vs bulk_mpn_mul_fft (3-prime NTT) vs GMP mpn_mul_n\n"
                            "# balanced n x n limbs, one thread, min thread CPU time (ms)\n"
                            "%10s %12s %12s %12s %10s %10s\n", "limbs", "toom_ms", "ntt_ms", "gmp_ms",
                            "toom/ntt", "ntt/gmp");
    for (size_t k = 0; k < ns; k++) {
        size_t n = sizes[k];
        tt[k] = n <= ((size_t)1 << 20) ? time_one(0, n) : 0; /* Toom above 1M limbs: minutes */
        tf[k] = time_one(1, n);
        tg[k] = time_one(2, n);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%10zu %12.3f %12.3f %12.3f %10.2f %10.2f\n", n,
                                1e3 * tt[k], 1e3 * tf[k], 1e3 * tg[k], tt[k] ? tt[k] / tf[k] : 0.0,
                                tf[k] / tg[k]);
        fputs(strrchr(buf, '\n') ? buf + len - (size_t)snprintf(NULL, 0, "%10zu %12.3f %12.3f %12.3f %10.2f %10.2f\n", n,
                                1e3 * tt[k], 1e3 * tf[k], 1e3 * tg[k], tt[k] ? tt[k] / tf[k] : 0.0,
                                tf[k] / tg[k]) : "", stdout);
        fflush(stdout);
    }
    size_t cross = 0;
    for (size_t k = ns; k-- > 0;) {
        if (tt[k] == 0) continue;
        if (tf[k] < tt[k]) cross = sizes[k];
        else break;
    }
    len += (size_t)snprintf(buf + len, sizeof buf - len, "crossover: NTT faster from %zu limbs (every larger sample)\n", cross);
    printf("%s", strrchr(buf, 'c') ? "" : "");
    printf("crossover: NTT faster from %zu limbs (every larger sample)\n", cross);
    if (out && bulk_write_file_atomic(out, buf, len) != 0) {
        perror(out);
        return 1;
    }
    return 0;
}
