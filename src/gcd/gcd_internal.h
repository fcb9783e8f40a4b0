/* Internal pieces of the shared-factor area (src/gcd): large division with the NTT
 * multiplication, the levels of the product and remainder trees and their spilling to disk.
 * Numbers are mpn (int/mpn.h): 64-bit limbs, least significant first, explicit lengths. */
#ifndef BULK_GCD_INTERNAL_H
#define BULK_GCD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bulk/gcd.h"
#include "int/mpn.h"

/* ---- large division (bigdiv.c) ------------------------------------------------------------ */

/* Divisor size (limbs) from which gcd_mod uses its own Newton reciprocal and Barrett step on
 * bulk_mpn_mul_big (NTT) instead of bulk_mpn_divmod (whose Newton division multiplies with
 * Toom until the NTT is hooked into bulk_mpn_mul). */
#define GCD_BIGDIV_THRESHOLD 2000

/* v (n + 2 limbs, zero-padded) = floor(B^(2n) / d), B = 2^64, d of n >= 1 limbs with
 * d[n-1] != 0. Exact: a Newton step on the reciprocal of the top half, then a check of
 * B^(2n) - d v that moves v to the exact floor. Returns BULK_OK or BULK_ERR_NOMEM. */
int gcd_recip(bulk_limb_t *v, const bulk_limb_t *d, size_t n);

/* r (dn limbs, zero-padded) = a mod d; an >= 1, dn >= 1, d[dn-1] != 0, r disjoint from a and d.
 * threads: passed to the NTT products (bulk_mpn_mul_big_threads). Returns BULK_OK or
 * BULK_ERR_NOMEM. */
int gcd_mod(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *d, size_t dn,
            int threads);

/* Largest correction (in units) that gcd_recip's final check has had to apply since the start
 * of the process (relaxed counter for the tests: it proves that the Newton recursion, which
 * runs without checks below the top, is accurate). */
unsigned long long gcd_recip_max_fix(void);
/* The same for gcd_mod's quotient correction (steps of d after the Barrett estimate). */
unsigned long long gcd_mod_max_fix(void);

/* ---- tree levels (spill.c) ---------------------------------------------------------------- */

/* One level of a tree: `count` numbers; number j lives in data[off[j] .. off[j] + len[j])
 * (normalized: len[j] >= 1 and the top limb is nonzero, except the number 0 with len 1),
 * with room up to off[j + 1]. When spilled, data is NULL and the limbs are in the file `path`. */
typedef struct gcd_level {
    size_t count;
    size_t *off; /* count + 1 entries */
    size_t *len; /* count entries */
    bulk_limb_t *data;
    int borrowed; /* data belongs to the caller (the leaves): never freed nor spilled */
    char *path;   /* spill file, NULL when never spilled */
} gcd_level;

/* Allocates off, len (count entries) and, when alloc_data, data for off[count] limbs after the
 * caller has filled off. Returns BULK_OK or BULK_ERR_NOMEM. */
int gcd_level_init(gcd_level *L, size_t count);
int gcd_level_alloc_data(gcd_level *L);
/* Writes data to a new file in dir (NULL: $TMPDIR or /tmp) and frees it. BULK_ERR_IO on failure. */
int gcd_level_spill(gcd_level *L, const char *dir);
/* Reads a spilled level back. BULK_ERR_IO / BULK_ERR_NOMEM on failure. */
int gcd_level_load(gcd_level *L);
/* Frees the data only (keeps the spill file for a later load). */
void gcd_level_drop(gcd_level *L);
/* Frees everything and removes the spill file. */
void gcd_level_free(gcd_level *L);
static inline const bulk_limb_t *gcd_level_num(const gcd_level *L, size_t j)
{
    return L->data + L->off[j];
}

/* ---- trees (product_tree.c, remainder_tree.c) ---------------------------------------------- */

/* A product tree: level 0 the leaves, level k+1 node j = level k nodes 2j and 2j+1 multiplied
 * (a last node without a sibling is carried up unchanged); the top level has one node. */
typedef struct gcd_tree {
    size_t levels;
    gcd_level *lv;
    bulk_limb_t spilled_bytes; /* bytes written to spill files (statistics) */
} gcd_tree;

/* Builds the tree over the leaves (a borrowed level 0). With spill, every level but the top is
 * written to disk as soon as the next one is built. threads: worker count for the nodes of a
 * level; o (may be NULL): the progress callback. Returns BULK_OK, BULK_ERR_NOMEM or BULK_ERR_IO; on error the tree is freed. */
int gcd_product_tree(gcd_tree *T, const gcd_level *leaves, int threads, int spill,
                     const char *dir, const bulk_gcd_batch_opts *o);
void gcd_tree_free(gcd_tree *T);

/* out (count = leaves, 2 * limbs limbs each, zero-padded) = P mod x_i^2 for every leaf, P the
 * top of T, descending level by level (loading spilled levels one at a time and freeing each
 * remainder level once the next is done). Returns BULK_OK, BULK_ERR_NOMEM or BULK_ERR_IO. */
int gcd_remainder_tree(bulk_limb_t *out, size_t limbs, gcd_tree *T, int threads, int spill,
                       const char *dir, const bulk_gcd_batch_opts *o);
/* Progress of the two trees: o->progress (when set) with done levels of 2 (levels - 1). */
static inline void gcd_tree_progress(const bulk_gcd_batch_opts *o, size_t done, size_t levels)
{
    if (o && o->progress) o->progress(o->progress_arg, (double)done, 2.0 * (double)(levels - 1) + 1);
}

#endif
