/* divmod on the GPU: the staged register kernel for divisors up to 16 limbs, the general
 * bg_divmod on column-major scratch above. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/num/num_cols.cuh"
#include "backend/cuda/smem_limit.cuh"

namespace {

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
        BULK_CUDA_CHECK(NULL, bulk_cuda_smem_at_least((const void *)divmod_stage_kernel<NW>, smem));
    const unsigned gr = (unsigned)((n + BT - 1) / BT);
    divmod_stage_kernel<NW><<<gr, BT, smem, st>>>(q, r, a, nu, d, nv, SC, n, err, bad);
    BULK_CUDA_CHECK_LAUNCH(NULL);
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

} // namespace

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
