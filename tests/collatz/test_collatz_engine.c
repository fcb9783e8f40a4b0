/* Collatz engine against the naive twin (tests/collatz/naive.h) and GMP: tables of seed 004
 * (Table 1, Table 3), every n below 2^24 (delay, glide, peak), verify checksums against naive
 * glide sums on random ranges and across threads / d / k, overflow past 2^64 and 2^128, bound
 * expressions, merging, checkpoints. Replay with --seed S. BULK_SANITIZED=1 shrinks the loops. */
#include <gmp.h>
#include <stdatomic.h>
#include <unistd.h>

#include "collatz/checkpoint.h"
#include "collatz/cpu/glide_fast.h"
#include "collatz/collatz_internal.h"
#include "collatz/naive.h"
#include "cz_test.h"
#include "common/parallel.h"
#include "test_util.h"

static int sanitized;


static bulk_collatz_engine *engine(bulk_ctx *c, int d, int k, int a)
{
    bulk_collatz_engine *e;
    int st = bulk_collatz_engine_new(&e, c, d, k, a);
    if (st != BULK_OK) {
        fprintf(stderr, "engine d=%d k=%d a=%d: %s\n", d, k, a, bulk_status_string(st));
        exit(1);
    }
    return e;
}

/* GMP oracle: glide (stop_glide) or delay and peak of n (any size). */
static void gmp_collatz(const mpz_t n, int stop_glide, uint64_t *delay, uint64_t *glide, mpz_t peak)
{
    mpz_t x;
    mpz_init_set(x, n);
    if (peak) mpz_set(peak, n);
    uint64_t steps = 0, gl = 0;
    int have = mpz_cmp_ui(n, 1) == 0;
    while (mpz_cmp_ui(x, 1) != 0 && !(stop_glide && have)) {
        if (mpz_odd_p(x)) {
            mpz_mul_ui(x, x, 3);
            mpz_add_ui(x, x, 1);
            if (peak && mpz_cmp(x, peak) > 0) mpz_set(peak, x);
        } else {
            mpz_fdiv_q_2exp(x, x, 1);
            if (!have && mpz_cmp(x, n) < 0) {
                have = 1;
                gl = steps + 1;
            }
        }
        steps++;
    }
    if (delay) *delay = steps;
    if (glide) *glide = gl;
    mpz_clear(x);
}

static void mpz_from(mpz_t z, nv_u128 v)
{
    mpz_set_ui(z, (unsigned long)(uint64_t)(v >> 64));
    mpz_mul_2exp(z, z, 64);
    mpz_add_ui(z, z, (unsigned long)(uint64_t)v);
}

static uint64_t oracle_glide(nv_u128 n)
{
    uint64_t g;
    if (naive_glide(n, &g)) return g;
    mpz_t z;
    mpz_init(z);
    mpz_from(z, n);
    gmp_collatz(z, 1, NULL, &g, NULL);
    mpz_clear(z);
    return g;
}

/* ---- seed 004 tables ---------------------------------------------------------------------- */

static void test_seed_tables(void)
{
    static const uint64_t B4[16] = { 1, 9, 9, 9, 3, 3, 9, 27, 3, 27, 3, 27, 9, 9, 27, 81 };
    static const uint64_t C4[16] = { 0, 1, 2, 2, 1, 1, 4, 13, 2, 17, 2, 20, 8, 8, 26, 80 };
    uint64_t B[16], C[16], MX[16];
    uint8_t J[16];
    /* seed 004 Table 1: row (0001)_2 is L = 1, and so on */
    bulk_cz_build_tables(4, B, C, J, MX);
    for (int L = 0; L < 16; L++) {
        CHECK(B[L] == B4[L] && C[L] == C4[L], "Table 1 row %d: B %llu C %llu", L,
              (unsigned long long)B[L], (unsigned long long)C[L]);
        int odd = 0;
        for (uint64_t b = B[L]; b > 1; b /= 3) odd++;
        CHECK(J[L] == 4 + odd, "J[%d] = %d", L, J[L]);
    }
    bulk_cz_build_tables(2, B, C, J, MX);
    static const uint8_t J2[4] = { 2, 3, 3, 4 }; /* seed 004 section 3.2 */
    static const uint64_t B2[4] = { 1, 3, 3, 9 }, C2[4] = { 0, 1, 2, 8 };
    for (int L = 0; L < 4; L++)
        CHECK(J[L] == J2[L] && B[L] == B2[L] && C[L] == C2[L], "d=2 row %d", L);
    /* S for 4 bits: 0111, 1011, 1111 */
    bulk_ctx *c = ctx_threads(2);
    bulk_collatz_engine *e = engine(c, 4, 4, 0);
    CHECK(e->s_k == 3, "s_4 = %llu", (unsigned long long)e->s_k);
    uint64_t seen = 0;
    for (uint64_t i = 0; i < e->s_k; i++) seen |= 1ull << e->Sr[i];
    CHECK(seen == ((1ull << 7) | (1ull << 11) | (1ull << 15)), "S_4 residues %llx",
          (unsigned long long)seen);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(c);
}

