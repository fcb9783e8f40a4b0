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

/* x = -x (0 < -x < 2^(32 N): a negative a or b). */
template <int L, int TPI>
__device__ __forceinline__ void ic_negate(bg_word *x, const group<TPI> &gr)
{
    bg_word z[L];
#pragma unroll
    for (int j = 0; j < L; j++) z[j] = 0;
    mc_sub_words<L, TPI>(x, z, x, gr);
}

/* u in (-m, 2m) (words x, the part above them `above`) into [0, m). */
template <int L, int TPI>
__device__ __forceinline__ void ic_reduce(bg_word *x, int above, const bg_word *m,
                                          const group<TPI> &gr)
{
    if (above < 0) mc_addm<L, TPI>(x, m, 1, gr);
    else mc_condsub<L, TPI>(x, x, m, 0, above > 0, gr);
}

/* One instance per group of TPI lanes (lane l: words l L ..). Outcomes: todo[inst] = 1 for an
 * even modulus or the cap (nothing else written); else r, err (0 or BULK_ERR_NOT_INVERTIBLE),
 * *bad. A group leaves as a whole and every exchange names only its own lanes, so groups of
 * one warp never wait on each other. */
template <int L, int TPI>
__global__ void __launch_bounds__(kInvThreads) invmod_coop_kernel(bg_limb *R, const bg_limb *A,
                                                                 const bg_limb *M, size_t n,
                                                                 int limbs, uint8_t *todo,
                                                                 int8_t *err, int *bad)
{
    const int N = L * TPI, nw = 2 * limbs, lane = threadIdx.x & 31, gib = threadIdx.x / TPI;
    size_t inst = (size_t)blockIdx.x * (kInvThreads / TPI) + gib;
    if (inst >= n) return;
    group<TPI> gr;
    gr.gl = lane % TPI;
    gr.gbase = lane - gr.gl;
    gr.gm = TPI == 32 ? 0xffffffffu : ((1u << (TPI & 31)) - 1) << gr.gbase;
    const bg_word *mg = (const bg_word *)(M + inst * limbs);
    const bg_word *ag = (const bg_word *)(A + inst * limbs);
    bg_word *out = (bg_word *)(R + inst * limbs);
    const int w0 = gr.gl * L;
    bg_word m[L], a[L], b[L], u[L], v[L], na[L], nb[L];
#pragma unroll
    for (int j = 0; j < L; j++) {
        m[j] = w0 + j < nw ? mg[w0 + j] : 0;
        a[j] = w0 + j < nw ? ag[w0 + j] : 0;
        b[j] = m[j];
        u[j] = (bg_word)(w0 + j == 0);
        v[j] = 0;
    }
    bg_word m0 = __shfl_sync(gr.gm, m[0], 0, TPI);
    if (!(m0 & 1)) { /* even or zero: the one-thread kernel's */
        if (gr.gl == 0) todo[inst] = 1;
        return;
    }
    int st = 0; /* 0 inverse, 1 none, 2 left to the one-thread kernel */
    if (gr.ballot(!bg_ic_is_one(m, w0, L)) == 0) { /* m = 1: r = 0 */
#pragma unroll
        for (int j = 0; j < L; j++) v[j] = 0;
    } else {
        bg_word minv = bg_mont_minv(m0);
        const int cap = bg_ic_cap(N);
#pragma unroll 1
        for (int it = 0; gr.ballot(bg_ic_nz(a, L)); it++) {
            if (it == cap) {
                st = 2;
                break;
            }
            int lb = bg_ic_bits(a, b, w0, L); /* b is odd: some lane has bits */
            int nbits = __shfl_sync(gr.gm, lb, 31 - __clz((int)gr.ballot(lb > 0)), TPI);
            int p = (nbits > 64 ? nbits : 64) - 33, w = p >> 5, sh = p & 31;
            bg_word a0 = __shfl_sync(gr.gm, a[0], 0, TPI), b0 = __shfl_sync(gr.gm, b[0], 0, TPI);
            bg_word aw = __shfl_sync(gr.gm, bg_ic_pick(a, w - w0, L), w / L, TPI);
            bg_word aw1 = __shfl_sync(gr.gm, bg_ic_pick(a, w + 1 - w0, L), (w + 1) / L, TPI);
            bg_word bw = __shfl_sync(gr.gm, bg_ic_pick(b, w - w0, L), w / L, TPI);
            bg_word bw1 = __shfl_sync(gr.gm, bg_ic_pick(b, w + 1 - w0, L), (w + 1) / L, TPI);
            int32_t c[4];
            bg_ic_inner(bg_ic_approx(a0, aw, aw1, sh), bg_ic_approx(b0, bw, bw1, sh), c);
            int sa = ic_lin<L, TPI>(na, a, b, c[0], c[1], m, minv, 0, gr);
            int sb = ic_lin<L, TPI>(nb, a, b, c[2], c[3], m, minv, 0, gr);
            if (sa < 0) {
                ic_negate<L, TPI>(na, gr);
                c[0] = -c[0], c[1] = -c[1];
            }
            if (sb < 0) {
                ic_negate<L, TPI>(nb, gr);
                c[2] = -c[2], c[3] = -c[3];
            }
            int su = ic_lin<L, TPI>(a, u, v, c[0], c[1], m, minv, 1, gr); /* a, b: scratch */
            int sv = ic_lin<L, TPI>(b, u, v, c[2], c[3], m, minv, 1, gr);
            ic_reduce<L, TPI>(a, su, m, gr);
            ic_reduce<L, TPI>(b, sv, m, gr);
#pragma unroll
            for (int j = 0; j < L; j++) {
                u[j] = a[j];
                v[j] = b[j];
                a[j] = na[j];
                b[j] = nb[j];
            }
        }
        if (st == 0 && gr.ballot(!bg_ic_is_one(b, w0, L))) st = 1;
    }
    if (st == 2) {
        if (gr.gl == 0) todo[inst] = 1;
        return;
    }
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
