/* The isprime kernel's per-instance code (bg_isprime_one, src/int/cuda/core/prime.h) run on the
 * host, at strides 1 and 3, against bulk_int_isprime on the CPU and GMP: every n < 2^18, the
 * strong base-2 pseudoprimes below 2^32 (tests/int/spsp2_gen.h; the Wieferich squares 1093^2,
 * 3511^2 and a few others reach the perfect-square check, which it leaves undecided: 2),
 * Mersenne numbers 2^p - 1 (p <= 1279) and random odd numbers, primes, squares and products of
 * two primes of 64..2048 bits (the kernel's widths), with 0 and 3 extra rounds; wider numbers
 * are refused (2). --seed S replays; BULK_SANITIZED=1 shrinks the sets. */
#include <gmp.h>

#include "bulk/int.h"
#include "int/cuda/int_gpu_core.h"
#include "int/cuda/core/prime.h"
#include "test_util.h"
#include "prime_sets.h"
#include "../int/spsp2_gen.h"

static bulk_ctx *cpu;
static size_t undecided;

/* n numbers of limbs limbs: the kernel's answers (at stride s) against the CPU's. */
static void compare(const bulk_limb_t *a, size_t n, size_t limbs, unsigned rounds, size_t s,
                    const char *what)
{
    int nw = (int)(2 * limbs);
    uint8_t *oc = test_xmalloc(n);
    CHECK(bulk_int_isprime(cpu, oc, a, n, limbs, rounds) == BULK_OK, "isprime");
    bg_word *x = test_xmalloc((size_t)nw * s * 4), *scr = test_xmalloc(bg_prime_scratch_words(nw) * s * 4);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < nw; j++) x[(size_t)j * s] = (bg_word)(a[i * limbs + j / 2] >> (32 * (j % 2)));
        int g = bg_isprime_one(x, scr, s, nw, rounds);
        if (g == 2) {
            undecided++;
            continue;
        }
        if (g != oc[i] && bad++ < 5) CHECK(0, "%s, %zu limbs, instance %zu: kernel %d, CPU %d", what, limbs, i, g, oc[i]);
    }
    free(x);
    free(scr);
    free(oc);
}

int main(int argc, char **argv)
{
    uint64_t seed = test_seed(argc, argv);
    int san = getenv("BULK_SANITIZED") && atoi(getenv("BULK_SANITIZED"));
    if (bulk_ctx_open(&cpu, BULK_BACKEND_CPU, 0) != BULK_OK) return 1;
    size_t N = san ? (size_t)1 << 16 : (size_t)1 << 18;
    bulk_limb_t *a = test_xmalloc(N * 8);
    for (size_t i = 0; i < N; i++) a[i] = i;
    compare(a, N, 1, 0, 1, "small");
    /* the strong base-2 pseudoprimes below 2^32 (10^8 sanitized), 1093^2 and 3511^2 among them */
    spsp2_list G;
    CHECK(spsp2_generate(&G, san ? 100000000 : (uint64_t)1 << 32) == 0, "spsp2_generate");
    free(a);
    a = test_xmalloc(G.nspsp * 8);
    for (size_t i = 0; i < G.nspsp; i++) a[i] = G.spsp[i];
    undecided = 0;
    compare(a, G.nspsp, 1, 2, 3, "spsp(2)");
    /* squares fail the base-2 test unless p is a Wieferich prime: those two reach the square
     * check, which the kernel leaves to the CPU, with the few non-squares that find no Jacobi -1
     * among the first 16 Selfridge candidates (7 below 2^32, from 10323769 on) */
    CHECK(undecided >= 2 && undecided <= 16, "spsp(2): %zu undecided, expected 2 (1093^2, 3511^2) "
          "and a few more", undecided);
    spsp2_free(&G);
    free(a);
    /* Mersenne numbers at 20 limbs */
    size_t L = 20;
    a = test_xmalloc(256 * L * 8);
    size_t m = prime_sets_mersenne(a, L, san ? 400u : 1279u);
    compare(a, m, L, 0, 1, "Mersenne");
    free(a);
    /* random */
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    mpz_t x, p;
    mpz_inits(x, p, NULL);
    size_t squares = 0;
    undecided = 0;
    for (size_t limbs = 1; limbs <= (san ? 8u : 32u); limbs *= 2) {
        size_t cnt = san ? 8 : limbs <= 8 ? 256 : limbs <= 16 ? 64 : 12;
        a = test_xmalloc(cnt * limbs * 8);
        for (size_t i = 0; i < cnt; i++) {
            unsigned bits = (unsigned)(64 * limbs) - (unsigned)(i % 64);
            int kind = i % 4 == 0 ? PRIME_SETS_PRIME
                       : i % 4 == 1 ? PRIME_SETS_PRODUCT
                       : i % 8 == 2 && limbs > 1 ? PRIME_SETS_SQUARE : PRIME_SETS_ODD;
            squares += kind == PRIME_SETS_SQUARE;
            prime_sets_sample(a + i * limbs, limbs, bits, kind, x, p, rs);
        }
        compare(a, cnt, limbs, 0, 1, "random");
        compare(a, cnt, limbs, 3, 3, "random, 3 rounds, stride 3");
        free(a);
    }
    /* squares fail base 2 first; a prime without Jacobi -1 among 16 candidates is rare */
    CHECK(undecided <= 8, "random: %zu undecided", undecided);
    /* wider than the launcher's 32 limbs: refused (2), never an answer */
    bg_word wide[66] = { 7 };
    CHECK(bg_isprime_one(wide, wide, 1, 66, 0) == 2, "66 words: not refused");
    printf("kernel code on the host: agrees with the CPU (%zu squares among the random; %zu "
           "answers left to the CPU)\n", squares, undecided);
    mpz_clears(x, p, NULL);
    gmp_randclear(rs);
    bulk_ctx_close(cpu);
    return test_finish();
}
