/* The Lucas kernel (src/int/cuda/num/lucas_coop.cu) for TPI simulated lanes: sim_add,
 * sim_sub, sim_half and sim_lucas mirror mc_add, mc_sub, mc_half and lucas_coop_kernel line by
 * line, every exchange of the group (ballot, shuffle) done by hand as in mont_sim.h. Used by
 * test_int_gpu_lucas_core (against GMP), as the device's stand-in in test_int_prime_offload, and
 * (sim_sub_words) by the Karatsuba simulation of test_int_gpu_mont_core. */
#ifndef BULK_TEST_INT_GPU_LUCAS_SIM_H
#define BULK_TEST_INT_GPU_LUCAS_SIM_H

#include "int/cuda/core/lucas_coop.h"
#include "mont_sim.h"

/* r = x + y mod m (x, y < m), as mc_add. */
static inline void sim_add(lanes r, lanes x, lanes y, lanes m, int T, int L)
{
    bg_word t[MAXT][MAXL + 2];
    uint32_t G = 0, P = 0;
    for (int l = 0; l < T; l++) {
        int p;
        G |= (uint32_t)bg_lc_add(t[l], x[l], y[l], L, &p) << l;
        P |= (uint32_t)p << l;
    }
    int cout;
    uint32_t cin = bg_mc_lookahead(G, P, T, &cout);
    sim_condsub(r, t, m, cin, cout, T, L);
}

/* The carries of t[l] += (take ? m : 0) resolved over the group, as mc_addm; returns the
 * carry out of the top lane. */
static inline int sim_addm(lanes t, lanes m, int take, int T, int L)
{
    uint32_t G = 0, P = 0;
    for (int l = 0; l < T; l++) {
        int p;
        G |= (uint32_t)bg_lc_addm(t[l], t[l], m[l], take, L, &p) << l;
        P |= (uint32_t)p << l;
    }
    int cout;
    uint32_t cin = bg_mc_lookahead(G, P, T, &cout);
    for (int l = 0; l < T; l++) bg_lc_inc(t[l], (int)((cin >> l) & 1), L);
    return cout;
}

/* r = x - y mod 2^(32 T L) (r may be x or y), as mc_sub_words; returns the group's borrow out. */
static inline int sim_sub_words(lanes r, lanes x, lanes y, int T, int L)
{
    uint32_t G = 0, P = 0;
    for (int l = 0; l < T; l++) {
        int p;
        G |= (uint32_t)bg_lc_sub(r[l], x[l], y[l], L, &p) << l;
        P |= (uint32_t)p << l;
    }
    int bout;
    uint32_t bin = bg_mc_lookahead(G, P, T, &bout);
    for (int l = 0; l < T; l++) bg_lc_dec(r[l], (int)((bin >> l) & 1), L);
    return bout;
}

/* r = x - y mod m (x, y < m), as mc_sub. */
static inline void sim_sub(lanes r, lanes x, lanes y, lanes m, int T, int L)
{
    static lanes t;
    int bout = sim_sub_words(t, x, y, T, L);
    sim_addm(t, m, bout, T, L);
    memcpy(r, t, sizeof t);
}

/* x = x / 2 mod m (x < m, m odd), as mc_half. */
static inline void sim_half(lanes x, lanes m, int T, int L)
{
    int odd = (int)(x[0][0] & 1); /* lane 0's, broadcast */
    int cout = sim_addm(x, m, odd, T, L);
    bg_word hi[MAXT];
    for (int l = 0; l < T; l++) hi[l] = l + 1 < T ? x[l + 1][0] & 1 : (bg_word)cout; /* shfl_down */
    for (int l = 0; l < T; l++) bg_lc_shr1(x[l], hi[l], L);
}

/* x = c for a small c, every lane's words (bg_lc_small). */
static inline void sim_small(lanes x, uint64_t c, int T, int L)
{
    for (int l = 0; l < T; l++) bg_lc_small(x[l], c, l * L, L);
}

