/* The Life kernel of the CUDA backend (see life_cuda.cu for the design): device code only, in a
 * header of its own so that it can also be compiled for the host against an emulation of a warp
 * (32 threads meeting at every shuffle) when checking it without a GPU. */
#ifndef BULK_LIFE_KERNEL_CUH
#define BULK_LIFE_KERNEL_CUH
#include <stdint.h>

#include "life/life_core.h"

#define FULL_MASK 0xffffffffu
#define TILE_OWN 30 /* word columns a warp writes */

struct life_geom {
    long long nw;      /* 32-bit words per row */
    long long h;       /* rows */
    long long strip;   /* rows a warp writes */
    long long tiles_x; /* warps across a row */
    long long warps;   /* tiles_x * strips */
    long long width;   /* cells per row */
    int torus;
    unsigned birth, survive;
};

/* Registers of one pipeline level: row sums of three rows (rotating roles A, B, C) and the
 * value of the middle row: 5 live registers per level in the steady state. */
template <int T> struct life_state {
    uint32_t s0[3][T], s1[3][T], v[3][T];
};

/* One input row through the T levels. Slot C receives the new row of each level; A and B hold
 * the two rows above it. Returns the generation-T value of row yin - T. */
template <int T, int RULE, int TORUS, int A, int B, int C>
__device__ __forceinline__ uint32_t life_rows(life_state<T> &st, uint32_t v, long long yin, const life_geom &g,
                                              uint32_t cm, const uint32_t *tab)
{
#pragma unroll
    for (int k = 0; k < T; k++) {
        /* v is the generation-k value of row yin - k */
        uint32_t left = __shfl_up_sync(FULL_MASK, v, 1);
        uint32_t right = __shfl_down_sync(FULL_MASK, v, 1);
        uint32_t l = __funnelshift_l(left, v, 1);  /* bit i: cell i - 1 */
        uint32_t r = __funnelshift_r(v, right, 1); /* bit i: cell i + 1 */
        life_sum3_32(l, v, r, &st.s0[C][k], &st.s1[C][k]);
        st.v[C][k] = v;
        uint32_t x0, z0, w4, w8, n;
        life_sum9_32(st.s0[A][k], st.s1[A][k], st.s0[B][k], st.s1[B][k], st.s0[C][k], st.s1[C][k], &x0, &z0,
                     &w4, &w8);
        if (RULE == 1) n = life_conway_32(st.v[B][k], x0, z0, w4);
        else n = life_generic_32(st.v[B][k], x0, z0, w4, w8, tab);
        if (TORUS) {
            v = n; /* a torus whose width is a multiple of 64: no boundary to mask */
        } else {
            /* generation k+1 of row yin - k - 1: rows outside the grid and its padding stay dead */
            long long row = yin - k - 1;
            v = (row >= 0 && row < g.h) ? n & cm : 0u;
        }
    }
    return v;
}

template <int T, int RULE, int TORUS>
__global__ void __launch_bounds__(128) life_kernel(const uint32_t *__restrict__ src, uint32_t *__restrict__ dst,
                                                   life_geom g)
{
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (warp >= g.warps) return; /* whole warps leave together */
    const long long tx = warp % g.tiles_x, sy = warp / g.tiles_x;
    const long long col = tx * TILE_OWN - 1 + lane;
    long long ccol;
    uint32_t cm = FULL_MASK;
    if (TORUS) {
        ccol = col % g.nw;
        if (ccol < 0) ccol += g.nw;
    } else if (col < 0 || col >= g.nw || 32 * col >= g.width) {
        ccol = 0;
        cm = 0; /* outside the grid, or padding: always dead */
    } else {
        ccol = col;
        long long cells = g.width - 32 * col;
        if (cells < 32) cm = (1u << cells) - 1;
    }
    const bool writer = lane >= 1 && lane <= TILE_OWN && col < g.nw;
    uint32_t tab[20];
    life_rule_table_32(g.birth, g.survive, tab);

    const long long y0 = sy * g.strip;
    long long y1 = y0 + g.strip;
    if (y1 > g.h) y1 = g.h;
    /* input rows y0 - T .. y1 + T - 1, rounded up to whole rounds of three */
    const long long n_in = (y1 - y0) + 2 * T;
    const long long rounds = (n_in + 2) / 3;

    /* the grid row of the next input, kept by increment (no division in the loop) */
    long long yin = y0 - T;
    long long ry = yin % g.h;
    if (ry < 0) ry += g.h;

    life_state<T> st;
#pragma unroll
    for (int a = 0; a < 3; a++)
#pragma unroll
        for (int k = 0; k < T; k++) st.s0[a][k] = st.s1[a][k] = st.v[a][k] = 0;

    const uint32_t *colp = src + ccol;
    auto load = [&](long long y, long long rrow) -> uint32_t {
        bool ok = TORUS || (y >= 0 && y < g.h);
        return ok && cm ? __ldg(colp + rrow * g.nw) : 0u;
    };
    uint32_t nxt = load(yin, ry);
    for (long long i = 0; i < rounds; i++) {
#define LIFE_ONE(A_, B_, C_)                                                                       \
    {                                                                                               \
        uint32_t cur = nxt;                                                                         \
        long long ny = yin + 1, nry = ry + 1 == g.h ? 0 : ry + 1;                                   \
        nxt = load(ny, nry);                                                                        \
        uint32_t o = life_rows<T, RULE, TORUS, A_, B_, C_>(st, cur, yin, g, cm, tab);                      \
        long long oy = yin - T;                                                                     \
        if (writer && oy >= y0 && oy < y1) dst[oy * g.nw + col] = o;                                \
        yin = ny;                                                                                   \
        ry = nry;                                                                                   \
    }
        LIFE_ONE(0, 1, 2)
        LIFE_ONE(1, 2, 0)
        LIFE_ONE(2, 0, 1)
#undef LIFE_ONE
    }
}

#endif
