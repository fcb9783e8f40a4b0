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

/* A value of up to 256 bits: limb[0..BULK_COLLATZ_WIDE_LIMBS), least significant first, unused
 * high limbs 0. Peaks are carried in it: a trajectory from a start below 2^128 can climb far
 * beyond 2^128 (several path records below 2^68 peak above 2^128), and 256 bits hold every peak
 * known; a peak that would pass 2^256 is reported as BULK_ERR_OVERFLOW, never cut. Delays and
 * glides use limb[0] only. */
#define BULK_COLLATZ_WIDE_LIMBS 4
typedef struct bulk_collatz_wide {
    uint64_t limb[BULK_COLLATZ_WIDE_LIMBS];
} bulk_collatz_wide;

/* Table sizes. d: base bits of B, C, J (1..24); k: sieve bits of S (0..39, 0 = no sieve; the
 * stored sieve needs about 17 * s_k bytes); a: bits of the delay table A (d..30). A verify
 * engine may add up to BULK_COLLATZ_MAX_EXT sieve levels generated on the fly above the stored
 * k (bulk_collatz_engine_extend), up to BULK_COLLATZ_MAX_K_GEN levels in all. */
#define BULK_COLLATZ_MAX_D 24
#define BULK_COLLATZ_MAX_K 39
#define BULK_COLLATZ_MAX_A 30
#define BULK_COLLATZ_MAX_EXT 16
#define BULK_COLLATZ_MAX_K_GEN 46

/* Errors: every function below that fails records "<function>: <what>: <why>" as the last
 * error of the context it works on (bulk_ctx_last_error): the ctx argument, or for the
 * functions that take an engine and no context, the engine's context; functions with neither
 * (bulk_collatz_exact, bulk_collatz_parse_bound) record it for the calling thread (read with
 * bulk_ctx_last_error(NULL)). Bad arguments are BULK_ERR_ARG unless said otherwise.
 *
 * Progress: bulk_collatz_verify, bulk_collatz_delays, bulk_collatz_delay_stats,
 * bulk_collatz_records and the resumable runs (bulk_collatz_records_run,
 * bulk_collatz_delays_run) report through the context's callback (bulk_ctx_set_progress) with
 * op "collatz.verify", "collatz.delays", "collatz.delay_stats" or "collatz.records" and unit
 * "numbers" (done of total numbers of the range; a resumed run starts at what its checkpoint
 * holds). A callback that returns nonzero stops the call with BULK_ERR_CANCELLED; a
 * checkpoint, when one is kept, then holds the prefix done so far and resumes correctly.
 *
 * Threads: calls on one context come from one thread at a time (bulk.h); they use the
 * context's threads themselves. bulk_collatz_verify_chunk alone may run on many threads at
 * once on one engine (the unit of work of a caller's own scheduler). bulk_collatz_exact and
 * bulk_collatz_parse_bound are thread-safe. */

typedef struct bulk_collatz_engine bulk_collatz_engine;

/* Builds tables B, C, J (d bits), the sieve S (k bits; k = 0 skips it) and, when a > 0, the
 * delay table A and the peak table P of all n < 2^a (a >= d). Uses the context's threads; the
 * CUDA paths read the context's tuning (bulk_ctx_set_tune) at each call and the engine's
 * failures are recorded on it, so ctx must stay open while the engine is used. An engine is
 * read-only once built (set_converge and extend aside): any number of calls may share it.
 * BULK_ERR_ARG (d, k or a out of range, NULL e or ctx), BULK_ERR_NOMEM; *e is NULL then. */
BULK_API int bulk_collatz_engine_new(bulk_collatz_engine **e, bulk_ctx *ctx, int d, int k, int a);
/* Frees the engine and its tables (NULL: nothing). */
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
/* Adds `bits` sieve levels above the engine's stored k, generated on the fly by verify on the
 * CPU (a sieve of K = k + bits levels at the memory cost of k; 0 adds nothing). Needs
 * 0 <= bits <= BULK_COLLATZ_MAX_EXT and k + bits <= BULK_COLLATZ_MAX_K_GEN, and is allowed once
 * per engine, after bulk_collatz_engine_set_converge when both are wanted.
 * BULK_ERR_ARG, BULK_ERR_NOMEM (the engine can then only be freed). */
