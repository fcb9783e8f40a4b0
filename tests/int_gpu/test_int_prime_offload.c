/* The GPU isprime path's orchestration (bulk_prime_offload_run, src/int/int_prime_offload.c) on
 * the CPU: its powmod is bulk_int_powmod on a CPU context, its trial division the trial kernel's
 * per-instance code run on the host (bg_trial_one, src/int/cuda/core/trial.h), its base-2
 * strong test and Lucas sequences the kernels simulated for their lanes (sprp2_sim.h,
 * lucas_sim.h, at the kernels' shape), so every step but the device itself is checked on every
 * build. Answers (without the Lucas stand-in the undecided finished by bulk_int_isprime) must
 * equal bulk_int_isprime on the CPU, with trial division by the kernel's code or on the CPU
 * threads, with or without the Lucas stand-in, with the base-2 test by powmod or whole by the
 * sprp2 stand-in, small chunks or one: on random odd numbers, primes, products of
 * two primes and squares of 64..2048 bits, random odd numbers of 4096, the spsp(2) below 10^8,
 * Carmichael numbers, n < 4096, and Mersenne numbers, with 0 and 2 extra rounds. And nextprime
 * in batches through that path (bulk_prime_next_batched, as on a CUDA context) against the
 * CPU's: around 2^32, overflow at the top of 64 and 128 bits, structured numbers of 2..9 limbs.
 * --seed S replays; BULK_SANITIZED=1 shrinks. */
#include <gmp.h>

#include "bulk/int.h"
#include "int/cuda/int_gpu_core.h"
#include "int/int_prime_offload.h"
#include "lucas_sim.h"
#include "sprp2_sim.h"
#include "test_util.h"
#include "prime_sets.h"
#include "trial_table.h"
#include "../int/spsp2_gen.h"

static bulk_ctx *cpu;
static size_t powmod_calls, trial_calls, lucas_calls, lucas_instances, sprp2_calls;

static int cpu_powmod(bulk_ctx *ctx, bulk_limb_t *r, const bulk_limb_t *base, const bulk_limb_t *exp,
                      const bulk_limb_t *m, size_t n, size_t limbs, int8_t *err)
{
    powmod_calls++;
    return bulk_int_powmod(ctx, r, base, exp, m, n, limbs, err);
}

/* the trial kernel's per-instance code at stride 1, with its table made from t */
static int host_trial(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a, size_t n, size_t limbs,
                      const bulk_prime_table *t)
{
    (void)ctx;
    trial_calls++;
    host_trial_table h;
    host_trial_table_make(&h, t);
    bg_word *x = test_xmalloc(limbs * 8);
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)host_trial_one(&h, a + i * limbs, limbs, x, 1);
    free(x);
    host_trial_table_free(&h);
    return BULK_OK;
}

/* the base-2 strong test kernel simulated for its lanes at its shape (bg_lc_shape) */
static int sim_sprp2_dev(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *m, size_t n, size_t limbs)
{
    (void)ctx;
    sprp2_calls++;
    int nw = (int)(2 * limbs), T, L;
    if (!bg_lc_shape(nw, &T, &L)) return BULK_ERR_UNSUPPORTED;
    bg_word *w = test_xmalloc((size_t)nw * 4);
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < nw; j++) w[j] = (bg_word)(m[i * limbs + j / 2] >> (32 * (j % 2)));
        out[i] = (uint8_t)sim_sprp2(w, nw, T, L, 0);
    }
    free(w);
    return BULK_OK;
}

/* the Lucas kernel simulated for its lanes at the shape it launches with (bg_lc_shape) */
static int sim_lucas_dev(bulk_ctx *ctx, bulk_limb_t *u, bulk_limb_t *v, bulk_limb_t *qk,
                         const bulk_limb_t *m, const int64_t *d, size_t n, size_t limbs)
{
    (void)ctx;
    lucas_calls++;
    lucas_instances += n;
    int nw = (int)(2 * limbs), T, L;
    if (!bg_lc_shape(nw, &T, &L)) return BULK_ERR_UNSUPPORTED;
    bg_word *w = test_xmalloc((size_t)nw * 4 * 4);
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < nw; j++) w[j] = (bg_word)(m[i * limbs + j / 2] >> (32 * (j % 2)));
        CHECK(sim_lucas(w + nw, w + 2 * nw, w + 3 * nw, w, nw, d[i], T, L) == 0, "lucas: m even or 1");
        bulk_limb_t *out[3] = { u + i * limbs, v + i * limbs, qk + i * limbs };
        for (int k = 0; k < 3; k++)
            for (size_t j = 0; j < limbs; j++)
                out[k][j] = (bulk_limb_t)w[(k + 1) * nw + 2 * (int)j] |
                            (bulk_limb_t)w[(k + 1) * nw + 2 * (int)j + 1] << 32;
    }
    free(w);
    return BULK_OK;
}

