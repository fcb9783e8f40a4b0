/* The large products of the batch GCD trees and of gcd_mod (contract: gcd_internal.h): the GPU
 * NTT of the int area (the CUDA int table's mul_big_dev, int/int_backend.h) for products of at
 * least gcd_gpu_ntt_limbs(ctx) limbs when the caller allows the device, else the CPU's
 * bulk_mpn_mul_big_threads (three-prime NTT above its threshold, Toom below). Both are exact,
 * so the choice never changes a result; any failure of the GPU call (no device, device memory
 * short, a CUDA error) falls back to the CPU for that product. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "gcd/gcd_internal.h"
#include "backend/context.h"
#include "int/int_backend.h"
#include "int/mul_fft.h"

static _Atomic unsigned long long gpu_products, gpu_fallbacks, gpu_bad;

/* x mod (2^64 - 1): the limbs added with end-around carry (B = 2^64 is 1 modulo 2^64 - 1). */
static uint64_t mod_m64(const bulk_limb_t *x, size_t n)
{
    unsigned __int128 s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    uint64_t lo = (uint64_t)s, hi = (uint64_t)(s >> 64);
    uint64_t t = lo + hi;
    if (t < lo) t++; /* end-around carry */
    return t == UINT64_MAX ? 0 : t;
}

/* (a b) mod (2^64 - 1) from a, b mod (2^64 - 1). */
static uint64_t mulmod_m64(uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    uint64_t lo = (uint64_t)p, hi = (uint64_t)(p >> 64);
    uint64_t t = lo + hi;
    if (t < lo) t++;
    return t == UINT64_MAX ? 0 : t;
}

size_t gcd_gpu_ntt_limbs(const bulk_ctx *ctx)
{
    long long t = bulk_ctx_tune(ctx)->gcd_gpu_ntt;
    return t >= 0 ? (size_t)t : GCD_GPU_NTT_LIMBS;
}

int gcd_mul_flags(const bulk_ctx *ctx)
{
    size_t t = gcd_gpu_ntt_limbs(ctx);
    if (!ctx || !ctx->gpu || t == 0) return 0;
    int lg = 0;
    while (((size_t)1 << lg) < t) lg++; /* a power of two (the tuning's rule, and the default) */
    return GCD_MUL_GPU | lg << GCD_MUL_GPU_LOG_SHIFT |
           (ctx->cuda->device & GCD_MUL_DEVICE_MASK) << GCD_MUL_DEVICE_SHIFT;
}

/* r = a b on the GPU through the device-pointer variant with plain copies: the host variant's
 * pinned staging is shared by the calls of one context, and the trees call from many threads at
 * once, so the host variant would race here. */
static int gpu_mul(int device, bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b,
                   size_t bn)
{
    /* the flags carry no context; GCD_MUL_GPU is set only on a CUDA context, so CUDA is built */
    const bulk_int_backend *g = bulk_cuda_tables()->ints;
    int sq = a == b && an == bn;
    size_t limbs = an + (sq ? 0 : bn) + an + bn;
    void *dev = NULL;
    int st = g->raw_alloc(device, &dev, limbs * sizeof *r);
    if (st != BULK_OK) return st;
    bulk_limb_t *da = dev, *db = sq ? da : da + an, *dr = da + an + (sq ? 0 : bn);
    st = g->raw_put(device, da, a, an * sizeof *a);
    if (st == BULK_OK && !sq) st = g->raw_put(device, db, b, bn * sizeof *b);
    if (st == BULK_OK) st = g->mul_big_dev(device, dr, da, an, db, bn);
    if (st == BULK_OK) st = g->raw_get(device, r, dr, (an + bn) * sizeof *r);
    int fs = g->raw_free(device, dev);
    return st == BULK_OK ? fs : st;
}

void gcd_mul(bulk_limb_t *r, const bulk_limb_t *a, size_t an, const bulk_limb_t *b, size_t bn, int mt)
{
    int threads = mt & GCD_MUL_THREADS_MASK;
    if (mt & GCD_MUL_GPU) {
        size_t t = (size_t)1 << ((mt >> GCD_MUL_GPU_LOG_SHIFT) & 31);
        int device = (mt >> GCD_MUL_DEVICE_SHIFT) & GCD_MUL_DEVICE_MASK;
        if (an + bn >= t && an + bn <= BULK_INT_CUDA_NTT_MAX_LIMBS) {
            if (gpu_mul(device, r, a, an, b, bn) == BULK_OK) {
                /* casting out 2^64 - 1: a wrong product (a lost carry, a missing limb, garbage)
                 * is caught with probability about 1 - 2^-64 for one pass over the limbs; it
                 * is then redone on the CPU (a wrong product would make a Barrett quotient
                 * far off and its correction loop endless) */
                if (mod_m64(r, an + bn) == mulmod_m64(mod_m64(a, an), mod_m64(b, bn))) {
                    atomic_fetch_add_explicit(&gpu_products, 1, memory_order_relaxed);
                    return;
                }
                atomic_fetch_add_explicit(&gpu_bad, 1, memory_order_relaxed);
            } else {
                atomic_fetch_add_explicit(&gpu_fallbacks, 1, memory_order_relaxed);
            }
        }
    }
    bulk_mpn_mul_big_threads(r, a, an, b, bn, threads < 1 ? 1 : threads);
}

void gcd_mul_counts(unsigned long long *gpu, unsigned long long *fallback, unsigned long long *bad)
{
    *gpu = atomic_load_explicit(&gpu_products, memory_order_relaxed);
    *fallback = atomic_load_explicit(&gpu_fallbacks, memory_order_relaxed);
    *bad = atomic_load_explicit(&gpu_bad, memory_order_relaxed);
}
