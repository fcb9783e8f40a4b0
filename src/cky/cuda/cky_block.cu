/* Bit-parallel CKY on the GPU, the default kernel: one thread block parses a group of 1024
 * strings of one length, 32 per 32-bit word, one word per warp lane (seed 001 section 7.4
 * reorganised so that many threads share one CKY table).
 *
 * Why: per (cell, split) pair and binary rule A -> B C the work is W[A] |= U[B] & V[C], one
 * LOP3 per 32-bit word. Length 32 has 5456 (cell, split) pairs, so 64 non-terminals and 8192
 * rules are 4.5e7 LOP3 per 32 strings. One thread per column (cky_thread.cu) does them one
 * dependent global load after another; here every warp instruction covers 32 words (1024
 * strings), the operands come from shared memory and all threads of a block share them.
 *
 * Layout. The table of group g is in global memory, cell-major: the word of non-terminal a in
 * cell c for lane (word) l at T[((g * cells + c) * nnt + a) * 32 + l]; bit s of that word is
 * string g * 1024 + 32 l + s. Cells are stored by increasing length (bulk_cky_cell).
 * Shared memory holds sets of one cell each, 32 words per non-terminal:
 *     U[0 .. nnt] and V[0 .. nnt]  the two operands of the current split, staged from global
 *                                  memory; row nnt of each is all zeros (the padding rules
 *                                  read it); with P = 2 a second pair (U2, V2) for a second
 *                                  split follows, so that each rule word is decoded once for
 *                                  both (the same offsets plus a constant);
 *     W[0 .. nnt)                  the cell being computed (the OR over its splits so far).
 * A warp reads row r of a set as 32 consecutive words: no bank conflicts.
 *
 * Work split. Cells are computed by increasing length, one at a time; for each split the block
 * stages U and V (barrier), then warp k applies the rules of the left-hand sides A = k, k + nw,
 * ... (rules grouped by A: the OR over A's rules stays in a register and W[A] is read and
 * written once per split), then a barrier. The rule words are uniform across the warp (one
 * 16-byte load per 4 rules), so per rule and warp the cost is 2 shared loads and one LOP3.
 *
 * A split whose operand cell is empty for every string of the group is skipped (a flag per cell,
 * as the CPU parser does).
 *
 * Early exit (template flag EARLY). W[A] only grows; once it is all ones for every string of
 * the group that exists, the remaining rules and splits of A cannot change it. A warp votes
 * (__all_sync) before each A and every 16 rules; when every A of the cell is full the block
 * stops the split loop (__syncthreads_and). The answers are the same either way; the saving
 * depends on the grammar (random grammars with many rules make almost every set full early). */
#include "cky/cky_core.h"
#include "cky/cuda/cky_gpu.cuh"
#include "backend/cuda/smem_limit.cuh"

#define FULL_MASK 0xffffffffu

size_t cky_block_smem(uint32_t nnt, int pair)
{
    const size_t sets = pair ? 2 : 1; /* operand pairs (U, V) staged at once */
    return ((2 * sets + 1) * (size_t)nnt + 2 * sets) * CKY_LANES * sizeof(uint32_t);
}

/* 8 warps for small grammars (8 blocks of 25 KB fill an SM at 64 non-terminals), more where
 * shared memory allows fewer blocks per SM: 4 x 512 threads at 128, 2 x 1024 at 256, 1 x 1024
 * at 512 non-terminals. */
unsigned cky_block_threads(uint32_t nnt)
{
    return nnt <= 64 ? 256 : nnt <= 128 ? 512 : 1024;
}

/* str: sym_bytes == 1: uint8_t symbols, else int32_t. tmask: nterm x tw words, bit a of
 * tmask[t * tw + a / 32] says whether non-terminal a produces terminal t. */