BULK_API int bulk_collatz_engine_extend(bulk_collatz_engine *e, int bits);
/* Turns on pre-drop peaks in verify (bulk_collatz_verify_result: peak, peak_n and, when above
 * is not NULL, the hits above *above; the value is copied). Costs a compare per table operation
 * and an exact replay of the rare numbers that could beat the running maximum
 * (docs/collatz-peaks.md), on the CPU and on the GPU alike. Allowed any time before a verify
 * call, not during one. BULK_ERR_ARG (NULL e). */
BULK_API int bulk_collatz_engine_set_peaks(bulk_collatz_engine *e, const bulk_collatz_wide *above);
/* 1 for an engine in convergence mode, else 0 (also for NULL). */
BULK_API int bulk_collatz_engine_converge(const bulk_collatz_engine *e);
/* s_k, the number of mandatory residues of the engine's sieve (1 when k = 0; 0 for NULL). */
BULK_API uint64_t bulk_collatz_engine_sieve_size(const bulk_collatz_engine *e);

/* Counts the mandatory residues s_j for j = 0..k (counts[j], k + 1 entries; 0 <= k <=
 * BULK_COLLATZ_MAX_K) without storing them (seed 004 Table 3), on the context's threads. */
BULK_API int bulk_collatz_sieve_count(bulk_ctx *ctx, int k, uint64_t *counts);


typedef struct bulk_collatz_record {
    bulk_u128 n;
    bulk_collatz_wide value; /* delay, glide or peak of n */
} bulk_collatz_record;

/* The result of verifying a range. Mergeable: results of disjoint ranges add up (merge).
 * checksum = sum of glide(n) over every n covered, mod 2^128: the sieve supplies the glide of
 * each eliminated residue class, the individual iterations the rest (see docs/collatz.md). */
#define BULK_COLLATZ_OVERFLOW_KEEP 1024 /* overflow values kept (the smallest ones) */
#define BULK_COLLATZ_PEAK_KEEP 256      /* peak hits kept (--peak-above; records are few) */
typedef struct bulk_collatz_verify_result {
    bulk_u128 covered;   /* numbers shown to drop below themselves */
    bulk_u128 iterated;  /* of those, numbers iterated individually (not eliminated by S) */
    bulk_u128 checksum;  /* sum of glide(n), mod 2^128 */
    uint64_t overflows;  /* numbers whose trajectory left 128 bits (finished exactly) */
    uint32_t n_overflow_values;
    bulk_u128 overflow_values[BULK_COLLATZ_OVERFLOW_KEEP]; /* ascending, the smallest kept */
    uint64_t max_glide;  /* largest glide in the range, and its smallest n */
    bulk_u128 max_glide_n;
    /* Pre-drop peaks (engines with bulk_collatz_engine_set_peaks; else all 0): the pre-drop
     * peak of n is the largest value of its trajectory before it first drops below n (n itself
     * when none is larger; 1 for n = 1). peak is the largest of the range and peak_n its
     * smallest n (peak_n = 0: peaks were not computed). In convergence mode the numbers proved
     * by a smaller number are left out (docs/collatz-peaks.md); none of them is a path record.
     * peak_hits: with an above value V, every n of the range whose pre-drop peak exceeds V and
     * that of every smaller n of the range, ascending (with V = the peak of the last path record
     * below the range, exactly the new path records); n_peak_hits of them, and peak_hits_lost
     * more that did not fit (then the list is incomplete, and the runs report BULK_ERR_OVERFLOW). */
    bulk_collatz_wide peak;
    bulk_u128 peak_n;
    uint32_t n_peak_hits, peak_hits_lost;
    bulk_collatz_record peak_hits[BULK_COLLATZ_PEAK_KEEP];
} bulk_collatz_verify_result;

