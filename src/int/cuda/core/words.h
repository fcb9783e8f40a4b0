/* Multi-word helpers over strided words. */
#ifndef BULK_INT_CUDA_CORE_WORDS_H
#define BULK_INT_CUDA_CORE_WORDS_H

#include "int/cuda/core/carry.h"

/* ---- multi-word helpers over strided words ------------------------------------------------- */

/* Number of significant words (0 for zero). */
BULK_HD int bg_len(const bg_word *a, size_t s, int n)
{
    while (n > 0 && BG_AT(a, s, n - 1) == 0) n--;
    return n;
}

/* -1, 0, 1 as a <, =, > b (n words each). */
BULK_HD int bg_cmp(const bg_word *a, size_t as, const bg_word *b, size_t bs, int n)
{
    for (int j = n - 1; j >= 0; j--) {
        bg_word x = BG_AT(a, as, j), y = BG_AT(b, bs, j);
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

BULK_HD void bg_copy(bg_word *r, size_t rs, const bg_word *a, size_t as, int n)
{
    for (int j = 0; j < n; j++) BG_AT(r, rs, j) = BG_AT(a, as, j);
}

BULK_HD void bg_zero(bg_word *r, size_t rs, int n)
{
    for (int j = 0; j < n; j++) BG_AT(r, rs, j) = 0;
}

/* r -= b (n words), returns the borrow. r and b may be the same only if the caller wants 0. */
BULK_HD bg_word bg_sub_inplace(bg_word *r, size_t rs, const bg_word *b, size_t bs, int n)
{
    uint64_t br = 0;
    for (int j = 0; j < n; j++) {
        uint64_t t = (uint64_t)BG_AT(r, rs, j) - BG_AT(b, bs, j) - br;
        BG_AT(r, rs, j) = (bg_word)t;
        br = (t >> 32) & 1;
    }
    return (bg_word)br;
}

#endif
