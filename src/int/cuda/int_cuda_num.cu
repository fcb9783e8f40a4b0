/* divmod, gcd and powmod on the GPU: one instance per thread over the column-major layout.
 *
 * These algorithms index their words with run-time values (lengths that shrink, windows,
 * quotient positions), so their numbers cannot live in registers. Each sub-batch is transposed
 * into column-major 32-bit words (word j of instance i at j * npad + i) in device scratch; the
 * threads of a warp then touch consecutive addresses whenever they touch the same word index,
 * which is almost always (seed 001 ch. 3: the semi-oblivious bulk execution), and every step
 * is the shared code of int_gpu_core.h that the CPU tests check against GMP. Results are
 * transposed back into the users' layout. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_cuda_internal.cuh"
#include "int/cuda/int_gpu_core.h"
#include "int/cuda/int_gpu_gcd_core.h"

namespace {

const int kThreads = 128;
const size_t kScratchBudget = (size_t)768 << 20; /* bytes of column scratch per sub-batch */

unsigned grid_for(size_t n) { return (unsigned)((n + kThreads - 1) / kThreads); }

/* col (words >= 2 limbs words per instance, stride npad; zeros above 2 limbs) <- src
 * (instance-major limbs) */
__global__ void to_cols_kernel(bg_word *col, const bg_limb *src, size_t n, size_t npad,
                               size_t limbs, size_t words)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (size_t j = 0; j < limbs; j++) {
        bg_limb v = src[i * limbs + j];
        col[(2 * j) * npad + i] = (bg_word)v;
        col[(2 * j + 1) * npad + i] = (bg_word)(v >> 32);
    }
    for (size_t j = 2 * limbs; j < words; j++) col[j * npad + i] = 0;
}

__global__ void from_cols_kernel(bg_limb *dst, const bg_word *col, size_t n, size_t npad,
                                 size_t limbs)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (size_t j = 0; j < limbs; j++)
        dst[i * limbs + j] =
            (bg_limb)col[(2 * j) * npad + i] | ((bg_limb)col[(2 * j + 1) * npad + i] << 32);
}

/* A persistent grid (kGcdBlocksPerSM blocks of kThreads per SM, striding over the instances):
 * the working set of the resident threads, X and Y of 2 x 4w bytes each (256 B at 1024 bits),
 * then stays in L1 (768 threads x 256 B = 192 KiB with the shared-memory carveout at its
 * minimum) instead of spilling to L2 and HBM as a full grid's 2048 threads per SM would. */
const int kGcdBlocksPerSM = 6;

__global__ void gcd_kernel(bg_word *G, const bg_word *A, const bg_word *B, bg_word *X, bg_word *Y,
                           size_t n, size_t npad, int nw)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        bg_gcd(G + i, A + i, B + i, X + i, Y + i, npad, nw);
}

/* gcd up to 2048 bits (limbs <= 32): batched divsteps with both numbers in registers
 * (bg_gcd_divsteps, capacity NW = 4, 8, 16, 32 or 64 words, narrower inputs zero-padded;
 * ptxas, nvcc 13 sm_90: 122 registers at 32 words, 164 at 64, no spills), reading
 * and writing the users' instance-major arrays directly: no scratch, no transposition. Each
 * instance costs ~71 batches of 30 divsteps at 1024 bits with little spread (max 74 over 20000
 * random pairs), so the threads of a warp finish together. */
template <int NW>
__global__ void __launch_bounds__(kThreads) gcd_regs_kernel(bg_limb *g, const bg_limb *a,
                                                           const bg_limb *b, size_t n, int limbs)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    size_t o = i * (size_t)limbs;
    bg_gcd_divsteps((bg_word *)(g + o), (const bg_word *)(a + o), (const bg_word *)(b + o), 1,
                    2 * limbs, NW);
}

/* BULK_CUDA_GCD=approx forces seed 001's approximate Euclidean kernel (gcd_kernel) at every
 * width; the default takes gcd_regs_kernel up to 32 limbs. */
