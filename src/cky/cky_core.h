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
 * have different strides. Rules are grouped by B (bstart[b] .. bstart[b+1] index the (A, C)
 * pairs in ac); only the B's listed in blist[k0 .. k1) are visited (the caller lists those
 * that have rules, one slice of the rule list at a time, so that a slice can be run over all
 * splits of a cell while it stays in cache). A B that no string has in U is skipped with one
 * test, and U[B] is loaded once per group. */
BULK_HD void bulk_cky_combine(uint64_t *W, size_t ws, const uint64_t *U, size_t us, const uint64_t *V, size_t vs,
                              int lanes, const uint32_t *blist, uint32_t k0, uint32_t k1, const uint32_t *bstart,
                              const uint32_t *ac)
{
    for (uint32_t k = k0; k < k1; k++) {
        const uint32_t b = blist[k];
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

/* The same product with the rules grouped by their left-hand side A (astart[a] .. astart[a+1]
 * index the (B, C) pairs in bc): the OR over A's rules is accumulated in a register and W[A]
 * is updated once, so each rule costs two loads (U[B], V[C]) and no store. The GPU kernel
 * uses this order; the CPU uses bulk_cky_combine, whose skip of absent B's pays off there. */
BULK_HD void bulk_cky_combine_by_lhs(uint64_t *W, size_t ws, const uint64_t *U, size_t us, const uint64_t *V,
                                     size_t vs, uint32_t nnt, const uint32_t *astart, const uint32_t *bc)
{
    for (uint32_t a = 0; a < nnt; a++) {
        uint64_t acc = 0;
        uint32_t r1 = astart[a + 1];
#if defined(__CUDA_ARCH__) /* device pass only; the host compiler does not know it */
#pragma unroll 4
#endif
        for (uint32_t r = astart[a]; r < r1; r++) acc |= U[(size_t)bc[2 * r] * us] & V[(size_t)bc[2 * r + 1] * vs];
        W[(size_t)a * ws] |= acc;
    }
}

/* Index of CKY cell (i, len) — the substring of `len` symbols starting at i — in a table of
 * strings of length n, cells stored by increasing length: row len holds n - len + 1 cells. */
BULK_HD size_t bulk_cky_cell(size_t n, size_t i, size_t len)
{
    return (len - 1) * n - (len - 1) * (len - 2) / 2 + i;
}

/* The whole work of one GPU thread (seed 001 section 7.4): parse the (up to) 64 strings
 * str[(64 w + s) * n .. + n), s < 64, 64 w + s < nstr, all of length n >= 1 with valid symbols,
 * and set acc[64 w + s]. The thread's CKY table is column w of T, column-wise: the word of
 * non-terminal a in cell c at T[(c * nnt + a) * cols + w]. When sh != NULL the operands of the
 * current split are first copied to sh (U at sh[a * shs], V at sh[(nnt + a) * shs]: the
 * thread's slice of shared memory). Written as a plain function so that the tests can run it
 * on the CPU, column by column, and compare it with the CPU parser. */
BULK_HD void bulk_cky_thread(uint64_t *T, size_t cols, size_t w, const int32_t *str, uint8_t *acc, uint32_t n,
                             uint32_t nnt, size_t nstr, uint64_t *sh, size_t shs, const uint32_t *astart,
                             const uint32_t *bc, const uint32_t *ustart, const uint32_t *ulist)
{
    const size_t cs = (size_t)nnt * cols; /* words of one cell, all columns */
    uint64_t *Tw = T + w;
    for (size_t i = 0; i < n; i++)
        for (uint32_t a = 0; a < nnt; a++) Tw[i * cs + (size_t)a * cols] = 0;
    for (uint32_t s = 0; s < 64; s++) {
        size_t idx = w * 64 + s;
        if (idx >= nstr) break;
        for (size_t i = 0; i < n; i++) {
            uint32_t t = (uint32_t)str[idx * n + i];
            for (uint32_t u = ustart[t]; u < ustart[t + 1]; u++) Tw[i * cs + (size_t)ulist[u] * cols] |= (uint64_t)1 << s;
        }
    }
    uint64_t *Ush = sh, *Vsh = sh ? sh + (size_t)nnt * shs : sh;
    for (size_t len = 2; len <= n; len++)
        for (size_t i = 0; i + len <= n; i++) {
            uint64_t *W = Tw + bulk_cky_cell(n, i, len) * cs; /* bulk_cky_cell(n, i, 1) == i above */
            for (uint32_t a = 0; a < nnt; a++) W[(size_t)a * cols] = 0;
            for (size_t l = 1; l < len; l++) {
                const uint64_t *U = Tw + bulk_cky_cell(n, i, l) * cs;
                const uint64_t *V = Tw + bulk_cky_cell(n, i + l, len - l) * cs;
                if (sh) {
                    for (uint32_t a = 0; a < nnt; a++) {
                        Ush[(size_t)a * shs] = U[(size_t)a * cols];
                        Vsh[(size_t)a * shs] = V[(size_t)a * cols];
                    }
                    bulk_cky_combine_by_lhs(W, cols, Ush, shs, Vsh, shs, nnt, astart, bc);
                } else {
                    bulk_cky_combine_by_lhs(W, cols, U, cols, V, cols, nnt, astart, bc);
                }
            }
        }
    uint64_t top = Tw[bulk_cky_cell(n, 0, n) * cs]; /* start symbol = non-terminal 0 */
    for (uint32_t s = 0; s < 64; s++) {
        size_t idx = w * 64 + s;
        if (idx >= nstr) break;
        acc[idx] = (uint8_t)((top >> s) & 1);
    }
}

#endif