static void test_sieve_sizes(void)
{
    /* seed 004 Table 3, k = 3..37 */
    static const uint64_t table3[38] = { 0, 0, 0, 2, 3, 4, 8, 13, 19, 38, 64, 128, 226, 367, 734,
                                         1295, 2114, 4228, 7495, 14990, 27328, 46611, 93222,
                                         168807, 286581, 573162, 1037374, 1762293, 3524586,
                                         6385637, 12771274, 23642078, 41347483, 82694966,
                                         151917639, 263841377, 527682754, 967378591 };
    int K = sanitized ? 26 : 34;
    const char *env = getenv("BULK_COLLATZ_SIEVE_K"); /* larger k on request (e.g. 37) */
    if (env && *env) K = atoi(env);
    if (K > 37) K = 37;
    /* Independent oracle: a residue class mod 2^k is the same thing as its parity sequence
     * (one of the two children of every node takes the odd step), so s_k counts the 0/1
     * sequences whose prefix sums j_i keep 3^j_i >= 2^i for every i <= k: a DP over j. */
    uint64_t dp[40][41];
    memset(dp, 0, sizeof dp);
    dp[0][0] = 1;
    for (int i = 0; i < 39; i++)
        for (int j = 0; j <= i; j++)
            for (int x = 0; x < 2; x++)
                if (bulk_cz_pow3[j + x] >= (1ull << (i + 1))) dp[i + 1][j + x] += dp[i][j];
    bulk_ctx *c = ctx_threads(0);
    uint64_t counts[BULK_COLLATZ_MAX_K + 1];
    CHECK(bulk_collatz_sieve_count(c, K, counts) == BULK_OK, "sieve count");
    for (int k = 3; k <= K; k++) {
        uint64_t want = 0;
        for (int j = 0; j <= 40; j++) want += dp[k][j];
        CHECK(counts[k] == want, "s_%d = %llu, the parity-sequence count is %llu", k,
              (unsigned long long)counts[k], (unsigned long long)want);
        /* Table 3 prints 151917639 for k = 34, 3 more than both counts; s_33 and s_35 agree
         * with it, so we take it for a misprint (docs/collatz.md) */
        if (k != 34)
            CHECK(counts[k] == table3[k], "s_%d = %llu, Table 3 says %llu", k,
                  (unsigned long long)counts[k], (unsigned long long)table3[k]);
    }
    printf("sieve sizes s_3..s_%d equal seed 004 Table 3 (k = 34: 151917636, see docs)\n", K);
    /* the stored sieve agrees with the counting walk, and its glides with the naive ones */
    bulk_collatz_engine *e = engine(c, 8, 16, 0);
    CHECK(e->s_k == table3[16], "stored s_16");
    uint64_t G = 0;
    for (uint64_t r = 0; r < (1u << 16); r++) {
        /* the glide of n = 2^16 + r is its residue's when eliminated */
        nv_u128 n = ((nv_u128)1 << 16) + r;
        int mandatory = 0;
        for (uint64_t i = 0; i < e->s_k && !mandatory; i++) mandatory = e->Sr[i] == r;
        if (!mandatory) G += oracle_glide(n);
        if (r % 4099 == 0 && mandatory) {
            /* the stored state: 3^j * 1 + c is the value after 16 + j steps */
            for (uint64_t i = 0; i < e->s_k; i++)
                if (e->Sr[i] == r) {
                    nv_u128 x = n;
                    for (int s = 0; s < 16 + e->Sj[i]; s++) x = x % 2 ? 3 * x + 1 : x / 2;
                    CHECK(x == bulk_cz_pow3[e->Sj[i]] + e->Sc[i], "sieve state of %llu",
                          (unsigned long long)r);
                }
        }
    }
    CHECK(G == e->G_k, "G_16 = %llu, naive %llu", (unsigned long long)e->G_k, (unsigned long long)G);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(c);
}

/* ---- every n below 2^N against the naive twin ---------------------------------------------- */

struct exh {
    const bulk_collatz_engine *e;
    uint32_t *delays;
    atomic_ullong bad;
    atomic_ullong first_bad;
};

static void exh_range(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    struct exh *x = arg;
    for (size_t i = begin; i < end; i++) {
        nv_u128 n = (nv_u128)i + 1;
        uint64_t dl = 0, gl = 0;
        nv_u128 pk = 0, g2 = 0, p2 = 0;
        int ok = naive_collatz(n, &dl, &gl, &pk);
        int st1 = n > 1 ? bulk_cz_glide_of(x->e, U(n), &g2) : 0;
        int st2 = bulk_cz_peak_of(x->e, U(n), &p2);
        if (!ok || st1 || st2 || x->delays[i] != dl || (n > 1 && g2 != gl) || p2 != pk) {
            if (atomic_fetch_add(&x->bad, 1) == 0) atomic_store(&x->first_bad, (unsigned long long)n);
        }
    }
}

