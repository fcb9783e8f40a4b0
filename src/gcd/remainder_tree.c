/* The remainder tree of batch GCD (contract: gcd_internal.h): R_top = P, and for every node y
 * of level k with parent remainder R, R_k = R mod y^2. Since R_{k+1} = P mod z^2 for the
 * parent z, and y^2 divides z^2, R_k = P mod y^2; at the leaves that is P mod x_i^2. At most
 * two remainder levels and one product level (plus the levels the memory budget keeps) are in
 * memory at a time; with spill_rem only blocks of them (gcd_internal.h). The lower levels go
 * in batches through bulk_int_sqr / bulk_int_divmod (tree_batched.c: the GPU on a CUDA
 * context), the others node by node (NTT squares, gcd_mod). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "gcd/gcd_internal.h"
#include "int/mul_fft.h"

typedef struct rt_arg {
    const gcd_level *node; /* product level k */
    const gcd_level *up;   /* remainders of level k + 1 */
    gcd_level *rem;        /* remainders of level k */
    size_t first;          /* the block's first node */
    int node_threads;      /* threads per node when the block has fewer nodes than threads,
                            * | GCD_MUL_GPU when the GPU NTT may take its products */
    _Atomic int status;
} rt_arg;

static void rt_nodes(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    rt_arg *a = arg;
    for (size_t j = a->first + begin; j < a->first + end; j++) {
        if (atomic_load_explicit(&a->status, memory_order_relaxed) != BULK_OK) return;
        size_t yn = a->node->len[j], sn = 2 * yn;
        const bulk_limb_t *y = gcd_level_num(a->node, j);
        bulk_limb_t *sq = malloc(sn * sizeof *sq);
        bulk_limb_t *dst = gcd_level_num(a->rem, j);
        int st = BULK_ERR_NOMEM;
        if (sq) {
            gcd_mul(sq, y, yn, y, yn, a->node_threads);
            sn = bulk_mpn_normalized_size(sq, sn);
            st = gcd_mod(dst, gcd_level_num(a->up, j / 2), a->up->len[j / 2], sq, sn,
                         a->node_threads);
            free(sq);
        }
        if (st != BULK_OK) {
            int ok = BULK_OK;
            atomic_compare_exchange_strong(&a->status, &ok, st);
            return;
        }
        size_t rn = bulk_mpn_normalized_size(dst, sn);
        a->rem->len[j] = rn ? rn : 1;
    }
}

/* Remainders of level k (rem) from those of level k + 1 (up) and the product level node.
 * Blocks: the whole level at once when rem is resident (all its nodes in parallel), else
 * blocks of gcd_level_block_end, each written to rem's spill file when done. */
static int rt_level(bulk_ctx *ctx, gcd_level *node, gcd_level *up, gcd_level *rem, int stream,
                    size_t batched, gcd_spill *sp)
{
    int threads = bulk_ctx_threads(ctx), st = BULK_OK;
    int batch = gcd_level_max_len(node, 0, node->count) <= batched;
    if (stream && (st = gcd_level_stream_begin(rem, sp)) != BULK_OK) return st;
    for (size_t j0 = 0, j1; j0 < node->count && st == BULK_OK; j0 = j1) {
        j1 = stream || batch ? gcd_level_block_end(node, j0) : node->count;
        if ((st = gcd_level_load_range(node, sp, j0, j1)) != BULK_OK) break;
        if ((st = gcd_level_load_range(up, sp, j0 / 2, (j1 - 1) / 2 + 1)) != BULK_OK) break;
        if (stream && (st = gcd_level_alloc_window(rem, j0, j1)) != BULK_OK) break;
        if (batch) {
            st = gcd_remainder_nodes_batched(ctx, node, up, rem, j0, j1);
        } else {
            size_t c = j1 - j0;
            rt_arg a = { .node = node, .up = up, .rem = rem, .first = j0,
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
                       bulk_ctx *ctx, int spill_rem, gcd_spill *sp, const bulk_gcd_batch_opts *o)
{
    *out = NULL;
    size_t top = T->levels - 1, batched = gcd_batched_limbs(ctx, 1);
    /* R_top = P (a view of the top node) or the caller's start value (a view too) */
    gcd_level up = gcd_level_view(start ? start : &T->lv[top]);
    int st = BULK_OK;
    for (size_t k = top; k-- > 0;) {
        gcd_level *node = &T->lv[k], rem;
        if ((st = gcd_level_init(&rem, node->count)) != BULK_OK) break;
        /* level 0 goes straight into the output layout (2 limbs limbs per leaf, zero-padded);
         * the others get 2 len limbs per node (a remainder is below the node's square) */
        for (size_t j = 0; j < node->count; j++)
            rem.off[j + 1] = rem.off[j] + (k == 0 ? 2 * limbs : 2 * node->len[j]);
        int stream = spill_rem && k > 0;
        if (!stream && (st = gcd_level_alloc_data(&rem)) != BULK_OK) {
            gcd_level_free(&rem);
            break;
        }
        if (k == 0) bulk_mpn_zero(rem.data, rem.off[node->count]);
        st = rt_level(ctx, node, &up, &rem, stream, batched, sp);
        gcd_level_free(&up);
        up = rem;
        /* level k + 1 of the product tree is no longer needed (level 0 is the caller's) */
        gcd_level_free(&T->lv[k + 1]);
        if (st != BULK_OK) break;
        gcd_tree_progress(o, 2 * top - k, top + 1);
    }
    if (st == BULK_OK && top == 0) { /* a single leaf: R_top itself, < x_0^2 */
        bulk_limb_t *r = calloc(2 * limbs, sizeof *r);
        if (r) bulk_mpn_copy(r, gcd_level_num(&up, 0), up.len[0]);
        else st = BULK_ERR_NOMEM;
        *out = r;
    } else if (st == BULK_OK) { /* up is R_0, already in the output layout */
        *out = up.data;
        up.data = NULL;
    }
    gcd_level_free(&up);
    return st;
}