bool gcd_approx_mode()
{
    const char *e = getenv("BULK_CUDA_GCD");
    return e && strcmp(e, "approx") == 0;
}

__global__ void divmod_kernel(bg_word *Q, bg_word *R, const bg_word *U, int nu, const bg_word *V,
                              int nv, bg_word *UN, bg_word *VN, size_t n, size_t npad,
                              int8_t *err, int *bad)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int e = bg_divmod(Q ? Q + i : NULL, R ? R + i : NULL, U + i, nu, V + i, nv, UN + i, VN + i,
                      npad);
    if (err) err[i] = (int8_t)(e ? BULK_ERR_DIVZERO : 0);
    if (e && bad) atomicExch(bad, 1);
}

__global__ void powmod_kernel(bg_word *R, const bg_word *B, const bg_word *E, const bg_word *M,
                              bg_word *S, size_t n, size_t npad, int nw, int8_t *err, int *bad)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int e = bg_powmod(R + i, B + i, E + i, M + i, S + i, npad, nw);
    if (err) err[i] = (int8_t)(e ? BULK_ERR_EVEN_MODULUS : 0);
    if (e && bad) atomicExch(bad, 1);
}

/* divmod with divisor and dividend in registers for divisors up to 16 limbs (1024 bits,
 * capacity NW = 4, 8, 16 or 32 words), the block's operands and results staged through shared
 * memory: the global loads and stores of a block are consecutive words (instance-major
 * operands read by each thread would have each thread walk its own 768 bytes at 2048/1024
 * bits: 32 cache lines per warp access, and every 4-byte store of q and r a separate L2 sector
 * write). Thread t's words sit at t S .. t S + S - 1 of shared memory, S = nu + wa + 1 odd, so
 * the per-thread accesses at equal offsets fall in distinct banks; q and r overwrite u and v
 * in place (the register code reads all of both first). The register code is
 * bg_divmod_regs_eor with the quotient loop rolled 8 steps an iteration (kDivmodRolled). An
 * instance whose divisor's top word is zero (short divisors, zero) takes the general bg_divmod
 * on its own instance-major scratch, after copying u and v there (bg_divmod zeroes q before
 * reading u): rare in bulk data, correct always.
 * Blocks of kDivmodBlock = 64 instances (half the shared memory of 128, so a block's staging
 * and barriers idle 2 warps instead of 4). A full block (64 instances) at the compiled width
 * (nu = 2 NW, wa = NW) with 16-byte aligned arrays is copied with 16-byte global accesses at
 * compile-time offsets, all of a thread's loads issued before the first shared-memory store
 * (one memory round trip instead of one per few words; no run-time division k / nu per word);
 * other blocks by the word loops. Measurements: docs/perf/int-gpu.md "Division". */
const int kDivmodBlock = 64;
const int kDivmodRolled = 8;