/* n numbers of `limbs` limbs through the offload with trial division by the kernel's code
 * (host_trial) or on the CPU threads, the Lucas stand-in or none (the caller's CPU), and chunks
 * of `chunk` limbs, against the CPU. */
static void check(const bulk_limb_t *a, size_t n, size_t limbs, unsigned rounds, int host_trial_on,
                  int lucas_on, int sprp2_on, size_t chunk, const char *what)
{
    bulk_prime_offload o = { .powmod = cpu_powmod, .chunk_limbs = chunk,
                             .trial = host_trial_on ? host_trial : NULL,
                             .lucas = lucas_on ? sim_lucas_dev : NULL, .rounds = rounds,
                             .sprp2 = sprp2_on ? sim_sprp2_dev : NULL };
    uint8_t *og = test_xmalloc(n + 1), *oc = test_xmalloc(n + 1);
    CHECK(bulk_int_isprime(cpu, oc, a, n, limbs, rounds) == BULK_OK, "isprime");
    CHECK(bulk_prime_offload_run(cpu, &o, og, a, n, limbs) == BULK_OK, "%s: offload: %s", what,
          bulk_ctx_last_error(cpu));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(og[i] <= (lucas_on ? 1 : 2), "%s: out[%zu] = %d", what, i, og[i]);
        if (og[i] == 2) /* the caller's part */
            CHECK(bulk_int_isprime(cpu, og + i, a + i * limbs, 1, limbs, rounds) == BULK_OK, "finish");
        if (og[i] != oc[i] && bad++ < 5)
            CHECK(0, "%s, %zu limbs, device trial %d, lucas %d, sprp2 %d, instance %zu: offload "
                  "%d, CPU %d", what, limbs, host_trial_on, lucas_on, sprp2_on, i, og[i], oc[i]);
    }
    free(og);
    free(oc);
}

static void check_modes(const bulk_limb_t *a, size_t n, size_t limbs, unsigned rounds, const char *what)
{
    for (int t = 0; t < 4; t++) check(a, n, limbs, rounds, t & 1, t >> 1, 0, 0, what);
    check(a, n, limbs, rounds, 1, 1, 1, 0, what); /* every step on the device */
    check(a, n, limbs, rounds, 1, 0, 0, 5 * limbs, what); /* chunks of 5 numbers */
    check(a, n, limbs, rounds, 1, 1, 0, 5 * limbs, what);
    check(a, n, limbs, rounds, 0, 0, 1, 5 * limbs, what);
}

/* bulk_int_isprime on a CUDA context, emulated: the offload with every step on the device */
static int offload_isprime(bulk_ctx *ctx, uint8_t *out, const bulk_limb_t *a, size_t n, size_t limbs,
                           unsigned rounds)
{
    bulk_prime_offload o = { .powmod = cpu_powmod, .trial = host_trial, .lucas = sim_lucas_dev,
                             .rounds = rounds, .sprp2 = sim_sprp2_dev };
    int st = bulk_prime_offload_run(ctx, &o, out, a, n, limbs);
    for (size_t i = 0; i < n && st == BULK_OK; i++) CHECK(out[i] <= 1, "nextprime: out[%zu] = %d", i, out[i]);
    return st;
}

/* bulk_prime_next_batched over offload_isprime against bulk_int_nextprime on the CPU: results,
 * per-instance errors and the status. */
static int check_next(const bulk_limb_t *a, size_t n, size_t limbs, unsigned rounds, const char *what)
{
    bulk_limb_t *rb = test_xmalloc(n * limbs * 8), *rc = test_xmalloc(n * limbs * 8);
    int8_t *eb = test_xmalloc(n), *ec = test_xmalloc(n);
    size_t first = 0;
    int sc = bulk_int_nextprime(cpu, rc, a, n, limbs, rounds, ec);
    int sb = bulk_prime_next_batched(cpu, offload_isprime, rb, a, n, limbs, rounds, eb, &first);
    CHECK(sb == sc, "%s: nextprime status %d, CPU %d", what, sb, sc);
    CHECK(memcmp(rb, rc, n * limbs * 8) == 0 && memcmp(eb, ec, n) == 0,
          "%s at %zu limbs: batched nextprime differs from the CPU's", what, limbs);
    if (sc == BULK_ERR_OVERFLOW) {
        size_t lo = 0;
        while (ec[lo] != BULK_ERR_OVERFLOW) lo++;
        CHECK(first == lo, "%s: first overflow %zu, want %zu", what, first, lo);
    }
    free(rb), free(rc), free(eb), free(ec);
    return sc;
}

