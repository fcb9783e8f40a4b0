/* The remainder tree of batch GCD (contract: gcd_internal.h), in the form that never squares:
 * for every node y with parent z = y y' (y' its sibling; z = y for a node carried up alone),
 *     Q_y = (P / y) mod y = ((Q_z mod y) (y' mod y)) mod y,
 * since P / y = (P / z) y' and (P / z) mod y = ((P / z) mod z) mod y = Q_z mod y (y divides z).
 * Q_top = (P / P) mod P = 1; at the leaves Q_x = (P / x) mod x, the cofactor whose gcd with x
 * is g (Bernstein's (P mod x^2) / x, without the squares: two reductions modulo y of numbers
 * of about 2 |y| limbs sharing one reciprocal, and one product of |y| x |y| limbs per node,
 * against a square and a reduction of 4 |y| limbs modulo the 2 |y|-limb square; the levels
 * hold |y| limbs per node instead of 2 |y|). The plain form (`plain`, for the grouped method)
 * is R_y = R_z mod y from a given R_top: the remainders of one number modulo every node.
 * At most two value levels and one product level (plus the product levels the memory budget
 * keeps) are in memory at a time; with spill_rem only blocks of them (gcd_internal.h). The
 * lower levels go in batches through bulk_int_divmod / bulk_int_mul (tree_batched.c: the GPU
 * on a CUDA context), the others node by node (gcd_mod_by, gcd_mul). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "gcd/gcd_internal.h"

typedef struct rt_arg {
    const gcd_level *node; /* product level k */
    const gcd_level *up;   /* remainders of level k + 1 */
    gcd_level *rem;        /* remainders of level k */
    size_t first;          /* the block's first node */
    int plain;             /* R_y = R_z mod y (no sibling factor) */
    int node_threads;      /* threads per node when the block has fewer nodes than threads,
                            * | GCD_MUL_GPU when the GPU NTT may take its products */
    _Atomic int status;
} rt_arg;

/* One node: dst (node length, zero-padded) = Q_y (or R_y when plain). */
static int rt_node(const rt_arg *a, size_t j, bulk_limb_t *dst)
{
    size_t yn = a->node->len[j], un = a->up->len[j / 2];
    const bulk_limb_t *y = gcd_level_num(a->node, j);
    int nt = a->node_threads;
    gcd_divisor D;
    int st = gcd_divisor_init(&D, y, yn, nt);
    if (st != BULK_OK) return st;
    size_t s = j ^ 1; /* the sibling */
    if (a->plain || s >= a->node->count) { /* R_y = R_z mod y; a lone child: Q_y = Q_z mod y */
        st = gcd_mod_by(dst, gcd_level_num(a->up, j / 2), un, &D, nt);
        gcd_divisor_free(&D);
        return st;
    }
    bulk_limb_t *t = malloc(4 * yn * sizeof *t); /* t1 (yn), t2 (yn), their product (2 yn) */
    if (!t) st = BULK_ERR_NOMEM;
    if (st == BULK_OK) st = gcd_mod_by(t, gcd_level_num(a->up, j / 2), un, &D, nt);
    if (st == BULK_OK) st = gcd_mod(t + yn, gcd_level_num(a->node, s), a->node->len[s], y, yn, nt);
    if (st == BULK_OK) {
        size_t n1 = bulk_mpn_normalized_size(t, yn), n2 = bulk_mpn_normalized_size(t + yn, yn);
        if (n1 == 0 || n2 == 0) {
            bulk_mpn_zero(dst, yn);
        } else {
            gcd_mul(t + 2 * yn, t, n1, t + yn, n2, nt);
            st = gcd_mod_by(dst, t + 2 * yn, n1 + n2, &D, nt);
        }
    }
    free(t);
    gcd_divisor_free(&D);
    return st;
}

static void rt_nodes(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    rt_arg *a = arg;
    for (size_t j = a->first + begin; j < a->first + end; j++) {
        if (atomic_load_explicit(&a->status, memory_order_relaxed) != BULK_OK) return;
        bulk_limb_t *dst = gcd_level_num(a->rem, j);
        int st = rt_node(a, j, dst);
        if (st != BULK_OK) {
            int ok = BULK_OK;
            atomic_compare_exchange_strong(&a->status, &ok, st);
            return;
        }
        size_t rn = bulk_mpn_normalized_size(dst, a->node->len[j]);
        a->rem->len[j] = rn ? rn : 1;
    }
}

/* Values of level k (rem) from those of level k + 1 (up) and the product level node.
 * Blocks: the whole level at once when rem is resident (all its nodes in parallel), else
 * blocks of gcd_level_block_end, rounded up to whole sibling pairs (every node's sibling is in
 * its block), each written to rem's spill file when done. */
