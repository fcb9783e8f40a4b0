/* bench_gcd: all-pairs and batch GCD on n random 1024-bit moduli (products of two random
 * 512-bit numbers without prime factors below 1000, so that shared factors are rare as among
 * RSA moduli; a few shared primes are planted), with GMP as the peer in the same run.
 *
 *   bench_gcd --n N [--backend cpu|cuda|auto] [--threads T] [--pairs-seconds S]
 *             [--pairs-sample M] [--tile T] [--no-pairs] [--no-batch] [--no-gmp]
 *             [--memory BYTES] [--levels] [--seed X] [--random]
 *
 * --random: random odd 1024-bit numbers (top bit set) instead of semiprimes, generated in a
 *   moment even for 1e6 (the timing does not depend on how the moduli factor); every 1000th
 *   modulus and the one before it are rebuilt as products of a shared random 512-bit number
 *   and a random one, and after the batch each planted g_i is checked to be a multiple of the
 *   shared number ("planted_ok"). Random numbers share small factors, so most g_i != 1.
 *
 * all pairs: bulk_gcd_pairs on the first m moduli, m grown until one run takes about S seconds
 *   (default 10) or m = n; wall and process CPU time (all threads); pairs/s = m(m-1)/2 / time, extrapolated to n(n-1)/2 pairs when m < n
 *   (the rate does not depend on n: tiles of the same size). GMP peer: mpz_gcd on the same
 *   pairs of the first tile, one thread.
 * --pairs-sample M: instead, all pairs of M moduli spread over the whole set (every (n/M)-th:
 *   one large tile's worth of work drawn from all of it), extrapolated to n(n-1)/2 pairs and
 *   labelled so (for n = 1e6 the 5e11 pairs are far too many to run). --tile: moduli per tile
 *   side (0: the library's default, 1024 on the GPU, 256 on the CPU).
 * batch: bulk_gcd_batch on all n (wall time); --memory passes a memory budget (spill rows);
 *   --levels prints the elapsed time after every tree level (a profile that survives a time
 *   cap: the per-level times of a run killed midway still predict the whole). GMP peer: a product tree and remainder tree with
 *   mpz_mul / mpz_mod, one thread, skipped above 100000 moduli (--no-gmp skips it always).
 * Prints one table line per measurement (machine-readable "key value" pairs). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bulk/gcd.h"
#include "gcd/gcd_internal.h" /* gcd_mul_counts, gcd_mod_exact_count: where the products ran */

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Process CPU time (all threads): on a shared machine wall time mostly measures the others. */
static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t rs;

/* Peak resident set of the process so far (MiB): includes the generated moduli. */
static double peak_rss_mb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024.0;
}

static int is_zero_tail(const bulk_limb_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (a[i]) return 0;
    return 1;
}
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void rough512(mpz_t p, int *small, int nsmall)
{
    uint64_t w[8];
    for (;;) {
        for (int i = 0; i < 8; i++) w[i] = rnd();
        w[7] |= 1ull << 63;
        w[0] |= 1;
        mpz_import(p, 8, -1, 8, 0, 0, w);
        int ok = 1;
        for (int i = 0; i < nsmall && ok; i++) ok = mpz_divisible_ui_p(p, (unsigned long)small[i]) == 0;
        if (ok) return;
    }
}

static double level_t0;
/* --levels: one line per progress call of "gcd.batch" (finished tree levels: product levels,
 * then remainder levels; calls closer than 50 ms apart are merged by the library). */
static int on_level(const bulk_progress *p, void *arg)
{
    (void)arg;
    if (p->done > 0) printf("level %.0f of %.0f at %.3f s\n", p->done, p->total, wall() - level_t0);
    return 0;
}

static int count_hit(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn)
{
    (void)i; (void)j; (void)g; (void)gn;
    ++*(size_t *)arg;
    return 0;
}

