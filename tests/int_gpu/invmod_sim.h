/* The cooperative invmod kernel (src/int/cuda/num/invmod_coop.cu) for TPI simulated lanes:
 * sim_ic_lin, sim_ic_negate, sim_ic_reduce and sim_invmod mirror ic_lin, ic_negate, ic_reduce
 * and invmod_coop_kernel line by line, every exchange of the group (ballot, shuffle) done by
 * hand as in mont_sim.h and lucas_sim.h. */
#ifndef BULK_TEST_INT_GPU_INVMOD_SIM_H
#define BULK_TEST_INT_GPU_INVMOD_SIM_H

#include "int/cuda/core/invmod_coop.h"
#include "lucas_sim.h"

/* r = (x f + y g + q m) / 2^30's words (q from lane 0's words, broadcast, when withm); returns
 * the part above them, as ic_lin. */
static inline int sim_ic_lin(lanes r, lanes x, lanes y, int32_t f, int32_t g, lanes m, bg_word minv,
                             int withm, int T, int L)
{
    bg_word t[MAXT][MAXL + 2], hi[MAXT] = {0}, nx[MAXT];
    bg_word c = bg_ic_c(f, g), q = 0;
    if (withm) q = bg_ic_q(x[0][0], y[0][0], f, g, minv); /* lane 0's, broadcast */
    for (int l = 0; l < T; l++)
        hi[l] = bg_ic_lin(t[l], x[l], y[l], f, g, withm ? m[l] : NULL, q, l == 0 ? c : 0, L);
    bg_word top = hi[T - 1]; /* shfl from the top lane */
    uint32_t G = 0, P = 0;
    for (int l = 0; l < T; l++) {
        int p;
        G |= (uint32_t)bg_mc_norm1(t[l], l ? hi[l - 1] : 0, L, &p) << l; /* shfl_up */
        P |= (uint32_t)p << l;
    }
    int cout;
    uint32_t cin = bg_mc_lookahead(G, P, T, &cout);
    for (int l = 0; l < T; l++) bg_lc_inc(t[l], (int)((cin >> l) & 1), L);
    int64_t tc = bg_ic_top(top, cout, c);
    for (int l = 0; l < T; l++) nx[l] = l + 1 < T ? t[l + 1][0] : (bg_word)tc; /* shfl_down */
    for (int l = 0; l < T; l++) bg_ic_shr(r[l], t[l], nx[l], L);
    return bg_ic_above(tc);
}

/* x = -x, as ic_negate. */
static inline void sim_ic_negate(lanes x, int T, int L)
{
    static lanes z; /* zero */
    sim_sub_words(x, z, x, T, L);
}

/* x in (-m, 2m) into [0, m), as ic_reduce. */
static inline void sim_ic_reduce(lanes x, int above, lanes m, int T, int L)
{
    static bg_word t[MAXT][MAXL + 2];
    if (above < 0) {
        sim_addm(x, m, 1, T, L);
        return;
    }
    for (int l = 0; l < T; l++) memcpy(t[l], x[l], sizeof(bg_word) * (size_t)L);
    sim_condsub(x, t, m, 0, above > 0, T, L);
}

/* The ballots of the kernel's loop tests: some lane's words are nonzero / not those of 1. */
static inline int sim_any_nz(lanes x, int T, int L)
{
    int any = 0;
    for (int l = 0; l < T; l++) any |= bg_ic_nz(x[l], L);
    return any;
}

static inline int sim_any_not_one(lanes x, int T, int L)
{
    int any = 0;
    for (int l = 0; l < T; l++) any |= !bg_ic_is_one(x[l], l * L, L);
    return any;
}

/* invmod_coop_kernel for one instance: r = y^-1 mod m (nw words each; y may exceed m). Returns
 * 0 (r the inverse; 0 for m = 1), 1 (no inverse, r = 0) or 2 (left to the one-thread kernel:
 * even m or the cap; r untouched). *iters: the outer iterations run. */
static inline int sim_invmod(bg_word *r, const bg_word *yw, const bg_word *mw, int nw, int T, int L,
                             int *iters)
{
    static lanes m, a, b, u, v, na, nb;
    const int N = T * L;
    to_lanes(m, mw, nw, T, L);
    to_lanes(a, yw, nw, T, L);
    to_lanes(b, mw, nw, T, L);
    memset(u, 0, sizeof u);
    memset(v, 0, sizeof v);
    u[0][0] = 1;
    *iters = 0;
    if (!(m[0][0] & 1)) return 2;
    int st = 0;
    if (!sim_any_not_one(m, T, L)) {
        memset(v, 0, sizeof v);
    } else {
        bg_word minv = bg_mont_minv(m[0][0]);
        const int cap = bg_ic_cap(N);
        for (int it = 0; sim_any_nz(a, T, L); it++) {
            if (it == cap) {
                st = 2;
                break;
            }
            ++*iters;
            int top = -1;
            for (int l = 0; l < T; l++)
                if (bg_ic_bits(a[l], b[l], l * L, L) > 0) top = l; /* ballot, highest lane */
            int nbits = bg_ic_bits(a[top], b[top], top * L, L);    /* shfl from it */
            int p = (nbits > 64 ? nbits : 64) - 33, w = p >> 5, sh = p & 31;
            int lw = w / L, lw1 = (w + 1) / L; /* the source lanes of the shuffles */
            bg_word aw = bg_ic_pick(a[lw], w - lw * L, L),
                    aw1 = bg_ic_pick(a[lw1], w + 1 - lw1 * L, L);
            bg_word bw = bg_ic_pick(b[lw], w - lw * L, L),
                    bw1 = bg_ic_pick(b[lw1], w + 1 - lw1 * L, L);
            int32_t c[4];
            bg_ic_inner(bg_ic_approx(a[0][0], aw, aw1, sh), bg_ic_approx(b[0][0], bw, bw1, sh), c);
            int sa = sim_ic_lin(na, a, b, c[0], c[1], m, minv, 0, T, L);
            int sb = sim_ic_lin(nb, a, b, c[2], c[3], m, minv, 0, T, L);
            if (sa < 0) {
                sim_ic_negate(na, T, L);
                c[0] = -c[0], c[1] = -c[1];
            }
            if (sb < 0) {
                sim_ic_negate(nb, T, L);
                c[2] = -c[2], c[3] = -c[3];
            }
            int su = sim_ic_lin(a, u, v, c[0], c[1], m, minv, 1, T, L);
            int sv = sim_ic_lin(b, u, v, c[2], c[3], m, minv, 1, T, L);
            sim_ic_reduce(a, su, m, T, L);
            sim_ic_reduce(b, sv, m, T, L);
            memcpy(u, a, sizeof u);
            memcpy(v, b, sizeof v);
            memcpy(a, na, sizeof a);
            memcpy(b, nb, sizeof b);
        }
        if (st == 0 && sim_any_not_one(b, T, L)) st = 1;
    }
    if (st == 2) return 2;
    if (st) memset(v, 0, sizeof v);
    from_lanes(r, v, nw, T, L);
    return st;
}

#endif