static void test_exhaustive(void)
{
    int bits = sanitized ? 18 : 24;
    bulk_ctx *c = ctx_threads(0);
    bulk_collatz_engine *e = engine(c, 11, 0, 16);
    size_t count = ((size_t)1 << bits) - 1;
    uint32_t *delays = malloc(count * sizeof *delays);
    CHECK(bulk_collatz_delays(c, e, U(1), count, delays) == BULK_OK, "delays");
    struct exh x = { e, delays, 0, 0 };
    bulk_parallel_for(bulk_ctx_threads(c), count, 4096, exh_range, &x);
    CHECK(x.bad == 0, "%llu of the n < 2^%d differ from the naive twin, first n = %llu",
          (unsigned long long)x.bad, bits, (unsigned long long)x.first_bad);
    printf("every n < 2^%d: delay, glide, peak equal the naive twin\n", bits);
    /* small tables (d = 3, a = 3) exercise the table loop on small values */
    bulk_collatz_engine *e2 = engine(c, 3, 0, 3);
    size_t m = 1 << 14;
    CHECK(bulk_collatz_delays(c, e2, U(1), m, delays) == BULK_OK, "delays d=3");
    for (size_t i = 0; i < m; i++) {
        uint64_t dl = 0, gl = 0;
        nv_u128 pk = 0;
        naive_collatz(i + 1, &dl, &gl, &pk);
        CHECK(delays[i] == dl, "d=3 a=3 delay(%zu) = %u, naive %llu", i + 1, delays[i],
              (unsigned long long)dl);
    }
    bulk_collatz_engine_free(e2);
    free(delays);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(c);
}

/* ---- verify: checksums against the naive glide sum, and invariance ------------------------- */

static void naive_verify(nv_u128 a, nv_u128 b, nv_u128 *sum, uint64_t *maxg, nv_u128 *maxn)
{
    *sum = 0;
    *maxg = 0;
    *maxn = 0;
    for (nv_u128 n = a; n <= b; n++) {
        uint64_t g = oracle_glide(n);
        *sum += g;
        if (g > *maxg || n == a) {
            if (g > *maxg || n == a) {
                *maxg = g;
                *maxn = n;
            }
        }
    }
}

static void check_verify_range(const bulk_collatz_engine *e, nv_u128 a, nv_u128 b, const char *what)
{
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    int st = bulk_collatz_verify_chunk(e, U(a), U(b), r);
    nv_u128 sum;
    uint64_t mg;
    nv_u128 mn;
    naive_verify(a, b, &sum, &mg, &mn);
    CHECK(st == BULK_OK && N(r->checksum) == sum && N(r->covered) == b - a + 1 &&
              r->max_glide == mg && N(r->max_glide_n) == mn,
          "%s [%s, %s] d=%d k=%d: checksum %s (naive %s) covered %s max glide %llu at %s "
          "(naive %llu at %s)",
          what, S(a), S(b), e->d, e->k, S(N(r->checksum)), S(sum), S(N(r->covered)),
          (unsigned long long)r->max_glide, S(N(r->max_glide_n)), (unsigned long long)mg, S(mn));
    free(r);
}

static void test_verify_random(uint64_t *rng)
{
    bulk_ctx *c = ctx_threads(1);
    int rounds = sanitized ? 12 : 40;
    for (int round = 0; round < rounds; round++) {
        int d = 1 + (int)(test_rand(rng) % 20), k = (int)(test_rand(rng) % 21);
        bulk_collatz_engine *e = engine(c, d, k, 0);
        for (int t = 0; t < 4; t++) {
            nv_u128 a;
            switch ((round + t) % 4) {
            case 0: a = 1 + test_rand(rng) % 100000; break;
            case 1: a = ((nv_u128)1 << (20 + test_rand(rng) % 44)) - test_rand(rng) % 3000; break;
            case 2: a = ((nv_u128)1 << 64) + (test_rand(rng) % (1ull << 40)); break;
            default: a = (nv_u128)test_rand(rng) << (test_rand(rng) % 40); break;
            }
            if (a == 0) a = 1;
            nv_u128 len = 1 + test_rand(rng) % (sanitized ? 1500 : 6000);
            check_verify_range(e, a, a + len - 1, "random range");
        }
        bulk_collatz_engine_free(e);
    }
    /* ranges from 1 (the base case n = 1 and the unaligned small blocks) */
    bulk_collatz_engine *e = engine(c, 5, 6, 0);
    for (nv_u128 b = 1; b < 300; b += 7) check_verify_range(e, 1, b, "from 1");
    bulk_collatz_engine_free(e);
    bulk_ctx_close(c);
}

