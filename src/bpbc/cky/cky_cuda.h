/* Entry points of the CUDA CKY kernels (src/bpbc/cky/cuda/), called only when the library is
 * built with CUDA, and the input check they share with the CPU path. */
#ifndef BULK_BPBC_CKY_CUDA_H
#define BULK_BPBC_CKY_CUDA_H
#include <stddef.h>
#include <stdint.h>

#include "bulk/cky.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cky.c: accept[i] = 0 for strings with a symbol no rule produces, accepts_empty for empty
 * strings; ok[i] = 1 for the strings still to parse. Returns their greatest length. */
size_t bulk_cky_prepare(const bulk_grammar *g, uint8_t *accept, uint8_t *ok, const int32_t *syms,
                        const size_t *offsets, size_t nstrings);

/* Same contract as bulk_cky_parse. */
int bulk_cuda_cky_parse(const bulk_grammar *g, uint8_t *accept, const int32_t *syms, const size_t *offsets,
                        size_t nstrings);

#ifdef __cplusplus
}
#endif
#endif