/* GMP batch GCD: product tree, remainder tree (mpz), returns the number of hits. */
static size_t gmp_batch(mpz_t *x, size_t n)
{
    size_t lv = 1;
    for (size_t c = n; c > 1; c = (c + 1) / 2) lv++;
    mpz_t **T = malloc(lv * sizeof *T);
    size_t *cnt = malloc(lv * sizeof *cnt);
    T[0] = x;
    cnt[0] = n;
    for (size_t k = 0; k + 1 < lv; k++) {
        cnt[k + 1] = (cnt[k] + 1) / 2;
        T[k + 1] = malloc(cnt[k + 1] * sizeof **T);
        for (size_t j = 0; j < cnt[k + 1]; j++) {
            mpz_init(T[k + 1][j]);
            if (2 * j + 1 < cnt[k]) mpz_mul(T[k + 1][j], T[k][2 * j], T[k][2 * j + 1]);
            else mpz_set(T[k + 1][j], T[k][2 * j]);
        }
    }
    mpz_t *R = malloc(sizeof *R), sq;
    mpz_init_set(R[0], T[lv - 1][0]);
    mpz_init(sq);
    for (size_t k = lv - 1; k-- > 0;) {
        mpz_t *Rk = malloc(cnt[k] * sizeof *Rk);
        for (size_t j = 0; j < cnt[k]; j++) {
            mpz_init(Rk[j]);
            mpz_mul(sq, T[k][j], T[k][j]);
            mpz_mod(Rk[j], R[j / 2], sq);
        }
        for (size_t j = 0; j < cnt[k + 1]; j++) mpz_clear(R[j]);
        free(R);
        R = Rk;
        if (k + 1 < lv && k + 1 > 0) {
            for (size_t j = 0; j < cnt[k + 1]; j++) mpz_clear(T[k + 1][j]);
            free(T[k + 1]);
        }
    }
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        mpz_divexact(R[i], R[i], x[i]);
        mpz_gcd(sq, R[i], x[i]);
        hits += mpz_cmp_ui(sq, 1) != 0;
        mpz_clear(R[i]);
    }
    free(R);
    free(T);
    free(cnt);
    mpz_clear(sq);
    return hits;
}

