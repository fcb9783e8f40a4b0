/* Trial division of one instance by the odd primes below 256: step 1 of isprime's device path
 * (int/int_prime_offload.h), run by the trial kernel (num/trial.cu) one thread per instance;
 * tests/int_gpu/test_int_trial_gpu_core.c runs it on the host against the CPU's.
 *
 * bg_trial_one gives exactly the answers of the offload's CPU step (trial_range in
 * int_prime_offload.c: bulk_prime_trial over bulk_prime_table_init(&t, 256), after its own
 * answers for 0..3 and even numbers), for any nw words at stride s, leading zero words included:
 *   0, 1 -> 0; 2, 3 -> 1; even -> 0;
 *   a multiple of an odd prime p < 256 -> 1 when a = p, else 0;
 *   else 1 when a < 256^2 (no factor below its square root), else 2 (undecided).
 * The CPU's bound, min(256 mn, table limit), is 256 for that table at every mn, so the same
 * 53 primes are tried at every width; which prime divides first does not matter, since a
 * multiple of a table prime is that prime only when it has no other table prime as a factor.
 *
 * The residues: a mod M_g for 12 products M_g < 2^32 of consecutive primes (the CPU forms 64-bit
 * products; the grouping changes no answer, the same primes are tried), all in one pass over
 * the words from the top, r = (r 2^32 + w) mod M_g with the M_g constants (the compiler
 * replaces the divisions by multiplications); then r mod p per prime. */
#ifndef BULK_INT_CUDA_CORE_TRIAL_H
#define BULK_INT_CUDA_CORE_TRIAL_H

#include "int/cuda/core/words.h"

/* The primes tried are the odd primes below this (the offload's table limit). */
#define BG_TRIAL_LIMIT 256u

/* X(g, M_g) per group, M_g the product of its primes; P(g, p) per prime, in increasing order. */
#define BG_TRIAL_GROUPS(X)                                                                       \
    X(0, 3234846615u) X(1, 95041567u) X(2, 907383479u) X(3, 4132280413u) X(4, 121330189u)       \
    X(5, 257557397u) X(6, 490995677u) X(7, 842952707u) X(8, 1314423991u) X(9, 2125525169u)      \
    X(10, 3073309843u) X(11, 251u)
#define BG_TRIAL_NGROUPS 12
#define BG_TRIAL_PRIMES(P)                                                                       \
    P(0, 3u) P(0, 5u) P(0, 7u) P(0, 11u) P(0, 13u) P(0, 17u) P(0, 19u) P(0, 23u) P(0, 29u)        \
    P(1, 31u) P(1, 37u) P(1, 41u) P(1, 43u) P(1, 47u)                                            \
    P(2, 53u) P(2, 59u) P(2, 61u) P(2, 67u) P(2, 71u)                                            \
    P(3, 73u) P(3, 79u) P(3, 83u) P(3, 89u) P(3, 97u)                                            \
    P(4, 101u) P(4, 103u) P(4, 107u) P(4, 109u)                                                  \
    P(5, 113u) P(5, 127u) P(5, 131u) P(5, 137u)                                                  \
    P(6, 139u) P(6, 149u) P(6, 151u) P(6, 157u)                                                  \
    P(7, 163u) P(7, 167u) P(7, 173u) P(7, 179u)                                                  \
    P(8, 181u) P(8, 191u) P(8, 193u) P(8, 197u)                                                  \
    P(9, 199u) P(9, 211u) P(9, 223u) P(9, 227u)                                                  \
    P(10, 229u) P(10, 233u) P(10, 239u) P(10, 241u)                                              \
    P(11, 251u)

/* 0 (composite), 1 (prime) or 2 (undecided) for the number of nw words at stride s. */
BULK_HD int bg_trial_one(const bg_word *a, size_t s, int nw)
{
    int len = bg_len(a, s, nw);
    uint64_t n0 = len ? BG_AT(a, s, 0) : 0;
    if (len > 1) n0 |= (uint64_t)BG_AT(a, s, 1) << 32;
    int small = len <= 2; /* one 64-bit limb: n0 is the number */
    if (small && n0 < 4) return n0 >= 2;
    if ((n0 & 1) == 0) return 0;
    uint32_t r[BG_TRIAL_NGROUPS] = { 0 };
    for (int j = len; j-- > 0;) {
        uint64_t w = BG_AT(a, s, j);
#define BG_TRIAL_STEP(g, m) r[g] = (uint32_t)(((uint64_t)r[g] << 32 | w) % (m));
        BG_TRIAL_GROUPS(BG_TRIAL_STEP)
#undef BG_TRIAL_STEP
    }
#define BG_TRIAL_TEST(g, p)                                                                      \
    if (r[g] % (p) == 0) return small && n0 == (p);
    BG_TRIAL_PRIMES(BG_TRIAL_TEST)
#undef BG_TRIAL_TEST
    return small && n0 < (uint64_t)BG_TRIAL_LIMIT * BG_TRIAL_LIMIT ? 1 : 2;
}

#endif