static void test_next(uint64_t seed)
{
    uint64_t st = seed ^ 0x4e58;
    size_t n = 2000;
    bulk_limb_t *a = test_xmalloc(n * 4 * 8);
    for (size_t i = 0; i < n; i++) a[i] = i < 1000 ? i : ((uint64_t)1 << 32) - 500 + i; /* across 2^32 */
    check_next(a, n, 1, 0, "small and around 2^32");
    /* the largest primes of 64 and 128 bits (2^64 - 59, 2^128 - 159): the next ones overflow */
    bulk_limb_t top[] = { ~0ull - 59, ~0ull - 58, ~0ull - 1000, 3 };
    CHECK(check_next(top, 4, 1, 1, "top of 64 bits") == BULK_ERR_OVERFLOW, "no overflow at 2^64");
    bulk_limb_t top2[] = { ~0ull - 159, ~0ull, ~0ull - 158, ~0ull, 12345, 0 };
    CHECK(check_next(top2, 3, 2, 0, "top of 128 bits") == BULK_ERR_OVERFLOW, "no overflow at 2^128");
    for (size_t limbs = 2; limbs <= 9; limbs++) {
        size_t m = 24;
        memset(a, 0, m * limbs * 8);
        for (size_t i = 0; i < m * limbs; i++)
            if (i % limbs != limbs - 1) a[i] = test_structured_limb(&st, (int)i);
        check_next(a, m, limbs, limbs % 2, "structured");
    }
    free(a);
    printf("batched nextprime: agrees with the CPU's\n");
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    int san = getenv("BULK_SANITIZED") && atoi(getenv("BULK_SANITIZED"));
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 2) != BULK_OK) return 1;
    /* n < 4096, Carmichael numbers, the spsp(2) below 10^8 */
    spsp2_list G;
    CHECK(spsp2_generate(&G, san ? 10000000 : 100000000) == 0, "spsp2_generate");
    bulk_limb_t *a = test_xmalloc((4096 + 8 + G.nspsp) * 8);
    size_t n = 0;
    for (uint64_t v = 0; v < 4096; v++) a[n++] = v;
    static const uint64_t carm[] = { 561, 1105, 1729, 2465, 2821, 6601, 8911, 10585 };
    for (size_t i = 0; i < 8; i++) a[n++] = carm[i];
    for (size_t i = 0; i < G.nspsp; i++) a[n++] = G.spsp[i];
    spsp2_free(&G);
    check_modes(a, n, 1, 0, "small, Carmichael, spsp(2)");
    check(a, n, 1, 2, 1, 0, 0, 0, "small, Carmichael, spsp(2), 2 rounds");
    check(a, n, 1, 2, 1, 1, 1, 0, "small, Carmichael, spsp(2), 2 rounds");
    free(a);
    /* Mersenne numbers 2^p - 1 (all strong base-2 pseudoprimes) at 10 limbs */
    size_t L = 10;
    a = test_xmalloc(256 * L * 8);
    size_t m = prime_sets_mersenne(a, L, san ? 300u : 640u);
    check_modes(a, m, L, 0, "Mersenne");
    free(a);
    /* random: a prime, a product of two primes, a square, odd numbers, at 64..4096 bits */
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    mpz_t x, p;
    mpz_inits(x, p, NULL);
    for (size_t limbs = 1; limbs <= (san ? 8u : 64u); limbs *= 2) {
        size_t cnt = san ? 24 : limbs <= 8 ? 96 : limbs <= 16 ? 24 : limbs <= 32 ? 12 : 6;
        a = test_xmalloc(cnt * limbs * 8);
        for (size_t i = 0; i < cnt; i++) {
            unsigned bits = (unsigned)(64 * limbs) - (unsigned)(i * 7 % 64);
            /* at 64 limbs odd numbers only: GMP's primes of 4096 bits take seconds */
            int kind = limbs == 64 ? PRIME_SETS_ODD
                       : i % 4 == 0 ? PRIME_SETS_PRIME
                       : i % 4 == 1 ? PRIME_SETS_PRODUCT
                       : i % 8 == 2 ? PRIME_SETS_SQUARE : PRIME_SETS_ODD;
            prime_sets_sample(a + i * limbs, limbs, bits, kind, x, p, rs);
        }
        check_modes(a, cnt, limbs, 0, "random");
        check(a, cnt, limbs, 2, 1, 0, 0, 0, "random, 2 rounds");
        check(a, cnt, limbs, 2, 1, 1, 1, 0, "random, 2 rounds");
        free(a);
    }
    mpz_clears(x, p, NULL);
    gmp_randclear(rs);
    test_next(seed);
    CHECK(powmod_calls > 0 && trial_calls > 0 && lucas_calls > 0 && sprp2_calls > 0,
          "powmod %zu, trial %zu, lucas %zu, sprp2 %zu calls", powmod_calls, trial_calls,
          lucas_calls, sprp2_calls);
    printf("offload on the CPU: agrees with isprime (%zu powmod calls, %zu trial calls, %zu sprp2 "
           "calls, %zu lucas calls for %zu numbers)\n", powmod_calls, trial_calls, sprp2_calls,
           lucas_calls, lucas_instances);
    bulk_ctx_close(cpu);
    return test_finish();
}