template <bool EARLY, bool BYB, int P>
__global__ static void __launch_bounds__(1024)
    cky_block_kernel(uint32_t *T, const void *__restrict__ str, int sym_bytes, uint8_t *acc, uint32_t n, uint32_t nnt,
                     size_t nstr, const uint4 *__restrict__ rules, const uint32_t *__restrict__ rstart,
                     const uint32_t *__restrict__ tmask)
{
    extern __shared__ uint4 sh4[];
    /* P operand pairs: U_p at U + 2 p (nnt + 1) * 32 words, V_p (nnt + 1) * 32 words after it */
    const size_t set = (size_t)(nnt + 1) * CKY_LANES; /* words of one staged operand */
    uint32_t *U = (uint32_t *)sh4, *W = U + 2 * P * set;
    const unsigned tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = nt >> 5;
    const size_t cw = (size_t)nnt * CKY_LANES, cw4 = cw / 4; /* words (uint4s) of one cell */
    const size_t cells = (size_t)n * (n + 1) / 2, first = (size_t)blockIdx.x * CKY_GROUP;
    const uint32_t tw = (nnt + 31) / 32;
    uint32_t *Tg = T + (size_t)blockIdx.x * cells * cw;
    /* live flags, one per cell of the group, after all tables (zeroed by the host): 1 once
     * some string of the group has some non-terminal in the cell */
    uint32_t *F = T + (size_t)gridDim.x * cells * cw + (size_t)blockIdx.x * cells;
    /* bits of this lane's word that belong to no string (the last group may be partial) */
    const size_t lf = first + (size_t)lane * 32;
    const uint32_t dead = lf >= nstr ? ~0u : nstr - lf >= 32 ? 0u : ~0u << (nstr - lf);

    if (tid < CKY_LANES)
        for (int p = 0; p < 2 * P; p++) U[p * set + (size_t)nnt * CKY_LANES + tid] = 0; /* the zero rows */

    /* Row 1: warp k builds the words l = k, k + nw, ... of each cell: lane s looks up string
     * 32 l + s's terminal; for each non-terminal a the word is a ballot of "a produces it". */
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t l = warp; l < CKY_LANES; l += nw) {
            const size_t k = first + (size_t)l * 32 + lane;
            int32_t t = -1;
            if (k < nstr)
                t = sym_bytes == 1 ? (int32_t)((const uint8_t *)str)[k * n + i] : ((const int32_t *)str)[k * n + i];
            for (uint32_t a5 = 0; a5 < tw; a5++) {
                const uint32_t m = t >= 0 ? tmask[(size_t)t * tw + a5] : 0;
                uint32_t mine = 0;
                for (unsigned j = 0; j < 32; j++) {
                    const uint32_t b = __ballot_sync(FULL_MASK, (m >> j) & 1);
                    if (lane == j) mine = b;
                }
                if (a5 * 32 + lane < nnt) W[(size_t)(a5 * 32 + lane) * CKY_LANES + l] = mine;
            }
        }
        __syncthreads();
        for (size_t e = tid; e < cw; e += nt) {
            Tg[i * cw + e] = W[e]; /* bulk_cky_cell(n, i, 1) == i */
            if (W[e]) F[i] = 1;
        }
        __syncthreads();
    }
    for (size_t e = tid; e < cw; e += nt) W[e] = 0;

    const uint32_t *Sl = U + lane; /* the rule words are offsets from U of this lane's word */
    const uint32_t *Sl2 = Sl + 2 * set; /* the same offsets into the second pair (P == 2) */
    const uint32_t vstart = (nnt + 1) * CKY_LANES * sizeof(uint32_t); /* BYB: byte offset of V */
    uint4 *U4 = sh4, *V4 = sh4 + set / 4;
    const uint4 *Tg4 = (const uint4 *)Tg;
    for (uint32_t len = 2; len <= n; len++) {
        for (uint32_t i = 0; i + len <= n; i++) {
            for (uint32_t j = 0, mid = len / 2;;) {
                /* the next P splits whose operands are not empty for all strings of the group
                 * (the flags were written before the last barrier: every thread sees the same),
                 * from the middle outwards (mid, mid + 1, mid - 1, ...): long operands have the
                 * fullest sets, so the early exit comes sooner (any order gives the same OR) */
                size_t cu0 = 0, cv0 = 0, cu1 = 0, cv1 = 0;
                int k = 0;
                for (; j + 1 < len && k < P; j++) {
                    const uint32_t l = j <= 2 * (mid - 1) ? (j % 2 == 0 ? mid + j / 2 : mid - (j + 1) / 2) : j + 1;
                    const size_t cu = bulk_cky_cell(n, i, l), cv = bulk_cky_cell(n, i + l, len - l);
                    if (!F[cu] || !F[cv]) continue;
                    if (k == 0) cu0 = cu, cv0 = cv;
                    else cu1 = cu, cv1 = cv;
                    k++;
                }
                if (k == 0) break;
                /* stage the operands (a missing second pair: U zero, so it adds nothing); the
                 * barrier also orders the previous pass's W updates and the zeroing of W
                 * before this pass's reads */
                {
                    const uint4 *Ug = Tg4 + cu0 * cw4, *Vg = Tg4 + cv0 * cw4;
                    for (size_t e = tid; e < cw4; e += nt) U4[e] = Ug[e], V4[e] = Vg[e];
                }
                if (P == 2) {
                    const uint4 *Ug = Tg4 + cu1 * cw4, *Vg = Tg4 + cv1 * cw4;
                    for (size_t e = tid; e < cw4; e += nt) {
                        U4[2 * set / 4 + e] = k == 2 ? Ug[e] : make_uint4(0, 0, 0, 0);
                        V4[2 * set / 4 + e] = k == 2 ? Vg[e] : make_uint4(0, 0, 0, 0);
                    }
                }
                __syncthreads();
                int full = 1;
                for (uint32_t a = warp; a < nnt; a += nw) {
                    uint32_t w = W[(size_t)a * CKY_LANES + lane];
                    if (EARLY && __all_sync(FULL_MASK, (w | dead) == ~0u)) continue;
                    uint32_t acc0 = 0, acc1 = 0;
                    const uint32_t q1 = rstart[a + 1];
                    if (!BYB) {
                        for (uint32_t q = rstart[a]; q < q1; q++) {
                            const uint4 r = rules[q];
                            if (P == 1) {
                                acc0 |= Sl[r.x & 0xffff] & Sl[r.x >> 16];
                                acc1 |= Sl[r.y & 0xffff] & Sl[r.y >> 16];
                                acc0 |= Sl[r.z & 0xffff] & Sl[r.z >> 16];
                                acc1 |= Sl[r.w & 0xffff] & Sl[r.w >> 16];
                            } else {
                                acc0 |= (Sl[r.x & 0xffff] & Sl[r.x >> 16]) | (Sl2[r.x & 0xffff] & Sl2[r.x >> 16]);
                                acc1 |= (Sl[r.y & 0xffff] & Sl[r.y >> 16]) | (Sl2[r.y & 0xffff] & Sl2[r.y >> 16]);
                                acc0 |= (Sl[r.z & 0xffff] & Sl[r.z >> 16]) | (Sl2[r.z & 0xffff] & Sl2[r.z >> 16]);
                                acc1 |= (Sl[r.w & 0xffff] & Sl[r.w >> 16]) | (Sl2[r.w & 0xffff] & Sl2[r.w >> 16]);
                            }
                            if (EARLY && (q & 3) == 3 && __all_sync(FULL_MASK, (w | acc0 | acc1 | dead) == ~0u)) break;
                        }
                    } else {
                        /* words below vstart load u = U[B], the others OR u & V[C] in */
                        const char *Sb = (const char *)Sl, *Sb2 = (const char *)Sl2;
                        uint32_t u0 = 0, u1 = 0;
                        for (uint32_t q = rstart[a]; q < q1; q++) {
                            const uint4 r = rules[q];
                            const uint32_t rw[4] = { r.x, r.y, r.z, r.w };
#pragma unroll
                            for (int h = 0; h < 4; h++) {
                                const uint32_t x0 = *(const uint32_t *)(Sb + rw[h]);
                                const uint32_t x1 = P == 2 ? *(const uint32_t *)(Sb2 + rw[h]) : 0;
                                if (rw[h] < vstart) u0 = x0, u1 = x1;
                                else acc0 |= u0 & x0, acc1 |= u1 & x1;
                            }
                            if (EARLY && (q & 3) == 3 && __all_sync(FULL_MASK, (w | acc0 | acc1 | dead) == ~0u)) break;
                        }
                    }
                    w |= acc0 | acc1;
                    W[(size_t)a * CKY_LANES + lane] = w;
                    full &= (w | dead) == ~0u;
                }
                const int stop = __syncthreads_and(full);
                if (EARLY && stop) break;
            }
            /* the cell is done (the barrier above ordered all its W updates) */
            const size_t c = bulk_cky_cell(n, i, len);
            for (size_t e = tid; e < cw; e += nt) {
                Tg[c * cw + e] = W[e];
                if (W[e]) F[c] = 1;
                W[e] = 0;
            }
        }
        /* the next length stages cells of this one, written by other threads */
        __syncthreads();
    }
    if (tid < CKY_LANES) {
        const uint32_t top = Tg[bulk_cky_cell(n, 0, n) * cw + tid]; /* start symbol = non-terminal 0 */
        for (unsigned b = 0; b < 32; b++) {
            const size_t k = first + (size_t)tid * 32 + b;
            if (k < nstr) acc[k] = (uint8_t)((top >> b) & 1);
        }
    }
}

