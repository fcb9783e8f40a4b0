/* The trial kernel's table (src/int/cuda/core/trial.h) made on the host from the CPU's, as the
 * CUDA backend makes it (int_cuda_host.cu), for the tests that run bg_trial_one on the host. */
#ifndef BULK_TEST_INT_GPU_TRIAL_TABLE_H
#define BULK_TEST_INT_GPU_TRIAL_TABLE_H

#include "int/cpu/prime.h"
#include "int/cuda/core/trial.h"
#include "test_util.h"

typedef struct host_trial_table {
    bg_trial_group *g;
    bg_trial_prime *q;
    size_t ng;
    uint32_t limit;
} host_trial_table;

static void host_trial_table_make(host_trial_table *h, const bulk_prime_table *t)
{
    uint32_t *first = test_xmalloc((t->groups + 1) * sizeof *first);
    for (size_t k = 0; k < t->groups; k++) first[k] = t->g[k].first;
    h->g = test_xmalloc(bg_trial_max_groups(t->count) * sizeof *h->g);
    h->q = test_xmalloc((t->count + 1) * sizeof *h->q);
    h->ng = bg_trial_build(h->g, h->q, t->p, t->count, first, t->groups);
    h->limit = t->limit;
    free(first);
}

static void host_trial_table_free(host_trial_table *h)
{
    free(h->g);
    free(h->q);
}

/* bg_trial_one on a (limbs limbs) at stride s, its words copied into x (2 limbs s words). */
static int host_trial_one(const host_trial_table *h, const bulk_limb_t *a, size_t limbs,
                          bg_word *x, size_t s)
{
    int nw = (int)(2 * limbs);
    for (int j = 0; j < nw; j++) x[(size_t)j * s] = (bg_word)(a[j / 2] >> (32 * (j % 2)));
    return bg_trial_one(x, s, nw, h->g, h->ng, h->q, h->limit);
}

#endif