/* Zeroes r (NULL: nothing). */
BULK_API void bulk_collatz_verify_result_init(bulk_collatz_verify_result *r);
/* into += from (the ranges must be disjoint; NULL for either: nothing). */
BULK_API void bulk_collatz_verify_result_merge(bulk_collatz_verify_result *into,
                                               const bulk_collatz_verify_result *from);

/* The unit of work: verifies [first, last] (1 <= first <= last) on the calling thread only,
 * without progress reports. Everything else (threads, GPU, MPI parts, checkpoints) is built from
 * calls of this. Errors go to the engine's context. */
BULK_API int bulk_collatz_verify_chunk(const bulk_collatz_engine *e, bulk_u128 first,
                                       bulk_u128 last, bulk_collatz_verify_result *out);

/* Options of the resumable runs (bulk_collatz_verify, bulk_collatz_records_run,
 * bulk_collatz_delays_run). A zeroed struct (or opts NULL) is a run without a checkpoint. */
typedef struct bulk_collatz_run_opts {
    const char *checkpoint;   /* file to save progress in (NULL: none); a regular file, a new
                               * one or a symbolic link to one (written atomically: a kill
                               * leaves the previous or the new state) */
    const char *identity;     /* one line naming the run: a checkpoint of another identity is
                               * refused (BULK_ERR_ARG). NULL: verify uses "", the other runs a
                               * text made of their parameters */
    double checkpoint_every;  /* seconds between checkpoints (<= 0: 5 s); one is also written at
                               * the start, at the end and when the run is cancelled */
    uint64_t piece;           /* records/delays runs: numbers per piece (0: the library's choice);
                               * progress, cancellation and checkpoints happen between pieces.
                               * Results never depend on it. Ignored by verify. */
} bulk_collatz_run_opts;

/* Verifies [first, last] on all threads of the context (or its GPUs), resuming from
 * opts->checkpoint when it holds a checkpoint of the same identity (opts may be NULL).
 * BULK_ERR_ARG: bad arguments, a checkpoint of another run or a malformed one, a checkpoint path
 * that is not a regular file; BULK_ERR_IO: the checkpoint cannot be written; BULK_ERR_CANCELLED.
 * Progress "collatz.verify". */
BULK_API int bulk_collatz_verify(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                 bulk_u128 last, const bulk_collatz_run_opts *opts,
                                 bulk_collatz_verify_result *out);

/* The table and sieve sizes a verify run of [first, last] uses unless told otherwise (what
 * `bulk collatz verify` uses): on input a field < 0 asks for the default, a field >= 0 is kept
 * (and checked). converge: the run is in convergence mode (bulk_collatz_engine_set_converge).
 * The defaults depend on the range length and on the context's backend (CPU or CUDA):
 *   d        10; 16 on a CUDA context in convergence mode;
 *   k        min(37, floor(log2(last - first)) - 6) on the CPU; on CUDA min(40, log2 - 4), 43 in
 *            convergence mode on ranges of 2^48 and more, then lowered while level k eliminates
 *            nothing (k = 33, 36, 38, ...); never below 0;
 *   k_stored k when k < 28, else 28, or k - 16 when more than 16 levels would be generated.
 * BULK_ERR_ARG (message naming the field) when a given d, k or k_stored is out of range, when
 * k_stored > k, k_stored > BULK_COLLATZ_MAX_K or k - k_stored > BULK_COLLATZ_MAX_EXT, or when
 * first is 0 or last < first. Build the engine with bulk_collatz_engine_new(ctx, d, k_stored,
 * 0), then set_converge, then bulk_collatz_engine_extend(e, k - k_stored). */
typedef struct bulk_collatz_params {
    int d;        /* base bits of the tables B, C, J */
    int k;        /* sieve levels in all (stored + generated) */
    int k_stored; /* sieve levels kept in memory */
} bulk_collatz_params;
BULK_API int bulk_collatz_choose(const bulk_ctx *ctx, bulk_u128 first, bulk_u128 last, int converge,
                                 bulk_collatz_params *p);

