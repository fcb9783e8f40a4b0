/* Exact multiplication by a three-prime NTT on the GPU (contract: int_cuda_ntt.h; the per-element
 * logic: ntt_gpu_core.h, tested on the CPU by test_int_gpu_ntt_core).
 *
 * Batched (ntt_batch_kernel): one block per instance, primes below 2^31 (prime set 1 of
 * ntt_gpu_core.h), radix-8 passes. Per prime: the operands' 32-bit words
 * reduced into x and y (shared memory; y in device scratch for the widest, 32768-point
 * transforms, which would exceed a block's 227 KiB), forward transforms of both (radix-8
 * passes, barriers between passes; shared memory in the bank-spreading order nt_sw), pointwise
 * product, backward transform of x; the residues of primes 0 and 1 go to device scratch, those
 * of prime 2 to y in natural order. Then Garner's CRT and the
 * carries (owners of consecutive words, lookahead over the block's owners), the result words
 * assembled in x and written out coalesced.
 *
 * Single large products (bulk_int_cuda_mul_big_dev): the transforms over global memory - radix-4
 * passes of one thread per group down to blocks of 4096 points, which then run in shared memory
 * (ntt_block_kernel) - and the carries over the whole grid: a local pass per owner, a block
 * lookahead giving each owner its carry for block carry-in 0 and 1, a serial pass over the
 * blocks, the application. The C entry points and the pinned staging of the host copies are in
 * int_cuda_ntt_host.cu. */
#include <mutex>
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_cuda_ntt.cuh"
#include "int/cuda/int_cuda_ntt.h"
#include "int/cuda/ntt_gpu_core.h"

