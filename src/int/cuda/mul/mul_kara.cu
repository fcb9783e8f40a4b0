/* Karatsuba over the batch: the sums, three batched half-size products (each choosing its own
 * kernel), the combination; the glue one warp per instance. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/mul/mul_internal.cuh"

namespace {

/* ---- Karatsuba over the batch ----------------------------------------------------------------- */

/* Karatsuba's glue, one warp per instance: every pass below adds or subtracts two long numbers
 * 32 limbs at a time, lane l on limb 32 t + l (coalesced: an instance's limbs are contiguous),
 * the carries between lanes by one lookahead addition over the warp's generate/propagate
 * ballots (bg_warp_carries) and from round to round through cin. The first version ran one
 * thread per instance serially over h limbs: a few thousand threads at the widths Karatsuba
 * serves, each walking its own cache lines (measured: one Karatsuba level lost to the
 * warp-column kernel at 65536 bits, 1.13e6/s against 1.26e6/s, though its three half products
 * alone would take about 0.8 of the warp-column time). */

/* dst[0 .. len) = x[0 .. len) + y or - y (y of ylen <= len limbs, zero-extended) + cin
 * (a borrow when sub); returns the carry (borrow) out. All 32 lanes call it; dst may be x.
 * xc, yc (optional, len limbs, ylen limbs): copies of x and y written on the way. */
__device__ uint32_t warp_addsub(bg_limb *dst, const bg_limb *x, const bg_limb *y, int len,
                                int ylen, bool sub, uint32_t cin, bg_limb *xc = NULL,
                                bg_limb *yc = NULL)
{
    const int lane = threadIdx.x & 31;
    __syncwarp(); /* the passes hand limbs between lanes through memory: order them */
    for (int base = 0; base < len; base += 32) {
        int j = base + lane;
        bool act = j < len;
        bg_limb xv = act ? x[j] : 0, yv = act && j < ylen ? y[j] : 0;
        if (xc && act) xc[j] = xv;
        if (yc && act && j < ylen) yc[j] = yv;
        bg_limb sv = sub ? xv - yv : xv + yv;
        bool g = act && (sub ? xv < yv : sv < xv);
        bool p = act && sv == (sub ? (bg_limb)0 : ~(bg_limb)0);
        uint32_t cout, mask = bg_warp_carries(__ballot_sync(0xffffffffu, g),
                                              __ballot_sync(0xffffffffu, p), cin, &cout);
        int nact = len - base < 32 ? len - base : 32;
        if (nact < 32) cout = (mask >> nact) & 1; /* inactive lanes neither generate nor pass */
        bg_limb c = (mask >> lane) & 1;
        if (act) dst[j] = sub ? sv - c : sv + c;
        cin = cout;
    }
    __syncwarp();
    return cin;
}

/* dst[0 .. len) = x[0 .. len), by the warp. */
__device__ void warp_copy(bg_limb *dst, const bg_limb *x, int len)
{
    __syncwarp();
    for (int j = threadIdx.x & 31; j < len; j += 32) dst[j] = x[j];
    __syncwarp();
}

/* SA = a0 + a1, SB = b0 + b1 (h limbs each, carries CA, CB), and the halves A0, A1, B0, B1
 * copied apart on the way (the operands of the half products), one warp per instance. */
__global__ void kara_sums_kernel(bg_limb *SA, bg_limb *SB, uint8_t *CA, uint8_t *CB, bg_limb *A0,
                                 bg_limb *A1, bg_limb *B0, bg_limb *B1, const bg_limb *a,
                                 const bg_limb *b, size_t n, int limbs)
{
    size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (i >= n) return; /* whole warps leave together: n counts warps */
    int h = limbs / 2;
    const bg_limb *x = a + i * limbs, *y = b + i * limbs;
    const size_t o = i * (size_t)h;
    uint32_t ca = warp_addsub(SA + o, x, x + h, h, h, false, 0, A0 + o, A1 + o);
    uint32_t cb = warp_addsub(SB + o, y, y + h, h, h, false, 0, B0 + o, B1 + o);
    if ((threadIdx.x & 31) == 0) {
        CA[i] = (uint8_t)ca;
        CB[i] = (uint8_t)cb;
    }
}

