/* The word step of bit-parallel CKY (seed 001 section 7.2), shared by the CPU parser and the
 * CUDA kernels. A set of non-terminals for 64 strings is one 64-bit word per non-terminal:
 * bit s of the word of A says whether A derives the substring of string s.
 *
 * Layout: the word of non-terminal x in lane l is at X[x * stride + l]. The CPU uses
 * `lanes` adjacent words per non-terminal (stride = lanes, 64*lanes strings at once); a CUDA
 * thread passes its own column (lanes = 1, stride = the number of columns, or the block width
 * for sets held in shared memory). */
#ifndef BULK_BPBC_CKY_CORE_H
#define BULK_BPBC_CKY_CORE_H
#include <stddef.h>
#include <stdint.h>

#include "common/hd.h"

/* W |= U (x)_G V: for every binary rule A -> B C, W[A] |= U[B] & V[C]. The three sets may
 * have different strides (a GPU thread keeps W and V in shared memory, U in global memory).
 * Rules are grouped by B (bstart[b] .. bstart[b+1] index the (A, C) pairs in ac), so a B that
 * no string has in U is skipped with one test, and U[B] is loaded once per group. */
BULK_HD void bulk_cky_combine(uint64_t *W, size_t ws, const uint64_t *U, size_t us, const uint64_t *V, size_t vs,
                              int lanes, uint32_t nnt, const uint32_t *bstart, const uint32_t *ac)
{
    for (uint32_t b = 0; b < nnt; b++) {
        const uint64_t *ub = U + (size_t)b * us;
        uint64_t any = 0;
        for (int l = 0; l < lanes; l++) any |= ub[l];
        if (!any) continue;
        uint32_t r1 = bstart[b + 1];
        for (uint32_t r = bstart[b]; r < r1; r++) {
            uint64_t *wa = W + (size_t)ac[2 * r] * ws;
            const uint64_t *vc = V + (size_t)ac[2 * r + 1] * vs;
            for (int l = 0; l < lanes; l++) wa[l] |= ub[l] & vc[l];
        }
    }
}

/* Index of CKY cell (i, len) — the substring of `len` symbols starting at i — in a table of
 * strings of length n, cells stored by increasing length: row len holds n - len + 1 cells. */
BULK_HD size_t bulk_cky_cell(size_t n, size_t i, size_t len)
{
    return (len - 1) * n - (len - 1) * (len - 2) / 2 + i;
}

#endif