namespace {

/* Stage tables up to h = 2^14 (transforms of 2^15 points in one block) per prime set, prime and
 * direction (0 forward, 1 backward), and the two-level tables of the global passes (set 0);
 * filled once per device from the host (tables_ready). 1.9 MiB in all. They stay per process,
 * not per context: a __device__ symbol exists once per device, its contents are constants
 * identical for every context, and g_tables_mu makes the first filling on each device happen
 * once whichever contexts and threads get there first. */
const int kTwLog = 14;
__device__ uint32_t d_tw[NT_NSETS][NT_NPRIMES][2][2 << kTwLog];
__device__ uint32_t d_lo[NT_NPRIMES][2][1 << NT_TWL_LOG];
__device__ uint32_t d_hi[NT_NPRIMES][2][1 << NT_TWL_LOG];

std::mutex g_tables_mu;
bool g_tables_done[64];

int tables_ready()
{
    int dev = 0;
    BULK_CUDA_CHECK(NULL, cudaGetDevice(&dev));
    if (dev < 0 || dev >= 64) return BULK_ERR_CUDA;
    std::lock_guard<std::mutex> lock(g_tables_mu);
    if (g_tables_done[dev]) return BULK_OK;
    static uint32_t tw[NT_NSETS][NT_NPRIMES][2][2 << kTwLog];
    static uint32_t lo[NT_NPRIMES][2][1 << NT_TWL_LOG], hi[NT_NPRIMES][2][1 << NT_TWL_LOG];
    for (int set = 0; set < NT_NSETS; set++)
        for (int k = 0; k < NT_NPRIMES; k++) {
            nt_prime P = nt_prime_get(set, k);
            for (int inv = 0; inv < 2; inv++) {
                nt_stage_table(tw[set][k][inv], (size_t)1 << kTwLog, &P, inv);
                if (set == 0) nt_tw2_tables(lo[k][inv], hi[k][inv], &P, inv);
            }
        }
    BULK_CUDA_CHECK(NULL, cudaMemcpyToSymbol(d_tw, tw, sizeof tw));
    BULK_CUDA_CHECK(NULL, cudaMemcpyToSymbol(d_lo, lo, sizeof lo));
    BULK_CUDA_CHECK(NULL, cudaMemcpyToSymbol(d_hi, hi, sizeof hi));
    g_tables_done[dev] = true;
    return BULK_OK;
}

/* The large products use prime set 0 (transforms up to 2^27 points). */
__device__ __forceinline__ uint32_t prime_p(int k) { return nt_p(0, k); }
__device__ __forceinline__ uint32_t prime_pinv(int k) { return nt_pinv(0, k); }

/* The block-wide carries of owners [0, T) (one per thread): g, pr this thread's generate and
 * propagate bits; sG, sP, sC: 3 x 32 words of shared memory. Returns this owner's carry-in for
 * block carry-in 0 (in *c0) and 1 (*c1); the block's carry outs in *o0, *o1 (every thread). */
__device__ void block_carries(uint32_t g, uint32_t pr, uint32_t *sG, uint32_t *sP, uint32_t *sC,
                              uint32_t *c0, uint32_t *c1, uint32_t *o0, uint32_t *o1)
{
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    uint32_t G = __ballot_sync(0xffffffffu, g), P = __ballot_sync(0xffffffffu, pr);
    if (lane == 0) {
        sG[warp] = G;
        sP[warp] = P;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        sC[64] = nt_block_carries(sG, sP, (int)nw, 0, sC);
        sC[65] = nt_block_carries(sG, sP, (int)nw, 1, sC + 32);
    }
    __syncthreads();
    *c0 = (sC[warp] >> lane) & 1;
    *c1 = (sC[32 + warp] >> lane) & 1;
    *o0 = sC[64];
    *o1 = sC[65];
}

/* ---- batched: one block per instance ---------------------------------------------------------- */

/* Dynamic shared memory: x (N words), y (N words when YS), H (3 T words), 32 + 32 + 66 words. */
/* N^-1 R^2 mod p_k for the transform length (the pointwise scale), computed on the host. */
struct nt_scales {
    uint32_t s[NT_NPRIMES];
};

nt_scales scales_for(int set, int lg)
{
    nt_scales S;
    for (int k = 0; k < NT_NPRIMES; k++) {
        nt_prime P = nt_prime_get(set, k);
        S.s[k] = nt_scale(lg, &P);
    }
    return S;
}

/* YS: y in shared memory (else in device scratch). SET: the prime set (1: below 2^31, the
 * cheaper arithmetic). Radix-8 passes; shared memory in the nt_sw order SW (the residues of the
 * last prime then go to y in natural order for the carries). The prime loop is unrolled so that
 * each prime is a compile-time constant. */
template <bool YS>
__global__ void __launch_bounds__(512)
ntt_batch_kernel(bg_limb *r, const bg_limb *a, const bg_limb *b, int limbs, int lg,
                 uint32_t *scratch, nt_scales sc)
{
    constexpr int SET = 1;
    constexpr bool SW = true;
    extern __shared__ uint32_t sm[];
    const size_t n = (size_t)1 << lg, inst = blockIdx.x;
    const unsigned tid = threadIdx.x, T = blockDim.x;
    uint32_t *x = sm;
    uint32_t *res = scratch + inst * (YS ? 2 : 3) * n; /* primes 0, 1; then y when !YS */
    uint32_t *y = YS ? sm + n : res + 2 * n;
    uint32_t *sH = sm + (YS ? 2 : 1) * n, *sG = sH + 3 * T, *sP = sG + 32, *sC = sP + 32;
    const bool sq = a == b;
    const int nw = 2 * limbs;
    const uint32_t *a32 = (const uint32_t *)(a + inst * (size_t)limbs);
    const uint32_t *b32 = (const uint32_t *)(b + inst * (size_t)limbs);
    const int np = nt_npasses8(lg);
#pragma unroll
    for (int k = 0; k < NT_NPRIMES; k++) {
        const uint32_t p = nt_p(SET, k), pinv = nt_pinv(SET, k);
        const uint32_t *tw = d_tw[SET][k][0], *itw = d_tw[SET][k][1];
        for (unsigned i = tid; i < n; i += T) { /* point i at nt_sw(i): see ntt_gpu_core.h */
            const unsigned ip = nt_sw(i, SW);
            x[ip] = (int)i < nw ? nt_reduce(a32[i], p) : 0;
            if (!sq) y[ip] = (int)i < nw ? nt_reduce(b32[i], p) : 0;
        }
        __syncthreads();
        for (int ps = 0; ps < np; ps++) {
            nt_fwd_pass8(x, lg, ps, tid, T, tw, SW, p, pinv);
            if (!sq) nt_fwd_pass8(y, lg, ps, tid, T, tw, SW, p, pinv);
            __syncthreads();
        }
        nt_pointwise(x, sq ? x : y, n, tid, T, k == 0 ? sc.s[0] : k == 1 ? sc.s[1] : sc.s[2], p, pinv);
        __syncthreads();
        for (int ps = 0; ps < np; ps++) {
            nt_inv_pass8(x, lg, ps, tid, T, itw, SW, p, pinv);
            __syncthreads();
        }
        if (k < 2) {
            for (unsigned i = tid; i < n; i += T) res[k * n + i] = x[nt_sw(i, SW)];
            __syncthreads();
        } else { /* prime 2's residues into y in natural order (y is free now) */
            for (unsigned i = tid; i < n; i += T) y[i] = x[nt_sw(i, 1)];
            __syncthreads();
        }
    }
    /* CRT and carries over the M = 2 nw result words, owner = thread, in z (natural order) */
    uint32_t *z = y;
    const size_t M = 2 * (size_t)nw, K = nt_owner_words(M, T);
    const size_t s0 = tid * K, e0 = s0 + K < M ? s0 + K : M;
    if (s0 < M) nt_carry_local(SET, z, res, res + n, z, s0, e0, sH + 3 * tid);
    __syncthreads();
    uint32_t g = 0, pr = 1;
    if (s0 < M) g = nt_carry_owner(z, s0, e0, tid > 0 ? sH + 3 * (tid - 1) : NULL, &pr);
    uint32_t c0, c1, o0, o1;
    block_carries(g, pr, sG, sP, sC, &c0, &c1, &o0, &o1);
    if (s0 < M) nt_carry_apply(z + s0, (int)(e0 - s0), c0);
    __syncthreads();
    bg_limb *ri = r + inst * 2 * (size_t)limbs;
    for (size_t i = tid; i < 2 * (size_t)limbs; i += T)
        ri[i] = (bg_limb)z[2 * i] | (bg_limb)z[2 * i + 1] << 32;
}

/* Threads per block for a transform of 2^lg points: one per 16 points, 64 .. 512
 * (docs/perf/int-gpu.md "NTT"). */
unsigned batch_threads(int lg)
{
    size_t n = (size_t)1 << lg;
    size_t v = n / 16;
    return v < 64 ? 64 : v > 512 ? 512 : (unsigned)v;
}

/* The largest shared-memory block the device gives (opt-in), cached per process. */
int max_smem()
{
    static int v = 0;
    if (!v) {
        int dev = 0, m = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&m, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
            return 48 << 10;
        v = m;
    }
    return v;
}

template <bool YS>
int launch_batch(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs, int lg,
                 unsigned T, size_t smem, cudaStream_t st)
{
    static bool attr_set[64]; /* per device: the attribute belongs to the device's context */
    int dev = 0;
    BULK_CUDA_CHECK(NULL, cudaGetDevice(&dev));
    if (dev < 0 || dev >= 64 || !attr_set[dev]) {
        BULK_CUDA_CHECK(NULL, cudaFuncSetAttribute(ntt_batch_kernel<YS>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize, max_smem()));
        if (dev >= 0 && dev < 64) attr_set[dev] = true;
    }
    const size_t N = (size_t)1 << lg, per = (YS ? 2 : 3) * N * sizeof(uint32_t);
    size_t batch = ((size_t)512 << 20) / per;
    if (batch == 0) batch = 1;
    if (batch > n) batch = n;
    if (batch > 0x7fffffff) batch = 0x7fffffff;
    const nt_scales sc = scales_for(1, lg);
    uint32_t *s = NULL;
    if (bg_scratch_alloc((void **)&s, batch * per, st) != BULK_OK) return BULK_ERR_NOMEM;
    int rc = BULK_OK;
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        const bg_limb *bd = a == b ? a + done * limbs : b + done * limbs;
        ntt_batch_kernel<YS><<<(unsigned)cnt, T, smem, st>>>(r + done * 2 * limbs,
                                                                   a + done * limbs, bd, limbs, lg, s, sc);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

/* ---- single large products -------------------------------------------------------------------- */

const int kBlockLog = 12; /* the shared-memory blocks of the global transform: 4096 points */
const unsigned kCarryThreads = 256;

/* x[i] = a's word i mod p (0 beyond na words), i < N; the same for y from b unless y is NULL. */
__global__ void big_load_kernel(uint32_t *x, uint32_t *y, const uint32_t *a, size_t nwa,
                                const uint32_t *b, size_t nwb, size_t N, uint32_t p)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < N;
         i += (size_t)gridDim.x * blockDim.x) {
        x[i] = i < nwa ? nt_reduce(a[i], p) : 0;
        if (y) y[i] = i < nwb ? nt_reduce(b[i], p) : 0;
    }
}

