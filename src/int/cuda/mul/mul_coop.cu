/* Multiplication with a group of TPI lanes per instance (core/mul_coop.h), up to 4096 bits: the
 * cooperative rows, and one Karatsuba step over three cooperative half products; the size
 * choice is in int_cuda_mul.cu. */
#include "int/cuda/num/mont_coop.cuh"
#include "int/cuda/core/mul_coop.h"
#include "int/cuda/mul/mul_internal.cuh"

namespace {

const int kCoopMulThreads = 128; /* 128 / TPI instances a block */

/* The product of a group: x (this lane's L words of the first operand, registers) times y (the
 * group's N = TPI L words in shared memory, read row by row as a broadcast): lane 0 stores word
 * i of the product into lo[i] at row i (i < N), and hi gets this lane's L words of the high half
 * (words N + gl L ..) once the carries are resolved (core/mul_coop.h). */
template <int L, int TPI>
__device__ __forceinline__ void coop_rows(bg_word *hi, bg_word *lo, const bg_word *x,
                                          const bg_word *y, const group<TPI> &g)
{
    bg_word t[L + 2], o[L + 2];
#pragma unroll
    for (int j = 0; j < L + 2; j++) t[j] = o[j] = 0;
    /* unrolled for groups of up to 4 lanes (the loop's back edge costs register moves): 2048
     * bits 1.676e9/s against 1.600e9 rolled, 4096 bits (ckara's halves) 4.73e8 against 4.62e8 on
     * one H200 (docs/perf/int-gpu-groups.md) */
#pragma unroll(TPI <= 4 ? TPI : 1)
    for (int s = 0; s < TPI; s++) {
#pragma unroll
        for (int k = 0; k < L; k++) { /* L even: the accumulators are back in place */
            const bg_word bi = y[s * L + k]; /* one address for the group: a broadcast */
            bg_mc_row_mul(t, o, x, bi, L);
            const bg_word d = __shfl_down_sync(g.gm, t[0], 1, TPI);
            if (g.gl == 0) lo[s * L + k] = t[0];
            bg_mc_shift(t, o, g.gl == TPI - 1 ? 0 : d, L);
        }
    }
    bg_mc_merge(t, t, o, L);
    const bg_word up = __shfl_up_sync(g.gm, t[L], 1, TPI);
    int p, cout;
    const int c = bg_mc_norm1(t, g.gl == 0 ? 0 : up, L, &p);
    const uint32_t cin = bg_mc_lookahead(g.ballot(c), g.ballot(p), TPI, &cout);
    bg_lc_inc(t, (int)((cin >> g.gl) & 1), L);
#pragma unroll
    for (int j = 0; j < L; j++) hi[j] = t[j];
}

/* Words of a group's row in shared memory: the low half of the product (N words, written row by
 * row; first a's words on their way to the registers), then b (N words; after the rows the
 * high half on its way out), and 4 words of padding: rows stay 16-byte aligned, and with N a
 * multiple of 32 the groups of a warp, reading word i of their rows at the same row, hit
 * different banks (the stride is 4 mod 32). */
template <int N> struct coop_row { enum { words = 2 * N + 4 }; };

/* One instance per group of TPI lanes, L words of a per lane in registers (N = TPI L words, the
 * width nw = 2 l zero-padded up to it), b in the group's row of shared memory (row i reads
 * word i, the same address for the whole group: a broadcast; against a shuffle from the owning
 * lane's registers the rate was the same, 1.62e9/s at 2048 bits, at 76 registers instead of
 * 92). Lane 0 stores the product's word i at row i into the row's low half; after the rows each
 * lane puts its words of the high half into the row's b half, and the row goes out.
 * vec: the operands and the result are 16-byte aligned and nw = N. Then the warp's 32 / TPI
 * instances are contiguous runs of memory (32 L words of a, of b, 64 L of the product), and the
 * warp moves them whole, lane k taking 16-byte piece k, k + 32, .. of the run, through the
 * rows in shared memory: every access is coalesced, where a lane's own words (16-byte pieces
 * 4 L bytes apart) used half of each 32-byte sector they touched, at 2048 bits 1.733e9/s
 * against 1.701e9 (one H200, 2^20 instances; docs/perf/int-gpu-groups.md). Otherwise each
 * lane moves its own words one by one. Control flow is the same for the whole warp (a group
 * past n computes on zeros and stores nothing), so that its exchanges name all 32 lanes
 * (warp_group). */
template <int L, int TPI>
__global__ void __launch_bounds__(kCoopMulThreads) mul_coop_kernel(bg_limb *r, const bg_limb *a,
                                                                   const bg_limb *b, size_t n,
                                                                   int l, int vec)
{
    extern __shared__ __align__(16) bg_word sm[];
    enum { N = L * TPI, S = coop_row<N>::words, G = 32 / TPI, Q = N / 4 /* pieces a half */ };
    const int nw = 2 * l, gib = threadIdx.x / TPI, lane = threadIdx.x & 31;
    const size_t inst = (size_t)blockIdx.x * (kCoopMulThreads / TPI) + gib;
    const bool in = inst < n;
    const group<TPI> g = warp_group<TPI>();
    bg_word *lo = sm + gib * S, *yb = lo + N;
    const int w0 = g.gl * L;
    bg_word x[L];
    if (vec) {
        const size_t first = inst - gib % G; /* the warp's first instance */
        bg_word *wrows = lo - (gib % G) * S;
        const uint4 *ag = (const uint4 *)(a + first * l), *bg = (const uint4 *)(b + first * l);
#pragma unroll
        for (int j = 0; j < L / 4; j++) {
            const int k = j * 32 + lane, i = k / Q, w = 4 * (k % Q);
            const bool live = first + i < n;
            *(uint4 *)(wrows + i * S + w) = live ? ag[k] : make_uint4(0, 0, 0, 0);
            *(uint4 *)(wrows + i * S + N + w) = live ? bg[k] : make_uint4(0, 0, 0, 0);
        }
        __syncwarp();
#pragma unroll
        for (int j = 0; j < L; j += 4) {
            const uint4 u = *(const uint4 *)(lo + w0 + j);
            x[j] = u.x, x[j + 1] = u.y, x[j + 2] = u.z, x[j + 3] = u.w;
        }
    } else {
        const size_t at = in ? inst : 0; /* a group past n reads nothing through it */
        const bg_word *ag = (const bg_word *)(a + at * l), *bg = (const bg_word *)(b + at * l);
#pragma unroll
        for (int j = 0; j < L; j++) {
            x[j] = in && w0 + j < nw ? ag[w0 + j] : 0;
            yb[w0 + j] = in && w0 + j < nw ? bg[w0 + j] : 0;
        }
    }
    __syncwarp(); /* a's words are in registers before the rows write the low half over them */
    bg_word t[L];
    coop_rows<L, TPI>(t, lo, x, yb, g);
    __syncwarp(); /* the rows have read b before the high half replaces it */
    if (vec) {
#pragma unroll
        for (int j = 0; j < L; j += 4)
            *(uint4 *)(yb + w0 + j) = make_uint4(t[j], t[j + 1], t[j + 2], t[j + 3]);
        __syncwarp();
        const size_t first = inst - gib % G;
        const bg_word *wrows = lo - (gib % G) * S;
        uint4 *out = (uint4 *)(r + first * 2 * l);
#pragma unroll
        for (int j = 0; j < L / 2; j++) {
            const int k = j * 32 + lane, i = k / (2 * Q), w = 4 * (k % (2 * Q));
            if (first + i < n) out[k] = *(const uint4 *)(wrows + i * S + w);
        }
        return;
    }
    if (!in) return;
    bg_word *out = (bg_word *)(r + inst * 2 * l);
#pragma unroll
    for (int j = 0; j < L; j++) {
        if (w0 + j < 2 * nw) out[w0 + j] = lo[w0 + j];
        if (N + w0 + j < 2 * nw) out[N + w0 + j] = t[j];
    }
}

template <int L, int TPI>
int launch_coop(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st)
{
    const int per = kCoopMulThreads / TPI;
    const size_t smem = sizeof(bg_word) * (size_t)per * coop_row<L * TPI>::words;
    const int vec = 2 * l == L * TPI && ((uintptr_t)r | (uintptr_t)a | (uintptr_t)b) % 16 == 0;
    const unsigned grid = (unsigned)((n + per - 1) / per);
    mul_coop_kernel<L, TPI><<<grid, kCoopMulThreads, smem, st>>>(r, a, b, n, l, vec);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

/* ---- one Karatsuba step over three cooperative half products (core/mul_coop.h) -------------- */

const int kKcThreads = 96; /* three warps: p0, p2, pm of 32 / TPI instances */

/* Chunk c's BG_KC_CHUNK words at p (shared memory, 16-byte aligned) into registers. */
__device__ __forceinline__ void kc_load(bg_word *w, const bg_word *p)
{
#pragma unroll
    for (int j = 0; j < BG_KC_CHUNK; j += 4) {
        const uint4 v = *(const uint4 *)(p + j);
        w[j] = v.x, w[j + 1] = v.y, w[j + 2] = v.z, w[j + 3] = v.w;
    }
}

/* Products of 2 H words (H = 16 TPI: 4096 bits at TPI 4), 32 / TPI instances a block. The block
 * stages a and b (coalesced, 8-byte loads) into one shared-memory row per instance: a, b, p0,
 * p2, pm (2 H words each; rows of 10 H + 4 words, so the chunks of consecutive instances, read
 * as 16-byte vectors, fall in different banks). Warp w's groups compute p0 (w = 0), p2 (w = 1)
 * or pm (w = 2, which first forms |a0 - a1| in registers and |b1 - b0| in pm's upper half, and
 * the sign) with coop_rows; then the block's 96 threads take the chunks (thread t: instance
 * t mod (32 / TPI), chunk t / (32 / TPI), so a warp's threads read rows of different instances)
 * and pass the carries up one chunk a round, a barrier each (usually one or two rounds). r must
 * be 16-byte aligned. */
template <int TPI>
__global__ void __launch_bounds__(kKcThreads) mul_kcoop_kernel(bg_limb *r, const bg_limb *a,
                                                               const bg_limb *b, size_t n)
{
    enum { L = 16, H = 16 * TPI, IPB = 32 / TPI, S = 10 * H + 4, C = 3 * H / BG_KC_CHUNK };
    __shared__ __align__(16) bg_word sm[IPB * S];
    __shared__ int carry[kKcThreads], negs[IPB];
    const size_t first = (size_t)blockIdx.x * IPB;
    const int cnt = (int)(n - first < (size_t)IPB ? n - first : IPB);
    const bg_limb *ga = a + first * H, *gb = b + first * H; /* H limbs = 2 H words each */
    for (int k = threadIdx.x; k < IPB * H; k += kKcThreads) {
        const int inst = k / H, j = k % H;
        const bg_limb va = inst < cnt ? ga[k] : 0, vb = inst < cnt ? gb[k] : 0;
        bg_word *row = sm + inst * S;
        row[2 * j] = (bg_word)va, row[2 * j + 1] = (bg_word)(va >> 32);
        row[2 * H + 2 * j] = (bg_word)vb, row[2 * H + 2 * j + 1] = (bg_word)(vb >> 32);
    }
    __syncthreads();
    const int role = threadIdx.x / 32, gib = (threadIdx.x & 31) / TPI;
    const group<TPI> g = this_group<TPI>();
    bg_word *row = sm + gib * S, *P = row + 4 * H + 2 * H * role;
    const int w0 = g.gl * L;
    bg_word x[L];
    const bg_word *y;
    if (role < 2) { /* a0 b0 or a1 b1 */
#pragma unroll
        for (int j = 0; j < L; j++) x[j] = row[role * H + w0 + j];
        y = row + 2 * H + role * H;
    } else { /* |a0 - a1| |b1 - b0| */
        bg_word u[L], v[L], d[L];
#pragma unroll
        for (int j = 0; j < L; j++) u[j] = row[w0 + j], v[j] = row[H + w0 + j];
        const int sa = mc_sub_words<L, TPI>(x, u, v, g);
        if (sa) mc_sub_words<L, TPI>(x, v, u, g);
#pragma unroll
        for (int j = 0; j < L; j++) u[j] = row[3 * H + w0 + j], v[j] = row[2 * H + w0 + j];
        const int sb = mc_sub_words<L, TPI>(d, u, v, g);
        if (sb) mc_sub_words<L, TPI>(d, v, u, g);
#pragma unroll
        for (int j = 0; j < L; j++) P[H + w0 + j] = d[j];
        if (g.gl == 0) negs[gib] = sa ^ sb;
        __syncwarp(g.gm);
        y = P + H;
    }
    bg_word hi[L];
    coop_rows<L, TPI>(hi, P, x, y, g);
    __syncwarp(g.gm); /* y, when it is pm's upper half, read by the whole group */
#pragma unroll
    for (int j = 0; j < L; j++) P[H + w0 + j] = hi[j];
    __syncthreads();
    const int ki = threadIdx.x % IPB, c = threadIdx.x / IPB;
    const bg_word *kr = sm + ki * S;
    const int k = BG_KC_CHUNK * c; /* the chunk's first word above H */
    bg_word w[BG_KC_CHUNK];
    kc_load(w, kr + 5 * H + k); /* p0's high half, then p2 (p0 and p2 are adjacent in the row) */
    int co = 0;
    if (k < 2 * H) {
        bg_word y[BG_KC_CHUNK], z[BG_KC_CHUNK], u[BG_KC_CHUNK];
        kc_load(y, kr + 4 * H + k);
        kc_load(z, kr + 6 * H + k);
        kc_load(u, kr + 8 * H + k);
        co = bg_kc_sum4(w, w, y, z, u, negs[ki]);
    }
    for (;;) {
        carry[threadIdx.x] = co;
        if (!__syncthreads_or(c + 1 < C && co != 0)) break;
        const int cin = c ? carry[threadIdx.x - IPB] : 0;
        __syncthreads();
        co = bg_kc_add(w, cin);
    }
    if (ki >= cnt) return;
    bg_word *out = (bg_word *)(r + (first + ki) * 2 * H);
#pragma unroll
    for (int j = 0; j < BG_KC_CHUNK; j += 4) {
        *(uint4 *)(out + H + BG_KC_CHUNK * c + j) = make_uint4(w[j], w[j + 1], w[j + 2], w[j + 3]);
        if (c < H / BG_KC_CHUNK) {
            const bg_word *p0 = kr + 4 * H + BG_KC_CHUNK * c + j;
            *(uint4 *)(out + BG_KC_CHUNK * c + j) = make_uint4(p0[0], p0[1], p0[2], p0[3]);
        }
    }
}

template <int TPI>
int launch_kcoop(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, cudaStream_t st)
{
    const int per = 32 / TPI;
    const unsigned grid = (unsigned)((n + per - 1) / per);
    mul_kcoop_kernel<TPI><<<grid, kKcThreads, 0, st>>>(r, a, b, n);
    BULK_CUDA_CHECK_LAUNCH(NULL);
    return BULK_OK;
}

} // namespace

namespace bgmul {

/* 4 lanes of 16 words up to 2048 bits, 8 up to 4096: measured on one H200 (device-resident,
 * 2^20 and 2^18 instances) against 8 lanes of 8 words at 2048 bits (1.41e9/s against
 * 1.62e9) and 16 of 8 at 4096 (3.64e8 against 4.16e8); docs/perf/int-gpu-groups.md "Cooperative
 * products at 2048 and 4096 bits". */
int launch_coop(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st)
{
    if (l <= 32) return ::launch_coop<16, 4>(r, a, b, n, l, st);
    return ::launch_coop<16, 8>(r, a, b, n, l, st);
}

/* One Karatsuba step over cooperative half products at exactly 64 limbs (4.55e8/s against the
 * rows' 4.16e8 on one H200; at 32 limbs, halves of 2 lanes x 16 words, it ran 1.20e9 against
 * 1.61e9, halves of 4 x 8 1.14e9 against 1.60e9, and is not compiled:
 * docs/perf/int-gpu-groups.md); other widths, and a result that is not 16-byte aligned, take the
 * cooperative rows. */
int launch_ckara(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int l, cudaStream_t st)
{
    if ((uintptr_t)r % 16 == 0 && l == 64) return ::launch_kcoop<4>(r, a, b, n, st);
    return launch_coop(r, a, b, n, l, st);
}

} // namespace bgmul
