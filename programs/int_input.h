/* Reading the instances of `bulk int`: text lines of white-space separated operands, turned
 * batch by batch into the fixed-width limb arrays that the bulk_int_* functions take.
 *
 * Input contract (docs/int.md, "CLI"): one instance per line; a line holds exactly `operands`
 * operands separated by spaces or tabs (a trailing '\r' is white space too, so CRLF files
 * work); each operand is a non-negative integer in decimal or with a 0x/0X prefix in hex.
 * An empty (or blank) line is an error ("missing operand"), not skipped: the line number of
 * every instance is then its output line number, which is what a user matching the two needs.
 *
 * Width: with a fixed width (--bits W) every operand must fit W bits. Without one, each batch
 * is stored at the smallest multiple of 64 bits (at least 64) that holds all of its operands.
 * Every result `bulk int` prints is exact (full sums, full products, signed differences, ...),
 * so the printed output is the same as with the widest operand of the whole file (the
 * contract's W) while one pass over the input suffices and stdin need not be kept.
 *
 * Memory is bounded: a batch holds at most INT_BATCH_MAX instances and at most about
 * INT_BATCH_BYTES of limbs (counting INT_LIMB_FACTOR operand-sized arrays per instance, enough
 * for the operands and the results of every op), however long the input is. One instance that
 * alone exceeds the budget is still taken (alone). */
#ifndef BULK_PROGRAMS_INT_INPUT_H
#define BULK_PROGRAMS_INT_INPUT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bulk/int.h"

#define INT_MAX_OPERANDS 3
#define INT_BATCH_MAX ((size_t)1 << 16)
#define INT_BATCH_BYTES ((size_t)128 << 20)
#define INT_LIMB_FACTOR 4
/* Widest accepted --bits: the library's limit of 2^20 limbs. */
#define INT_MAX_LIMBS ((size_t)1 << 20)

/* What a line must look like for one op. */
typedef struct int_rules {
    const char *op;   /* op name, for messages */
    int operands;     /* 1..INT_MAX_OPERANDS */
    int nonzero;      /* index of an operand that must not be 0 (a divisor), or -1 */
    int odd;          /* index of an operand that must be odd (a Montgomery modulus), or -1 */
    int negative;     /* 1: "-DIGITS" is accepted and read as 0 (isprime, nextprime: every
                       * negative number is composite, and the least prime above it is 2) */
} int_rules;

/* One batch: instance i came from input line first_line + i, and its operand k is
 * op[k][i * limbs .. (i + 1) * limbs). The arrays belong to the reader and stay valid until
 * the next int_reader_next call. */
typedef struct int_batch {
    size_t n;
    size_t limbs;
    uint64_t first_line;
    bulk_limb_t *op[INT_MAX_OPERANDS];
} int_batch;

typedef struct int_reader int_reader;

/* Opens `path` (NULL or "-": stdin). fixed_limbs = 0 chooses the width per batch (see above),
 * otherwise it is the width W / 64 that every operand must fit. `threads` workers parse.
 * Returns NULL after printing why (the file cannot be opened, or no memory). */
int_reader *int_reader_open(const char *path, const int_rules *rules, size_t fixed_limbs,
                            int threads);

/* Reads the next batch. Returns 1 (a batch of n >= 1 instances is in *b), 0 (end of input),
 * -2 bad input (the message, naming the file, the line and the operand, is printed; nothing of
 * this batch may be used) or -1 (a read error or no memory; the message is printed). */
int int_reader_next(int_reader *r, int_batch *b);

/* For progress lines: the size of the input in bytes when it is a regular file (else -1), and
 * the bytes read from it so far. */
long long int_reader_size(const int_reader *r);
long long int_reader_pos(const int_reader *r);

/* "stdin" or the path given: what messages call the input. */
const char *int_reader_name(const int_reader *r);

void int_reader_close(int_reader *r);

#endif
