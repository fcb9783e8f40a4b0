/* Host-side planning of the CUDA Collatz backend, plain C (static inline) so that the CPU tests
 * run it too:
 *   - cg_plan_chunk: the decomposition of a range [first, last] into the pieces the kernels
 *     run, mirroring the block decomposition of bulk_collatz_verify_chunk (collatz/verify.c):
 *     aligned blocks [nH 2^L, (nH+1) 2^L), nH >= 1, L <= k, largest first. Consecutive level-k
 *     blocks are merged into one ROWS piece (S entries x rows, seed 004 Figure 4 layout); the
 *     few smaller blocks at the two ends become WALK pieces (the sieve of L bits walked per
 *     number); the number 1 is a ONE piece.
 *   - cg_split_rows: the rows of a ROWS piece shared out among G devices.
 *   - cg_unit_*: index math of the ROWS kernel (a unit = one S entry x ROWS_PER_UNIT rows).
 *   - cg_acc_*: the per-thread accumulator of a verify kernel and its fold into a result.
 * Everything here is exact 128-bit integer arithmetic on u128 (common/u128.h; host only). */
#ifndef BULK_COLLATZ_CUDA_CG_PLAN_H
#define BULK_COLLATZ_CUDA_CG_PLAN_H

#include <stdint.h>
#include <string.h>

#include "bulk/collatz.h"
#include "collatz/cuda/cg_core.h"
#ifdef __cplusplus
extern "C" {
#endif
#include "collatz/collatz_internal.h"
#include "collatz/peak.h"
#ifdef __cplusplus
}
#endif


static inline u128 cg_w_of(bulk_u128 v) { return ((u128)v.hi << 64) | v.lo; }
static inline bulk_u128 cg_u_of(u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}

enum { CG_PIECE_ONE = 0, CG_PIECE_WALK = 1, CG_PIECE_ROWS = 2, CG_PIECE_EXT = 3, CG_PIECE_EXT_WALK = 4 };

/* ONE: the number 1. WALK: the block nH * 2^L .. nH * 2^L + 2^L - 1 (L < k, or any L when
 * the engine has no stored sieve). ROWS: rows nH .. nH + rows - 1 of level-k blocks. EXT
 * (engines with a sieve extension of kx bits, collatz/sieve_ext.c): rows nH .. nH + rows - 1
 * of level-K blocks, K = k + kx (L = K). EXT_WALK: an EXT piece that the driver walks per number
 * (its kernels add the eliminated residues' glides themselves, so the static fold skips it). */
typedef struct cg_piece {
    int kind;
    int L;
    u128 nH;
    u128 rows;
} cg_piece;

/* At most: the number 1, up to k + 1 smaller blocks before the rows, one ROWS piece, up to k
 * smaller blocks after them (each level once on each side), so 2 * 41 + 2 entries suffice. */
#define CG_MAX_PIECES 96

static inline int cg_ctz(u128 v)
{
    uint64_t lo = (uint64_t)v, hi = (uint64_t)(v >> 64);
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll(hi);
}

/* Decomposes [first, last] (1 <= first <= last) for a sieve of k stored bits and an extension
 * of kx bits (stored = the engine has its stored sieve, always true for engines built by
 * bulk_collatz_engine_new). Returns the number of pieces written to out[0..CG_MAX_PIECES).
 * The pieces cover the range exactly, in increasing order, with exactly the blocks verify.c
 * would visit: blocks up to level K = k + kx, level-K blocks through the extension (EXT, merged
 * into one piece), level-k blocks through the stored sieve (ROWS; with kx > 0 they occur only
 * at the range's ends, one piece each, and a block of a level L between k and K there is its
 * 2^(L-k) level-k rows, one piece), all others walked (WALK). */