template <int NW>
__global__ void __launch_bounds__(kDivmodBlock, 512 / kDivmodBlock)
    divmod_stage_kernel(bg_limb *q, bg_limb *r, const bg_limb *a, int nu, const bg_limb *d, int wa,
                        bg_word *SC, size_t n, int8_t *err, int *bad)
{
    constexpr int BT = kDivmodBlock;
    extern __shared__ bg_word dsh[];
    const int S = nu + wa + 1;
    const size_t first = (size_t)blockIdx.x * BT;
    const int cnt = n - first < (size_t)BT ? (int)(n - first) : BT;
    const bg_word *ga = (const bg_word *)(a + first * (size_t)(nu / 2));
    const bg_word *gd = (const bg_word *)(d + first * (size_t)(wa / 2));
    bg_word *gq = q ? (bg_word *)(q + first * (size_t)(nu / 2)) : NULL;
    bg_word *gr = r ? (bg_word *)(r + first * (size_t)(wa / 2)) : NULL;
    const bool full = nu == 2 * NW && wa == NW && cnt == BT &&
                      (((uintptr_t)ga | (uintptr_t)gd | (uintptr_t)gq | (uintptr_t)gr) & 15) == 0;
    constexpr int NA4 = NW / 2, ND4 = NW / 4; /* 16-byte pieces of u and v per instance */
    constexpr int SF = 3 * NW + 1;            /* S when full */
    if (full) {
        const uint4 *a4 = (const uint4 *)ga, *d4 = (const uint4 *)gd;
        uint4 ra[NA4], rd[ND4];
        BG_UNROLL
        for (int it = 0; it < NA4; it++) ra[it] = a4[threadIdx.x + BT * it];
        BG_UNROLL
        for (int it = 0; it < ND4; it++) rd[it] = d4[threadIdx.x + BT * it];
        BG_UNROLL
        for (int it = 0; it < NA4; it++) {
            const int c = threadIdx.x + BT * it;
            bg_word *p = dsh + (c / NA4) * SF + 4 * (c % NA4);
            p[0] = ra[it].x; p[1] = ra[it].y; p[2] = ra[it].z; p[3] = ra[it].w;
        }
        BG_UNROLL
        for (int it = 0; it < ND4; it++) {
            const int c = threadIdx.x + BT * it;
            bg_word *p = dsh + (c / ND4) * SF + 2 * NW + 4 * (c % ND4);
            p[0] = rd[it].x; p[1] = rd[it].y; p[2] = rd[it].z; p[3] = rd[it].w;
        }
    } else {
        for (int k = threadIdx.x; k < cnt * nu; k += BT) {
            int inst = k / nu;
            dsh[inst * S + (k - inst * nu)] = ga[k];
        }
        for (int k = threadIdx.x; k < cnt * wa; k += BT) {
            int inst = k / wa;
            dsh[inst * S + nu + (k - inst * wa)] = gd[k];
        }
    }
    __syncthreads();
    const int t = threadIdx.x;
    if (t < cnt) {
        bg_word *u = dsh + t * S, *v = u + nu;
        int e = 0;
        /* full blocks: the widths as constants, so the normalising loads fold (one load and
         * one funnel shift a word instead of bounds checks on run-time offsets) */
        int st;
        if (full)
            st = bg_divmod_regs_eor(u, v, u, 2 * NW, v, NW, 1, NW, kDivmodRolled);
        else
            st = bg_divmod_regs_eor(u, v, u, nu, v, wa, 1, NW, kDivmodRolled);
        if (st < 0) {
            const size_t i = first + (size_t)t, per = 2 * (size_t)(nu + wa) + 1;
            bg_word *un = SC + i * per, *vn = un + nu + 1, *uc = vn + wa, *vc = uc + nu;
            bg_copy(uc, 1, u, 1, nu);
            bg_copy(vc, 1, v, 1, wa);
            e = bg_divmod(u, v, uc, nu, vc, wa, un, vn, 1);
        }
        if (err) err[first + t] = (int8_t)(e ? BULK_ERR_DIVZERO : 0);
        if (e && bad) atomicExch(bad, 1);
    }
    __syncthreads();
    if (full) {
        if (gq) {
            uint4 *q4 = (uint4 *)gq;
            BG_UNROLL
            for (int it = 0; it < NA4; it++) {
                const int c = threadIdx.x + BT * it;
                const bg_word *p = dsh + (c / NA4) * SF + 4 * (c % NA4);
                q4[c] = make_uint4(p[0], p[1], p[2], p[3]);
            }
        }
        if (gr) {
            uint4 *r4 = (uint4 *)gr;
            BG_UNROLL
            for (int it = 0; it < ND4; it++) {
                const int c = threadIdx.x + BT * it;
                const bg_word *p = dsh + (c / ND4) * SF + 2 * NW + 4 * (c % ND4);
                r4[c] = make_uint4(p[0], p[1], p[2], p[3]);
            }
        }
        return;
    }
    if (gq)
        for (int k = threadIdx.x; k < cnt * nu; k += BT) {
            int inst = k / nu;
            gq[k] = dsh[inst * S + (k - inst * nu)];
        }
    if (gr)
        for (int k = threadIdx.x; k < cnt * wa; k += BT) {
            int inst = k / wa;
            gr[k] = dsh[inst * S + nu + (k - inst * wa)];
        }
}

