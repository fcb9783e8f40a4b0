/* The CUDA Collatz options of a context (contract: cuda/collatz_cuda.h): the cz part of its
 * tuning, in builds with and without CUDA alike. */
#include "backend/context.h"
#include "collatz/cuda/collatz_cuda.h"

void bulk_collatz_cuda_get_opts(const bulk_ctx *ctx, bulk_collatz_cuda_opts *o) { *o = bulk_ctx_tune(ctx)->cz; }

int bulk_collatz_cuda_set_opts(bulk_ctx *ctx, const bulk_collatz_cuda_opts *o)
{
    if (!ctx || !bulk_collatz_cuda_opts_valid(o)) return BULK_ERR_ARG;
    ctx->tune.cz = *o;
    return BULK_OK;
}