/* Bound expressions as the CLI takes them: decimal or 0x hex literals combined with + - * ^
 * (usual precedence; ^ binds tightest and right to left), no spaces or parentheses; e.g. 2^64, 3*2^60,
 * 2^68+2^40, 2^90-1. The value goes to out[0..3) (192 bits, least significant first: values of
 * 2^128 and above are reported, not cut, so a caller can name "up to 2^128"). BULK_ERR_PARSE
 * with *err_pos (may be NULL) at the offending character, BULK_ERR_OVERFLOW when the value or
 * an intermediate needs more than 192 bits, BULK_ERR_ARG for NULL text or out, or a subtraction
 * that goes below 0. The message is the calling thread's last error. Thread-safe. */
BULK_API int bulk_collatz_parse_bound(const char *text, uint64_t out[3], size_t *err_pos);

/* Delays of first, first+1, ..., first+count-1 into out[0..count) (the engine needs a > 0;
 * first >= 1 and first + count - 1 < 2^128). BULK_ERR_OVERFLOW when a delay passes 2^32 - 1.
 * Progress "collatz.delays". */
BULK_API int bulk_collatz_delays(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                 uint64_t count, uint32_t *out);

/* Batch statistics of delays (seed 003): for batch i = [first + i*batch, first + (i+1)*batch),
 * the sum, minimum and maximum delay. nbatches batches (count = nbatches * batch numbers, at
 * most 2^64 - 1; batch >= 1). Progress "collatz.delay_stats". */
BULK_API int bulk_collatz_delay_stats(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                      uint64_t batch, uint64_t nbatches, uint64_t *sum,
                                      uint32_t *min, uint32_t *max);

/* Exact delay, glide and peak of one n of any size (n[0..limbs), limbs >= 1, n >= 1). The peak
 * is written to peak[0..peak_cap) with *peak_limbs its length; BULK_ERR_OVERFLOW when it needs
 * more (then *peak_limbs is the length it needs). delay, glide, peak, peak_limbs may be NULL
 * (peak NULL needs peak_cap 0). No context: errors are the calling thread's last error. */
BULK_API int bulk_collatz_exact(const uint64_t *n, size_t limbs, uint64_t *delay, uint64_t *glide,
                                uint64_t *peak, size_t peak_cap, size_t *peak_limbs);

typedef enum bulk_collatz_kind {
    BULK_COLLATZ_DELAY = 0,
    BULK_COLLATZ_GLIDE = 1,
    BULK_COLLATZ_PATH = 2 /* the peak */
} bulk_collatz_kind;


/* The engine `bulk collatz records` builds for records of `kind` in [first, last], a range or a
 * part of a run from origin (origin = first for a whole range; 1 <= origin <= first <= last);
 * above: 1 when path records are run with an above value (bulk_collatz_path_records_run). A
 * value < 0 asks for the default, one >= 0 is kept (and checked):
 *   d  11; on a CUDA context for path and glide records that of bulk_collatz_choose;
 *   k  path records: sieve bits, min(30, floor(log2(last - first + 1)) - 6), 0: none; on a
 *      CUDA context the sieve of bulk_collatz_choose (k of it in all when given), its levels above
 *      the stored ones generated. Glide records: 0 keeps the CPU engine alone (its own sieve),
 *      otherwise as path records on a CUDA context and nothing on the CPU. Delay records: none.
 *   a  bits of the tables A and P: 20, or d when larger (a >= d when both are given).
 * Path records with a sieve get convergence mode (bulk_collatz_engine_set_converge) with above or
 * origin = 1, where it is valid (docs/collatz-peaks.md). The records never depend on these
 * choices. *out: free it with bulk_collatz_engine_free. BULK_ERR_ARG (message naming what) for a
 * NULL ctx or out, an invalid kind, origin, last, d, k or a; errors of
 * bulk_collatz_engine_new, set_converge and extend. */
BULK_API int bulk_collatz_records_engine(bulk_ctx *ctx, bulk_collatz_kind kind, bulk_u128 origin,
                                         bulk_u128 first, bulk_u128 last, int above, int d, int k, int a,
                                         bulk_collatz_engine **out);