/* One global pass (forward or backward, radix 4 at h = 2^lh or radix 2) over x, and over y
 * when not NULL (grid-stride over the groups of both). */
__global__ void big_pass_kernel(uint32_t *x, uint32_t *y, int lg, int lh, int r4, int inv, int k)
{
    const uint32_t p = prime_p(k), pinv = prime_pinv(k);
    const uint32_t *lo = d_lo[k][inv], *hi = d_hi[k][inv];
    const size_t per = ((size_t)1 << lg) >> (r4 ? 2 : 1), total = y ? 2 * per : per;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
         t += (size_t)gridDim.x * blockDim.x) {
        uint32_t *v = t < per ? x : y;
        size_t g = t < per ? t : t - per;
        if (r4) nt_glob_r4(v, lh, g, lo, hi, inv, p, pinv);
        else nt_glob_r2(v, lh, g, lo, hi, inv, p, pinv);
    }
}

/* The stages inside blocks of 2^ls points, in shared memory: block blockIdx.x of x (and of y
 * for the blocks beyond x's when y is not NULL). */
__global__ void __launch_bounds__(512)
big_block_kernel(uint32_t *x, uint32_t *y, size_t nblk, int ls, int inv, int k)
{
    __shared__ uint32_t s[1 << kBlockLog];
    const uint32_t p = prime_p(k), pinv = prime_pinv(k);
    const size_t S = (size_t)1 << ls;
    size_t blk = blockIdx.x;
    uint32_t *v = blk < nblk ? x : y;
    if (blk >= nblk) blk -= nblk;
    v += blk * S;
    for (unsigned i = threadIdx.x; i < S; i += blockDim.x) s[nt_sw(i, 1)] = v[i];
    __syncthreads();
    const uint32_t *tw = d_tw[0][k][inv];
    for (int ps = 0; ps < nt_npasses(ls); ps++) {
        if (inv) nt_inv_pass(s, ls, ps, threadIdx.x, blockDim.x, tw, 1, p, pinv);
        else nt_fwd_pass(s, ls, ps, threadIdx.x, blockDim.x, tw, 1, p, pinv);
        __syncthreads();
    }
    for (unsigned i = threadIdx.x; i < S; i += blockDim.x) v[i] = s[nt_sw(i, 1)];
}

