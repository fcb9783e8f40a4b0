/* Bitwise parallel bulk computation (BPBC) of Boolean circuits — seed 001, chapters 3 and 5.
 *
 * A circuit is an and-inverter graph read from AIGER (ASCII ".aag" or binary ".aig", format
 * versions 1 and 1.9 without B/C/J/F sections). Evaluating it on many input vectors uses the
 * BPBC technique: 64 input vectors share one 64-bit word per circuit signal, and every AND gate
 * becomes one bitwise AND of two (possibly complemented) words.
 *
 * Bit-sliced ("column-wise") layout used by every function here: a set of V vectors of m bits
 * is stored as m planes of W = ceil(V / 64) words each, plane j at words [j*W, (j+1)*W); bit b
 * of word w of plane j is bit j of vector 64*w + b. */
#ifndef BULK_CIRCUIT_H
#define BULK_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bulk/bulk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An and-inverter graph. Literals follow AIGER: 2*variable + complement; literal 0 is
 * constant false, 1 constant true. Variables 1..inputs are the inputs, the next `latches`
 * variables the latches, the remaining ones the AND gates, in topological order (every gate's
 * operands have smaller variables). The reader renumbers ASCII files to this order. */
typedef struct bulk_circuit {
    uint32_t maxvar;   /* = inputs + latches + ands */
    uint32_t inputs, latches, outputs, ands;
    uint32_t *latch_next; /* [latches] next-state literal */
    uint32_t *latch_init; /* [latches] 0, 1, or the latch's own literal (uninitialised) */
    uint32_t *out;        /* [outputs] output literals, in file order */
    uint32_t *and_rhs;    /* [2*ands] operands of gate g (variable inputs+latches+1+g) */
} bulk_circuit;

/* Reads AIGER text or binary from memory. `name` (NULL: "<aiger>") labels messages. On error
 * returns BULK_ERR_PARSE (or BULK_ERR_ARG, BULK_ERR_NOMEM) with *c NULL, and the calling
 * thread's last error (bulk_ctx_last_error(NULL)) is "bulk_circuit_parse: name:line: reason"
 * (line = the line of the offending header, input, latch, output or gate; binary gates count as
 * the lines of their ASCII twins). Thread-safe. */
BULK_API int bulk_circuit_parse(bulk_circuit **c, const void *data, size_t len, const char *name);
/* Reads a file (format chosen by its first line, "aag" or "aig"): as bulk_circuit_parse with
 * the path as name; BULK_ERR_IO when it cannot be read ("bulk_circuit_read: path: why"). */
BULK_API int bulk_circuit_read(bulk_circuit **c, const char *path);
BULK_API void bulk_circuit_free(bulk_circuit *c);

/* Writes ASCII (aag) or binary (aig) AIGER. Variables keep this library's numbering. Returns
 * BULK_OK, BULK_ERR_IO (a write error on out) or BULK_ERR_ARG (NULL arguments; for aig also
 * gates out of topological order), with the calling thread's last error set. */
BULK_API int bulk_circuit_write_aag(const bulk_circuit *c, FILE *out);
BULK_API int bulk_circuit_write_aig(const bulk_circuit *c, FILE *out);

/* The ripple-carry adder of seed 001 section 5.1 for two k-bit numbers (1 <= k <= 4096).
 * Inputs, in order: a0..a{k-1}, b0..b{k-1} (least significant bit first); outputs:
 * s0..s{k} (k+1 sum bits, least significant first, s{k} = carry out). Sum bit i is
 * a_i XOR b_i XOR carry_i with carry_{i+1} = (a_i AND b_i) OR (carry_i AND (a_i XOR b_i)); an
 * XOR takes 3 AND gates (one of them computes a_i AND b_i, another carry_i AND (a_i XOR b_i),
 * both reused by the carry), the carry's OR 1 more, so the circuit has 7k-4 AND gates. */
BULK_API int bulk_circuit_adder(bulk_circuit **c, unsigned k);

/* Evaluates a combinational circuit (latches == 0, else BULK_ERR_UNSUPPORTED) on 64*nwords
 * input vectors: `in` holds c->inputs planes of nwords words, `out` receives c->outputs planes
 * of nwords words (bit-sliced layout above). CPU: all context threads, blocks of words per
 * thread; CUDA: one thread per word in the column-wise arrangement of seed 001 figure 5.2.
 * Progress: "circuit.eval", counting "vectors" (64 per word); BULK_ERR_CANCELLED when the
 * callback asks to stop (out is then unspecified). Failures set ctx's last error. */
BULK_API int bulk_circuit_eval(bulk_ctx *ctx, const bulk_circuit *c, uint64_t *out,
                               const uint64_t *in, size_t nwords);

/* Pairwise sums by BPBC (seed 001 section 5.1): `a` and `b` hold k planes of nwords words
 * (bit i of number 64*w+t is bit t of a[i*nwords+w]); `sum` receives k+1 planes. Uses the
 * hand-written ripple-carry recurrence, not the generic evaluator. Failures set ctx's last
 * error. */
BULK_API int bulk_bitslice_add(bulk_ctx *ctx, uint64_t *sum, const uint64_t *a, const uint64_t *b,
                               unsigned k, size_t nwords);

#ifdef __cplusplus
}
#endif
#endif
