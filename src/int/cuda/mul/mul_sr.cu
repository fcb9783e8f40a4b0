/* Multiplication by sum-rotate (seed 000: a group of G lanes per instance, P words of a per
 * lane), mid-size widths; the shape by the issue-cost model. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/mul/mul_internal.cuh"
#include "backend/cuda/smem_limit.cuh"

namespace {

/* ---- sum-rotate: G lanes per instance, P words of a per lane -------------------------------- */

/* r (2 limbs per instance) = a * b, G P >= 2 limbs. Blocks of 4 warps, 32 / G instances per
 * warp; a group's shared memory: b padded to G P words, then the 2 G P finished columns as
 * three word arrays (low, middle, high), and one word of padding. The groups of a warp past n
 * still run (their shuffles and ballots need every lane) but load and store nothing. No
 * block-wide barrier.
 * V (P a multiple of 4; the shapes of launch_sr_vec): fewer shared-memory instructions - the H200
 * profile of the 1024-bit kernel (G = 8, P = 4) showed the L1/shared-memory pipe at 96 % with
 * the FMA pipe at 32 %: per row one b load, three column stores and three shuffles for 4
 * products. With V each group of P rows loads its b words as 16-byte vectors and the first
 * lane keeps the P finished columns in registers and stores them as 16-byte vectors after the
 * group: per row 1/4 + 3/4 shared-memory instructions instead of 4. Group regions are then
 * 7 NP + 4 words apart (16-byte aligned; 4 mod 32 words, so the groups' vectors of a warp
 * fall in distinct banks). */