static void test_verify_invariance(void)
{
    nv_u128 a = ((nv_u128)1 << 64) + 12345, b = a + ((nv_u128)1 << (sanitized ? 19 : 24)) + 777;
    bulk_collatz_verify_result *ref = malloc(sizeof *ref), *r = malloc(sizeof *r);
    int first = 1;
    static const int ds[] = { 4, 12, 19 }, ks[] = { 0, 9, 16, 21 }, ts[] = { 1, 2, 3 };
    for (int di = 0; di < 3; di++)
        for (int ki = 0; ki < 4; ki++)
            for (int ti = 0; ti < 3; ti++) {
                if (sanitized && (ti != di % 3)) continue;
                if (!sanitized && ti != (di + ki) % 3 && !(di == 1 && ki == 2)) continue;
                bulk_ctx *c = ctx_threads(ts[ti]);
                bulk_collatz_engine *e = engine(c, ds[di], ks[ki], 0);
                bulk_collatz_run_opts o = { 0 };
                CHECK(bulk_collatz_verify(c, e, U(a), U(b), &o, r) == BULK_OK, "verify");
                if (first) {
                    *ref = *r;
                    first = 0;
                    CHECK(N(r->covered) == b - a + 1, "covered");
                } else {
                    CHECK(N(r->checksum) == N(ref->checksum) && N(r->covered) == N(ref->covered) &&
                              r->max_glide == ref->max_glide &&
                              N(r->max_glide_n) == N(ref->max_glide_n) &&
                              r->overflows == ref->overflows,
                          "d=%d k=%d threads=%d: checksum %s, reference %s", ds[di], ks[ki],
                          ts[ti], S(N(r->checksum)), S(N(ref->checksum)));
                }
                bulk_collatz_engine_free(e);
                bulk_ctx_close(c);
            }
    printf("checksum near 2^64 over %s numbers: %s (equal for every d, k, thread count tried)\n",
           S(b - a + 1), S(N(ref->checksum)));
    /* merging chunk results equals one chunk */
    bulk_ctx *c = ctx_threads(1);
    bulk_collatz_engine *e = engine(c, 10, 12, 0);
    nv_u128 m = a + 100003;
    bulk_collatz_verify_result *p1 = malloc(sizeof *p1), *p2 = malloc(sizeof *p2);
    bulk_collatz_verify_chunk(e, U(a), U(m), p1);
    bulk_collatz_verify_chunk(e, U(m + 1), U(a + 300000), p2);
    bulk_collatz_verify_chunk(e, U(a), U(a + 300000), r);
    bulk_collatz_verify_result_merge(p1, p2);
    CHECK(N(p1->checksum) == N(r->checksum) && N(p1->covered) == N(r->covered) &&
              p1->max_glide == r->max_glide && N(p1->max_glide_n) == N(r->max_glide_n),
          "merged halves differ from one chunk");
    bulk_collatz_engine_free(e);
    bulk_ctx_close(c);
    free(p1);
    free(p2);
    free(ref);
    free(r);
}

/* ---- overflow: past 2^64 and past 2^128 ----------------------------------------------------- */

static void test_overflow(uint64_t *rng)
{
    bulk_ctx *c = ctx_threads(2);
    bulk_collatz_engine *e = engine(c, 12, 10, 20);
    /* 12327829503: the smallest n whose trajectory passes 2^64 (fits the 128-bit paths) */
    nv_u128 n = 12327829503ull;
    uint64_t dl = 0, gl = 0;
    nv_u128 pk = 0, g2 = 0, p2 = 0;
    CHECK(naive_collatz(n, &dl, &gl, &pk), "naive 12327829503");
    CHECK(pk > ((nv_u128)1 << 64), "peak of 12327829503 passes 2^64");
    uint32_t d2;
    CHECK(bulk_collatz_delays(c, e, U(n), 1, &d2) == BULK_OK && d2 == dl, "delay(12327829503)");
    CHECK(bulk_cz_glide_of(e, U(n), &g2) == BULK_OK && g2 == gl, "glide(12327829503)");
    CHECK(bulk_cz_peak_of(e, U(n), &p2) == BULK_OK && p2 == pk, "peak(12327829503) %s vs %s",
          S(p2), S(pk));
    check_verify_range(e, n - 1000, n + 1000, "around 12327829503");
    /* 2^90 - 1 climbs to about 3^90 > 2^128: verify sends it to the exact path */
    nv_u128 big = ((nv_u128)1 << 90) - 1;
    bulk_collatz_verify_result *r = malloc(sizeof *r);
    CHECK(bulk_collatz_verify_chunk(e, U(big - 20), U(big + 20), r) == BULK_OK, "verify 2^90");
    int found = 0;
    for (uint32_t i = 0; i < r->n_overflow_values; i++) found |= N(r->overflow_values[i]) == big;
    CHECK(r->overflows >= 1 && found, "2^90-1 not reported as an overflow (%llu overflows)",
          (unsigned long long)r->overflows);
    nv_u128 sum = 0;
    mpz_t z, zp;
    mpz_init(z);
    mpz_init(zp);
    for (nv_u128 x = big - 20; x <= big + 20; x++) {
        mpz_from(z, x);
        uint64_t g;
        gmp_collatz(z, 1, NULL, &g, NULL);
        sum += g;
    }
    CHECK(N(r->checksum) == sum, "checksum around 2^90: %s, GMP %s", S(N(r->checksum)), S(sum));
    /* delays of numbers passing 2^128 go to the exact path too */
    for (int t = 0; t < (sanitized ? 3 : 10); t++) {
        nv_u128 x = t == 0 ? big : (((nv_u128)1 << (95 + test_rand(rng) % 30)) - 1 -
                                    (test_rand(rng) % 8) * 0);
        uint32_t dd;
        mpz_from(z, x);
        uint64_t gd, gg;
        gmp_collatz(z, 0, &gd, &gg, zp);
        CHECK(bulk_collatz_delays(c, e, U(x), 1, &dd) == BULK_OK && dd == gd,
              "delay(%s) = %u, GMP %llu", S(x), dd, (unsigned long long)gd);
        uint64_t w[2] = { (uint64_t)x, (uint64_t)(x >> 64) }, ed, eg, ep[8];
        size_t pl;
        CHECK(bulk_collatz_exact(w, 2, &ed, &eg, ep, 8, &pl) == BULK_OK && ed == gd && eg == gg,
              "exact(%s)", S(x));
        mpz_t q;
        mpz_init(q);
        mpz_import(q, pl, -1, sizeof(uint64_t), 0, 0, ep);
        CHECK(mpz_cmp(q, zp) == 0, "exact peak of %s", S(x));
        CHECK(mpz_sizeinbase(zp, 2) > 128 || t > 0, "2^90-1 passes 2^128");
        mpz_clear(q);
    }
    mpz_clear(z);
    mpz_clear(zp);
    free(r);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(c);
}