static inline int cg_plan_chunk_x(u128 first, u128 last, int k, int kx, int stored, cg_piece *out)
{
    int np = 0;
    const int K = k + kx;
    u128 cur = first, end = last;
    for (;;) {
        if (cur == 1) {
            out[np].kind = CG_PIECE_ONE;
            out[np].L = 0;
            out[np].nH = 1;
            out[np].rows = 1;
            np++;
        } else {
            int L = cg_ctz(cur);
            if (L > K) L = K;
            while (L > 0 && end - cur < ((u128)1 << L) - 1) L--;
            if ((L == K && kx > 0) || (L >= k && stored)) {
                /* this and every following level-L block up to end, all aligned to 2^L
                 * (cur >= 2, so end - cur + 1 cannot wrap); below an extension, a block of
                 * level k..K-1 is followed by a smaller one or by a level-K block: its 2^(L-k)
                 * level-k rows */
                const int ext = L == K && kx > 0;
                u128 rows = ext || kx == 0 ? (end - cur + 1) >> L : (u128)1 << (L - k);
                out[np].kind = ext ? CG_PIECE_EXT : CG_PIECE_ROWS;
                out[np].L = ext ? L : k;
                out[np].nH = ext ? cur >> L : cur >> k;
                out[np].rows = rows;
                np++;
                cur += ext || kx == 0 ? rows * ((u128)1 << L) - 1 : ((u128)1 << L) - 1;
            } else {
                out[np].kind = CG_PIECE_WALK;
                out[np].L = L;
                out[np].nH = cur >> L;
                out[np].rows = 1;
                np++;
                cur += ((u128)1 << L) - 1;
            }
        }
        if (cur >= end || np == CG_MAX_PIECES) break;
        cur++;
    }
    return np;
}

/* cg_plan_chunk_x without an extension. */
static inline int cg_plan_chunk(u128 first, u128 last, int k, int stored, cg_piece *out)
{
    return cg_plan_chunk_x(first, last, k, 0, stored, out);
}

/* Rows [0, rows) shared among G parts as evenly as possible: part g gets [*r0, *r0 + *cnt). */
static inline void cg_split_rows(u128 rows, int G, int g, u128 *r0, u128 *cnt)
{
    u128 q = rows / (u128)G, rem = rows % (u128)G;
    u128 gg = (u128)g;
    *r0 = gg * q + (gg < rem ? gg : rem);
    *cnt = q + (gg < rem ? 1 : 0);
}

/* Index math of the ROWS kernel (seed 004 Figure 4): a launch covers S entries [0, ne) of the
 * resident slice times rows [0, nrows). A unit is one entry and rows_per_unit consecutive rows;
 * unit u -> entry u / upe, first row (u % upe) * rows_per_unit, upe = units per entry. The
 * threads of a block share the entry (so its r, c, 3^j are one broadcast read) and take
 * consecutive rows (consecutive high bits of n). */
static inline uint64_t cg_units_per_entry(uint64_t nrows, uint32_t rows_per_unit)
{
    return (nrows + rows_per_unit - 1) / rows_per_unit;
}

BULK_HD void cg_unit_map(uint64_t u, uint64_t upe, uint32_t rows_per_unit, uint64_t *entry,
                         uint64_t *row0)
{
    *entry = u / upe;
    *row0 = (u - *entry * upe) * rows_per_unit;
}

/* Per-thread (then per-block) accumulator of a verify kernel: glide sum of the numbers done
 * on the device (eliminated or iterated, not escaped), count of iterated numbers (escaped
 * ones included: they were iterated before they escaped, as in verify.c iterate_one), the
 * largest glide and its smallest n. */
typedef struct cg_acc {
    uint64_t sum, iter, maxg;
    cg_u128 maxn;
} cg_acc;

BULK_HD void cg_acc_init(cg_acc *a)
{
    a->sum = a->iter = a->maxg = 0;
    a->maxn.x0 = a->maxn.x1 = a->maxn.x2 = a->maxn.x3 = 0;
}

/* (g, n) beats the accumulator's maximum: larger glide, or equal glide and smaller n (an empty
 * accumulator has maxn = 0 and never wins a tie against a real n). */
BULK_HD int cg_acc_better(uint64_t g, cg_u128 n, uint64_t maxg, cg_u128 maxn)
{
    int empty = (maxn.x0 | maxn.x1 | maxn.x2 | maxn.x3) == 0;
    return empty || g > maxg || (g == maxg && cg_lt(n, maxn));
}

BULK_HD void cg_acc_note(cg_acc *a, uint64_t g, cg_u128 n)
{
    if (cg_acc_better(g, n, a->maxg, a->maxn)) {
        a->maxg = g;
        a->maxn = n;
    }
}

BULK_HD void cg_acc_merge(cg_acc *a, const cg_acc *b)
{
    a->sum += b->sum;
    a->iter += b->iter;
    if ((b->maxn.x0 | b->maxn.x1 | b->maxn.x2 | b->maxn.x3) != 0) cg_acc_note(a, b->maxg, b->maxn);
}