/* Records in [first, last]: n whose value beats that of every smaller n of the range. *recs is
 * allocated (free() it); *count its length. The engine needs a > 0 for DELAY and PATH; the
 * range at most 2^60 numbers. Path records compare peaks: from n >= 2 first on, the pre-drop
 * peak (the largest value before the trajectory first drops below n) decides, as the peak of
 * what follows is that of a smaller number of the range; below 2 first the whole trajectory's
 * peak. An engine with a stored sieve (k > 0) lets path records skip every number that drops
 * below itself within k steps once no such number can beat the running maximum (see
 * docs/collatz-peaks.md). BULK_ERR_OVERFLOW when a peak passes 2^256. Progress
 * "collatz.records". */
BULK_API int bulk_collatz_records(bulk_ctx *ctx, const bulk_collatz_engine *e,
                                  bulk_collatz_kind kind, bulk_u128 first, bulk_u128 last,
                                  bulk_collatz_record **recs, size_t *count);

/* The records of [first, last] as bulk_collatz_records finds them, in pieces of opts->piece
 * numbers, each piece's records filtered against the running maximum, so a range of any length
 * can be run; with opts->checkpoint the records so far and the next number are saved there
 * (every opts->checkpoint_every seconds, at the end and on cancellation) and a run with the
 * same identity resumes from it; a completed checkpoint gives the result at once. The identity
 * NULL is "collatz records kind=K first=F last=L d=D a=A". Results equal bulk_collatz_records
 * exactly. *recs is allocated (free() it). BULK_ERR_ARG also for a checkpoint of another run, a
 * malformed one or one whose next number lies outside the range; BULK_ERR_IO when it cannot be
 * written; BULK_ERR_CANCELLED. Progress "collatz.records" over the whole range. */
BULK_API int bulk_collatz_records_run(bulk_ctx *ctx, const bulk_collatz_engine *e,
                                      bulk_collatz_kind kind, bulk_u128 first, bulk_u128 last,
                                      const bulk_collatz_run_opts *opts, bulk_collatz_record **recs,
                                      size_t *count);

/* bulk_collatz_records_run of kind PATH with a floor: lists the n of [first, last] whose
 * pre-drop peak (the largest value before the trajectory first drops below n) exceeds *above
 * and that of every smaller n of the range, with that pre-drop peak as the value. With *above =
 * the peak of the last path record below first these are exactly the path records of the range
 * (a smaller number's peak is at most *above, and a number's peak after its drop is a smaller
 * number's), at the full speed of the pre-drop engine also far from 1; *above = 0 with first =
 * 1 gives the records of bulk_collatz_records. On an engine in convergence mode the list is
 * that only when *above bounds every peak below first (numbers that join a smaller number's
 * trajectory are skipped; with a smaller *above which of them are missed depends on the
 * engine's k, the threads and the pieces). above NULL: bulk_collatz_records_run exactly.
 * The identity NULL is that of bulk_collatz_records_run with " above=V" appended. Errors and
 * progress as bulk_collatz_records_run. */
BULK_API int bulk_collatz_path_records_run(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                           bulk_u128 last, const bulk_collatz_wide *above,
                                           const bulk_collatz_run_opts *opts, bulk_collatz_record **recs,
                                           size_t *count);

/* One part [first, last] of a records run over a range that starts at origin (origin <= first,
 * the parts cut the range into consecutive pieces), for runs split over processes or ranks.
 * The list (*recs, *count; increasing n, each value beating those listed before it) holds
 * every record of the whole range that lies in [first, last], each with its value, and
 * possibly numbers that beat only earlier numbers of their own part. So the lists of all parts,
 * read in order of their parts against a running maximum (a listed (n, v) is kept when v
 * beats every value kept before it), give exactly the records of the whole range, the list of
 * bulk_collatz_records_run(origin, last) or, with above, of
 * bulk_collatz_path_records_run(origin, last, above) (on an engine in convergence mode when
 * *above bounds every peak below origin, as that function asks): a record of the range beats
 * every smaller number, so it is listed by its part and kept, and the numbers kept before it
 * include the record holding the maximum below it, so nothing else is kept.
 * Values: delays, glides; for PATH the whole trajectory's peak below 2 origin and the pre-drop
 * peak from there on (the rule of the whole range, so a part far above origin runs on the
 * pre-drop engine), with above (PATH only, else BULK_ERR_ARG; may be NULL) the pre-drop peak
 * everywhere and only values above *above, as bulk_collatz_path_records_run. The running
 * engines use origin too (the sieve of a convergence-mode engine with origin = 1, the
 * exclusions of delay records), which is why the list may hold fewer of a part's own records;
 * which of those non-records it holds may depend on the engine's k, the threads and the pieces
 * (convergence-mode sieve), the merged records never do. *recs is allocated (free() it).
 * origin = first is bulk_collatz_records_run (above NULL) or bulk_collatz_path_records_run.
 * Checkpoints as bulk_collatz_records_run; the identity NULL is that of those runs with
 * " origin=O" appended when origin < first. Errors and progress (over [first, last]) as
 * bulk_collatz_records_run, and BULK_ERR_ARG when origin is 0 or above first. */