/* r = z0 + (z1' - z0 - z2) B^h + z2 B^2h with z1' = z1 + (ca sb + cb sa) B^h + ca cb B^2h
 * (B = 2^64), one warp per instance; T (2h + 1 limbs per instance) holds the middle term,
 * which is a0 b1 + a1 b0 >= 0 and fits. The addition into r is modulo B^4h (the product fits). */
__global__ void kara_combine_kernel(bg_limb *r, bg_limb *T, const bg_limb *Z0, const bg_limb *Z1,
                                    const bg_limb *Z2, const bg_limb *SA, const bg_limb *SB,
                                    const uint8_t *CA, const uint8_t *CB, size_t n, int h)
{
    size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (i >= n) return;
    const size_t H = (size_t)h;
    bg_limb *t = T + i * (2 * H + 1), *ri = r + i * 4 * H;
    const bg_limb *z0 = Z0 + i * 2 * H, *z1 = Z1 + i * 2 * H, *z2 = Z2 + i * 2 * H;
    warp_copy(t, z1, 2 * h);
    if ((threadIdx.x & 31) == 0) t[2 * H] = CA[i] & CB[i];
    __syncwarp();
    if (CA[i]) warp_addsub(t + H, t + H, SB + i * H, h + 1, h, false, 0);
    if (CB[i]) warp_addsub(t + H, t + H, SA + i * H, h + 1, h, false, 0);
    warp_addsub(t, t, z0, 2 * h + 1, 2 * h, true, 0);
    warp_addsub(t, t, z2, 2 * h + 1, 2 * h, true, 0);
    warp_copy(ri, z0, 2 * h);
    warp_copy(ri + 2 * H, z2, 2 * h);
    __syncwarp();
    warp_addsub(ri + H, ri + H, t, 3 * h, 2 * h + 1, false, 0);
}

} // namespace

namespace bgmul {

/* One Karatsuba level over the whole batch (limbs even): the sums, with the halves copied
 * apart on the way (kara_sums_kernel), three batched half-size products (each choosing its own kernel, Karatsuba
 * again when still wide), the combination. Sub-batches bound the scratch to 1 GiB. */
int launch_kara(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                const bulk_tune *t, cudaStream_t st)
{
    const size_t h = (size_t)limbs / 2, L = (size_t)limbs, hb = h * sizeof(bg_limb);
    const size_t per = 14 * hb + 8 + 2; /* A0 A1 B0 B1 SA SB: 6h; Z0 Z1 Z2: 6h; T: 2h + 1; CA CB */
    size_t batch = ((size_t)1 << 30) / per;
    if (batch == 0) batch = 1;
    if (batch > n) batch = n;
    char *s = NULL;
    if (bg_scratch_alloc((void **)&s, batch * per, st) != BULK_OK) return BULK_ERR_NOMEM;
    bg_limb *A0 = (bg_limb *)s, *A1 = A0 + batch * h, *B0 = A1 + batch * h, *B1 = B0 + batch * h;
    bg_limb *SA = B1 + batch * h, *SB = SA + batch * h, *Z0 = SB + batch * h;
    bg_limb *Z1 = Z0 + batch * 2 * h, *Z2 = Z1 + batch * 2 * h;
    bg_limb *T = Z2 + batch * 2 * h;
    uint8_t *CA = (uint8_t *)(T + batch * (2 * h + 1)), *CB = CA + batch;
    int hl = (int)h, rc = BULK_OK;
    kernel hk = choose(hl, t, false);
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        const bg_limb *ad = a + done * L, *bd = b + done * L;
        unsigned grid = (unsigned)((cnt + 3) / 4); /* 4 warps of 128 threads, one per instance */
        kara_sums_kernel<<<grid, 128, 0, st>>>(SA, SB, CA, CB, A0, A1, B0, B1, ad, bd, cnt, limbs);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
        if (rc == BULK_OK) rc = launch_full(hk, Z0, A0, B0, cnt, hl, t, st);
        if (rc == BULK_OK) rc = launch_full(hk, Z2, A1, B1, cnt, hl, t, st);
        if (rc == BULK_OK) rc = launch_full(hk, Z1, SA, SB, cnt, hl, t, st);
        if (rc != BULK_OK) break;
        kara_combine_kernel<<<grid, 128, 0, st>>>(r + done * 2 * L, T, Z0, Z1, Z2, SA, SB, CA, CB, cnt, hl);
        if (cudaGetLastError() != cudaSuccess) rc = BULK_ERR_CUDA;
    }
    if (cudaFreeAsync(s, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}

} // namespace bgmul
