/* The GPU NTT multiplication (int/cuda/int_cuda_ntt.h) in a build without CUDA: no device, so
 * BULK_ERR_NO_BACKEND everywhere and 0 from the size queries. With CUDA the real functions come
 * from src/int/cuda/int_cuda_ntt*.cu and this file compiles to nothing. */
#include "int/cuda/int_cuda_ntt.h"

typedef int bulk_int_cuda_absent_ntt_unit; /* keeps the unit non-empty when CUDA is built */

#ifndef BULK_HAVE_CUDA

int bulk_int_cuda_mul_big(bulk_limb_t *r, const bulk_limb_t *a, size_t na, const bulk_limb_t *b,
                          size_t nb)
{
    (void)r, (void)a, (void)na, (void)b, (void)nb;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_mul_big_dev(bulk_limb_t *r, const bulk_limb_t *a, size_t na,
                              const bulk_limb_t *b, size_t nb)
{
    (void)r, (void)a, (void)na, (void)b, (void)nb;
    return BULK_ERR_NO_BACKEND;
}

size_t bulk_int_cuda_mul_big_bytes(size_t na, size_t nb)
{
    (void)na, (void)nb;
    return 0;
}

int bulk_int_cuda_dev_alloc(void **p, size_t bytes)
{
    (void)bytes;
    if (p) *p = NULL;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_dev_free(void *p)
{
    (void)p;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_dev_put(void *dst, const void *src, size_t bytes)
{
    (void)dst, (void)src, (void)bytes;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_dev_get(void *dst, const void *src, size_t bytes)
{
    (void)dst, (void)src, (void)bytes;
    return BULK_ERR_NO_BACKEND;
}

int bulk_int_cuda_mul_ntt_batch(bulk_limb_t *r, const bulk_limb_t *a, const bulk_limb_t *b,
                                size_t n, size_t limbs)
{
    (void)r, (void)a, (void)b, (void)n, (void)limbs;
    return BULK_ERR_NO_BACKEND;
}

size_t bulk_int_cuda_ntt_batch_max_limbs(void) { return 0; }

#endif
