/* Shared factors of many large integers (RSA moduli that share a prime), seed 001 section 1.2.1.
 *
 * Inputs are n numbers of `limbs` 64-bit limbs each (zero-padded, least significant limb first,
 * instance i at x + i * limbs), every one >= 2. Indices are 0-based positions in that array.
 *
 *  - bulk_gcd_pairs: gcd(x_i, x_j) for all n(n-1)/2 pairs, in square tiles of pairs that go
 *    through bulk_int_gcd (so the context's backend: the GPU when the context has one); pairs
 *    are never all stored. Every pair with gcd != 1 is passed to a callback, in increasing
 *    (i, j) order.
 *  - bulk_gcd_batch: Bernstein's batch GCD. g_i = gcd(x_i, prod_{j != i} x_j) for every i, as
 *    gcd(x_i, (P mod x_i^2) / x_i) with P the product of all inputs (product tree, then
 *    remainder tree). Quasi-linear: O(M(N) log n) for N the total size. Memory-bounded: the product-tree levels that do not fit a memory budget
 *    (default half the physical memory) go to spill files and are read back (checked) for the
 *    remainder tree. Below the floor of one tree (about 35-60x the input size: the NTT
 *    buffers at the top, where numbers are as large as the whole input), the inputs go in k
 *    groups whose trees fit, combined through the group products (about k times the work).
 *
 * Duplicates: a modulus that appears twice shares itself. pairs reports the pair (i, j) of two
 * equal inputs with gcd = x_i; batch gives g_i = g_j = x_i for both (cofactor 1). Callers that
 * want to report copies apart and search the distinct values only (as the CLI does) find them
 * with bulk_gcd_duplicates first.
 *
 * Errors: every failure sets the context's last error, "<function>: <what>: <why>" (e.g.
 * "bulk_gcd_batch: input 3: 1 is below 2"); bulk_gcd_input_add, which has no context, sets the
 * calling thread's (bulk_ctx_last_error(NULL)) and names the line.
 * Progress: the context's callback (bulk_ctx_set_progress) gets op "gcd.pairs", unit "pairs"
 * (total n(n-1)/2) and op "gcd.batch", unit "tree levels" (total 2 (levels - 1) + 1: the
 * product tree, the remainder tree, the final gcd). A nonzero return stops either with
 * BULK_ERR_CANCELLED.
 *
 * Results never depend on the backend, the thread count, the tile size or spilling. */
#ifndef BULK_GCD_H
#define BULK_GCD_H

#include "bulk/bulk.h"
#include "bulk/int.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called for each pair i < j with gcd(x_i, x_j) != 1; g holds the gcd (gn significant limbs).
 * Returning nonzero stops the search; bulk_gcd_pairs then returns that value. */
typedef int (*bulk_gcd_pair_fn)(void *arg, size_t i, size_t j, const bulk_limb_t *g, size_t gn);

/* tile: inputs per side of a tile (tile^2 pairs per bulk_int_gcd call, a progress step after
 * each); 0 picks 1024 for the GPU and 256 for the CPU. BULK_ERR_ARG for a NULL ctx or fn, for
 * n > 0 with a NULL x, limbs outside 1..2^20, tile above 65536 or an input below 2;
 * BULK_ERR_CANCELLED; BULK_ERR_NOMEM; or the callback's nonzero value. */
BULK_API int bulk_gcd_pairs(bulk_ctx *ctx, const bulk_limb_t *x, size_t n, size_t limbs,
                            size_t tile, bulk_gcd_pair_fn fn, void *arg);

/* first[i] (n entries) = the lowest index j with x_j == x_i (i itself for the first copy of
 * every value). Sorting, O(n log n) comparisons; inputs are not checked for >= 2 here.
 * Returns BULK_OK, BULK_ERR_ARG (NULL ctx, first or x, limbs outside 1..2^20), BULK_ERR_NOMEM. */
BULK_API int bulk_gcd_duplicates(bulk_ctx *ctx, size_t *first, const bulk_limb_t *x, size_t n,
                                 size_t limbs);

typedef struct bulk_gcd_batch_opts {
    size_t max_memory;     /* memory budget in bytes: product-tree levels beyond it are spilled;
                            * 0 = the default (half the physical memory), SIZE_MAX = no limit */
    const char *spill_dir; /* where spill files go (the CLI's --tmp-dir); NULL: $TMPDIR or /tmp. The files are
                            * unlinked as soon as they are created: nothing is left behind,
                            * whatever way the process ends */
    int force_spill;       /* nonzero: spill every level that can be spilled (for the tests) */
    const char *checkpoint_dir; /* optional: a directory (created when missing) that keeps the
                            * finished tree levels; a later call with the same inputs and the
                            * same directory goes on from them instead of recomputing (the
                            * result is the same). Another run's directory gives BULK_ERR_ARG
                            * (stats->checkpoint_mismatch); the grouped method (a budget below
                            * one tree's floor) BULK_ERR_UNSUPPORTED (stats->checkpoint_refused).
                            * A finished run leaves the last level (the size of the inputs) */
} bulk_gcd_batch_opts;

