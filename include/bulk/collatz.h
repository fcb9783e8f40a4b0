/* Collatz engine: convergence verification of ranges, delays, records (seeds 004 and 003).
 *
 * Map: n even -> n/2, n odd -> 3n+1, each one step. delay(n) = steps to reach 1 (delay(1) = 0);
 * glide(n) = steps until the value first drops below n (glide(1) = 0 by convention, since 1
 * never drops below itself); peak(n) = largest value on the trajectory (peak(1) = 1).
 *
 * Starting values are 128-bit (bulk_u128, two 64-bit words, least significant first). Ranges are
 * given as inclusive [first, last] so that the whole 128-bit space can be named. Interim values
 * are kept in 128 bits; a number whose trajectory would leave 128 bits is finished exactly by a
 * multi-limb path and reported as an overflow, never dropped.
 *
 * Every range function is deterministic: results do not depend on the thread count, the
 * backend, the table size d or the sieve size k (except the diagnostic "iterated" count). */
#ifndef BULK_COLLATZ_H
#define BULK_COLLATZ_H

#include "bulk/bulk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bulk_u128 {
    uint64_t lo, hi;
} bulk_u128;

/* Table sizes. d: base bits of B, C, J (1..24); k: sieve bits of S (0..39, 0 = no sieve; the
 * stored sieve needs about 17 * s_k bytes); a: bits of the delay table A (d..30). */
#define BULK_COLLATZ_MAX_D 24
#define BULK_COLLATZ_MAX_K 39
#define BULK_COLLATZ_MAX_A 30

typedef struct bulk_collatz_engine bulk_collatz_engine;

/* Builds tables B, C, J (d bits), the sieve S (k bits; k = 0 skips it) and, when a > 0, the
 * delay table A and the peak table P of all n < 2^a (a >= d). Uses the context's threads; the
 * CUDA paths read the context's tuning (bulk_ctx_set_tune) at each call, so ctx must stay open
 * while the engine is used. */
BULK_API int bulk_collatz_engine_new(bulk_collatz_engine **e, bulk_ctx *ctx, int d, int k, int a);
BULK_API void bulk_collatz_engine_free(bulk_collatz_engine *e);
/* Switches the engine to convergence mode (docs/collatz.md "Convergence mode"): verify then
 * skips every number that a smaller number is proved to reach or to share a trajectory with
 * (3-adic predecessors, equal sieve states, n = 2, 4, 5, 8 mod 9; about 3x fewer numbers
 * iterated), and the GPU ends each iterated number at the table operation that proves a value
 * below it. Every covered number converges when all smaller ones do, as in the full-glide mode,
 * but no glides are reported: `checksum`, `max_glide` and `max_glide_n` are 0. Rebuilds the
 * stored sieve (needs a stored sieve of k >= 1 and no sieve extension yet; after a failure the
 * engine can only be freed). BULK_ERR_ARG, BULK_ERR_NOMEM. */
BULK_API int bulk_collatz_engine_set_converge(bulk_collatz_engine *e);
/* 1 for an engine in convergence mode, else 0. */
BULK_API int bulk_collatz_engine_converge(const bulk_collatz_engine *e);
/* s_k, the number of mandatory residues of the engine's sieve (1 when k = 0). */
BULK_API uint64_t bulk_collatz_engine_sieve_size(const bulk_collatz_engine *e);

/* Counts the mandatory residues s_j for j = 0..k (counts[j], k + 1 entries) without storing
 * them (seed 004 Table 3), on the context's threads. */
BULK_API int bulk_collatz_sieve_count(bulk_ctx *ctx, int k, uint64_t *counts);

/* The result of verifying a range. Mergeable: results of disjoint ranges add up (merge).
 * checksum = sum of glide(n) over every n covered, mod 2^128: the sieve supplies the glide of
 * each eliminated residue class, the individual iterations the rest (see docs/collatz.md). */