static int rt_level(bulk_ctx *ctx, gcd_level *node, gcd_level *up, gcd_level *rem, int plain,
                    int stream, gcd_spill *sp, gcd_ckpt *ck, size_t k)
{
    int threads = bulk_ctx_threads(ctx), st = BULK_OK;
    int batch = gcd_level_batched(ctx, 1, node);
    /* a streamed level goes straight into its checkpoint file when there is one */
    if (stream) st = ck ? gcd_ckpt_begin(ck, rem, GCD_CKPT_VALUE, k) : gcd_level_stream_begin(rem, sp);
    if (stream && ck && st == BULK_OK) sp->rem_levels++;
    if (st != BULK_OK) return st;
    for (size_t j0 = 0, j1; j0 < node->count && st == BULK_OK; j0 = j1) {
        j1 = stream || batch ? gcd_level_block_end(node, j0) : node->count;
        if (j1 < node->count && (j1 & 1)) j1++; /* j0 is even: whole pairs */
        if ((st = gcd_level_load_range(node, sp, j0, j1)) != BULK_OK) break;
        if ((st = gcd_level_load_range(up, sp, j0 / 2, (j1 - 1) / 2 + 1)) != BULK_OK) break;
        if (stream && (st = gcd_level_alloc_window(rem, j0, j1)) != BULK_OK) break;
        if (batch) {
            st = gcd_remainder_nodes_batched(ctx, node, up, rem, plain, j0, j1);
        } else {
            size_t c = j1 - j0;
            rt_arg a = { .node = node, .up = up, .rem = rem, .first = j0, .plain = plain,
                         .node_threads = ((size_t)threads > c ? (int)((size_t)threads / c) : 1) |
                                         gcd_mul_flags(ctx) };
            atomic_init(&a.status, BULK_OK);
            bulk_parallel_for(threads, c, 1, rt_nodes, &a);
            st = atomic_load(&a.status);
        }
        if (st == BULK_OK && stream) st = gcd_level_stream_put(rem, sp);
    }
    if (node->fd >= 0) gcd_level_drop(node); /* spilled: only its last block was resident */
    return st;
}

int gcd_remainder_tree(bulk_limb_t **out, size_t limbs, gcd_tree *T, const gcd_level *start,
                       int plain, bulk_ctx *ctx, int spill_rem, gcd_spill *sp,
                       bulk_progress_run *o, gcd_ckpt *ck, gcd_level *from, size_t from_k)
{
    *out = NULL;
    size_t top = T->levels - 1, k_start = from ? from_k : top;
    /* the top value: the caller's start (a view), or Q_top = 1; or a checkpoint's level */
    gcd_level up;
    int st = BULK_OK;
    if (from) {
        up = *from;
        memset(from, 0, sizeof *from);
        from->fd = -1;
        if (from_k == 0) st = gcd_level_load(&up, sp); /* the answer itself */
    } else if (start) {
        up = gcd_level_view(start);
    } else {
        if ((st = gcd_level_init(&up, 1)) != BULK_OK) return st;
        up.off[1] = 1;
        up.len[0] = 1;
        if ((st = gcd_level_alloc_data(&up)) != BULK_OK) {
            gcd_level_free(&up);
            return st;
        }
        up.data[0] = 1;
    }
    for (size_t k = k_start; st == BULK_OK && k-- > 0;) {
        gcd_level *node = &T->lv[k], rem;
        if ((st = gcd_level_init(&rem, node->count)) != BULK_OK) break;
        /* level 0 goes straight into the output layout (limbs limbs per leaf, zero-padded);
         * the others get len limbs per node (a value is below its node) */
        for (size_t j = 0; j < node->count; j++)
            rem.off[j + 1] = rem.off[j] + (k == 0 ? limbs : node->len[j]);
        int stream = spill_rem && k > 0;
        if (!stream && (st = gcd_level_alloc_data(&rem)) != BULK_OK) {
            gcd_level_free(&rem);
            break;
        }
        if (k == 0) bulk_mpn_zero(rem.data, rem.off[node->count]);
        st = rt_level(ctx, node, &up, &rem, plain, stream, sp, ck, k);
        if (ck && st == BULK_OK)
            st = stream ? gcd_ckpt_end(ck, &rem, GCD_CKPT_VALUE, k) : gcd_ckpt_save(ck, &rem, GCD_CKPT_VALUE, k);
        gcd_level_free(&up);
        up = rem;
        /* level k + 1 of the product tree is no longer needed (level 0 is the caller's) */
        gcd_level_free(&T->lv[k + 1]);
        if (st != BULK_OK) break;
        if (ck) { /* value level k is saved: what resuming above it would need can go */
            gcd_ckpt_remove(ck, GCD_CKPT_VALUE, k + 1);
            for (size_t j = k + 1; j < top; j++) gcd_ckpt_remove(ck, GCD_CKPT_PRODUCT, j);
        }
        if ((st = gcd_tree_progress(o, 2 * top - k, top + 1)) != BULK_OK) break;
    }
    if (st == BULK_OK && top == 0) { /* a single leaf x: Q = 1 mod x = 1, R = start mod x */
        bulk_limb_t *r = calloc(limbs, sizeof *r);
        if (!r) st = BULK_ERR_NOMEM;
        else if (!start) r[0] = 1;
        else st = gcd_mod(r, gcd_level_num(&up, 0), up.len[0], gcd_level_num(&T->lv[0], 0),
                          T->lv[0].len[0], 1);
        if (st == BULK_OK) *out = r;
        else free(r);
    } else if (st == BULK_OK) { /* up is level 0, already in the output layout */
        *out = up.data;
        up.data = NULL;
    }
    gcd_level_free(&up);
    return st;
}