__global__ void big_pointwise_kernel(uint32_t *x, const uint32_t *y, size_t N, uint32_t sc, int k)
{
    const uint32_t p = prime_p(k), pinv = prime_pinv(k);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < N;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = nt_mont(nt_mont(x[i], y[i], p, pinv), sc, p, pinv);
}

/* Carries, pass 1: owner t (one per thread) of [t K, (t + 1) K) writes its low words into out
 * and its overflow into H[3 t ..]. */
__global__ void big_crt_kernel(uint32_t *out, const uint32_t *r0, const uint32_t *r1,
                               const uint32_t *r2, uint32_t *H, size_t M, size_t K, size_t owners)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= owners) return;
    size_t s = t * K, e = s + K < M ? s + K : M;
    if (s < M) nt_carry_local(0, out, r0, r1, r2, s, e, H + 3 * t);
}

/* Pass 2: each owner adds the previous owner's overflow; the block's lookahead gives each owner
 * its carry for block carry-in 0 and 1 (bits 0, 1 of cc[t]) and the block's carry outs (BO). */
__global__ void big_carry_kernel(uint32_t *out, const uint32_t *H, uint8_t *cc, uint8_t *BO,
                                 size_t M, size_t K, size_t owners)
{
    __shared__ uint32_t sG[32], sP[32], sC[66];
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t s = t * K, e = s + K < M ? s + K : M;
    uint32_t g = 0, pr = 1;
    if (t < owners && s < M) g = nt_carry_owner(out, s, e, t > 0 ? H + 3 * (t - 1) : NULL, &pr);
    uint32_t c0, c1, o0, o1;
    block_carries(g, pr, sG, sP, sC, &c0, &c1, &o0, &o1);
    if (t < owners) cc[t] = (uint8_t)(c0 | c1 << 1);
    if (threadIdx.x == 0) BO[blockIdx.x] = (uint8_t)(o0 | o1 << 1);
}

/* Pass 3: the blocks in order (one thread; a few thousand blocks at most per 2^27 words):
 * BI[b] = carry into block b. */
