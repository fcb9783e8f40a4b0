/* invmod on the GPU for odd moduli with a group of TPI lanes per instance: Pornin's binary GCD
 * of core/invmod_coop.h with every number in registers (L words per lane; no shared memory).
 * The per-lane steps are the BULK_HD functions of invmod_coop.h, lucas_coop.h and
 * mont_coop.h; this file adds only the exchanges (shuffles, ballots), exactly as
 * tests/int_gpu/invmod_sim.h simulates them against GMP.
 *
 * Why a group: the one-thread kernel (num/invmod.cu) runs the approximate Euclidean algorithm
 * on column-major global scratch, run-time word indices and a division per quotient; here
 * each outer iteration is 30 branch-free steps on 64-bit approximations and products of the
 * full numbers by 32-bit scalars, with L words per lane whatever the width.
 *
 * An instance this kernel does not finish (an even modulus, or one that reached bg_ic_cap) is
 * marked in `todo` and left to the one-thread kernel (bg_launch_invmod_rest), which runs after
 * it on the same stream; its r and err are written there. */
#include "int/cuda/core/invmod_coop.h"
#include "int/cuda/num/mont_coop.cuh"

namespace {

const int kInvThreads = 128; /* 128 / TPI instances per block */

/* r = (x f + y g + q m) / 2^30's N words, q = 0 without m (withm = 0) and the q of bg_ic_q
 * with it; returns the part above the N words (invmod_coop.h: bg_ic_above). r is not x or y. */
template <int L, int TPI>
__device__ __forceinline__ int ic_lin(bg_word *r, const bg_word *x, const bg_word *y, int32_t f,
                                      int32_t g, const bg_word *m, bg_word minv, int withm,
                                      const group<TPI> &gr)
{
    bg_word c = bg_ic_c(f, g), q = 0, t[L];
    if (withm) q = __shfl_sync(gr.gm, bg_ic_q(x[0], y[0], f, g, minv), 0, TPI);
    bg_word hi = bg_ic_lin(t, x, y, f, g, withm ? m : NULL, q, gr.gl == 0 ? c : 0, L);
    bg_word up = __shfl_up_sync(gr.gm, hi, 1, TPI);
    bg_word top = __shfl_sync(gr.gm, hi, TPI - 1, TPI);
    int p, cout;
    int cy = bg_mc_norm1(t, gr.gl == 0 ? 0 : up, L, &p);
    uint32_t cin = bg_mc_lookahead(gr.ballot(cy), gr.ballot(p), TPI, &cout);
    bg_lc_inc(t, (int)((cin >> gr.gl) & 1), L);
    int64_t tc = bg_ic_top(top, cout, c);
    bg_word nx = __shfl_down_sync(gr.gm, t[0], 1, TPI);
    bg_ic_shr(r, t, gr.gl == TPI - 1 ? (bg_word)tc : nx, L);
    return bg_ic_above(tc);
}

/* x = -x when neg (0 < -x < 2^(32 N): a negative a or b); the subtraction runs in every group
 * (its exchanges name the whole warp) and neg picks the result. */
template <int L, int TPI>
__device__ __forceinline__ void ic_negate_if(bg_word *x, int neg, const group<TPI> &gr)
{
    bg_word z[L];
#pragma unroll
    for (int j = 0; j < L; j++) z[j] = 0;
    mc_sub_words<L, TPI>(z, z, x, gr);
#pragma unroll
    for (int j = 0; j < L; j++) x[j] = neg ? z[j] : x[j];
}

/* u in (-m, 2m) (words x, the part above them `above`) into [0, m): m added when u < 0 (then
 * u + m < m and the subtraction that follows keeps it), m subtracted when u >= m; both steps
 * run in every group. */
template <int L, int TPI>
__device__ __forceinline__ void ic_reduce(bg_word *x, int above, const bg_word *m,
                                          const group<TPI> &gr)
{
    mc_addm<L, TPI>(x, m, above < 0, gr);
    mc_condsub<L, TPI>(x, x, m, 0, above > 0, gr);
}

/* The coefficients that leave a group's numbers as they are: x 2^30 / 2^30 = x (and q = 0, so
 * u, v stay too). A group that is done, or never started, runs the warp's iterations on them. */
__device__ __forceinline__ void ic_identity(int32_t *c)
{
    c[0] = c[3] = 1 << BG_IC_STEPS;
    c[1] = c[2] = 0;
}

/* One instance per group of TPI lanes (lane l: words l L ..). Outcomes: todo[inst] = 1 for an
 * even modulus or the cap (nothing else written); else r, err (0 or BULK_ERR_NOT_INVERTIBLE),
 * *bad. Control flow is the same for the whole warp, so that its exchanges name all 32 lanes
 * (warp_group): the iterations run while any group of the warp is live, a group that is not
 * (past n, an even modulus, m = 1, a = 0, done, or at the cap) computes with the identity
 * coefficients, and the negations and reductions run in every group with the choice made by
 * selects. The launch bounds keep the blocks a SM of the form with each group's own mask: 5 at
 * 8 words, 3 at 16 (95 and 168 registers; unbounded, 16 words took 192 registers and 2 blocks;
 * that form was not measured). */
template <int L, int TPI>
__global__ void __launch_bounds__(kInvThreads, L == 16 ? 3 : 5)
    invmod_coop_kernel(bg_limb *R, const bg_limb *A, const bg_limb *M, size_t n, int limbs,
                       uint8_t *todo, int8_t *err, int *bad)
{
    const int N = L * TPI, nw = 2 * limbs, gib = threadIdx.x / TPI;
    const size_t inst = (size_t)blockIdx.x * (kInvThreads / TPI) + gib;
    const bool in = inst < n;
    const group<TPI> gr = warp_group<TPI>();
    const size_t at = in ? inst : 0; /* a group past n reads nothing through it */
    const bg_word *mg = (const bg_word *)(M + at * limbs);
    const bg_word *ag = (const bg_word *)(A + at * limbs);
    const int w0 = gr.gl * L;
    bg_word m[L], a[L], b[L], u[L], v[L], na[L], nb[L];
#pragma unroll
    for (int j = 0; j < L; j++) {
        m[j] = in && w0 + j < nw ? mg[w0 + j] : 0;
        a[j] = in && w0 + j < nw ? ag[w0 + j] : 0;
        b[j] = m[j];
        u[j] = (bg_word)(w0 + j == 0);
        v[j] = 0;
    }
    const bg_word m0 = __shfl_sync(gr.gm, m[0], 0, TPI);
    const bool odd = (m0 & 1) != 0; /* even or zero (or past n): the one-thread kernel's */
    const bool one = gr.ballot(!bg_ic_is_one(m, w0, L)) == 0; /* m = 1: r = 0 (v) */
    int st = 0; /* 0 inverse, 1 none, 2 left to the one-thread kernel */
    bool live = gr.ballot(bg_ic_nz(a, L)) != 0 && odd && !one;
    const bg_word minv = bg_mont_minv(m0);
    const int cap = bg_ic_cap(N);
#pragma unroll 1
    for (int it = 0;; it++) {
        if (live && it == cap) {
            st = 2;
            live = false;
        }
        if (!__any_sync(0xffffffffu, live)) break;
        int lb = bg_ic_bits(a, b, w0, L); /* b odd in a live group: some lane has bits */
        int nbits = __shfl_sync(gr.gm, lb, 31 - __clz((int)gr.ballot(lb > 0)), TPI);
        int p = (nbits > 64 ? nbits : 64) - 33, w = p >> 5, sh = p & 31;
        bg_word a0 = __shfl_sync(gr.gm, a[0], 0, TPI), b0 = __shfl_sync(gr.gm, b[0], 0, TPI);
        bg_word aw = __shfl_sync(gr.gm, bg_ic_pick(a, w - w0, L), w / L, TPI);
        bg_word aw1 = __shfl_sync(gr.gm, bg_ic_pick(a, w + 1 - w0, L), (w + 1) / L, TPI);
        bg_word bw = __shfl_sync(gr.gm, bg_ic_pick(b, w - w0, L), w / L, TPI);
        bg_word bw1 = __shfl_sync(gr.gm, bg_ic_pick(b, w + 1 - w0, L), (w + 1) / L, TPI);
        int32_t c[4];
        bg_ic_inner(bg_ic_approx(a0, aw, aw1, sh), bg_ic_approx(b0, bw, bw1, sh), c);
        if (!live) ic_identity(c);
        const int sa = ic_lin<L, TPI>(na, a, b, c[0], c[1], m, minv, 0, gr);
        const int sb = ic_lin<L, TPI>(nb, a, b, c[2], c[3], m, minv, 0, gr);
        ic_negate_if<L, TPI>(na, sa < 0, gr);
        ic_negate_if<L, TPI>(nb, sb < 0, gr);
        if (sa < 0) c[0] = -c[0], c[1] = -c[1];
        if (sb < 0) c[2] = -c[2], c[3] = -c[3];
        const int su = ic_lin<L, TPI>(a, u, v, c[0], c[1], m, minv, 1, gr); /* a, b: scratch */
        const int sv = ic_lin<L, TPI>(b, u, v, c[2], c[3], m, minv, 1, gr);
        ic_reduce<L, TPI>(a, su, m, gr);
        ic_reduce<L, TPI>(b, sv, m, gr);
#pragma unroll
        for (int j = 0; j < L; j++) {
            u[j] = a[j];
            v[j] = b[j];
            a[j] = na[j];
            b[j] = nb[j];
        }
        const bool a_nz = gr.ballot(bg_ic_nz(a, L)) != 0; /* every group: no && before it */
        live = live && a_nz;
    }
    const bool b_one = gr.ballot(!bg_ic_is_one(b, w0, L)) == 0;
    if (st == 0 && !one && !b_one) st = 1;
    if (!in) return;
    if (!odd || st == 2) {
        if (gr.gl == 0) todo[inst] = 1;
        return;
    }
    bg_word *out = (bg_word *)(R + inst * limbs);
#pragma unroll
    for (int j = 0; j < L; j++)
        if (w0 + j < nw) out[w0 + j] = st ? 0 : v[j];
    if (gr.gl == 0) {
        todo[inst] = 0;
        if (err) err[inst] = (int8_t)(st ? BULK_ERR_NOT_INVERTIBLE : 0);
        if (st && bad) atomicExch(bad, 1);
    }
}

template <int L, int TPI>
int launch(bg_limb *r, const bg_limb *a, const bg_limb *m, size_t n, size_t limbs, uint8_t *todo,
           int8_t *err, int *bad, cudaStream_t st)
{
    const size_t per_block = kInvThreads / TPI, max_blocks = 0x7fffffff;
    for (size_t done = 0; done < n; done += per_block * max_blocks) {
        size_t cnt = n - done < per_block * max_blocks ? n - done : per_block * max_blocks;
        unsigned blocks = (unsigned)((cnt + per_block - 1) / per_block);
        size_t o = done * limbs;
        invmod_coop_kernel<L, TPI><<<blocks, kInvThreads, 0, st>>>(
            r + o, a + o, m + o, cnt, (int)limbs, todo + done, err ? err + done : NULL, bad);
        BULK_CUDA_CHECK_LAUNCH(NULL);
    }
    return BULK_OK;
}

/* The shapes bg_ic_shape gives: 2 .. 32 lanes of 8 words, 4 .. 16 lanes of 16. */
template <int TPI>
int launch_l(int L, bg_limb *r, const bg_limb *a, const bg_limb *m, size_t n, size_t limbs,
             uint8_t *todo, int8_t *err, int *bad, cudaStream_t st)
{
    if (L == 8) return launch<8, TPI>(r, a, m, n, limbs, todo, err, bad, st);
    if constexpr (TPI >= 4 && TPI <= 16)
        if (L == 16) return launch<16, TPI>(r, a, m, n, limbs, todo, err, bad, st);
    return BULK_ERR_INTERNAL;
}

} // namespace

int bg_launch_invmod_coop(bg_limb *r, const bg_limb *a, const bg_limb *m, size_t n, size_t limbs,
                          int tpi, int L, int8_t *err, int *bad, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if ((size_t)tpi * L < 2 * limbs) return BULK_ERR_INTERNAL;
    uint8_t *todo;
    int rc = bg_scratch_alloc((void **)&todo, n, st);
    if (rc != BULK_OK) return rc;
    switch (tpi) {
    case 2: rc = launch_l<2>(L, r, a, m, n, limbs, todo, err, bad, st); break;
    case 4: rc = launch_l<4>(L, r, a, m, n, limbs, todo, err, bad, st); break;
    case 8: rc = launch_l<8>(L, r, a, m, n, limbs, todo, err, bad, st); break;
    case 16: rc = launch_l<16>(L, r, a, m, n, limbs, todo, err, bad, st); break;
    case 32: rc = launch_l<32>(L, r, a, m, n, limbs, todo, err, bad, st); break;
    default: rc = BULK_ERR_INTERNAL;
    }
    if (rc == BULK_OK) rc = bg_launch_invmod_rest(r, a, m, todo, n, limbs, err, bad, st);
    if (cudaFreeAsync(todo, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}