int main(int argc, char **argv)
{
    size_t n = 10000;
    int threads = 0, do_batch = 1, do_gmp = 1, do_pairs = 1, levels = 0, random = 0;
    size_t sample = 0, memory = 0, tile = 0;
    double pair_s = 10;
    bulk_backend be = BULK_BACKEND_AUTO;
    rs = 20261121;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pairs-seconds") && i + 1 < argc) pair_s = atof(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) rs = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            if (bulk_backend_parse(argv[++i], &be) != BULK_OK) return 2;
        } else if (!strcmp(argv[i], "--no-batch")) do_batch = 0;
        else if (!strcmp(argv[i], "--no-gmp")) do_gmp = 0;
        else if (!strcmp(argv[i], "--no-pairs")) do_pairs = 0;
        else if (!strcmp(argv[i], "--levels")) levels = 1;
        else if (!strcmp(argv[i], "--random")) random = 1;
        else if (!strcmp(argv[i], "--pairs-sample") && i + 1 < argc) sample = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--memory") && i + 1 < argc) memory = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--tile") && i + 1 < argc) tile = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: bench_gcd --n N [--backend B] [--threads T] [--pairs-seconds S] "
                            "[--pairs-sample M] [--tile T] [--no-pairs] [--no-batch] [--no-gmp] [--memory BYTES] "
                            "[--levels] [--seed X] [--random]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* lines survive a time cap that kills the run */
    int small[200], ns = 0;
    for (int q = 3; q < 1000; q += 2) {
        int pr = 1;
        for (int d = 3; d * d <= q; d += 2) pr &= q % d != 0;
        if (pr) small[ns++] = q;
    }
    const size_t limbs = 16;
    double t0 = wall();
    bulk_limb_t *x = calloc(n * limbs, 8);
    mpz_t *X = malloc(n * sizeof *X), p, q, saved;
    mpz_init(p); mpz_init(q); mpz_init(saved);
    size_t nplant = 0, *plant = NULL;
    mpz_t *shared = NULL;
    if (random) {
        nplant = n / 1000;
        plant = malloc((nplant + 1) * sizeof *plant);
        shared = malloc((nplant + 1) * sizeof *shared);
        for (size_t i = 0; i < n * limbs; i++) x[i] = rnd();
        for (size_t i = 0; i < n; i++) {
            x[i * limbs] |= 1;
            x[i * limbs + limbs - 1] |= 1ull << 63;
        }
        for (size_t k = 0; k < nplant; k++) { /* moduli 1000 k + 6 and 1000 k + 7 share s */
            size_t i = 1000 * k + 7;
            plant[k] = i;
            mpz_init(shared[k]);
            rough512(shared[k], small, ns);
            for (size_t m = i - 1; m <= i; m++) {
                rough512(q, small, ns);
                mpz_mul(p, shared[k], q);
                memset(x + m * limbs, 0, limbs * 8);
                mpz_export(x + m * limbs, NULL, -1, 8, 0, 0, p);
            }
        }
        for (size_t i = 0; i < n && (do_gmp || do_pairs); i++) { /* GMP copies only when used */
            mpz_init(X[i]);
            mpz_import(X[i], limbs, -1, 8, 0, 0, x + i * limbs);
        }
        if (!do_gmp && !do_pairs) {
            free(X);
            X = NULL;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            rough512(p, small, ns);
            if (i % 1000 == 7) mpz_set(p, saved); /* planted: shares a prime with modulus i - 1 */
            rough512(q, small, ns);
            mpz_set(saved, q);
            mpz_init(X[i]);
            mpz_mul(X[i], p, q);
            mpz_export(x + i * limbs, NULL, -1, 8, 0, 0, X[i]);
        }
    }
    printf("# bench_gcd: n %zu random 1024-bit %s (generated in %.1f s)\n", n,
           random ? "odd numbers with planted shared 512-bit factors" : "moduli", wall() - t0);
    bulk_ctx *ctx;
    if (bulk_ctx_open(&ctx, be, threads) != BULK_OK) {
        fprintf(stderr, "bench_gcd: no context for that backend\n");
        return 1;
    }
    const char *bname = bulk_backend_name(bulk_ctx_backend(ctx));
    int th = bulk_ctx_threads(ctx);
    /* ---- all pairs over a sample spread over the whole set ---- */
    if (do_pairs && sample >= 2 && sample <= n) {
        size_t stride = n / sample, hits = 0;
        bulk_limb_t *xs = malloc(sample * limbs * 8);
        for (size_t i = 0; i < sample; i++) memcpy(xs + i * limbs, x + i * stride * limbs, limbs * 8);
        double a = wall(), c = cpu();
        if (bulk_gcd_pairs(ctx, xs, sample, limbs, tile, count_hit, &hits) != BULK_OK) return 1;
        double ts = wall() - a, tc = cpu() - c;
        double pairs = (double)sample * (double)(sample - 1) / 2, rate = pairs / ts;
        double full = (double)n * (double)(n - 1) / 2;
        printf("pairs_sample backend %s threads %d tile %zu sample_moduli %zu stride %zu pairs %.0f wall_s %.3f "
               "cpu_s %.3f pairs_per_wall_s %.4g hits %zu full_pairs %.4g extrapolated_wall_s %.4g "
               "(extrapolated: %.4g pairs at the sampled rate)\n",
               bname, th, tile, sample, stride, pairs, ts, tc, rate, hits, full, full / rate, full);
        free(xs);
        do_pairs = 0;
    }
    /* ---- all pairs ---- */
    size_t m = 256 < n ? 256 : n, hits = 0;
    double ts = 0, tc = 0;
    for (; do_pairs;) {
        hits = 0;
        double a = wall(), c = cpu();
        if (bulk_gcd_pairs(ctx, x, m, limbs, tile, count_hit, &hits) != BULK_OK) return 1;
        ts = wall() - a;
        tc = cpu() - c;
        if (m == n || ts >= pair_s) break;
        size_t next = (size_t)((double)m * 1.6);
        if (ts > 0 && ts * 2.56 > 1.5 * pair_s) break;
        m = next < n ? next : n;
    }
    double pairs = (double)m * (double)(m - 1) / 2, rate = pairs / ts;
    double full = (double)n * (double)(n - 1) / 2;
    if (do_pairs) printf("pairs backend %s threads %d measured_moduli %zu pairs %.0f wall_s %.3f cpu_s %.3f "
           "pairs_per_wall_s %.4g cpu_us_per_gcd %.4f hits %zu full_pairs %.4g %s_wall_s %.4g "
           "%s_cpu_s %.4g\n",
           bname, th, m, pairs, ts, tc, rate, 1e6 * tc / pairs, hits, full,
           m == n ? "measured" : "extrapolated", full / rate, m == n ? "measured" : "extrapolated",
           full * tc / pairs);
    if (do_gmp && do_pairs) {
        size_t k = m < 256 ? m : 256, cntp = 0;
        mpz_t g;
        mpz_init(g);
        double a = cpu();
        for (size_t i = 0; i < k; i++)
            for (size_t j = i + 1; j < k; j++, cntp++) mpz_gcd(g, X[i], X[j]);
        double tg = cpu() - a;
        printf("pairs_gmp threads 1 pairs %zu cpu_s %.3f cpu_us_per_gcd %.4f\n", cntp, tg,
               1e6 * tg / (double)cntp);
        mpz_clear(g);
    }
    /* ---- batch ---- */
    if (do_batch) {
        bulk_limb_t *g = malloc(n * limbs * 8);
        bulk_gcd_batch_stats st;
        bulk_gcd_batch_opts bo = { memory, NULL, 0, NULL };
        if (levels) bulk_ctx_set_progress(ctx, on_level, NULL);
        double a = wall(), c = cpu();
        level_t0 = a;
        int r = bulk_gcd_batch(ctx, g, x, n, limbs, &bo, &st);
        bulk_ctx_set_progress(ctx, NULL, NULL);
        double tb = wall() - a, tcb = cpu() - c;
        size_t bh = 0;
        for (size_t i = 0; i < n; i++) bh += !(g[i * limbs] == 1 && is_zero_tail(g + i * limbs, limbs));
        printf("batch backend %s threads %d status %d moduli %zu wall_s %.3f cpu_s %.3f hits %zu levels %zu "
               "memory_budget %llu floor_est %llu need_est %llu groups %zu spilled_levels %zu "
               "spilled_rem_levels %zu spill_bytes %llu peak_rss_mb %.0f\n",
               bname, th, r, n, tb, tcb, bh, st.levels, (unsigned long long)st.memory_budget,
               (unsigned long long)st.memory_floor, (unsigned long long)st.memory_need, st.groups,
               st.spilled_levels, st.spilled_rem_levels, (unsigned long long)st.spill_bytes, peak_rss_mb());
        unsigned long long gp, gf, gb;
        gcd_mul_counts(&gp, &gf, &gb);
        printf("batch_products gpu_ntt %llu gpu_failed_redone_on_cpu %llu gpu_wrong_redone_on_cpu %llu "
               "exact_division_fallbacks %llu\n", gp, gf, gb, gcd_mod_exact_count());
        if (random && r == BULK_OK) { /* each planted g_i must be a multiple of its shared number */
            size_t ok = 0;
            for (size_t k = 0; k < nplant; k++)
                for (size_t m = plant[k] - 1; m <= plant[k]; m++) {
                    mpz_import(p, limbs, -1, 8, 0, 0, g + m * limbs);
                    ok += mpz_divisible_p(p, shared[k]) != 0;
                }
            printf("planted_ok %zu of %zu\n", ok, 2 * nplant);
        }
        if (do_gmp && n <= 100000) {
            a = cpu();
            size_t gh = gmp_batch(X, n);
            printf("batch_gmp threads 1 moduli %zu cpu_s %.3f hits %zu\n", n, cpu() - a, gh);
        }
        free(g);
    }
    bulk_ctx_close(ctx);
    return 0;
}
