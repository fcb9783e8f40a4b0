/* The CUDA CKY parser with a choice of kernel (src/cky/cuda/; built only with CUDA, for tests
 * and benchmarks; bulk_cky_parse reaches it through the CKY table, cky/cky_backend.h), and the
 * input check it shares with the CPU path. */
#ifndef BULK_CKY_CUDA_H
#define BULK_CKY_CUDA_H
#include <stddef.h>
#include <stdint.h>

#include "bulk/cky.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cky.c: accept[i] = 0 for strings with a symbol no rule produces, accepts_empty for empty
 * strings; ok[i] = 1 for the strings still to parse. Returns their greatest length. Uses up
 * to `threads` CPU threads. */
size_t bulk_cky_prepare(const bulk_grammar *g, uint8_t *accept, uint8_t *ok, const int32_t *syms,
                        const size_t *offsets, size_t nstrings, int threads);

/* The GPU kernels (all give the same answers):
 *   BLOCK       one thread block per 1024 strings, 32 per 32-bit word, one word per lane; the
 *               operands of a split in shared memory; stops applying the rules of a
 *               non-terminal once its word is all ones for every string (cuda/cky_block.cu);
 *   BLOCK_FULL  the same kernel without that early exit: always all rules at all splits (the
 *               work the LOP3/LDS limits of the benchmark count);
 *   THREAD      one thread per 64 strings, seed 001 section 7.4 as written (cuda/cky_thread.cu;
 *               also used when the grammar's staging area does not fit in shared memory);
 *   BYB, BYB_FULL  BLOCK and BLOCK_FULL with the rules of each A grouped by B, so that U[B]
 *               is loaded once per (A, B) instead of once per rule;
 *   BYB2, BYB2_FULL  BYB and BYB_FULL with two splits staged at once (each rule word decoded
 *               once for both; BYB, BYB_FULL when the two do not fit in shared memory);
 *   AUTO        BYB2 when it fits, else THREAD: what bulk_cky_parse runs. */
enum {
    BULK_CKY_GPU_AUTO = 0,
    BULK_CKY_GPU_BLOCK = 1,
    BULK_CKY_GPU_BLOCK_FULL = 2,
    BULK_CKY_GPU_THREAD = 3,
    BULK_CKY_GPU_BYB = 4,
    BULK_CKY_GPU_BYB_FULL = 5,
    BULK_CKY_GPU_BYB2_FULL = 6,
    BULK_CKY_GPU_BYB2 = 7,
    BULK_CKY_GPU_VARIANTS = 8
};

/* What one call did and cost (filled by bulk_cuda_cky_parse_ex when non-NULL). */
typedef struct bulk_cky_gpu_stats {
    int variant;      /* the kernel that ran (never AUTO; 0 when nothing needed parsing) */
    double kernel_ms; /* the kernels alone (CUDA events) */
    double copy_ms;   /* strings to the device and answers back */
    double prep_ms;   /* host: string checks and the sort by length */
    double setup_ms;  /* host: device queries, the grammar to the device */
    double gather_ms; /* host: strings gathered into the transfer buffer */
    double total_ms;  /* the whole call (the rest: allocations, answers scattered back) */
    int sms;          /* the device's SM count and peak SM clock, for the benchmark's limits */
    double clock_ghz;
} bulk_cky_gpu_stats;

/* Same contract as bulk_cky_parse on ctx's device (a CUDA context), with the kernel chosen by
 * `variant` (BULK_CKY_GPU_*; a BLOCK variant whose staging area does not fit runs THREAD
 * instead); the host work (checks, gathering strings) on up to `threads` CPU threads. */
int bulk_cuda_cky_parse_ex(bulk_ctx *ctx, const bulk_grammar *g, uint8_t *accept, const int32_t *syms,
                           const size_t *offsets, size_t nstrings, int variant, int threads,
                           bulk_cky_gpu_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