/* x = -x mod m when neg (a subtraction from zero, as the kernel's). */
static inline void sim_neg(lanes x, int neg, lanes m, int T, int L)
{
    static lanes z;
    if (!neg) return;
    memset(z, 0, sizeof z);
    sim_sub(x, z, x, m, T, L);
}

/* lucas_coop_kernel for one instance: U_d, V_d, Q^d mod m (nw words each) for Selfridge's
 * D (P = 1, Q = (1 - D) / 4), d = (m + 1) / 2^s odd. Returns 1 (outputs zero) for an even m or
 * m = 1, which the kernel's callers never pass. */
static inline int sim_lucas(bg_word *uo, bg_word *vo, bg_word *qo, const bg_word *mw, int nw,
                            int64_t D, int T, int L)
{
    static lanes m, acc, one, dm, qm, U, V, Qk, x;
    const int N = T * L;
    to_lanes(m, mw, nw, T, L);
    memset(uo, 0, sizeof(bg_word) * (size_t)nw);
    memset(vo, 0, sizeof(bg_word) * (size_t)nw);
    memset(qo, 0, sizeof(bg_word) * (size_t)nw);
    int hi_nz = 0;
    for (int l = 0; l < T; l++)
        for (int j = 0; j < L; j++) hi_nz |= (l || j) && m[l][j];
    if (!(m[0][0] & 1) || !(hi_nz || m[0][0] > 1)) return 1;
    bg_word minv = bg_mont_minv(m[0][0]);
    int s, mbits, dbits = bg_lc_exp(mw, nw, &s, &mbits);
    /* R^2 mod m: 2^(mbits - 1) doubled to 2^N R, then five squarings (as powmod) */
    memset(acc, 0, sizeof acc);
    acc[(mbits - 1) / 32 / L][(mbits - 1) / 32 % L] = 1u << ((mbits - 1) & 31);
    int nd = bg_mc_doublings(N, mbits);
    for (int i = 0; i < nd; i++) sim_double(acc, m, T, L);
    for (int i = 0; i < 5; i++) sim_mul(acc, acc, acc, m, minv, T, L);
    int64_t Q = bg_lc_q(D);
    sim_small(x, bg_lc_abs(D), T, L);
    sim_mul(dm, x, acc, m, minv, T, L); /* |D| R */
    sim_small(x, bg_lc_abs(Q), T, L);
    sim_mul(qm, x, acc, m, minv, T, L); /* |Q| R */
    sim_small(x, 1, T, L);
    sim_mul(one, x, acc, m, minv, T, L); /* R */
    memcpy(U, one, sizeof U);
    memcpy(V, one, sizeof V);
    memcpy(Qk, qm, sizeof Qk);
    sim_neg(Qk, Q < 0, m, T, L);
    for (int i = dbits - 2; i >= 0; i--) {
        sim_mul(U, U, V, m, minv, T, L);
        sim_mul(V, V, V, m, minv, T, L);
        sim_sub(V, V, Qk, m, T, L);
        sim_sub(V, V, Qk, m, T, L);
        sim_mul(Qk, Qk, Qk, m, minv, T, L);
        if (bg_lc_bit(mw, s, i)) {
            sim_mul(x, U, dm, m, minv, T, L); /* |D| U */
            if (D < 0) sim_sub(x, V, x, m, T, L);
            else sim_add(x, x, V, m, T, L);
            sim_add(U, U, V, m, T, L);
            sim_half(U, m, T, L);
            sim_half(x, m, T, L);
            memcpy(V, x, sizeof V);
            sim_mul(Qk, Qk, qm, m, minv, T, L);
            sim_neg(Qk, Q < 0, m, T, L);
        }
    }
    sim_small(x, 1, T, L); /* out of Montgomery form */
    sim_mul(U, U, x, m, minv, T, L);
    sim_mul(V, V, x, m, minv, T, L);
    sim_mul(Qk, Qk, x, m, minv, T, L);
    from_lanes(uo, U, nw, T, L);
    from_lanes(vo, V, nw, T, L);
    from_lanes(qo, Qk, nw, T, L);
    return 0;
}

#endif