/* delays by merge classes (whole blocks of 2^16) equal the one-by-one path, near 2^64 and near
 * 2^126 where class states pass 2^128; GMP on samples */
static void test_delay_blocks(uint64_t *rng)
{
    bulk_ctx *c = ctx_threads(2);
    bulk_collatz_engine *e = engine(c, 11, 0, 18);
    /* blocks of 2^M: small head and tail (one by one), then a whole block with a head and a
     * tail of more than a quarter block (done as whole blocks, the part copied), near 2^64 and
     * near 2^126 (two-word class loop) */
    const uint64_t bs = (uint64_t)1 << e->M, part = bs / 4 + 12345;
    nv_u128 starts[4] = { ((nv_u128)1 << 64) - 70001, ((nv_u128)1 << 126) - 1001,
                          ((nv_u128)1 << 64) - part, ((nv_u128)1 << 126) - part };
    uint64_t counts[4] = { 140003, sanitized ? 66000 : 132000, bs + 2 * part + 17,
                           bs + 2 * part + 17 };
    mpz_t z;
    mpz_init(z);
    for (int t = 0; t < 4; t++) {
        uint32_t *out = malloc(counts[t] * sizeof *out);
        CHECK(bulk_collatz_delays(c, e, U(starts[t]), counts[t], out) == BULK_OK, "delays");
        uint64_t bad = 0;
        const uint64_t stride = t == 0 ? 1 : t == 2 ? (sanitized ? 17 : 3) : (sanitized ? 61 : 13);
        for (uint64_t i = 0; i < counts[t]; i += stride) {
            int64_t one = bulk_cz_delay_of(e, U(starts[t] + i));
            if (one != (int64_t)out[i] && bad++ < 5)
                CHECK(0, "delay(%s): block %u, one by one %lld", S(starts[t] + i), out[i],
                      (long long)one);
        }
        for (int s = 0; s < 20; s++) {
            uint64_t i = test_rand(rng) % counts[t];
            uint64_t gd;
            mpz_from(z, starts[t] + i);
            gmp_collatz(z, 0, &gd, NULL, NULL);
            CHECK(out[i] == gd, "delay(%s) = %u, GMP %llu", S(starts[t] + i), out[i],
                  (unsigned long long)gd);
        }
        free(out);
    }
    mpz_clear(z);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(c);
}

/* ---- bounds ------------------------------------------------------------------------------------ */