template <int NW>
int launch_divmod_stage(cudaStream_t st, bg_limb *q, bg_limb *r, const bg_limb *a, int nu,
                        const bg_limb *d, int nv, bg_word *SC, size_t n, int8_t *err, int *bad)
{
    const int BT = kDivmodBlock;
    size_t smem = sizeof(bg_word) * (size_t)BT * (size_t)(nu + nv + 1);
    if (smem > 48 * 1024)
        BG_CHECK(cudaFuncSetAttribute(divmod_stage_kernel<NW>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    const unsigned gr = (unsigned)((n + BT - 1) / BT);
    divmod_stage_kernel<NW><<<gr, BT, smem, st>>>(q, r, a, nu, d, nv, SC, n, err, bad);
    BG_CHECK_LAUNCH();
    return BULK_OK;
}

/* divmod_stage_kernel<NW> for the capacity of `limbs` (4, 8, 16 or 32 words). */
int launch_divmod_stage_w(size_t limbs, cudaStream_t st, bg_limb *q, bg_limb *r, const bg_limb *a,
                          int nu, const bg_limb *d, int nv, bg_word *SC, size_t n, int8_t *err,
                          int *bad)
{
    if (limbs <= 2) return launch_divmod_stage<4>(st, q, r, a, nu, d, nv, SC, n, err, bad);
    if (limbs <= 4) return launch_divmod_stage<8>(st, q, r, a, nu, d, nv, SC, n, err, bad);
    if (limbs <= 8) return launch_divmod_stage<16>(st, q, r, a, nu, d, nv, SC, n, err, bad);
    return launch_divmod_stage<32>(st, q, r, a, nu, d, nv, SC, n, err, bad);
}

/* powmod with the exponent loop's numbers in registers: NW (4, 8, 16 or 32 words) is the
 * capacity, the operands zero-padded up to it (Montgomery with R = 2^(32 NW) gives the same
 * result for any R > m). */
template <int NW>
__global__ void __launch_bounds__(kThreads) powmod_regs_kernel(bg_word *R, const bg_word *B,
                                                              const bg_word *E, const bg_word *M,
                                                              bg_word *S, size_t n, size_t npad,
                                                              int8_t *err, int *bad)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int e = bg_powmod_regs(R + i, B + i, E + i, M + i, S + i, npad, NW);
    if (err) err[i] = (int8_t)(e ? BULK_ERR_EVEN_MODULUS : 0);
    if (e && bad) atomicExch(bad, 1);
}

/* Sub-batch size for `words` column words per instance: within the budget, a multiple of 32. */
size_t sub_batch(size_t n, size_t words)
{
    size_t b = kScratchBudget / (words * sizeof(bg_word));
    b = b / 32 * 32;
    if (b < 32) b = 32;
    return b < n ? b : n;
}

size_t pad32(size_t n) { return (n + 31) / 32 * 32; }

/* Scratch from the stream-ordered pool; freed with cudaFreeAsync on the same stream. */
int scratch_alloc(bg_word **p, size_t words, cudaStream_t st)
{
    return bg_scratch_alloc((void **)p, words * sizeof(bg_word), st);
}

int to_cols(bg_word *col, const bg_limb *src, size_t n, size_t npad, size_t limbs, cudaStream_t st,
            size_t words = 0)
{
    to_cols_kernel<<<grid_for(n), kThreads, 0, st>>>(col, src, n, npad, limbs, words);
    BG_CHECK_LAUNCH();
    return BULK_OK;
}

int from_cols(bg_limb *dst, const bg_word *col, size_t n, size_t npad, size_t limbs,
              cudaStream_t st)
{
    from_cols_kernel<<<grid_for(n), kThreads, 0, st>>>(dst, col, n, npad, limbs);
    BG_CHECK_LAUNCH();
    return BULK_OK;
}

} // namespace

