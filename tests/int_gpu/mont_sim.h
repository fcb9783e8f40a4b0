/* The cooperative Montgomery product of src/int/cuda/core/mont_coop.h for TPI simulated lanes
 * (the CPU tests of the cooperative kernels): every exchange of the group (shuffle, ballot) is
 * done by hand exactly as the kernels do it; sim_condsub, sim_mul and sim_double mirror
 * mc_condsub, mc_mul and mc_double (src/int/cuda/num/mont_coop.cuh) line by line. */
#ifndef BULK_TEST_INT_GPU_MONT_SIM_H
#define BULK_TEST_INT_GPU_MONT_SIM_H

#include <string.h>

#include "int/cuda/int_gpu_core.h"

enum { MAXT = BG_MC_MAX_TPI, MAXL = BG_MC_MAX_L };
typedef bg_word lanes[MAXT][MAXL];

/* ---- the simulated group -------------------------------------------------------------------- */

/* The mask of lanes that receive a carry (cin) and the reduction by m, as mc_condsub. */
static inline void sim_condsub(lanes r, bg_word t[][MAXL + 2], lanes m, uint32_t cin, int over,
                               int T, int L)
{
    bg_word d[MAXT][MAXL];
    uint32_t G = 0, P = 0;
    for (int l = 0; l < T; l++) {
        int p;
        G |= (uint32_t)bg_mc_norm2(d[l], t[l], m[l], (int)((cin >> l) & 1), L, &p) << l;
        P |= (uint32_t)p << l;
    }
    int bout;
    uint32_t bin = bg_mc_lookahead(G, P, T, &bout);
    int take = over || !bout;
    for (int l = 0; l < T; l++) bg_mc_norm3(r[l], t[l], d[l], (int)((bin >> l) & 1), take, L);
}

/* r = a b R^-1 mod m, R = 2^(32 T L), as mc_mul. */
static inline void sim_mul(lanes r, lanes a, lanes b, lanes m, bg_word minv, int T, int L)
{
    bg_word t[MAXT][MAXL + 2], o[MAXT][MAXL + 2];
    memset(t, 0, sizeof t);
    memset(o, 0, sizeof o);
    for (int s = 0; s < T; s++)
        for (int k = 0; k < L; k++) {
            bg_word bi = b[s][k];
            for (int l = 0; l < T; l++) bg_mc_row_mul(t[l], o[l], a[l], bi, L);
            bg_word q = bg_mc_q(t[0][0], minv); /* lane 0's, broadcast */
            for (int l = 0; l < T; l++) bg_mc_row_q(t[l], o[l], m[l], q, L);
            bg_word x[MAXT];
            /* shfl from lane l + 1 mod T: the top lane gets lane 0's word, zero by the choice
             * of q (a nonzero word there would make the product wrong) */
            for (int l = 0; l < T; l++) x[l] = t[(l + 1) % T][0];
            for (int l = 0; l < T; l++) bg_mc_shift(t[l], o[l], x[l], L);
        }
    for (int l = 0; l < T; l++) bg_mc_merge(t[l], t[l], o[l], L);
    bg_word up[MAXT];
    for (int l = 0; l < T; l++) up[l] = l ? t[l - 1][L] : 0; /* shfl_up */
    bg_word top = t[T - 1][L];
    uint32_t G = 0, P = 0;
    for (int l = 0; l < T; l++) {
        int p;
        G |= (uint32_t)bg_mc_norm1(t[l], up[l], L, &p) << l;
        P |= (uint32_t)p << l;
    }
    int cout;
    uint32_t cin = bg_mc_lookahead(G, P, T, &cout);
    sim_condsub(r, t, m, cin, top + (bg_word)cout != 0, T, L);
}

/* x = 2 x mod m (x < m), as mc_double. */
static inline void sim_double(lanes x, lanes m, int T, int L)
{
    bg_word t[MAXT][MAXL + 2], hi[MAXT];
    for (int l = 0; l < T; l++) hi[l] = l ? x[l - 1][L - 1] >> 31 : 0;
    int over = (int)(x[T - 1][L - 1] >> 31);
    for (int l = 0; l < T; l++) {
        bg_mc_shl1(x[l], hi[l], L);
        memcpy(t[l], x[l], sizeof(bg_word) * (size_t)L);
    }
    sim_condsub(x, t, m, 0, over, T, L);
}

static inline void to_lanes(lanes x, const bg_word *w, int nw, int T, int L)
{
    for (int l = 0; l < T; l++)
        for (int j = 0; j < L; j++) x[l][j] = l * L + j < nw ? w[l * L + j] : 0;
}

static inline void from_lanes(bg_word *w, lanes x, int nw, int T, int L)
{
    for (int l = 0; l < T; l++)
        for (int j = 0; j < L; j++)
            if (l * L + j < nw) w[l * L + j] = x[l][j];
}


#endif