template <int P, int G, bool V = false>
__global__ void __launch_bounds__(128) mul_sr_kernel(bg_limb *r, const bg_limb *a, const bg_limb *b,
                                                     size_t n, int limbs)
{
    extern __shared__ bg_word sm[];
    const int NP = G * P, N = 2 * limbs, C = 2 * N, IPW = 32 / G;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, grp = lane / G, gl = lane % G;
    size_t inst = ((size_t)blockIdx.x * (blockDim.x >> 5) + warp) * IPW + grp;
    const bool active = inst < n;
    /* group regions 7 NP + 1 words apart: the groups of a warp read b_i and store columns at
     * the same offsets, which an odd stride puts in different banks */
    const int RS = V ? 7 * NP + 4 : 7 * NP + 1;
    bg_word *sb = sm + (size_t)(warp * IPW + grp) * RS, *c0 = sb + NP, *c1 = c0 + 2 * NP;
    bg_word *c2 = c1 + 2 * NP;
    const bg_word *ga = (const bg_word *)(a + (active ? inst : 0) * limbs);
    const bg_word *gb = (const bg_word *)(b + (active ? inst : 0) * limbs);
    for (int k = gl; k < NP; k += G) sb[k] = (active && k < N) ? gb[k] : 0;
    bg_word av[P], acc[3 * P];
#pragma unroll
    for (int q = 0; q < P; q++) av[q] = (active && P * gl + q < N) ? ga[P * gl + q] : 0;
#pragma unroll
    for (int q = 0; q < 3 * P; q++) acc[q] = 0;
    __syncwarp();
    for (int i0 = 0; i0 < NP; i0 += P) {
        bg_word bq[P], f0[P], f1[P], f2[P];
        if (V) {
#pragma unroll
            for (int k = 0; k < P / 4; k++) {
                uint4 v = reinterpret_cast<const uint4 *>(sb + i0)[k];
                bq[4 * k] = v.x;
                bq[4 * k + 1] = v.y;
                bq[4 * k + 2] = v.z;
                bq[4 * k + 3] = v.w;
            }
        }
#pragma unroll
        for (int u = 0; u < P; u++) {
            const bg_word bi = V ? bq[u] : sb[i0 + u];
            bg_sr_row(acc, av, bi, u, P);
            const int ph = u % P; /* the slot of the finished column */
            if (V) {
                f0[u] = acc[3 * ph];
                f1[u] = acc[3 * ph + 1];
                f2[u] = acc[3 * ph + 2];
            } else if (gl == 0) {
                c0[i0 + u] = acc[3 * ph];
                c1[i0 + u] = acc[3 * ph + 1];
                c2[i0 + u] = acc[3 * ph + 2];
            }
#pragma unroll
            for (int e = 0; e < 3; e++) {
                bg_word t = __shfl_down_sync(0xffffffffu, acc[3 * ph + e], 1, G);
                acc[3 * ph + e] = gl < G - 1 ? t : 0;
            }
        }
        if (V && gl == 0) {
#pragma unroll
            for (int k = 0; k < P / 4; k++) {
                reinterpret_cast<uint4 *>(c0 + i0)[k] = make_uint4(f0[4 * k], f0[4 * k + 1], f0[4 * k + 2], f0[4 * k + 3]);
                reinterpret_cast<uint4 *>(c1 + i0)[k] = make_uint4(f1[4 * k], f1[4 * k + 1], f1[4 * k + 2], f1[4 * k + 3]);
                reinterpret_cast<uint4 *>(c2 + i0)[k] = make_uint4(f2[4 * k], f2[4 * k + 1], f2[4 * k + 2], f2[4 * k + 3]);
            }
        }
    }
#pragma unroll
    for (int q = 0; q < P; q++) {
        c0[NP + P * gl + q] = acc[3 * q];
        c1[NP + P * gl + q] = acc[3 * q + 1];
        c2[NP + P * gl + q] = acc[3 * q + 2];
    }
    __syncwarp();
    /* columns -> words, 4G columns at a time, carries by lookahead over the group's lanes */
    bg_word *out = (bg_word *)(r + (active ? inst : 0) * 2 * (size_t)limbs);
    const uint32_t gmask = G == 32 ? 0xffffffffu : ((1u << G) - 1);
    bg_word Hprev[3] = {0, 0, 0};
    uint32_t cin = 0;
    for (int t = 0; t * 4 * G < 2 * NP; t++) {
        int k0 = t * 4 * G + 4 * gl;
        bg_word a12[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, L[4], H[3], Hp[3];
        if (k0 < 2 * NP)
            for (int c = 0; c < 4; c++) {
                a12[3 * c] = c0[k0 + c];
                a12[3 * c + 1] = c1[k0 + c];
                a12[3 * c + 2] = c2[k0 + c];
            }
        bg_col4_finish(a12, L, H);
        for (int e = 0; e < 3; e++) {
            Hp[e] = __shfl_up_sync(0xffffffffu, H[e], 1, G);
            if (gl == 0) Hp[e] = Hprev[e];
        }
        bg_word g = bg_add_h(L, Hp);
        bool p = k0 < C && (L[0] & L[1] & L[2] & L[3]) == 0xffffffffu;
        uint32_t Gm = (__ballot_sync(0xffffffffu, g != 0) >> (grp * G)) & gmask;
        uint32_t Pm = (__ballot_sync(0xffffffffu, p) >> (grp * G)) & gmask;
        uint32_t cout, mask = bg_lane_carries(Gm, Pm, cin, G, &cout);
        if ((mask >> gl) & 1)
            for (int k = 0; k < 4; k++)
                if (++L[k] != 0) break;
        if (active && k0 < C) store4(out + k0, L);
        for (int e = 0; e < 3; e++) Hprev[e] = __shfl_sync(0xffffffffu, H[e], G - 1, G);
        cin = cout;
    }
}

const int kSrWarps = 4;

template <int P, int G, bool V = false>
int launch_sr_pg(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs, cudaStream_t st)
{
    const int rs = V ? 7 * G * P + 4 : 7 * G * P + 1; /* words per group region */
    size_t smem = sizeof(bg_word) * rs * (32 / G) * kSrWarps;
    if (smem > 48 * 1024)
        BULK_CUDA_CHECK(NULL, bulk_cuda_smem_at_least((const void *)mul_sr_kernel<P, G, V>, smem));
    size_t per_block = (size_t)kSrWarps * (32 / G);
    size_t blocks = (n + per_block - 1) / per_block;
    mul_sr_kernel<P, G, V><<<(unsigned)blocks, 32 * kSrWarps, smem, st>>>(r, a, b, n, limbs);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

/* The compiled shapes: G lanes of P words; a width is padded up to G P. (Groups of 4 and 2
 * lanes, more words per lane, timed no faster at 1024 bits: docs/perf/int-gpu.md.) */
const int kSrP[] = {2, 4, 6, 8, 12, 16};
const int kSrG[] = {8, 16, 32};
const int kNumSrP = 6, kSrAutoG = 3;

/* The shape for 13 .. 16 limbs (832 .. 1024 bits), set from the measured shape table rather
 * than the cost model: G = 8, P = 4 (2.48e9/s at 1024 bits in the H200 shape table, G = 4,
 * P = 8 2.51e9/s: equal within noise; the model's pick too; docs/perf/int-gpu.md). */
const int kSr16G = 8, kSr16P = 4;

template <int G>
int launch_sr_g(int P, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                cudaStream_t st)
{
    switch (P) {
    case 2: return launch_sr_pg<2, G>(r, a, b, n, limbs, st);
    case 4: return launch_sr_pg<4, G>(r, a, b, n, limbs, st);
    case 6: return launch_sr_pg<6, G>(r, a, b, n, limbs, st);
    case 8: return launch_sr_pg<8, G>(r, a, b, n, limbs, st);
    case 12: return launch_sr_pg<12, G>(r, a, b, n, limbs, st);
    case 16: return launch_sr_pg<16, G>(r, a, b, n, limbs, st);
    default: return BULK_ERR_UNSUPPORTED;
    }
}

/* The vector variant (V) where compiled (8x4, 8x8, 16x4, 8x16, 16x8; G x P): measured faster
 * than the plain rows at every shape it covers (docs/perf/int-gpu.md "Multiplication"); -1
 * for the other shapes. */
int launch_sr_vec(int P, int G, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n,
                  int limbs, cudaStream_t st)
{
    if (G == 8 && P == 4) return launch_sr_pg<4, 8, true>(r, a, b, n, limbs, st);
    if (G == 8 && P == 8) return launch_sr_pg<8, 8, true>(r, a, b, n, limbs, st);
    if (G == 16 && P == 4) return launch_sr_pg<4, 16, true>(r, a, b, n, limbs, st);
    if (G == 8 && P == 16) return launch_sr_pg<16, 8, true>(r, a, b, n, limbs, st);
    if (G == 16 && P == 8) return launch_sr_pg<8, 16, true>(r, a, b, n, limbs, st);
    return -1;
}

} // namespace

namespace bgmul {

/* The cheapest compiled shape for this width by bg_cost_sr (0 when none holds it); 13 .. 16
 * limbs: kSr16G, kSr16P. */
void sr_shape(int limbs, int *P, int *G)
{
    double best = 0;
    *P = *G = 0;
    if (limbs >= 13 && limbs <= 16) {
        *G = kSr16G;
        *P = kSr16P;
        return;
    }
    for (int gi = 0; gi < kSrAutoG; gi++)
        for (int pi = 0; pi < kNumSrP; pi++) {
            int g = kSrG[gi], p = kSrP[pi];
            if (g * p < 2 * limbs) continue;
            double c = bg_cost_sr(p, g);
            if (*P == 0 || c < best) {
                best = c;
                *P = p;
                *G = g;
            }
            break; /* larger P for this G only pads more */
        }
}

int sr_p(int limbs)
{
    int P, G;
    sr_shape(limbs, &P, &G);
    return P;
}

int launch_sr(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs, cudaStream_t st)
{
    int P, G;
    sr_shape(limbs, &P, &G);
    int wr = launch_sr_vec(P, G, r, a, b, n, limbs, st);
    if (wr >= 0) return wr;
    switch (G) {
    case 8: return launch_sr_g<8>(P, r, a, b, n, limbs, st);
    case 16: return launch_sr_g<16>(P, r, a, b, n, limbs, st);
    case 32: return launch_sr_g<32>(P, r, a, b, n, limbs, st);
    default: return BULK_ERR_UNSUPPORTED;
    }
}

} // namespace bgmul