size_t bg_scratch_bytes(int op, size_t limbs)
{
    size_t nw = 2 * limbs;
    switch (op) {
    case BULK_INT_CUDA_MUL_LO: return limbs > BG_MUL_THREAD_MAX_LIMBS ? 2 * limbs * 8 : 0;
    case BULK_INT_CUDA_GCD: return limbs <= 32 && !gcd_approx_mode() ? 0 : 5 * nw * 4;
    case BULK_INT_CUDA_DIVMOD:
        if (limbs <= 16) return (6 * nw + 1) * 4 + 1;
        return (3 * 2 * nw + 3 * nw + 1) * 4 + 1;
    case BULK_INT_CUDA_POWMOD: return (4 * nw + bg_powmod_scratch_words((int)nw)) * 4 + 1;
    default: return 0;
    }
}

int bg_launch_gcd(bg_limb *g, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs,
                  cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    if (limbs <= 32 && !gcd_approx_mode()) {
        const size_t max_grid = (size_t)0x7fffffff * kThreads;
        for (size_t done = 0; done < n; done += max_grid) {
            size_t cnt = n - done < max_grid ? n - done : max_grid;
            bg_limb *gd = g + done * limbs;
            const bg_limb *ad = a + done * limbs, *bd = b + done * limbs;
            int l = (int)limbs;
            if (limbs <= 2) gcd_regs_kernel<4><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            else if (limbs <= 4) gcd_regs_kernel<8><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            else if (limbs <= 8) gcd_regs_kernel<16><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            else if (limbs <= 16) gcd_regs_kernel<32><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            else gcd_regs_kernel<64><<<grid_for(cnt), kThreads, 0, st>>>(gd, ad, bd, cnt, l);
            BG_CHECK_LAUNCH();
        }
        return BULK_OK;
    }
    size_t nw = 2 * limbs, batch = sub_batch(n, 5 * nw), np = pad32(batch);
    bg_word *s;
    int rc = scratch_alloc(&s, 5 * nw * np, st);
    if (rc != BULK_OK) return rc;
    bg_word *A = s, *B = A + nw * np, *G = B + nw * np, *X = G + nw * np, *Y = X + nw * np;
    int dev = 0, sms = 132;
    if (cudaGetDevice(&dev) == cudaSuccess)
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncSetAttribute(gcd_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 0);
    cudaGetLastError(); /* the carveout is a hint: ignore a refusal */
    unsigned gcd_grid = (unsigned)(sms * kGcdBlocksPerSM);
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = to_cols(A, a + done * limbs, cnt, np, limbs, st);
        if (rc == BULK_OK) rc = to_cols(B, b + done * limbs, cnt, np, limbs, st);
        if (rc != BULK_OK) break;
        gcd_kernel<<<gcd_grid < grid_for(cnt) ? gcd_grid : grid_for(cnt), kThreads, 0, st>>>(
            G, A, B, X, Y, cnt, np, (int)nw);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
        if (rc == BULK_OK) rc = from_cols(g + done * limbs, G, cnt, np, limbs, st);
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

int bg_launch_divmod(bg_limb *q, bg_limb *r, const bg_limb *a, size_t a_limbs, const bg_limb *d,
                     size_t n, size_t limbs, int8_t *err, int *bad, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (a_limbs > 2 * BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    size_t nu = 2 * a_limbs, nv = 2 * limbs;
    if (limbs <= 16) { /* staged; scratch only for the fallbacks */
        size_t words = 2 * (nu + nv) + 1, batch = sub_batch(n, words);
        bg_word *s;
        int rc = scratch_alloc(&s, words * batch, st);
        if (rc != BULK_OK) return rc;
        for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
            size_t cnt = n - done < batch ? n - done : batch;
            bg_limb *qd = q ? q + done * a_limbs : NULL, *rd = r ? r + done * limbs : NULL;
            const bg_limb *ad = a + done * a_limbs, *dd = d + done * limbs;
            int8_t *er = err ? err + done : NULL;
            rc = launch_divmod_stage_w(limbs, st, qd, rd, ad, (int)nu, dd, (int)nv, s, cnt, er, bad);
        }
        if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
        return rc;
    }
    /* above 16 limbs: the general bg_divmod on the column-major layout */
    size_t words = 3 * nu + 3 * nv + 1;
    size_t batch = sub_batch(n, words), np = pad32(batch);
    bg_word *s;
    int rc = scratch_alloc(&s, words * np, st);
    if (rc != BULK_OK) return rc;
    bg_word *U = s, *V = U + nu * np, *Q = V + nv * np, *R = Q + nu * np, *UN = R + nv * np;
    bg_word *VN = UN + (nu + 1) * np;
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = to_cols(U, a + done * a_limbs, cnt, np, a_limbs, st);
        if (rc == BULK_OK) rc = to_cols(V, d + done * limbs, cnt, np, limbs, st);
        if (rc != BULK_OK) break;
        bg_word *qc = q ? Q : NULL, *rc_ = r ? R : NULL;
        int8_t *er = err ? err + done : NULL;
        unsigned gr = grid_for(cnt);
        divmod_kernel<<<gr, kThreads, 0, st>>>(qc, rc_, U, (int)nu, V, (int)nv, UN, VN, cnt, np, er,
                                               bad);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
        if (rc == BULK_OK && q) rc = from_cols(q + done * a_limbs, Q, cnt, np, a_limbs, st);
        if (rc == BULK_OK && r) rc = from_cols(r + done * limbs, R, cnt, np, limbs, st);
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

int bg_launch_powmod(bg_limb *r, const bg_limb *base, const bg_limb *e, const bg_limb *m,
                     size_t n, size_t limbs, int8_t *err, int *bad, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs > BG_MAX_LIMBS_OTHER) return BULK_ERR_UNSUPPORTED;
    /* limbs <= 16: the register kernel at the next capacity; above, the generic one */
    size_t nw = 2 * limbs;
    if (limbs <= 16) nw = limbs <= 2 ? 4 : limbs <= 4 ? 8 : limbs <= 8 ? 16 : 32;
    size_t sw = bg_powmod_scratch_words((int)nw);
    size_t words = 4 * nw + sw;
    size_t batch = sub_batch(n, words), np = pad32(batch);
    bg_word *s;
    int rc = scratch_alloc(&s, words * np, st);
    if (rc != BULK_OK) return rc;
    bg_word *B = s, *E = B + nw * np, *M = E + nw * np, *R = M + nw * np, *S = R + nw * np;
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = to_cols(B, base + done * limbs, cnt, np, limbs, st, nw);
        if (rc == BULK_OK) rc = to_cols(E, e + done * limbs, cnt, np, limbs, st, nw);
        if (rc == BULK_OK) rc = to_cols(M, m + done * limbs, cnt, np, limbs, st, nw);
        if (rc != BULK_OK) break;
        int8_t *er = err ? err + done : NULL;
        unsigned gr = grid_for(cnt);
        switch (limbs <= 16 ? nw : 0) {
        case 4: powmod_regs_kernel<4><<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, er, bad); break;
        case 8: powmod_regs_kernel<8><<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, er, bad); break;
        case 16: powmod_regs_kernel<16><<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, er, bad); break;
        case 32: powmod_regs_kernel<32><<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, er, bad); break;
        default: powmod_kernel<<<gr, kThreads, 0, st>>>(R, B, E, M, S, cnt, np, (int)nw, er, bad);
        }
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
        if (rc == BULK_OK) rc = from_cols(r + done * limbs, R, cnt, np, limbs, st);
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}