static void test_bounds(void)
{
    struct { const char *s; uint64_t w0, w1, w2; int st; } cases[] = {
        { "2^64", 0, 1, 0, 0 },
        { "3*2^60", 3ull << 60, 0, 0, 0 },
        { "2^68+2^40", 1ull << 40, 16, 0, 0 },
        { "0x10", 16, 0, 0, 0 },
        { "0xffffffffffffffffffffffffffffffff", ~0ull, ~0ull, 0, 0 },
        { "2^2^3", 256, 0, 0, 0 },
        { "1+2*3^2", 19, 0, 0, 0 },
        { "2^128", 0, 0, 1, 0 },
        { "340282366920938463463374607431768211455", ~0ull, ~0ull, 0, 0 },
        { "2^191", 0, 0, 1ull << 63, 0 },
        { "2^192", 0, 0, 0, BULK_ERR_OVERFLOW },
        { "2^200", 0, 0, 0, BULK_ERR_OVERFLOW },
        { "", 0, 0, 0, BULK_ERR_PARSE },
        { "2^", 0, 0, 0, BULK_ERR_PARSE },
        { "1+", 0, 0, 0, BULK_ERR_PARSE },
        { "abc", 0, 0, 0, BULK_ERR_PARSE },
        { "12a", 0, 0, 0, BULK_ERR_PARSE },
        { "-5", 0, 0, 0, BULK_ERR_PARSE },
        { "2 ^ 3", 0, 0, 0, BULK_ERR_PARSE },
        { "0x", 0, 0, 0, BULK_ERR_PARSE },
        { "2^90-1", ~0ull, (1ull << 26) - 1, 0, 0 },
        { "2^64-1", ~0ull, 0, 0, 0 },
        { "10-2*3", 4, 0, 0, 0 },
        { "2^128-2^64+5", 5, ~0ull, 0, 0 },
        { "3-4", 0, 0, 0, BULK_ERR_ARG },
        { "1-", 0, 0, 0, BULK_ERR_PARSE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t v[3] = { 7, 7, 7 };
        size_t pos;
        int st = bulk_cz_parse_bound(cases[i].s, v, &pos);
        CHECK(st == cases[i].st, "bound '%s': status %d, expected %d", cases[i].s, st, cases[i].st);
        if (st == 0 && cases[i].st == 0)
            CHECK(v[0] == cases[i].w0 && v[1] == cases[i].w1 && v[2] == cases[i].w2,
                  "bound '%s' value", cases[i].s);
    }
}

/* ---- checkpoints at the API level ------------------------------------------------------------ */

static void test_checkpoint(void)
{
    const char *dir = test_scratch_dir("collatz_engine");
    char path[512];
    snprintf(path, sizeof path, "%s/ckpt.txt", dir);
    unlink(path);
    bulk_ctx *c = ctx_threads(2);
    bulk_collatz_engine *e = engine(c, 10, 12, 0);
    nv_u128 a = ((nv_u128)1 << 50) + 5, b = a + (1u << 27);
    bulk_collatz_run_opts o = { path, "test run 1", 0.0001, 0 };
    bulk_collatz_verify_result *r1 = malloc(sizeof *r1), *r2 = malloc(sizeof *r2);
    CHECK(bulk_collatz_verify(c, e, U(a), U(b), &o, r1) == BULK_OK, "checkpointed run");
    /* a checkpoint holding only a prefix: rewrite it at the middle, then resume */
    bulk_collatz_verify_result *pre = malloc(sizeof *pre);
    /* the driver's chunks are aligned to 2^22 here, so a real checkpoint sits on such a bound */
    nv_u128 mid = ((nv_u128)1 << 50) + (1u << 26);
    CHECK(bulk_collatz_verify_chunk(e, U(a), U(mid - 1), pre) == BULK_OK, "prefix");
    CHECK(bulk_cz_checkpoint_write(path, "test run 1", U(mid), 0, pre) == BULK_OK, "write");
    CHECK(bulk_collatz_verify(c, e, U(a), U(b), &o, r2) == BULK_OK, "resumed run");
    CHECK(N(r1->checksum) == N(r2->checksum) && N(r1->covered) == N(r2->covered) &&
              N(r1->iterated) == N(r2->iterated) && r1->max_glide == r2->max_glide,
          "resumed %s, uninterrupted %s", S(N(r2->checksum)), S(N(r1->checksum)));
    bulk_collatz_run_opts other = { path, "test run 2", 1, 0 };
    CHECK(bulk_collatz_verify(c, e, U(a), U(b), &other, r2) == BULK_ERR_ARG,
          "another run's checkpoint must be refused");
    unlink(path);
    free(pre);
    free(r1);
    free(r2);
    bulk_collatz_engine_free(e);
    bulk_ctx_close(c);
}


/* ---- the CPU glide kernel and the sieve extension -------------------------------------------- */

/* cz_fast_glide (collatz/cpu/glide_fast.h) against the reference cz_glide_from_mb from the same
 * state: random states, and states built so that n / vH is exactly an inside coefficient b_t
 * with the remainder next to c_t (the "b_t == q" branch of the dip test), near the one-word /
 * two-word boundary v = 2^(64+d), and numbers whose own glide is compared with the oracle. */
static void test_fast_kernel(uint64_t *rng)
{
    bulk_ctx *c = ctx_threads(1);
    const int rounds = sanitized ? 6 : 24, per = sanitized ? 300 : 2000;
    int ties = 0, compared = 0;
    for (int round = 0; round < rounds; round++) {
        int d = 1 + (int)(test_rand(rng) % 16);
        bulk_collatz_engine *e = engine(c, d, 0, 0);
        const uint64_t size = (uint64_t)1 << d;
        for (int t = 0; t < per; t++) {
            nv_u128 n, v;
            uint64_t L = test_rand(rng) & (size - 1);
            int kind = t % 4;
            if (kind == 0) {
                /* the tie: n = b_s vH + rem with rem in c_s - 1 .. c_s + 1 */
                int s = (int)(test_rand(rng) % (uint64_t)d);
                uint64_t b = (uint64_t)e->Tb[16 * L + s], cc = e->Tc[16 * L + s];
                if (b > size) continue; /* v >= n needs b_s <= 2^d */
                nv_u128 vH = ((nv_u128)1 << (34 + test_rand(rng) % 40)) + (test_rand(rng) >> 8);
                uint64_t rem = cc + (test_rand(rng) % 3) - 1;
                if (cc == 0 && rem > cc + 1) rem = 0;
                n = (nv_u128)b * vH + rem;
                v = (vH << d) | L;
            } else {
                /* random n; v = n (a glide from the start) or v a little above n */
                int bits = d + CZ_FAST_MIN_EXTRA + (int)(test_rand(rng) % (uint64_t)(90 - d - CZ_FAST_MIN_EXTRA + 1));
                if (kind == 3) bits = 64 + d + (int)(test_rand(rng) % 3) - 1; /* word boundary */
                n = ((nv_u128)test_rand(rng) << 64 | test_rand(rng)) >> (128 - bits);
                n |= (nv_u128)1 << (bits - 1);
                v = kind == 1 ? n : n + (test_rand(rng) % 1000) * (n >> 12);
                if (kind == 1 && n < ((nv_u128)1 << 126)) {
                    int64_t g = cz_fast_glide(e, v, n, 0);
                    CHECK(g < 0 || (nv_u128)g == oracle_glide(n), "fast glide(%s) d=%d: %lld, oracle %llu",
                          S(n), d, (long long)g, (unsigned long long)oracle_glide(n));
                }
            }
            if (v < n || !cz_fast_usable(e, n)) continue;
            int64_t ref = cz_glide_from_mb(U(v), U(n), 0, d, e->B, e->C, e->J, e->MB);
            int64_t got = cz_fast_glide(e, v, n, 0);
            /* -1 (hand back) only for states near 2^128 */
            CHECK(got == ref || (got < 0 && (n >> (128 - CZ_FAST_HEADROOM - 20)) != 0),
                  "fast kernel d=%d L=%llu v=%s n=%s: %lld, reference %lld", d,
                  (unsigned long long)L, S(v), S(n), (long long)got, (long long)ref);
            compared++;
            if (kind == 0) ties++;
        }
        bulk_collatz_engine_free(e);
    }
    CHECK(ties > rounds * per / 40 && compared > rounds * per / 2,
          "only %d tie states, %d states compared", ties, compared);
    bulk_ctx_close(c);
}

/* s_K by the parity-sequence DP of test_sieve_sizes in 128 bits (K <= 80): the count of 0/1
 * sequences of length K whose prefix sums j_i keep 3^j_i >= 2^i. */
static uint64_t dp_sieve_count(int K)
{
    uint64_t dp[2][82];
    memset(dp, 0, sizeof dp);
    dp[0][0] = 1;
    for (int i = 0; i < K; i++) {
        uint64_t *a = dp[i & 1], *b = dp[(i + 1) & 1];
        memset(b, 0, sizeof dp[0]);
        nv_u128 p3 = 1;
        for (int j = 0; j <= i + 1; j++, p3 *= 3) {
            /* j odd steps after i + 1 halvings: from j (even step) or j - 1 (odd step) */
            if (p3 < ((nv_u128)1 << (i + 1))) continue;
            b[j] = a[j] + (j ? a[j - 1] : 0);
        }
    }
    uint64_t s = 0;
    for (int j = 0; j <= K; j++) s += dp[K & 1][j];
    return s;
}

/* A stored sieve of k bits with an extension of x bits gives the totals (checksum, covered,
 * largest glide, overflows and their values) of the stored sieve of k bits alone, iterates
 * exactly s_(k+x) numbers per aligned block of 2^(k+x), and matches the naive glide sum; near
 * 2^64, below the fast kernel's range, and around 2^90 where numbers overflow 128 bits. */
static void test_verify_extension(uint64_t *rng)
{
    bulk_ctx *c = ctx_threads(1);
    static const int cs[][3] = { { 10, 9, 7 }, { 8, 14, 4 }, { 12, 0, 12 }, { 4, 12, 3 },
                                 { 16, 11, 5 }, { 19, 10, 6 }, { 10, 3, 16 } };
    bulk_collatz_verify_result *r0 = malloc(sizeof *r0), *r1 = malloc(sizeof *r1);
    for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++) {
        const int d = cs[ci][0], k = cs[ci][1], x = cs[ci][2], K = k + x;
        if (sanitized && K > 16) continue;
        bulk_collatz_engine *e0 = engine(c, d, k, 0), *e1 = engine(c, d, k, 0);
        CHECK(bulk_cz_build_extension(e1, x) == BULK_OK, "extension d=%d k=%d x=%d", d, k, x);
        uint64_t counts[BULK_COLLATZ_MAX_K + 1];
        CHECK(bulk_collatz_sieve_count(c, K, counts) == BULK_OK && counts[K] == e1->s_kx,
              "s_%d = %llu, extension %llu", K, (unsigned long long)counts[K],
              (unsigned long long)e1->s_kx);
        for (int where = 0; where < 3; where++) {
            nv_u128 block = (nv_u128)1 << K, a;
            if (where == 0) a = ((nv_u128)1 << 64) + (nv_u128)(test_rand(rng) % 1000) * block;
            else if (where == 1) a = ((nv_u128)1 << 40) + (nv_u128)(test_rand(rng) % 1000) * block;
            else a = ((nv_u128)1 << 90) - 2 * block;
            /* 2 whole blocks and two ragged ends */
            nv_u128 lo = a - 1 - test_rand(rng) % 5000, hi = a + 2 * block + test_rand(rng) % 5000;
            CHECK(bulk_collatz_verify_chunk(e0, U(lo), U(hi), r0) == BULK_OK &&
                      bulk_collatz_verify_chunk(e1, U(lo), U(hi), r1) == BULK_OK,
                  "verify d=%d k=%d x=%d", d, k, x);
            int same = N(r0->checksum) == N(r1->checksum) && N(r0->covered) == N(r1->covered) &&
                       r0->max_glide == r1->max_glide &&
                       N(r0->max_glide_n) == N(r1->max_glide_n) &&
                       r0->overflows == r1->overflows &&
                       r0->n_overflow_values == r1->n_overflow_values;
            for (uint32_t i = 0; same && i < r0->n_overflow_values; i++)
                same = cz_eq(r0->overflow_values[i], r1->overflow_values[i]);
            CHECK(same, "d=%d k=%d+%d [%s, %s]: checksum %s / %s, overflows %llu / %llu", d, k, x,
                  S(lo), S(hi), S(N(r1->checksum)), S(N(r0->checksum)),
                  (unsigned long long)r1->overflows, (unsigned long long)r0->overflows);
            if (where == 2) CHECK(r1->overflows > 0, "no overflow near 2^90 (d=%d k=%d+%d)", d, k, x);
            /* the whole blocks alone iterate s_K each */
            CHECK(bulk_collatz_verify_chunk(e1, U(a), U(a + 2 * block - 1), r1) == BULK_OK &&
                      N(r1->iterated) == 2 * (nv_u128)e1->s_kx,
                  "iterated %s, 2 s_%d = %llu", S(N(r1->iterated)), K,
                  (unsigned long long)(2 * e1->s_kx));
            if (where < 2 && K <= 16) check_verify_range(e1, lo, hi, "extension");
        }
        bulk_collatz_engine_free(e0);
        bulk_collatz_engine_free(e1);
    }
    /* bad extensions */
    bulk_collatz_engine *e = engine(c, 8, 28, 0);
    CHECK(bulk_cz_build_extension(e, 17) == BULK_ERR_ARG, "x = 17 accepted");
    /* K = 44 > 40 (survivors with more than 40 odd steps, whose states leave 64 bits): the
     * lists still give exactly s_44 per block (DP above; 83401400116) */
    CHECK(bulk_cz_build_extension(e, 16) == BULK_OK && e->s_kx == dp_sieve_count(44) &&
              e->s_kx == 83401400116ull,
          "K = 44: s_kx %llu, DP %llu", (unsigned long long)e->s_kx, (unsigned long long)dp_sieve_count(44));
    CHECK(bulk_cz_build_extension(e, 3) == BULK_ERR_ARG, "a second extension accepted");
    bulk_collatz_engine_free(e);
    /* s_40 and s_46 (the largest K) from 24 and 30 stored bits against the DP */
    e = engine(c, 8, 24, 0);
    CHECK(bulk_cz_build_extension(e, 16) == BULK_OK && e->s_kx == dp_sieve_count(40) && e->s_kx == 6402835000ull,
          "K = 40: s_kx %llu", (unsigned long long)e->s_kx);
    bulk_collatz_engine_free(e);
    e = engine(c, 8, 4, 0);
    CHECK(bulk_cz_build_extension(e, 17) == BULK_ERR_ARG, "x = 17 accepted");
    bulk_collatz_engine_free(e);
    free(r0);
    free(r1);
    bulk_ctx_close(c);
}

static double t_last;
static void lap(const char *what)
{
    double t = (double)clock() / CLOCKS_PER_SEC;
    printf("  %-22s %.2f s CPU\n", what, t - t_last);
    fflush(stdout);
    t_last = t;
}

int main(int argc, char **argv)
{
    uint64_t rng = test_seed(argc, argv);
    sanitized = test_sanitized();
    test_seed_tables();
    lap("seed_tables");
    test_bounds();
    lap("bounds");
    test_sieve_sizes();
    lap("sieve_sizes");
    test_exhaustive();
    lap("exhaustive");
    test_verify_random(&rng);
    lap("verify_random");
    test_verify_invariance();
    lap("verify_invariance");
    test_fast_kernel(&rng);
    lap("fast_kernel");
    test_verify_extension(&rng);
    lap("verify_extension");
    test_overflow(&rng);
    lap("overflow");
    test_delay_blocks(&rng);
    lap("delay_blocks");
    test_checkpoint();
    lap("checkpoint");
    return test_finish();
}
