/* Internal interface between the CUDA CKY host driver (cky_cuda.cu) and its two kernels:
 * the device copy of the grammar and one launch function per kernel. */
#ifndef BULK_BPBC_CKY_GPU_CUH
#define BULK_BPBC_CKY_GPU_CUH
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

/* The grammar on the device, in the forms the kernels read. */
struct cky_dev_grammar {
    uint32_t nnt;
    /* cky_thread.cu: binary rules grouped by left-hand side, (B, C) pairs (grammar.h astart/bc) */
    const uint32_t *astart, *bc;
    /* cky_block.cu: the rules of A are rules[4 * rstart[A] .. 4 * rstart[A + 1]), each one
     * word (B * 32) | ((nnt + 1 + C) * 32) << 16 — the word offsets of U[B] and V[C] in the
     * block's shared staging area — padded to a multiple of 4 with rules reading the two
     * all-zero rows (B = C = nnt), so that the kernel reads 4 rules per 16-byte load */
    const uint4 *rules;
    const uint32_t *rstart;
    /* the same rules grouped by B within A (the "by-B" form): per A and per B that has rules
     * with A, one word U[B] (byte offset B * 128 into the staging area, below vstart =
     * (nnt + 1) * 128) followed by one word per C (byte offset of V[C]); the kernel loads
     * U[B] once per group instead of once per rule. Padded per A to a multiple of 4 with
     * words reading the zero row of V. rules_b[rstart_b[A] .. rstart_b[A + 1]) */
    const uint4 *rules_b;
    const uint32_t *rstart_b;
    /* non-terminals producing terminal t: ulist[ustart[t] .. ustart[t + 1]) (cky_thread.cu),
     * and as bit sets: bit a of tmask[t * ceil(nnt / 32) + a / 32] (cky_block.cu) */
    const uint32_t *ustart, *ulist, *tmask;
};

/* Strings of one length n, 1 <= n, all symbols valid: string k is str[k * n .. k * n + n)
 * (int32_t symbols; cky_block_launch also takes uint8_t ones, sym_bytes == 1). Each launch
 * parses nstr strings and writes acc[k] = 1 iff the start symbol derives string k. */

/* One thread per 64 strings (seed 001 section 7.4 as written): T has cols * cells * nnt
 * 64-bit words. use_shared: the two operands of a split are staged in shared memory. */
enum { CKY_THREAD_SH_BLOCK = 32, CKY_THREAD_GL_BLOCK = 128 };
cudaError_t cky_thread_launch(uint64_t *T, const int32_t *str, uint8_t *acc, uint32_t n, size_t nstr, int use_shared,
                              const cky_dev_grammar *dg, cudaStream_t s);

/* One block per group of CKY_GROUP strings (32 lanes x 32-bit words); T has
 * groups * cells * (nnt * 32 + 1) words, groups = ceil(nstr / CKY_GROUP): the tables, then one
 * flag word per cell and group, which the launch zeroes. early: stop applying the rules of a
 * left-hand side A once A's word is all ones for every live string of the group. */
enum { CKY_LANES = 32, CKY_GROUP = 32 * CKY_LANES };
size_t cky_block_smem(uint32_t nnt, int pair); /* bytes of shared memory one block needs */
unsigned cky_block_threads(uint32_t nnt); /* threads per block */
/* byb: read the rules in the by-B form (rules_b); pair (only with byb): stage two splits at
 * once, so that each rule word is decoded once for both */
cudaError_t cky_block_prepare(int early, int byb, int pair, size_t smem); /* once per call: allows that much shared memory */
cudaError_t cky_block_launch(uint32_t *T, const void *str, int sym_bytes, uint8_t *acc, uint32_t n, size_t nstr,
                             int early, int byb, int pair, const cky_dev_grammar *dg, cudaStream_t s);

#endif
