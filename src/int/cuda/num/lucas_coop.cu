/* The strong Lucas test's sequences on the GPU (bg_launch_lucas): U_d, V_d and Q^d mod m with a
 * group of TPI lanes per instance, the ladder of core/lucas_coop.h in Montgomery form with
 * every number in registers (L words per lane; no shared memory). The per-lane steps are the
 * BULK_HD functions of mont_coop.h and lucas_coop.h; this file adds only the exchanges
 * (shuffles, ballots), exactly as tests/int_gpu/lucas_sim.h simulates them against GMP.
 *
 * Why on the device: isprime's strong probable primes (about 1 in 355 random odd 1024-bit
 * numbers) took two thirds of the CUDA path's time in this ladder on 16 host threads; one
 * thread per instance is latency-bound (docs/perf/int-gpu-groups.md), a group of lanes keeps the
 * product's row short. */
#include "int/cuda/core/lucas_coop.h"
#include "int/cuda/num/mont_coop.cuh"

namespace {

const int kLucasThreads = 128; /* 128 / TPI instances per block */

/* r = x + y mod m (x, y < m; r may be x or y). */
template <int L, int TPI>
__device__ __forceinline__ void mc_add(bg_word *r, const bg_word *x, const bg_word *y,
                                       const bg_word *m, const group<TPI> &g)
{
    bg_word t[L];
    int p, cout;
    int c = bg_lc_add(t, x, y, L, &p);
    uint32_t cin = bg_mc_lookahead(g.ballot(c), g.ballot(p), TPI, &cout);
    mc_condsub<L, TPI>(r, t, m, cin, cout, g);
}

/* x = x / 2 mod m (x < m, m odd). */
template <int L, int TPI>
__device__ __forceinline__ void mc_half(bg_word *x, const bg_word *m, const group<TPI> &g)
{
    int odd = (int)__shfl_sync(g.gm, x[0] & 1, 0, TPI);
    int cout = mc_addm<L, TPI>(x, m, odd, g);
    bg_word hi = __shfl_down_sync(g.gm, x[0] & 1, 1, TPI);
    bg_lc_shr1(x, g.gl == TPI - 1 ? (bg_word)cout : hi, L);
}

/* x = -x mod m when neg (a subtraction from zero). */
template <int L, int TPI>
__device__ __forceinline__ void mc_neg(bg_word *x, int neg, const bg_word *m, const group<TPI> &g)
{
    if (!neg) return;
    bg_word z[L];
#pragma unroll
    for (int j = 0; j < L; j++) z[j] = 0;
    mc_sub<L, TPI>(x, z, x, m, g);
}

template <int L>
__device__ __forceinline__ void copy(bg_word *r, const bg_word *x)
{
#pragma unroll
    for (int j = 0; j < L; j++) r[j] = x[j];
}

/* One instance per group of TPI lanes (lane l: words l L ..). m odd > 1 (else the outputs are
 * zero); D Selfridge's (D = 1 mod 4, |D| < 2^63). A group leaves as a whole, and every
 * exchange names only its own lanes, so groups of one warp never wait on each other. */
template <int L, int TPI>
__global__ void __launch_bounds__(kLucasThreads) lucas_coop_kernel(bg_limb *Uo, bg_limb *Vo,
                                                                  bg_limb *Qo, const bg_limb *M,
                                                                  const int64_t *Dp, size_t n,
                                                                  int limbs)
{
    const int N = L * TPI, nw = 2 * limbs, gib = threadIdx.x / TPI;
    size_t inst = (size_t)blockIdx.x * (kLucasThreads / TPI) + gib;
    if (inst >= n) return;
    const group<TPI> g = this_group<TPI>();
    const bg_word *mg = (const bg_word *)(M + inst * limbs);
    bg_word *uo = (bg_word *)(Uo + inst * limbs), *vo = (bg_word *)(Vo + inst * limbs);
    bg_word *qo = (bg_word *)(Qo + inst * limbs);
    const int w0 = g.gl * L;
    bg_word m[L], acc[L], dm[L], qm[L], U[L], V[L], Qk[L], x[L];
    if (!mc_load_odd<L, TPI>(m, mg, nw, w0, 2, g)) { /* not the caller's contract */
#pragma unroll
        for (int j = 0; j < L; j++)
            if (w0 + j < nw) uo[w0 + j] = vo[w0 + j] = qo[w0 + j] = 0;
        return;
    }
    bg_word minv = bg_mont_minv(__shfl_sync(g.gm, m[0], 0, TPI));
    int s, mbits, dbits = bg_lc_exp(mg, nw, &s, &mbits);
    /* R^2 mod m: 2^(mbits - 1) doubled to 2^N R, then five squarings (as powmod) */
    mc_pow2<L>(acc, mbits - 1, w0);
    int nd = bg_mc_doublings(N, mbits);
#pragma unroll 1
    for (int i = 0; i < nd; i++) mc_double<L, TPI>(acc, m, g);
#pragma unroll 1
    for (int i = 0; i < 5; i++) mc_mul<L, TPI>(acc, acc, acc, m, minv, g);
    const int64_t D = Dp[inst], Q = bg_lc_q(D);
    bg_lc_small(x, bg_lc_abs(D), w0, L);
    mc_mul<L, TPI>(dm, x, acc, m, minv, g); /* |D| R */
    bg_lc_small(x, bg_lc_abs(Q), w0, L);
    mc_mul<L, TPI>(qm, x, acc, m, minv, g); /* |Q| R */
    bg_lc_small(x, 1, w0, L);
    mc_mul<L, TPI>(U, x, acc, m, minv, g); /* R: U_1 = V_1 = 1 */
    copy<L>(V, U);
    copy<L>(Qk, qm);
    mc_neg<L, TPI>(Qk, Q < 0, m, g);
#pragma unroll 1
    for (int i = dbits - 2; i >= 0; i--) {
        mc_mul<L, TPI>(U, U, V, m, minv, g);
        mc_mul<L, TPI>(V, V, V, m, minv, g);
        mc_sub<L, TPI>(V, V, Qk, m, g);
        mc_sub<L, TPI>(V, V, Qk, m, g);
        mc_mul<L, TPI>(Qk, Qk, Qk, m, minv, g);
        if (bg_lc_bit(mg, s, i)) {
            mc_mul<L, TPI>(x, U, dm, m, minv, g); /* |D| U */
            if (D < 0) mc_sub<L, TPI>(x, V, x, m, g);
            else mc_add<L, TPI>(x, x, V, m, g);
            mc_add<L, TPI>(U, U, V, m, g);
            mc_half<L, TPI>(U, m, g);
            mc_half<L, TPI>(x, m, g);
            copy<L>(V, x);
            mc_mul<L, TPI>(Qk, Qk, qm, m, minv, g);
            mc_neg<L, TPI>(Qk, Q < 0, m, g);
        }
    }
    bg_lc_small(x, 1, w0, L); /* out of Montgomery form */
    mc_mul<L, TPI>(U, U, x, m, minv, g);
    mc_mul<L, TPI>(V, V, x, m, minv, g);
    mc_mul<L, TPI>(Qk, Qk, x, m, minv, g);
#pragma unroll
    for (int j = 0; j < L; j++)
        if (w0 + j < nw) {
            uo[w0 + j] = U[j];
            vo[w0 + j] = V[j];
            qo[w0 + j] = Qk[j];
        }
}

template <int L, int TPI>
int launch(bg_limb *u, bg_limb *v, bg_limb *qk, const bg_limb *m, const int64_t *d, size_t n,
           size_t limbs, cudaStream_t st)
{
    const size_t per_block = kLucasThreads / TPI, max_blocks = 0x7fffffff;
    for (size_t done = 0; done < n; done += per_block * max_blocks) {
        size_t cnt = n - done < per_block * max_blocks ? n - done : per_block * max_blocks;
        unsigned blocks = (unsigned)((cnt + per_block - 1) / per_block);
        size_t o = done * limbs;
        lucas_coop_kernel<L, TPI><<<blocks, kLucasThreads, 0, st>>>(u + o, v + o, qk + o, m + o,
                                                                    d + done, cnt, (int)limbs);
        BULK_CUDA_CHECK_LAUNCH(NULL);
    }
    return BULK_OK;
}

/* The shapes bg_lc_shape gives: 4 lanes of 2 .. 8 words; 8, 16 or 32 lanes only when fewer
 * would need more than 8 words each, so then of 6 or 8 words (more than 4 per lane). */
template <int TPI>
int launch_l(int L, bg_limb *u, bg_limb *v, bg_limb *qk, const bg_limb *m, const int64_t *d,
             size_t n, size_t limbs, cudaStream_t st)
{
    if constexpr (TPI == 4) {
        if (L == 2) return launch<2, TPI>(u, v, qk, m, d, n, limbs, st);
        if (L == 4) return launch<4, TPI>(u, v, qk, m, d, n, limbs, st);
    }
    if (L == 6) return launch<6, TPI>(u, v, qk, m, d, n, limbs, st);
    if (L == 8) return launch<8, TPI>(u, v, qk, m, d, n, limbs, st);
    return BULK_ERR_INTERNAL;
}

} // namespace

int bg_launch_lucas(bg_limb *u, bg_limb *v, bg_limb *qk, const bg_limb *m, const int64_t *d,
                    size_t n, size_t limbs, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    int tpi, L;
    if (!bg_lc_shape((int)(2 * limbs), &tpi, &L)) return BULK_ERR_UNSUPPORTED;
    switch (tpi) {
    case 4: return launch_l<4>(L, u, v, qk, m, d, n, limbs, st);
    case 8: return launch_l<8>(L, u, v, qk, m, d, n, limbs, st);
    case 16: return launch_l<16>(L, u, v, qk, m, d, n, limbs, st);
    case 32: return launch_l<32>(L, u, v, qk, m, d, n, limbs, st);
    default: return BULK_ERR_INTERNAL;
    }
}