#define BULK_COLLATZ_OVERFLOW_KEEP 1024 /* overflow values kept (the smallest ones) */
typedef struct bulk_collatz_verify_result {
    bulk_u128 covered;   /* numbers shown to drop below themselves */
    bulk_u128 iterated;  /* of those, numbers iterated individually (not eliminated by S) */
    bulk_u128 checksum;  /* sum of glide(n), mod 2^128 */
    uint64_t overflows;  /* numbers whose trajectory left 128 bits (finished exactly) */
    uint32_t n_overflow_values;
    bulk_u128 overflow_values[BULK_COLLATZ_OVERFLOW_KEEP]; /* ascending, the smallest kept */
    uint64_t max_glide;  /* largest glide in the range, and its smallest n */
    bulk_u128 max_glide_n;
} bulk_collatz_verify_result;

BULK_API void bulk_collatz_verify_result_init(bulk_collatz_verify_result *r);
/* into += from (the ranges must be disjoint). */
BULK_API void bulk_collatz_verify_result_merge(bulk_collatz_verify_result *into,
                                               const bulk_collatz_verify_result *from);

/* The unit of work: verifies [first, last] (1 <= first <= last) on the calling thread only.
 * Everything else (threads, GPU, MPI parts, checkpoints) is built from calls of this. */
BULK_API int bulk_collatz_verify_chunk(const bulk_collatz_engine *e, bulk_u128 first,
                                       bulk_u128 last, bulk_collatz_verify_result *out);

/* Options of the long-running range driver. */
typedef struct bulk_collatz_run_opts {
    const char *checkpoint;   /* file to save progress in (NULL: none) */
    const char *identity;     /* text naming the run; a checkpoint of another run is refused */
    double checkpoint_every;  /* seconds between checkpoints (<= 0: 5 s) */
    int progress;             /* 1: progress lines on stderr (only shown on a terminal) */
} bulk_collatz_run_opts;

/* Verifies [first, last] on all threads of the context, resuming from opts->checkpoint when it
 * holds a checkpoint of the same run. BULK_ERR_ARG for a checkpoint of a different run
 * (message in bulk_collatz_last_error()), BULK_ERR_IO when it cannot be written. */
BULK_API int bulk_collatz_verify(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                 bulk_u128 last, const bulk_collatz_run_opts *opts,
                                 bulk_collatz_verify_result *out);

/* A human-readable reason for the last BULK_ERR_ARG / BULK_ERR_IO of this thread ("" if none). */
BULK_API const char *bulk_collatz_last_error(void);

/* Delays of first, first+1, ..., first+count-1 into out[0..count) (the engine needs a > 0). */
BULK_API int bulk_collatz_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                 uint64_t count, uint32_t *out);

/* Batch statistics of delays (seed 003): for batch i = [first + i*batch, first + (i+1)*batch),
 * the sum, minimum and maximum delay. nbatches batches (count = nbatches * batch numbers). */
BULK_API int bulk_collatz_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                      uint64_t batch, uint64_t nbatches, uint64_t *sum,
                                      uint32_t *min, uint32_t *max);

/* Exact delay, glide and peak of one n of any size (n[0..limbs), n >= 1). The peak is written
 * to peak[0..peak_cap) with *peak_limbs its length; BULK_ERR_OVERFLOW when it needs more. */
BULK_API int bulk_collatz_exact(const uint64_t *n, size_t limbs, uint64_t *delay, uint64_t *glide,
                                uint64_t *peak, size_t peak_cap, size_t *peak_limbs);

typedef enum bulk_collatz_kind {
    BULK_COLLATZ_DELAY = 0,
    BULK_COLLATZ_GLIDE = 1,
    BULK_COLLATZ_PATH = 2 /* the peak */
} bulk_collatz_kind;

typedef struct bulk_collatz_record {
    bulk_u128 n, value;
} bulk_collatz_record;

/* Records in [first, last]: n whose value beats that of every smaller n of the range. *recs is
 * allocated (free() it); *count its length. The engine needs a > 0 for DELAY and PATH. */
BULK_API int bulk_collatz_records(bulk_ctx *ctx, const bulk_collatz_engine *e,
                                  bulk_collatz_kind kind, bulk_u128 first, bulk_u128 last,
                                  bulk_collatz_record **recs, size_t *count);

#ifdef __cplusplus
}
#endif
#endif
