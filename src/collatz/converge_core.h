/* The predecessor proof of convergence mode (converge.c) for one sieve class, as a BULK_HD
 * function: the CPU sieve walk and verify (through converge.c) and the CUDA backend's generated
 * level-K slices (cg_verify.cu k_ext_gen) run this one copy.
 *
 * The class: n = 2^D m + p has become V = 3^j m + c after D halvings, for every m >= 2^m0_bits.
 * A chain (a, e, b) of inverse Collatz steps (x -> 2x; x -> (2x - 1) / 3 when x = 2 mod 3) ends
 * at A = (2^a V - b) / 3^e, an integer whose trajectory passes through V, when V = u mod 3^E for
 * a residue u the chain is listed under (j >= E makes V mod 3^E = c mod 3^E for every m). The
 * class is proved when some listed chain has 2^a 3^j < 3^e 2^D (A grows slower in m than n) and
 * A < n at m = 2^m0_bits (then at every larger m). Chains are listed by increasing 2^a / 3^e,
 * so the first failing slope ends the search. Sizes: 3^j < 2^64 (j <= 40), 2^a < 3^E < 2^13,
 * so the products stay below 2^128 while D + m0_bits <= 50. */
#ifndef BULK_COLLATZ_CONVERGE_CORE_H
#define BULK_COLLATZ_CONVERGE_CORE_H

#include <stdint.h>

#include "common/hd.h"
#include "common/u128.h"

/* Depth of the 3-adic predecessor chains (chains valid for V mod 3^E). */
#define CZ_CONV_E 8
#define CZ_CONV_POW3E 6561u
/* Chains kept per residue of V mod 3^E, by increasing 2^a / 3^e. */
#define CZ_CONV_MAX_CHAINS 24

/* One chain: A = (2^a V - b) / 3^e. */
struct cz_chain {
    uint8_t a, e;
    uint32_t b;
};

/* n = 2, 4, 5, 8 mod 9 (given n mod 9): n is reached from (2n - 1) / 3 (n = 2 mod 3) or from
 * (8n - 5) / 9 (n = 4 mod 9), both below n, so convergence mode skips the row (1). */
BULK_HD int cz_conv_row_skip(unsigned n_mod_9) { return (0x134u >> n_mod_9) & 1; }

/* nch[u], ch[u * CZ_CONV_MAX_CHAINS ..]: the chains of residue u; pow3[i] = 3^i (i <= 40). */
BULK_HD int cz_conv_pred_core(const uint8_t *nch, const struct cz_chain *ch, const uint64_t *pow3, int D, int j,
                              uint64_t c, uint64_t p, int m0_bits)
{
    if (j < CZ_CONV_E || j > 40) return 0;
    const u128 m0 = (u128)1 << m0_bits;
    const u128 p3j = pow3[j], twoD = (u128)1 << D;
    const uint32_t u = (uint32_t)(c % CZ_CONV_POW3E);
    const struct cz_chain *cu = ch + (uint64_t)u * CZ_CONV_MAX_CHAINS;
    for (int t = 0; t < nch[u]; t++) {
        const u128 p3e = pow3[cu[t].e];
        if (!((p3j << cu[t].a) < p3e * twoD)) return 0;
        if (((p3j * m0 + c) << cu[t].a) < p3e * (twoD * m0 + p) + cu[t].b) return 1;
    }
    return 0;
}

#endif