/* raise-only: another context's grammar may need more of the same kernel at the same time */
template <bool EARLY, bool BYB, int P> static cudaError_t prepare_one(size_t smem)
{
    return bulk_cuda_smem_at_least((const void *)cky_block_kernel<EARLY, BYB, P>, smem);
}

/* the instantiated kernels: with and without early exit, either rule form one split per pass,
 * and by-B two splits per pass (pair implies byb) */
cudaError_t cky_block_prepare(int early, int byb, int pair, size_t smem)
{
    if (pair) return early ? prepare_one<true, true, 2>(smem) : prepare_one<false, true, 2>(smem);
    if (early) return byb ? prepare_one<true, true, 1>(smem) : prepare_one<true, false, 1>(smem);
    return byb ? prepare_one<false, true, 1>(smem) : prepare_one<false, false, 1>(smem);
}

cudaError_t cky_block_launch(uint32_t *T, const void *str, int sym_bytes, uint8_t *acc, uint32_t n, size_t nstr,
                             int early, int byb, int pair, const cky_dev_grammar *dg, cudaStream_t s)
{
    const unsigned groups = (unsigned)((nstr + CKY_GROUP - 1) / CKY_GROUP), threads = cky_block_threads(dg->nnt);
    const size_t smem = cky_block_smem(dg->nnt, pair), cells = (size_t)n * (n + 1) / 2;
    cudaError_t e = cudaMemsetAsync(T + (size_t)groups * cells * dg->nnt * CKY_LANES, 0,
                                    sizeof(uint32_t) * groups * cells, s);
    if (e != cudaSuccess) return e;
    const uint4 *r = byb ? dg->rules_b : dg->rules;
    const uint32_t *rs = byb ? dg->rstart_b : dg->rstart;
#define CKY_LAUNCH(E, B, P)                                                                                            \
    cky_block_kernel<E, B, P><<<groups, threads, smem, s>>>(T, str, sym_bytes, acc, n, dg->nnt, nstr, r, rs, dg->tmask)
    if (pair && early) CKY_LAUNCH(true, true, 2);
    else if (pair) CKY_LAUNCH(false, true, 2);
    else if (early && byb) CKY_LAUNCH(true, true, 1);
    else if (early) CKY_LAUNCH(true, false, 1);
    else if (byb) CKY_LAUNCH(false, true, 1);
    else CKY_LAUNCH(false, false, 1);
#undef CKY_LAUNCH
    return cudaGetLastError();
}
