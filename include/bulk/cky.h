/* Bit-parallel CKY parsing of many strings at once — seed 001 chapter 7.
 *
 * A grammar is read from NLTK-style text:
 *     # comment (to the end of the line, outside quotes)
 *     S -> NP VP | 'a' S 'b' |          (an empty alternative derives the empty string)
 *     NP -> 'x'
 * One rule per line, alternatives separated by '|', a line starting with '|' continues the
 * previous rule. Non-terminals are bare names (any characters but white space, quotes and '|');
 * terminals are quoted with ' or " (backslash escapes the quote or a backslash). The first
 * left-hand side is the start symbol. Every non-terminal used on a right-hand side must have a
 * rule. Terminal mode: with BULK_CKY_CHARS a string is a sequence of bytes and a quoted
 * terminal of several bytes stands for that sequence ('' is the empty string); with
 * BULK_CKY_TOKENS a string is a sequence of white-space separated tokens and each quoted
 * terminal is one token.
 *
 * The grammar is converted to Chomsky normal form (terminals inside longer rules get their own
 * non-terminal, long right-hand sides are split, epsilon and unit rules are removed, symbols
 * that derive nothing or cannot be reached are dropped); the empty string is accepted iff the
 * start symbol derives it. Parsing keeps the CKY tables of 64 strings in the bits of one 64-bit
 * word per non-terminal and cell, and evaluates the binary rules as AND/OR word operations. */
#ifndef BULK_CKY_H
#define BULK_CKY_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/bulk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bulk_grammar bulk_grammar;

enum { BULK_CKY_CHARS = 0, BULK_CKY_TOKENS = 1 };

/* Parses grammar text (`name`, NULL: "<grammar>", labels messages). On error returns
 * BULK_ERR_PARSE (or BULK_ERR_ARG, BULK_ERR_NOMEM) with *g NULL, and the calling thread's last
 * error (bulk_ctx_last_error(NULL)) is "bulk_grammar_parse: name:line: reason". Thread-safe. */
BULK_API int bulk_grammar_parse(bulk_grammar **g, const char *text, size_t len, const char *name,
                                int mode);
/* Reads a grammar file: as bulk_grammar_parse with the path as name; BULK_ERR_IO when it cannot
 * be read ("bulk_grammar_read: path: why"). */
BULK_API int bulk_grammar_read(bulk_grammar **g, const char *path, int mode);
/* A random grammar already in Chomsky normal form, as in seed 001 section 7.5: `nonterminals`
 * symbols (start = 0), `binary_rules` distinct rules A -> B C drawn uniformly (every A gets at
 * least one while binary_rules >= nonterminals), `terminals` terminals named "t0", "t1", ...
 * (in BULK_CKY_CHARS mode the bytes 'a', 'b', ...; at most 26 then) and each terminal produced
 * by about a quarter of the non-terminals (at least one). Requires
 * 1 <= nonterminals <= 65536 and binary_rules <= nonterminals^3 (else BULK_ERR_ARG). Failures
 * set the calling thread's last error. */
BULK_API int bulk_grammar_random(bulk_grammar **g, unsigned nonterminals, size_t binary_rules,
                                 unsigned terminals, int mode, uint64_t seed);
BULK_API void bulk_grammar_free(bulk_grammar *g);

/* Sizes after the conversion to Chomsky normal form (0 for a NULL grammar, which also sets the
 * calling thread's last error). */
BULK_API size_t bulk_grammar_nonterminals(const bulk_grammar *g);
BULK_API size_t bulk_grammar_binary_rules(const bulk_grammar *g);
BULK_API size_t bulk_grammar_unary_rules(const bulk_grammar *g);
BULK_API size_t bulk_grammar_terminals(const bulk_grammar *g);
BULK_API int bulk_grammar_accepts_empty(const bulk_grammar *g);
BULK_API int bulk_grammar_mode(const bulk_grammar *g);

/* The index of a terminal (a byte in BULK_CKY_CHARS mode, a token otherwise), or -1 when no
 * rule produces it (or g or text is NULL: then the calling thread's last error says so). */
BULK_API int32_t bulk_grammar_terminal(const bulk_grammar *g, const char *text, size_t len);

/* Decides for `nstrings` strings whether the grammar derives them: string i is
 * syms[offsets[i] .. offsets[i+1]) (terminal indices; offsets has nstrings+1 entries) and
 * accept[i] becomes 1 or 0. A negative or out-of-range symbol rejects its string. Strings
 * are grouped by length; each group of 64 (256 on the CPU when enough) strings is parsed
 * together. CPU: all context threads; CUDA: thread blocks of 1024 strings (docs/bpbc.md).
 * Progress: "cky.parse", counting "strings"; BULK_ERR_CANCELLED when the callback asks to stop
 * (accept is then unspecified). Failures set ctx's last error. */
BULK_API int bulk_cky_parse(bulk_ctx *ctx, const bulk_grammar *g, uint8_t *accept,
                            const int32_t *syms, const size_t *offsets, size_t nstrings);

/* The plain CKY algorithm of seed 001 section 7.1, one string at a time on one thread (sets of
 * non-terminals as bit sets, every binary rule tested at every split). The reference the
 * tests and benchmarks compare bulk_cky_parse with. Same contract as bulk_cky_parse, without
 * progress; failures set the calling thread's last error. */
BULK_API int bulk_cky_parse_plain(const bulk_grammar *g, uint8_t *accept, const int32_t *syms,
                                  const size_t *offsets, size_t nstrings);

#ifdef __cplusplus
}
#endif
#endif