__global__ void big_scan_kernel(const uint8_t *BO, uint8_t *BI, size_t nblocks)
{
    uint32_t c = 0;
    for (size_t b = 0; b < nblocks; b++) {
        BI[b] = (uint8_t)c;
        c = (BO[b] >> c) & 1;
    }
}

__global__ void big_apply_kernel(uint32_t *out, const uint8_t *cc, const uint8_t *BI, size_t M,
                                 size_t K, size_t owners)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= owners) return;
    size_t s = t * K, e = s + K < M ? s + K : M;
    uint32_t c = (cc[t] >> BI[blockIdx.x]) & 1;
    if (s < M) nt_carry_apply(out + s, (int)(e - s), c);
}

unsigned grid_for(size_t work, unsigned threads)
{
    size_t g = (work + threads - 1) / threads;
    return g > 65535 * 8 ? 65535 * 8 : g == 0 ? 1 : (unsigned)g;
}

/* Scratch layout of one big product (32-bit words): X0 X1 X2 Y (N each; Y absent for a square),
 * H (3 per owner), then bytes cc (per owner), BO, BI (per carry block). */
struct big_plan {
    int lg, ls;
    size_t N, M, K, owners, nblocks, words, bytes;
};

big_plan plan_big(size_t na, size_t nb, bool sq)
{
    big_plan P;
    P.lg = nt_log_points(na, nb);
    P.ls = P.lg < kBlockLog ? P.lg : kBlockLog;
    P.N = (size_t)1 << P.lg;
    P.M = 2 * (na + nb);
    size_t owners = (P.M + 7) / 8;
    P.K = nt_owner_words(P.M, (unsigned)(owners < 0xffffffffu ? owners : 0xffffffffu));
    P.owners = (P.M + P.K - 1) / P.K;
    P.nblocks = (P.owners + kCarryThreads - 1) / kCarryThreads;
    P.owners = P.nblocks * kCarryThreads; /* whole blocks: the tail owners are empty */
    P.words = (sq ? 3 : 4) * P.N + 3 * P.owners;
    P.bytes = P.words * 4 + P.owners + 2 * P.nblocks + 16;
    return P;
}

