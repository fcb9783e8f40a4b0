/* The cooperative Montgomery product, modular difference and doubling on the device
 * (core/mont_coop.h's and core/lucas_coop.h's per-lane steps joined by warp shuffles and
 * ballots), shared by the cooperative kernels (powmod_coop.cu, lucas_coop.cu, sprp2_coop.cu,
 * invmod_coop.cu); tests/int_gpu/mont_sim.h and lucas_sim.h mirror them for simulated lanes. */
#ifndef BULK_INT_CUDA_NUM_MONT_COOP_CUH
#define BULK_INT_CUDA_NUM_MONT_COOP_CUH

#include "int/cuda/int_cuda_internal.cuh"
#include "int/cuda/core/lucas_coop.h"
#include "int/cuda/int_gpu_core.h"

namespace {

/* The group's exchanges: lanes gl = 0 .. TPI - 1 of the lanes in gm (bits gbase ..). */
template <int TPI> struct group {
    unsigned gm;
    int gl, gbase;
    __device__ uint32_t ballot(int pred) const
    {
        return TPI == 32 ? __ballot_sync(gm, pred) : (__ballot_sync(gm, pred) >> gbase) & ((1u << (TPI & 31)) - 1);
    }
};

/* The calling thread's group: lanes gl = 0 .. TPI - 1 of TPI consecutive lanes of its warp. */
template <int TPI> __device__ __forceinline__ group<TPI> this_group()
{
    group<TPI> g;
    int lane = threadIdx.x & 31;
    g.gl = lane % TPI;
    g.gbase = lane - g.gl;
    g.gm = TPI == 32 ? 0xffffffffu : ((1u << (TPI & 31)) - 1) << g.gbase;
    return g;
}

/* The calling thread's group with exchanges that name the whole warp (mask 0xffffffff, shuffles
 * of width TPI): only for kernels whose every exchange is reached by all 32 lanes together
 * (control flow uniform over the warp; also no exchange on the right of a && or || whose left
 * side differs between groups). With a group's own mask, which differs between the
 * groups of a warp, the compiler checks convergence before each exchange and runs a ballot
 * once per distinct mask (8 times at 4 lanes); a constant full mask is one instruction. */
template <int TPI> __device__ __forceinline__ group<TPI> warp_group()
{
    group<TPI> g = this_group<TPI>();
    g.gm = 0xffffffffu;
    return g;
}

/* This lane's words of the modulus at mg (nw words; w0 = the lane's first word; words past nw
 * are zero): returns 1 in every lane when m is odd and at least `least` (a small number). */
template <int L, int TPI>
__device__ __forceinline__ int mc_load_odd(bg_word *m, const bg_word *mg, int nw, int w0,
                                           bg_word least, const group<TPI> &g)
{
    int hi_nz = 0;
#pragma unroll
    for (int j = 0; j < L; j++) {
        m[j] = w0 + j < nw ? mg[w0 + j] : 0;
        hi_nz |= (w0 + j > 0) && m[j] != 0;
    }
    bg_word m0 = __shfl_sync(g.gm, m[0], 0, TPI);
    return (m0 & 1) && (g.ballot(hi_nz) != 0 || m0 >= least);
}

/* x = 2^b in this lane's words (w0 = its first word; b below the group's bits). */
template <int L>
__device__ __forceinline__ void mc_pow2(bg_word *x, int b, int w0)
{
#pragma unroll
    for (int j = 0; j < L; j++) x[j] = w0 + j == b >> 5 ? 1u << (b & 31) : 0;
}

/* 1 in every lane when x = y over the group's words. */
template <int L, int TPI>
__device__ __forceinline__ int mc_equal(const bg_word *x, const bg_word *y, const group<TPI> &g)
{
    int ne = 0;
#pragma unroll
    for (int j = 0; j < L; j++) ne |= x[j] != y[j];
    return g.ballot(ne) == 0;
}

/* r = take ? t - m : t after the carries into t (cin: the lanes that receive one) with
 * `over` the bit above the top lane (mont_coop.h: bg_mc_norm2, bg_mc_norm3). */
template <int L, int TPI>
__device__ __forceinline__ void mc_condsub(bg_word *r, bg_word *t, const bg_word *m, uint32_t cin,
                                           int over, const group<TPI> &g)
{
    bg_word d[L];
    int p, bout;
    int b = bg_mc_norm2(d, t, m, (int)((cin >> g.gl) & 1), L, &p);
    uint32_t bin = bg_mc_lookahead(g.ballot(b), g.ballot(p), TPI, &bout);
    bg_mc_norm3(r, t, d, (int)((bin >> g.gl) & 1), over || !bout, L);
}

/* t += take ? m : 0 with the carries resolved over the group (take: the same in every lane);
 * returns the carry out of the top lane. */
template <int L, int TPI>
__device__ __forceinline__ int mc_addm(bg_word *t, const bg_word *m, int take, const group<TPI> &g)
{
    int p, cout;
    int c = bg_lc_addm(t, t, m, take, L, &p);
    uint32_t cin = bg_mc_lookahead(g.ballot(c), g.ballot(p), TPI, &cout);
    bg_lc_inc(t, (int)((cin >> g.gl) & 1), L);
    return cout;
}

/* r = a b R^-1 mod m (a < R, b < m; r < m), R = 2^(32 TPI L). r may be a or b. */
template <int L, int TPI>
__device__ __forceinline__ void mc_mul(bg_word *r, const bg_word *a, const bg_word *b,
                                       const bg_word *m, bg_word minv, const group<TPI> &g)
{
    bg_word t[L + 2], o[L + 2];
#pragma unroll
    for (int j = 0; j < L + 2; j++) t[j] = o[j] = 0;
    /* unrolled for groups of up to 4 lanes: the loop's back edge costs register moves on the
     * multiply-add pipe, and 1024-bit powmod (4 x 8) ran 5.13e6/s against 4.58e6 rolled (one
     * H200; docs/perf/int-gpu-groups.md); at 4 x 16 +1%, wider groups not measured */
#pragma unroll(TPI <= 4 ? TPI : 1)
    for (int s = 0; s < TPI; s++) {
#pragma unroll
        for (int k = 0; k < L; k++) { /* L even: the accumulators are back in place */
            bg_word bi = __shfl_sync(g.gm, b[k], s, TPI);
            bg_mc_row_mul(t, o, a, bi, L);
            bg_mc_row_q(t, o, m, __shfl_sync(g.gm, bg_mc_q(t[0], minv), 0, TPI), L);
            /* from lane gl + 1 mod TPI: the top lane gets lane 0's word, zero by the choice of q */
            bg_mc_shift(t, o, __shfl_sync(g.gm, t[0], g.gl + 1, TPI), L);
        }
    }
    bg_mc_merge(t, t, o, L);
    bg_word up = __shfl_up_sync(g.gm, t[L], 1, TPI);
    bg_word top = __shfl_sync(g.gm, t[L], TPI - 1, TPI);
    int p, cout;
    int c = bg_mc_norm1(t, g.gl == 0 ? 0 : up, L, &p);
    uint32_t cin = bg_mc_lookahead(g.ballot(c), g.ballot(p), TPI, &cout);
    mc_condsub<L, TPI>(r, t, m, cin, top + (bg_word)cout != 0, g);
}

/* r = x - y mod 2^(32 TPI L) over the group's words (r may be x or y); returns the group's
 * borrow out (the same in every lane). */
template <int L, int TPI>
__device__ __forceinline__ int mc_sub_words(bg_word *r, const bg_word *x, const bg_word *y,
                                            const group<TPI> &g)
{
    int p, bout;
    const int b = bg_lc_sub(r, x, y, L, &p);
    const uint32_t bin = bg_mc_lookahead(g.ballot(b), g.ballot(p), TPI, &bout);
    bg_lc_dec(r, (int)((bin >> g.gl) & 1), L);
    return bout;
}

/* r = x - y mod m (x, y < m; r may be x or y). */
template <int L, int TPI>
__device__ __forceinline__ void mc_sub(bg_word *r, const bg_word *x, const bg_word *y,
                                       const bg_word *m, const group<TPI> &g)
{
    bg_word t[L];
    const int bout = mc_sub_words<L, TPI>(t, x, y, g);
    mc_addm<L, TPI>(t, m, bout, g);
#pragma unroll
    for (int j = 0; j < L; j++) r[j] = t[j];
}

/* x = 2 x mod m (x < m). */
template <int L, int TPI>
__device__ __forceinline__ void mc_double(bg_word *x, const bg_word *m, const group<TPI> &g)
{
    bg_word hi = __shfl_up_sync(g.gm, x[L - 1] >> 31, 1, TPI);
    int over = (int)__shfl_sync(g.gm, x[L - 1] >> 31, TPI - 1, TPI);
    bg_mc_shl1(x, g.gl == 0 ? 0 : hi, L);
    mc_condsub<L, TPI>(x, x, m, 0, over, g);
}

/* x = take ? 2 x mod m : x (x < m). The doubling's exchanges run whatever take is, so a kernel
 * whose exchanges name the whole warp (warp_group) calls it where its groups differ. */
template <int L, int TPI>
__device__ __forceinline__ void mc_double_if(bg_word *x, const bg_word *m, int take,
                                             const group<TPI> &g)
{
    bg_word y[L];
#pragma unroll
    for (int j = 0; j < L; j++) y[j] = x[j];
    mc_double<L, TPI>(y, m, g);
#pragma unroll
    for (int j = 0; j < L; j++) x[j] = take ? y[j] : x[j];
}

/* x = 2^k x mod m (x < m), k per group; the warp doubles as often as its largest k. */
template <int L, int TPI>
__device__ __forceinline__ void mc_doublings(bg_word *x, const bg_word *m, int k, const group<TPI> &g)
{
#pragma unroll 1
    for (int i = 0; __any_sync(g.gm, i < k); i++) mc_double_if<L, TPI>(x, m, i < k, g);
}

} // namespace

#endif
