/* The remainder tree of batch GCD (contract: gcd_internal.h): R_top = P, and for every node y
 * of level k with parent remainder R, R_k = R mod y^2. Since R_{k+1} = P mod z^2 for the
 * parent z, and y^2 divides z^2, R_k = P mod y^2; at the leaves that is P mod x_i^2. At most
 * two remainder levels and one product level (plus the levels the memory budget keeps) are in
 * memory at a time. */
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
    int node_threads;      /* threads per node when the level has fewer nodes than threads */
    _Atomic int status;
} rt_arg;

static void rt_nodes(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    rt_arg *a = arg;
    for (size_t j = begin; j < end; j++) {
        if (atomic_load_explicit(&a->status, memory_order_relaxed) != BULK_OK) return;
        size_t yn = a->node->len[j], sn = 2 * yn;
        const bulk_limb_t *y = gcd_level_num(a->node, j);
        bulk_limb_t *sq = malloc(sn * sizeof *sq);
        bulk_limb_t *dst = a->rem->data + a->rem->off[j];
        int st = BULK_ERR_NOMEM;
        if (sq) {
            bulk_mpn_mul_big_threads(sq, y, yn, y, yn, a->node_threads);
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

int gcd_remainder_tree(bulk_limb_t **out, size_t limbs, gcd_tree *T, const gcd_level *start,
                       int threads, gcd_spill *sp, const bulk_gcd_batch_opts *o)
{
    *out = NULL;
    size_t top = T->levels - 1;
    /* R_top = P (a view of the top node) or the caller's start value (a view too) */
    gcd_level up = gcd_level_view(start ? start : &T->lv[top]);
    int st = BULK_OK;
    for (size_t k = top; k-- > 0;) {
        gcd_level *node = &T->lv[k], rem;
        if ((st = gcd_level_load(node, sp)) != BULK_OK) break;
        if ((st = gcd_level_init(&rem, node->count)) != BULK_OK) break;
        for (size_t j = 0; j < node->count; j++) rem.off[j + 1] = rem.off[j] + 2 * node->len[j];
        if ((st = gcd_level_alloc_data(&rem)) != BULK_OK) {
            gcd_level_free(&rem);
            break;
        }
        rt_arg a = { .node = node, .up = &up, .rem = &rem,
                     .node_threads = (size_t)threads > node->count ? (int)((size_t)threads / node->count) : 1 };
        atomic_init(&a.status, BULK_OK);
        bulk_parallel_for(threads, node->count, 1, rt_nodes, &a);
        st = atomic_load(&a.status);
        gcd_level_free(&up);
        up = rem;
        /* level k + 1 of the product tree is no longer needed (level 0 is the caller's) */
        gcd_level_free(&T->lv[k + 1]);
        if (st != BULK_OK) break;
        gcd_tree_progress(o, 2 * top - k, top + 1);
    }
    if (st == BULK_OK) {
        /* up is now R_0 (or, for a single leaf, R_top itself, < x_0^2); the output is
         * allocated only now, when the product levels are gone */
        bulk_limb_t *r = malloc(up.count * 2 * limbs * sizeof *r);
        if (!r) st = BULK_ERR_NOMEM;
        for (size_t i = 0; r && i < up.count; i++) {
            bulk_limb_t *oi = r + i * 2 * limbs;
            bulk_mpn_zero(oi, 2 * limbs);
            bulk_mpn_copy(oi, gcd_level_num(&up, i), up.len[i]);
        }
        *out = r;
    }
    gcd_level_free(&up);
    return st;
}