/* Statistics of the last bulk_gcd_batch call (optional output). */
typedef struct bulk_gcd_batch_stats {
    size_t levels;         /* levels of the product tree, leaves included */
    int spilled;           /* some levels went to disk */
    uint64_t spill_bytes;  /* bytes written to spill files */
    size_t spilled_levels; /* product levels spilled (at most levels - 2: the leaves and the
                            * top stay) */
    uint64_t memory_budget;/* the budget applied (bytes; the default resolved) */
    uint64_t memory_need;  /* estimated peak without spilling (bytes) */
    uint64_t memory_floor; /* estimated peak with every spillable level spilled (bytes) */
    size_t groups;         /* 1, or k >= 2 when the budget is below memory_floor: the inputs
                            * went through the grouped method (k groups of consecutive inputs,
                            * every tree fitting the budget; about k times the work) */
    int over_budget;       /* even the grouped method at its most groups (64, or n / 2) does not
                            * fit the budget: it ran anyway, with every spillable level spilled */
    int spill_errno;       /* on BULK_ERR_IO: the errno of the failed spill (EIO: a level read
                            * back short or with a wrong checksum) */
    size_t spilled_rem_levels; /* remainder-tree levels spilled (when every spillable product
                            * level is: the levels below the top, computed and written in
                            * blocks); counted in spill_bytes too */
    size_t checkpoint_levels; /* tree levels taken from the checkpoint directory */
    int checkpoint_mismatch;  /* the checkpoint directory belongs to other inputs */
    int checkpoint_refused;   /* a checkpoint was asked for with the grouped method */
    int checkpoint_errno;     /* on BULK_ERR_IO: the errno of a failed checkpoint write */
} bulk_gcd_batch_stats;

/* g (n * limbs limbs) = gcd(x_i, product of the other inputs) per input; opts and stats may be
 * NULL. Returns BULK_OK, BULK_ERR_ARG (as for bulk_gcd_pairs, a NULL g, or a checkpoint of
 * other inputs), BULK_ERR_UNSUPPORTED (a checkpoint with the grouped method), BULK_ERR_NOMEM,
 * BULK_ERR_CANCELLED or BULK_ERR_IO (a spill or checkpoint file could not be created, written
 * or read back intact: stats->spill_errno / checkpoint_errno say why; g is then not written). */
BULK_API int bulk_gcd_batch(bulk_ctx *ctx, bulk_limb_t *g, const bulk_limb_t *x, size_t n,
                            size_t limbs, const bulk_gcd_batch_opts *opts,
                            bulk_gcd_batch_stats *stats);

/* ---- reading moduli ------------------------------------------------------------------------
 * TEXT: one integer per line, decimal or 0x hex, surrounding blanks (and a CR) ignored; an
 * empty line, a bad character or a value below 2 is an error. PEM: any number of PEM blocks,
 * each "PUBLIC KEY" (SubjectPublicKeyInfo), "RSA PUBLIC KEY" (PKCS#1) or "CERTIFICATE" (X.509)
 * holding an RSA key; text between blocks is ignored; the modulus n is taken. DER: one DER
 * SubjectPublicKeyInfo or PKCS#1 RSAPublicKey per file. PEM and DER are decoded by OpenSSL's
 * libcrypto; a build without it returns BULK_ERR_UNSUPPORTED for them. */
typedef enum bulk_gcd_format {
    BULK_GCD_FORMAT_TEXT = 0,
    BULK_GCD_FORMAT_PEM = 1,
    BULK_GCD_FORMAT_DER = 2
} bulk_gcd_format;

/* Moduli read so far: x holds n numbers of `limbs` limbs (the widest one read decides; the
 * array is repacked when a wider one arrives); line[i] is the 1-based line where modulus i
 * starts (the BEGIN line for PEM, 1 for DER). */
typedef struct bulk_gcd_input {
    size_t n, limbs;
    bulk_limb_t *x;
    uint64_t *line;
    size_t cap; /* internal */
} bulk_gcd_input;

/* Appends the moduli of `len` bytes of `data` (one file's contents) to *in (zero-initialise it
 * before the first call). On BULK_ERR_PARSE (malformed input; *in is unchanged), *err_line is
 * the 1-based line and msg (msg_len bytes, NUL-terminated) says what is wrong; the last error
 * (bulk_ctx_last_error(NULL)) is "bulk_gcd_input_add: line L: what". Other results: BULK_OK,
 * BULK_ERR_NOMEM, BULK_ERR_UNSUPPORTED (PEM/DER without OpenSSL; msg says so), BULK_ERR_ARG
 * (NULL in, err_line or msg, msg_len 0, NULL data with len > 0, an unknown format). */
BULK_API int bulk_gcd_input_add(bulk_gcd_input *in, const char *data, size_t len,
                                bulk_gcd_format fmt, uint64_t *err_line, char *msg, size_t msg_len);
BULK_API void bulk_gcd_input_free(bulk_gcd_input *in);

#ifdef __cplusplus
}
#endif
#endif