BULK_API int bulk_collatz_records_part_run(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_collatz_kind kind,
                                           bulk_u128 origin, bulk_u128 first, bulk_u128 last,
                                           const bulk_collatz_wide *above, const bulk_collatz_run_opts *opts,
                                           bulk_collatz_record **recs, size_t *count);

/* One piece of a delays run, handed to the sink in order: numbers first .. first + n - 1.
 * batch == 0: delays[i] = delay(first + i), i < n. batch > 0: n batches of `batch` numbers,
 * sum[i], min[i], max[i] those of bulk_collatz_delay_stats. The arrays are the library's,
 * valid during the call. */
typedef struct bulk_collatz_delays_piece {
    bulk_u128 first;
    uint64_t n;
    const uint32_t *delays;
    const uint64_t *sum;
    const uint32_t *min, *max;
} bulk_collatz_delays_piece;

/* Where a delays run puts its results: the caller's output (a file, an array). The library
 * keeps the checkpoint; the sink keeps the output, and tells the library how many bytes of it
 * are safe (written through to storage), which the checkpoint records. Callbacks return 0 to
 * go on, anything else to stop the run with that status (a negative bulk status, e.g.
 * BULK_ERR_IO; the sink sets the context's error itself when it wants a message there).
 *   begin(user, done, out_bytes): once, before any piece. done = numbers already done by a
 *       resumed run (0 for a fresh one); the output must be cut back to its first out_bytes
 *       bytes (0: start it empty), as a run killed after its last checkpoint may have written
 *       more.
 *   put(user, piece): the next piece (pieces cover the rest of the range in order).
 *   sync(user, &out_bytes): make what was put durable and say how long the output now is;
 *       called before each checkpoint. May be NULL when there is no checkpoint. */
typedef struct bulk_collatz_delays_sink {
    int (*begin)(void *user, uint64_t done, uint64_t out_bytes);
    int (*put)(void *user, const bulk_collatz_delays_piece *piece);
    int (*sync)(void *user, uint64_t *out_bytes);
    void *user;
} bulk_collatz_delays_sink;

/* Delays (batch 0) or batch statistics (batch > 0; last - first + 1 a multiple of batch) of
 * [first, last] (at most 2^64 - 1 numbers), in pieces handed to `sink` in order (each piece a
 * call of bulk_collatz_delays / bulk_collatz_delay_stats, so results are theirs exactly), with
 * an optional checkpoint in opts (the sink must then have sync) that a rerun with the same
 * identity resumes from. The identity NULL is "collatz delays first=F last=L stats=B d=D a=A".
 * A checkpoint of a completed run calls begin (done = the whole range) and then only writes the
 * checkpoint again. Errors as bulk_collatz_records_run, and the status a sink callback returned.
 * Progress "collatz.delays" (batch 0) or "collatz.delay_stats". */
BULK_API int bulk_collatz_delays_run(bulk_ctx *ctx, const bulk_collatz_engine *e, bulk_u128 first,
                                     bulk_u128 last, uint64_t batch,
                                     const bulk_collatz_run_opts *opts,
                                     const bulk_collatz_delays_sink *sink);

#ifdef __cplusplus
}
#endif
#endif