/* Folds device totals into a result: checksum += sum, iterated += iter, the maximum. */
static inline void cg_fold(bulk_collatz_verify_result *r, u128 sum, u128 iter, uint64_t maxg,
                           cg_u128 maxn)
{
    bulk_collatz_verify_result t;
    bulk_collatz_verify_result_init(&t);
    t.checksum = cg_u_of(sum);
    t.iterated = cg_u_of(iter);
    if ((maxn.x0 | maxn.x1 | maxn.x2 | maxn.x3) != 0) {
        t.max_glide = maxg;
        t.max_glide_n = cg_u_of((u128)cg_hi64(maxn) << 64 | cg_lo64(maxn));
    }
    bulk_collatz_verify_result_merge(r, &t);
}

/* The share of one escaped number n of a level-L block (n = 2^L nH + p, p mandatory at level
 * L), booked by the CPU engine's own code (verify.c bulk_cz_verify_mandatory: the same walk,
 * fast kernel, reference and exact paths as a CPU run, so the overflow list is the CPU's: an
 * earlier copy here skipped the fast kernel and counted an overflow for 2^81 - 1 at d = 12,
 * which the CPU's table operations step over). Its "iterated" was already counted on the
 * device. Returns BULK_OK or the exact path's status. */
static inline int cg_host_iterate(const struct bulk_collatz_engine *e, u128 n, int L,
                                  bulk_collatz_verify_result *r)
{
    return bulk_cz_verify_mandatory(e, cg_u_of(n), L, r);
}

/* The part of a chunk's result that needs no device: every number is covered, each level-k
 * row adds the glide sum G_k of its eliminated residues (verify.c block_stored), each level-K
 * row of an extension of kx bits G_k 2^kx + G_x (verify.c block_extended). */
static inline void cg_fold_static_x(bulk_collatz_verify_result *r, u128 first, u128 last,
                                    const cg_piece *pieces, int np, uint64_t G_k, int kx, uint64_t G_x)
{
    bulk_collatz_verify_result t;
    bulk_collatz_verify_result_init(&t);
    u128 sum = 0;
    for (int i = 0; i < np; i++) {
        if (pieces[i].kind == CG_PIECE_ROWS) sum += pieces[i].rows * (u128)G_k;
        if (pieces[i].kind == CG_PIECE_EXT) sum += pieces[i].rows * (((u128)G_k << kx) + G_x);
    }
    t.covered = cg_u_of(last - first + 1);
    t.checksum = cg_u_of(sum);
    bulk_collatz_verify_result_merge(r, &t);
}
static inline void cg_fold_static(bulk_collatz_verify_result *r, u128 first, u128 last,
                                  const cg_piece *pieces, int np, uint64_t G_k)
{
    cg_fold_static_x(r, first, last, pieces, np, G_k, 0, 0);
}

/* Tables of the fast kernels from the engine's (d <= 20): BC[L] = B[L] | C[L] << 32 and the
 * dip-test table BM (cg_bm_entry; BM may be NULL). */
/* The record tables of d bits (cg_core.h "record-low replays"): ROFF[2^d + 1], and REC, RST
 * with room for ROFF[2^d] entries (cg_rec_total). */
static inline uint64_t cg_rec_total(int d)
{
    uint64_t t = 0;
    for (uint64_t L = 0; L < ((uint64_t)1 << d); L++) t += cg_rec_entries((unsigned)d, L, NULL, NULL);
    return t;
}
static inline void cg_rec_tables(int d, uint32_t *ROFF, uint64_t *REC, uint8_t *RST)
{
    uint32_t o = 0;
    for (uint64_t L = 0; L < ((uint64_t)1 << d); L++) {
        ROFF[L] = o;
        o += cg_rec_entries((unsigned)d, L, REC + o, RST + o);
    }
    ROFF[(uint64_t)1 << d] = o;
}

static inline void cg_pack_tables(int d, const uint64_t *B, const uint64_t *C, uint64_t *BC,
                                  uint64_t *BM)
{
    for (uint64_t L = 0; L < ((uint64_t)1 << d); L++) {
        BC[L] = cg_pack_bc(B[L], C[L]);
        if (BM) BM[L] = cg_bm_entry((unsigned)d, L);
    }
}

#endif
