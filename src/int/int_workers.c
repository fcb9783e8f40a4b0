/* Per-worker scratch and first failures of the integer wrappers' jobs (int_workers.h). */
#include "int/int_workers.h"

#include <stdint.h>
#include <stdlib.h>

int bulk_int_workers_init(bulk_int_workers *w, const bulk_ctx *ctx, size_t scratch_limbs)
{
    w->threads = ctx->threads > 0 ? ctx->threads : 1;
    w->scratch_limbs = scratch_limbs;
    w->scratch = calloc((size_t)w->threads, sizeof *w->scratch);
    w->first_bad = malloc((size_t)w->threads * sizeof *w->first_bad);
    w->first_code = calloc((size_t)w->threads, sizeof *w->first_code);
    atomic_init(&w->nomem, 0);
    if (!w->scratch || !w->first_bad || !w->first_code) return BULK_ERR_NOMEM;
    for (int i = 0; i < w->threads; i++) w->first_bad[i] = SIZE_MAX;
    return BULK_OK;
}

bulk_limb_t *bulk_int_workers_scratch(bulk_int_workers *w, int worker)
{
    bulk_limb_t *tp = w->scratch[worker];
    if (!tp) {
        tp = malloc(w->scratch_limbs * sizeof *tp);
        if (!tp) {
            atomic_store(&w->nomem, 1);
            return NULL;
        }
        w->scratch[worker] = tp;
    }
    return tp;
}

int bulk_int_workers_result(const bulk_int_workers *w, size_t *first)
{
    *first = SIZE_MAX;
    if (atomic_load(&w->nomem)) return BULK_ERR_NOMEM;
    int st = BULK_OK;
    for (int i = 0; i < w->threads; i++)
        if (w->first_bad[i] < *first) {
            *first = w->first_bad[i];
            st = w->first_code[i];
        }
    return st;
}

void bulk_int_workers_free(bulk_int_workers *w)
{
    if (w->scratch)
        for (int i = 0; i < w->threads; i++) free(w->scratch[i]);
    free(w->scratch);
    free(w->first_bad);
    free(w->first_code);
    w->scratch = NULL;
    w->first_bad = NULL;
    w->first_code = NULL;
}
