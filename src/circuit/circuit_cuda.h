/* Entry points of the CUDA circuit kernels (src/circuit/cuda/), called by the C side
 * only when the library is built with CUDA (BULK_HAVE_CUDA). Host pointers in, host pointers
 * out; each returns a bulk status. */
#ifndef BULK_CIRCUIT_CUDA_H
#define BULK_CIRCUIT_CUDA_H
#include <stddef.h>
#include <stdint.h>

#include "bulk/circuit.h"

#ifdef __cplusplus
extern "C" {
#endif

int bulk_cuda_circuit_eval(const bulk_circuit *c, uint64_t *out, const uint64_t *in, size_t nwords);
int bulk_cuda_bitslice_add(uint64_t *sum, const uint64_t *a, const uint64_t *b, unsigned k, size_t nwords);
/* Device-resident timing of one Table 5.1 row, for bench/bpbc: `reps` runs of the naive kernel
 * (one 32-bit addition per pair) and of the bitwise one, best times in milliseconds. */
int bulk_cuda_bench_pairsum(unsigned k, size_t pairs, int reps, uint64_t seed, double *naive_ms,
                            double *bitwise_ms);

/* The inputs of one Table 5.1 row, the same on both backends (src/circuit/pairsum.c):
 * `pairs` (a multiple of 64) random k-bit pairs a[i], b[i] from SplitMix64(seed), and their
 * bit-sliced form pa, pb (k words of pairs/64 each; bit i%64 of word j*nw + i/64 is bit j of
 * pair i). pa and pb must be zeroed by the caller. */
void bulk_pairsum_inputs(uint32_t *a, uint32_t *b, uint64_t *pa, uint64_t *pb, unsigned k, size_t pairs,
                         uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
