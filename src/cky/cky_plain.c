/* The plain CKY algorithm of seed 001 section 7.1: one string at a time, each table entry a
 * set of non-terminals (a bit set), and at every split every binary rule A -> B C is tested
 * ("B in U and C in V") — O(n^3 p2) per string. Deliberately independent of the bit-parallel
 * code: it shares only the grammar's rule list, not its grouping or the word step. */
#include <stdlib.h>
#include <string.h>

#include "backend/report.h"
#include "cky/grammar.h"

int bulk_cky_parse_plain(const bulk_grammar *g, uint8_t *accept, const int32_t *syms, const size_t *offsets,
                         size_t nstrings)
{
    static const char fn[] = "bulk_cky_parse_plain";
    if (!g) return bulk_fail(NULL, BULK_ERR_ARG, "%s: g is NULL", fn);
    if (nstrings && (!accept || !offsets))
        return bulk_fail(NULL, BULK_ERR_ARG, "%s: %s is NULL with nstrings %zu", fn, !accept ? "accept" : "offsets", nstrings);
    const size_t words = (g->nnt + 63) / 64;
    uint64_t *T = NULL;
    size_t cap = 0;
    for (size_t s = 0; s < nstrings; s++) {
        size_t n = offsets[s + 1] - offsets[s];
        const int32_t *x = syms + offsets[s];
        accept[s] = 0;
        if (n == 0) {
            accept[s] = (uint8_t)g->accepts_empty;
            continue;
        }
        /* T[(i * n + j) * words ..]: the set for substring x[i..j] (0-based, inclusive) */
        size_t need = n * n * words;
        if (need > cap) {
            free(T);
            if (!(T = malloc(need * sizeof *T)))
                return bulk_fail(NULL, BULK_ERR_NOMEM, "%s: string %zu of length %zu: out of memory", fn, s, n);
            cap = need;
        }
        memset(T, 0, need * sizeof *T);
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            int32_t t = x[i];
            if (t < 0 || (uint32_t)t >= g->nterm) {
                bad = 1;
                break;
            }
            for (uint32_t u = g->ustart[t]; u < g->ustart[t + 1]; u++) {
                uint32_t A = g->ulist[u];
                T[(i * n + i) * words + A / 64] |= 1ull << (A % 64);
            }
        }
        if (bad) continue;
        for (size_t j = 1; j < n; j++)
            for (size_t i = j; i-- > 0;) {
                uint64_t *W = T + (i * n + j) * words;
                for (size_t k = i; k < j; k++) {
                    const uint64_t *U = T + (i * n + k) * words, *V = T + ((k + 1) * n + j) * words;
                    for (size_t r = 0; r < g->nbin; r++) {
                        uint32_t A = g->bin[3 * r], B = g->bin[3 * r + 1], C = g->bin[3 * r + 2];
                        if (((U[B / 64] >> (B % 64)) & 1) && ((V[C / 64] >> (C % 64)) & 1)) W[A / 64] |= 1ull << (A % 64);
                    }
                }
            }
        accept[s] = (uint8_t)(T[(0 * n + n - 1) * words] & 1); /* start = non-terminal 0 */
    }
    free(T);
    return BULK_OK;
}