int mul_big_on(bg_limb *r, const bg_limb *a, size_t na, const bg_limb *b, size_t nb,
               cudaStream_t st)
{
    int rc = tables_ready();
    if (rc != BULK_OK) return rc;
    const bool sq = a == b && na == nb;
    const big_plan P = plan_big(na, nb, sq);
    uint32_t *s = NULL;
    if (bg_scratch_alloc((void **)&s, P.bytes, st) != BULK_OK) return BULK_ERR_NOMEM;
    uint32_t *X[3] = {s, s + P.N, s + 2 * P.N}, *Y = sq ? NULL : s + 3 * P.N;
    uint32_t *H = s + (sq ? 3 : 4) * P.N;
    uint8_t *cc = (uint8_t *)(H + 3 * P.owners), *BO = cc + P.owners, *BI = BO + P.nblocks;
    const size_t nblk = P.N >> P.ls;
    const unsigned bt = P.ls >= 11 ? 512 : 64 > (1u << P.ls) / 4 ? 64 : (1u << P.ls) / 4;
    for (int k = 0; k < NT_NPRIMES && rc == BULK_OK; k++) {
        nt_prime pr = nt_prime_get(0, k);
        big_load_kernel<<<grid_for(P.N, 256), 256, 0, st>>>(X[k], Y, (const uint32_t *)a, 2 * na,
                                                            (const uint32_t *)b, 2 * nb, P.N, pr.p);
        /* forward: global passes down to the blocks, then the blocks */
        for (int lh = P.lg - 1; lh >= P.ls;) {
            int r4 = lh - 1 >= P.ls;
            big_pass_kernel<<<grid_for((P.N >> (r4 ? 2 : 1)) * (Y ? 2 : 1), 256), 256, 0, st>>>(
                X[k], Y, P.lg, lh, r4, 0, k);
            lh -= r4 ? 2 : 1;
        }
        big_block_kernel<<<(unsigned)(nblk * (Y ? 2 : 1)), bt, 0, st>>>(X[k], Y, nblk, P.ls, 0, k);
        big_pointwise_kernel<<<grid_for(P.N, 256), 256, 0, st>>>(X[k], Y ? Y : X[k], P.N,
                                                                 nt_scale(P.lg, &pr), k);
        /* backward: the blocks, then the global passes upward */
        big_block_kernel<<<(unsigned)nblk, bt, 0, st>>>(X[k], NULL, nblk, P.ls, 1, k);
        for (int lh = P.ls; lh <= P.lg - 1;) {
            int r4 = lh + 1 <= P.lg - 1;
            big_pass_kernel<<<grid_for(P.N >> (r4 ? 2 : 1), 256), 256, 0, st>>>(
                X[k], NULL, P.lg, r4 ? lh + 1 : lh, r4, 1, k);
            lh += r4 ? 2 : 1;
        }
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
    }
    if (rc == BULK_OK) {
        uint32_t *out = (uint32_t *)r;
        unsigned g = (unsigned)P.nblocks;
        big_crt_kernel<<<g, kCarryThreads, 0, st>>>(out, X[0], X[1], X[2], H, P.M, P.K, P.owners);
        big_carry_kernel<<<g, kCarryThreads, 0, st>>>(out, H, cc, BO, P.M, P.K, P.owners);
        big_scan_kernel<<<1, 1, 0, st>>>(BO, BI, P.nblocks);
        big_apply_kernel<<<g, kCarryThreads, 0, st>>>(out, cc, BI, P.M, P.K, P.owners);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

/* Widths (limbs) from which the size choice takes the NTT, measured on the H200 (device-resident,
 * bench_int_gpu_ntt --quick; docs/perf/int-gpu.md "NTT multiplication", the latest table in
 * bench/results/int-gpu-ntt-h200.txt):
 *   full products: 352 limbs (22528 bits). The crossover rows, NTT against the previous choice
 *     (warp-column there): 288 limbs 0.74, 320 0.90, 352 1.05, 384 1.23, 448 1.59; 512 limbs
 *     (32768 bits) 1.74 against Karatsuba and more at every width above (65536: 4.23e6/s
 *     against 1.54e6, 524288: 2.24e5 against 3.89e4); 256 limbs 0.92 against sum-rotate. (The
 *     NTT of 257..511 limbs is the same 2048-point transform, ~9.8e6/s.)
 *   squares: 224 limbs: 144 limbs 0.63, 160 0.72, 192 0.73, 224 1.23; 256 limbs 1.29, 128
 *     limbs 0.73.
 * Karatsuba over NTT halves measured slower than the NTT at every width (karantt column), so
 * there is no upper limit below BG_NTT_MAX_LIMBS. */
const int kNttMinLimbs = 352;
const int kNttMinLimbsSqr = 224;

} // namespace

int bg_launch_mul_ntt(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs,
                      cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs == 0 || limbs > BG_NTT_MAX_LIMBS) return BULK_ERR_UNSUPPORTED;
    int rc = tables_ready();
    if (rc != BULK_OK) return rc;
    const int lg = nt_log_points(limbs, limbs);
    const size_t N = (size_t)1 << lg;
    const unsigned T = batch_threads(lg);
    const size_t extra = (3 * (size_t)T + 32 + 32 + 66) * sizeof(uint32_t);
    /* y in shared memory when it fits (every width up to 16384 points on sm_90), else in
     * device scratch */
    const bool ys = (2 * N) * sizeof(uint32_t) + extra <= (size_t)max_smem();
    const size_t smem = (ys ? 2 : 1) * N * sizeof(uint32_t) + extra;
    if (smem > (size_t)max_smem()) return BULK_ERR_UNSUPPORTED; /* x alone does not fit (not on sm_90) */
    if (ys) return launch_batch<true>(r, a, b, n, (int)limbs, lg, T, smem, st);
    return launch_batch<false>(r, a, b, n, (int)limbs, lg, T, smem, st);
}

bool bg_ntt_preferred(int limbs, bool sqr, const bulk_tune *t)
{
    long long lo = sqr ? kNttMinLimbsSqr : kNttMinLimbs;
    if (t && t->int_ntt_min >= 0) lo = t->int_ntt_min;
    return lo > 0 && limbs >= lo && limbs <= BG_NTT_MAX_LIMBS;
}

int bg_mul_big_on(bg_limb *r, const bg_limb *a, size_t na, const bg_limb *b, size_t nb,
                  cudaStream_t st)
{
    return mul_big_on(r, a, na, b, nb, st);
}

size_t bg_mul_big_scratch_bytes(size_t na, size_t nb) { return plan_big(na, nb, false).bytes; }
