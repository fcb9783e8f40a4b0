/* The references of the strong-test kernels' tests (test_int_gpu_lucas_core,
 * test_int_gpu_sprp2_core, test_int_prime_gpu): U_d, V_d, Q^d with mpz by formulas other than
 * the kernel's, Selfridge's D by GMP's Kronecker symbol, and the base-2 strong test by
 * mpz_powm. */
#ifndef BULK_TEST_INT_GPU_LUCAS_REF_H
#define BULK_TEST_INT_GPU_LUCAS_REF_H

#include <gmp.h>
#include <stdint.h>

/* U_d, V_d, Q^d mod N for P = 1, Q = (1 - D) / 4, d = (N + 1) / 2^s odd, by the V ladder over
 * (V_k, V_k+1, Q^k) and D U_d = 2 V_d+1 - V_d. Returns 0 when D is not invertible mod N. */
static inline int ref_lucas(mpz_t U, mpz_t V, mpz_t Qd, const mpz_t N, int64_t D)
{
    mpz_t d, v0, v1, qk, q, t, t2, dd;
    mpz_inits(d, v0, v1, qk, q, t, t2, dd, NULL);
    mpz_add_ui(d, N, 1);
    mpz_tdiv_q_2exp(d, d, mpz_scan1(d, 0));
    mpz_set_si(q, (long)((1 - D) / 4));
    mpz_mod(q, q, N);
    mpz_set_ui(v0, 2);
    mpz_set_ui(v1, 1);
    mpz_set_ui(qk, 1);
    for (size_t i = mpz_sizeinbase(d, 2); i-- > 0;) {
        mpz_mul(t, v0, v1); /* V_2k+1 = V_k V_k+1 - Q^k */
        mpz_sub(t, t, qk);
        mpz_mod(t, t, N);
        if (mpz_tstbit(d, i)) { /* k -> 2k + 1: V_2k+2 = V_k+1^2 - 2 Q^k+1, Q^2k+1 */
            mpz_mul(v1, v1, v1);
            mpz_mul(t2, qk, q);
            mpz_submul_ui(v1, t2, 2);
            mpz_mod(v1, v1, N);
            mpz_set(v0, t);
            mpz_mul(qk, qk, t2);
        } else { /* k -> 2k: V_2k = V_k^2 - 2 Q^k */
            mpz_mul(v0, v0, v0);
            mpz_submul_ui(v0, qk, 2);
            mpz_mod(v0, v0, N);
            mpz_set(v1, t);
            mpz_mul(qk, qk, qk);
        }
        mpz_mod(qk, qk, N);
    }
    mpz_set(V, v0);
    mpz_set(Qd, qk);
    mpz_set_si(dd, (long)D);
    mpz_mod(dd, dd, N);
    int inv = mpz_invert(dd, dd, N);
    mpz_mul_2exp(U, v1, 1);
    mpz_sub(U, U, v0);
    mpz_mul(U, U, dd);
    mpz_mod(U, U, N);
    mpz_clears(d, v0, v1, qk, q, t, t2, dd, NULL);
    return inv;
}

/* Selfridge's D for N (mpz_si_kronecker), 0 when N has a factor |D| or none is found in 200
 * candidates (squares). */
static inline int64_t ref_selfridge(const mpz_t N)
{
    for (int k = 0; k < 200; k++) {
        int64_t D = (k & 1) ? -(5 + 2 * (int64_t)k) : 5 + 2 * (int64_t)k;
        int j = mpz_si_kronecker((long)D, N);
        if (j == -1) return D;
        if (j == 0) return 0;
    }
    return 0;
}

/* 1 when M (odd, > 2) is a strong probable prime to base 2. */
static inline int ref_sprp2(const mpz_t M)
{
    if (mpz_even_p(M) || mpz_cmp_ui(M, 3) < 0) return 0;
    mpz_t d, x, m1, two;
    mpz_inits(d, x, m1, two, NULL);
    mpz_sub_ui(m1, M, 1);
    mp_bitcnt_t r = mpz_scan1(m1, 0);
    mpz_tdiv_q_2exp(d, m1, r);
    mpz_set_ui(two, 2);
    mpz_powm(x, two, d, M);
    int pass = mpz_cmp_ui(x, 1) == 0 || mpz_cmp(x, m1) == 0;
    for (mp_bitcnt_t j = 1; j < r && !pass; j++) {
        mpz_mul(x, x, x);
        mpz_mod(x, x, M);
        if (mpz_cmp(x, m1) == 0) pass = 1;
        else if (mpz_cmp_ui(x, 1) == 0) break;
    }
    mpz_clears(d, x, m1, two, NULL);
    return pass;
}

#endif
