/* The backend table of the circuit area (backend/backends.h): the operations of bulk/circuit.h
 * that run on a backend, host pointers in and out, arguments already checked by the public
 * wrapper (same contracts as bulk_circuit_eval and bulk_bitslice_add; eval steps `pr`, the
 * progress of the call, and stops early once it is cancelled).
 * CPU: on the context's threads (circuit_eval.c, pairsum.c); CUDA: on the context's device
 * (cuda/circuit_eval.cu, cuda/pairsum.cu). The circuit GPU code keeps no state between calls. */
#ifndef BULK_CIRCUIT_CIRCUIT_BACKEND_H
#define BULK_CIRCUIT_CIRCUIT_BACKEND_H
#include <stddef.h>
#include <stdint.h>

#include "backend/report.h"
#include "bulk/circuit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bulk_circuit_backend {
    int (*eval)(bulk_ctx *ctx, const bulk_circuit *c, uint64_t *out, const uint64_t *in,
                size_t nwords, bulk_progress_run *pr);
    int (*bitslice_add)(bulk_ctx *ctx, uint64_t *sum, const uint64_t *a, const uint64_t *b,
                        unsigned k, size_t nwords);
} bulk_circuit_backend;

/* The instances; named only by backend/backends.c. */
extern const bulk_circuit_backend bulk_circuit_cpu_backend;  /* circuit_eval.c */
extern const bulk_circuit_backend bulk_circuit_cuda_backend; /* cuda/pairsum.cu */

/* The CPU entries of pairsum.c (the table is in circuit_eval.c). */
int circuit_cpu_bitslice_add(bulk_ctx *ctx, uint64_t *sum, const uint64_t *a, const uint64_t *b,
                             unsigned k, size_t nwords);
/* The CUDA entry of cuda/circuit_eval.cu (the table is in cuda/pairsum.cu). */
int circuit_cuda_eval(bulk_ctx *ctx, const bulk_circuit *c, uint64_t *out, const uint64_t *in,
                      size_t nwords, bulk_progress_run *pr);
/* Device-resident timing of one Table 5.1 row on ctx's device, for bench/bpbc (CUDA builds
 * only, not in the table: it is no operation of the library): `reps` runs of the naive kernel
 * (one 32-bit addition per pair) and of the bitwise one after a warm-up, best times in
 * milliseconds; the sums are checked (BULK_ERR_INTERNAL on a mismatch). */
int bulk_cuda_bench_pairsum(bulk_ctx *ctx, unsigned k, size_t pairs, int reps, uint64_t seed,
                            double *naive_ms, double *bitwise_ms);

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
