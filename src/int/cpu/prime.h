/* Primality on the CPU, one instance at a time (the layer under int_api_prime.c): the table of
 * small primes (prime_sieve.c), trial division, the Baillie-PSW test with extra Miller-Rabin
 * rounds (prime.c) and the next probable prime by a sieved window (prime_sieve.c). The steps
 * every backend shares are in int/prime_core.h. Reentrant; scratch from the caller. */
#ifndef BULK_INT_CPU_PRIME_H
#define BULK_INT_CPU_PRIME_H

#include <stddef.h>
#include <stdint.h>

#include "int/mpn.h"

/* Odd primes below a bound, and consecutive runs of them whose product fits a limb (one
 * division by the product then gives the residues modulo all of them). */
typedef struct bulk_prime_group {
    bulk_limb_t d, dnorm, v; /* the product, shifted to its top bit, its reciprocal */
    int shift;
    uint32_t first, end;     /* primes [first, end) of the table */
} bulk_prime_group;

typedef struct bulk_prime_table {
    uint32_t *p;             /* 3, 5, 7, ... below limit */
    size_t count;
    bulk_prime_group *g;
    size_t groups;
    uint32_t limit;
} bulk_prime_table;

/* The table limit of bulk_int_isprime for numbers of `limbs` limbs (on every backend): 256
 * limbs + 2, at least 4096 and at most 65536, so that bulk_prime_trial's bound 256 mn is in
 * it (a little past: whole runs) for every mn <= limbs up to 256 limbs. */
uint32_t bulk_prime_isprime_limit(size_t limbs);

/* The odd primes below limit (<= 2^20). BULK_OK or BULK_ERR_NOMEM. */
int bulk_prime_table_init(bulk_prime_table *t, uint32_t limit);
void bulk_prime_table_free(bulk_prime_table *t);

/* a mod the product of group g (a: n >= 1 limbs). */
bulk_limb_t bulk_prime_group_mod(const bulk_limb_t *a, size_t n, const bulk_prime_group *g);

/* Trial division of a (mn limbs, a[mn-1] != 0, a odd, a > 2) by the table's primes below the
 * bound that bulk_prime_trial_bound(mn) gives: 0 (a is composite), 1 (a is prime: no factor
 * and a below the square of the bound, or a itself in the table), 2 (undecided). */
int bulk_prime_trial(const bulk_limb_t *a, size_t mn, const bulk_prime_table *t);

/* The same for any a of n limbs (high zero limbs allowed): 0 and 1 are not prime, 2 and 3 are,
 * other even numbers are composite, the rest goes through bulk_prime_trial. The answers every
 * backend's trial division must give (the device's: int/cuda/core/trial.h). */
int bulk_prime_trial_n(const bulk_limb_t *a, size_t n, const bulk_prime_table *t);

/* Scratch limbs of bulk_prime_bpsw for moduli of up to n limbs. */
size_t bulk_prime_bpsw_scratch(size_t n);

/* 1 when the odd a (mn limbs, a[mn-1] != 0, a >= 2^16 or with no factor below the trial
 * bound) passes the strong base-2 test, the strong Lucas test and `rounds` extra strong tests
 * (int/prime_core.h), else 0. */
int bulk_prime_bpsw(const bulk_limb_t *a, size_t mn, unsigned rounds, bulk_limb_t *tp);

/* Scratch limbs of bulk_prime_strong_from for moduli of up to n limbs. */
size_t bulk_prime_strong_from_scratch(size_t n);

/* The strong probable-prime test of the odd a (mn limbs, a[mn-1] != 0, a >= 3) finished from
 * x = b^d mod a (mn limbs, x < a), a - 1 = d 2^r with d odd: 1 when x = 1 or x^(2^i) = a - 1
 * for some i < r, else 0. For a base-2 power computed elsewhere (a device). */
int bulk_prime_strong_from(const bulk_limb_t *a, size_t mn, const bulk_limb_t *x, bulk_limb_t *tp);

/* The steps of bulk_prime_bpsw after the base-2 test, for a device that computes the Lucas
 * sequences (int/int_prime_offload.h); a as for bulk_prime_bpsw, a strong probable prime to
 * base 2 (so a > 3).
 * bulk_prime_selfridge: Selfridge's D for a (*d, returns 1), or 0 when a is composite by that
 * search (a factor |D| < a, or a perfect square); tp: bulk_prime_selfridge_scratch(mn) limbs.
 * bulk_prime_lucas_from: the strong Lucas test finished from u = U_d, v = V_d, qk = Q^d mod a
 * (plain residues, mn limbs; P = 1, Q = (1 - D) / 4, a + 1 = d 2^r with d odd): 1 when u = 0,
 * v = 0 or V_(d 2^i) = 0 for some 0 < i < r, else 0; tp: bulk_prime_lucas_from_scratch(mn).
 * bulk_prime_rounds: 1 when a passes the `rounds` extra strong tests (prime_core.h's bases),
 * else 0; tp: bulk_prime_bpsw_scratch(mn) limbs.
 * bulk_prime_bpsw(a) = strong base-2 test && selfridge && lucas_from(the ladder's values) &&
 * rounds, step for step. */
size_t bulk_prime_selfridge_scratch(size_t n);
int bulk_prime_selfridge(const bulk_limb_t *a, size_t mn, int64_t *d, bulk_limb_t *tp);
size_t bulk_prime_lucas_from_scratch(size_t n);
int bulk_prime_lucas_from(const bulk_limb_t *a, size_t mn, const bulk_limb_t *u,
                          const bulk_limb_t *v, const bulk_limb_t *qk, bulk_limb_t *tp);
int bulk_prime_rounds(const bulk_limb_t *a, size_t mn, unsigned rounds, bulk_limb_t *tp);

/* 1 when a (n limbs, high zero limbs allowed) is a probable prime (prime_core.h's test),
 * else 0. tp: bulk_prime_bpsw_scratch(n) limbs. */
int bulk_prime_isprime(const bulk_limb_t *a, size_t n, unsigned rounds, const bulk_prime_table *t,
                       bulk_limb_t *tp);

/* Odd candidates per sieved window of nextprime for n-limb numbers. */
size_t bulk_prime_window(size_t n);

/* The primes the windows are sieved by are those of t below this bound (<= 2^16): candidates
 * must exceed it, so nextprime takes numbers below its square one by one. */
uint32_t bulk_prime_sieve_bound(const bulk_prime_table *t);

/* marks (W bits, (W + 7) / 8 bytes) = 1 for the c + 2j, j < W, divisible by a sieving prime
 * (c odd, n limbs). */
void bulk_prime_sieve(uint8_t *marks, const bulk_limb_t *c, size_t n, size_t W,
                      const bulk_prime_table *t);

/* Scratch limbs of bulk_prime_next for n-limb numbers. */
size_t bulk_prime_next_scratch(size_t n);

/* r (n limbs) = the least probable prime > a (n limbs; same test and rounds as isprime).
 * Returns BULK_OK, or BULK_ERR_OVERFLOW with r = 0 when it does not fit n limbs. The table must
 * reach at least 2^12. */
int bulk_prime_next(bulk_limb_t *r, const bulk_limb_t *a, size_t n, unsigned rounds,
                    const bulk_prime_table *t, bulk_limb_t *tp);

#endif
