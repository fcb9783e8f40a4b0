/* Multiplication on the GPU: full product, low half (mul_lo) and square (b = a): the size
 * choice and the entry points. The kernels are in src/int/cuda/mul/ (mul_eo.cu, mul_sr.cu,
 * mul_cols.cu, mul_kara.cu) and int_cuda_ntt.cu.
 *
 * Kernels chosen by size from measured thresholds (choose() below):
 *  - even/odd rows, one instance per thread (limbs <= 20, W <= 1280 bits; products, squares,
 *    low halves): bg_mul_rows_eo / bg_sqr_rows_eo / bg_mullo_rows_eo, one IMAD.WIDE.U32.X per
 *    word product, operands staged through shared memory (coalesced global access), b read
 *    from shared memory row by row, finished words stored as they complete. Capacities 1, 2,
 *    4, 8, 12, 16, 20 limbs; a width between two is padded with zero words up to the next.
 *  - cooperative rows (2048 bits: products and squares): a group of 4 lanes per instance, 16
 *    words of a per lane in registers, b read row by row from shared memory, the rows and
 *    carries of the cooperative Montgomery product without its q m half (core/mul_coop.h,
 *    mul/mul_coop.cu); at 4096 bits one Karatsuba step over three such products of 2048 bits
 *    inside a block (mul_kcoop_kernel).
 *  - sum-rotate (seed 000; full products from 21 limbs, W up to 16384 bits): a group of
 *    G = 8, 16 or 32 lanes per instance, P words of a per lane, exactly the (G P)^2 word
 *    products; finished columns leave through the group's first lane.
 *  - Karatsuba over the batch at 8192 and 16384 bits (down to cooperative 4096-bit products) and
 *    from 32768 bits (even widths): three batched half-size products.
 *  - the warp-column kernel (larger W, and odd widths above sum-rotate): one block per
 *    instance, each warp computes 128 consecutive product columns (4 per lane, bg_col4_lane),
 *    and the column sums are turned into words by a carry-lookahead over lanes
 *    (bg_warp_carries) and over warps (a serial scan of the warps' generate/propagate masks in
 *    shared memory) - seed 002's scan-based carry propagation with the lanes of a warp as the
 *    digits.
 *  - the batched NTT (int_cuda_ntt.cu, the intntt area) where bg_ntt_preferred() says so.
 * The tuning int.mul=teo|sr|cols|kara|ntt|coop|ckara forces one of these where it holds the width (tests and
 * benchmarks); the measurements behind the thresholds: docs/perf/int-gpu-groups.md. */
#include <stdlib.h>
#include <string.h>

#include "int/cuda/int_cuda_ntt.cuh" /* K_NTT: intntt's batched NTT */
#include "int/cuda/mul/mul_internal.cuh"

namespace {

/* Measured thresholds: the kernel tables of bench_int_gpu (device-resident products/s) run by
 * `sh bench/run.sh int --gpu` on an NVIDIA H200 (132 SMs); the runs and their tables are in
 * docs/perf/int-gpu-groups.md, the latest table in bench/results/int-gpu-h200.txt. The issue-cost
 * model below (bg_cost_sr / bg_cost_cols) only arbitrates where nothing was measured against it.
 *
 * kEoMaxLimbs: full products, squares and low halves by the even/odd rows (mul_eo_kernel) up to
 * 20 limbs. Each kernel forced, 2^20 instances: products at 256, 512, 768, 832, 1024 bits
 * 2.32e10, 1.33e10, 7.69e9, 4.30e9, 5.28e9/s against the per-thread carry-flag rows' 1.70e10,
 * 7.38e9, 3.67e9, 2.35e9, 2.13e9 and sum-rotate's 5.9e9 .. 2.59e9; squares 1.68e10 / 7.70e9
 * (512 / 1024 bits) against 1.12e10 / 3.98e9, low halves 1.73e10 / 8.83e9 against 9.55e9 /
 * 2.96e9. Every width runs one of the measured capacities (4, 8, 12, 16, 20 limbs) or 1, 2 limbs
 * (the same code). 17 .. 20 limbs by the 20-limb capacity (1088 .. 1280 bits; 168 registers,
 * 3 blocks per SM): 3.61e9 (1088 bits) and 3.63e9/s (1280 bits) against sum-rotate's 1.56e9,
 * squares 5.73e9 against 1.57e9 and low halves 6.20e9 against 1.19e9 at 1088 bits
 * (docs/perf/int-gpu-groups.md "mul 1024 by even/odd rows"). */
const int kEoMaxLimbs = 20;
/* Karatsuba over the batch from this width up (limbs even), at every level. Measured on an
 * H200 (bench_int_gpu, 65536 bits, 16384 instances device-resident; docs/perf/int-gpu-groups.md
 * "Divsteps gcd, staged divmod, sum-rotate vectors, Karatsuba glue") with the warp-per-instance
 * glue: warp-column 1.256e6/s; one Karatsuba level (threshold 1024) 1.377e6/s, two levels
 * (512: half products of 256 limbs by sum-rotate) 1.484e6/s, three (256) 1.406e6/s. With a
 * one-thread-per-instance glue Karatsuba lost to the warp-column kernel (2.18e6/s against
 * 4.51e6/s at 512 limbs). */
const int kKaraMinLimbs = 512;
/* The cooperative rows at exactly 32 limbs (their 4 x 16 shape, no padding). Each kernel forced
 * on one H200 (device-resident, 2^20 instances at up to 2048 bits, 2^18 above;
 * docs/perf/int-gpu-groups.md "Cooperative products at 2048 and 4096 bits"): 2048 bits 1.62e9/s
 * against sum-rotate's 1.10e9, 4096 bits 4.16e8 against 2.91e8; zero-padded they lost to
 * sum-rotate at 1536 bits (1.36e9 against 1.56e9) and 3072 bits (3.98e8 against 5.10e8). */
const int kCoopLimbs = bgmul::kCoopMaxLimbs / 2;
/* One Karatsuba step over cooperative half products inside a block at 4096 bits: 4.55e8/s
 * against the cooperative rows' 4.16e8 (both forced, the same H200 run; 1.20e9 against 1.61e9
 * at 2048 bits, where it is not used). */
const int kCkaraLimbs = bgmul::kCoopMaxLimbs;
/* Karatsuba over the batch at 8192 bits, whose half products take the 4096-bit kernel, and at
 * 16384 bits (two levels down to it). Measured on one H200 (bench_int_gpu --only kernels,
 * device-resident; docs/perf/int-gpu-groups.md "Cooperative products at 2048 and 4096 bits"):
 * over the cooperative rows 8192 bits 8.51e7 and 8.55e7/s against sum-rotate's 7.34e7 and
 * 7.32e7 (two runs), 16384 bits 2.29e7 against 1.93e7; over the Karatsuba step in the block
 * 9.03e7 and 2.40e7 (one level over the default, the committed kernel table). */
const int kKaraCoopLimbs = 2 * bgmul::kCoopMaxLimbs;
bool kara_over_coop(int limbs) { return limbs == kKaraCoopLimbs || limbs == 2 * kKaraCoopLimbs; }

/* The Karatsuba threshold: kKaraMinLimbs, or the tuning int.kara_min (limbs, >= 32) for the
 * benchmark's multi-level rows; it also applies to the half products, so 1024, 512, 256 at
 * 65536 bits give one, two, three levels. */
int kara_min(const bulk_tune *t)
{
    return t && t->int_kara_min >= 32 ? t->int_kara_min : kKaraMinLimbs;
}

} // namespace

namespace bgmul {

/* By size: even/odd rows per thread up to kEoMaxLimbs (products, squares, low halves), the
 * cooperative rows at 32 limbs, one Karatsuba step over them inside a block at 64, Karatsuba
 * over the batch at 128 and 256 limbs (down to the 64-limb products) and from kKaraMinLimbs
 * (even widths), otherwise the cheaper of sum-rotate and warp-column by the issue-cost model of
 * int_gpu_core.h
 * (bg_cost_sr / bg_cost_cols). When force is set, the tuning int.mul=teo|sr|cols|kara|ntt|coop|
 * ckara forces one at this level (tests and benchmarks; teo up to kEoMaxLimbs, sr up to 256
 * limbs, kara for even widths, ntt up to BG_NTT_MAX_LIMBS, coop up to kCoopMaxLimbs, ckara at
 * 64 limbs and the rows below); Karatsuba's own half products always choose by size. */
kernel choose(int limbs, const bulk_tune *t, bool force, mul_kind mk)
{
    const int m = force && t ? t->int_mul : BULK_TUNE_MUL_AUTO;
    if (m == BULK_TUNE_MUL_TEO && limbs <= kEoMaxLimbs) return K_TEO;
    if (m == BULK_TUNE_MUL_SR && sr_p(limbs)) return K_SR;
    if (m == BULK_TUNE_MUL_COLS) return K_COLS;
    if (m == BULK_TUNE_MUL_KARA && limbs % 2 == 0) return K_KARA;
    if (m == BULK_TUNE_MUL_NTT && limbs <= BG_NTT_MAX_LIMBS) return K_NTT;
    if (m == BULK_TUNE_MUL_COOP && limbs <= kCoopMaxLimbs) return K_COOP;
    if (m == BULK_TUNE_MUL_CKARA && limbs <= kCoopMaxLimbs) return K_CKARA;
    if (limbs <= kEoMaxLimbs) return K_TEO;
    if (limbs == kCoopLimbs) return K_COOP;
    if (limbs == kCkaraLimbs) return K_CKARA;
    if (kara_over_coop(limbs)) return K_KARA;
    if (bg_ntt_preferred(limbs, mk == MK_SQR, t)) return K_NTT; /* where measured faster */
    if (limbs >= kara_min(t) && limbs % 2 == 0) return K_KARA;
    int P, G;
    sr_shape(limbs, &P, &G);
    if (P && bg_cost_sr(P, G) < bg_cost_cols(2 * limbs)) return K_SR;
    return K_COLS;
}

/* r (2 limbs) = a * b with kernel k (b == a allowed). */
int launch_full(kernel k, bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, int limbs,
                const bulk_tune *t, cudaStream_t st)
{
    switch (k) {
    case K_SR: return launch_sr(r, a, b, n, limbs, st);
    case K_TEO: return dispatch_eo(false, r, a, b, n, limbs, st);
    case K_KARA: return launch_kara(r, a, b, n, limbs, t, st);
    case K_NTT: return bg_launch_mul_ntt(r, a, b, n, (size_t)limbs, st);
    case K_COOP: return launch_coop(r, a, b, n, limbs, st);
    case K_CKARA: return launch_ckara(r, a, b, n, limbs, st);
    default: return launch_cols(r, a, b, n, limbs, st);
    }
}

} // namespace bgmul

extern "C" const char *bulk_int_cuda_mul_kernel(const bulk_ctx *ctx, size_t limbs)
{
    if (limbs == 0 || limbs > BG_MAX_LIMBS_MUL) return "none";
    bgmul::kernel k = bgmul::choose((int)limbs, bulk_ctx_tune(ctx));
    static const char *const names[] = {"sr", "cols", "kara", "teo", "ntt", "coop", "ckara"}; /* enum order */
    return names[k];
}

int bg_launch_mul(bg_limb *r, const bg_limb *a, const bg_limb *b, size_t n, size_t limbs, int lo,
                  const bulk_tune *t, cudaStream_t st)
{
    if (n == 0) return BULK_OK;
    if (limbs > BG_MAX_LIMBS_MUL) return BULK_ERR_UNSUPPORTED;
    int l = (int)limbs;
    bgmul::kernel k = bgmul::choose(l, t, true, lo ? bgmul::MK_LO : a == b ? bgmul::MK_SQR : bgmul::MK_FULL);
    if (k == bgmul::K_TEO && lo) return bgmul::dispatch_eo(true, r, a, b, n, l, st);
    if (!lo) return bgmul::launch_full(k, r, a, b, n, l, t, st);
    /* low half of a large product: full products of a sub-batch into scratch, then the low
     * halves copied out as one strided 2D copy */
    size_t per = 2 * limbs * sizeof(bg_limb);
    size_t batch = ((size_t)256 << 20) / per;
    if (batch == 0) batch = 1;
    if (batch > n) batch = n;
    bg_limb *tmp = NULL;
    if (bg_scratch_alloc((void **)&tmp, batch * per, st) != BULK_OK) return BULK_ERR_NOMEM;
    int rc = BULK_OK;
    for (size_t done = 0; done < n && rc == BULK_OK; done += batch) {
        size_t cnt = n - done < batch ? n - done : batch;
        rc = bgmul::launch_full(k, tmp, a + done * limbs, b + done * limbs, cnt, l, t, st);
        if (rc == BULK_OK &&
            cudaMemcpy2DAsync(r + done * limbs, limbs * sizeof(bg_limb), tmp, per,
                              limbs * sizeof(bg_limb), cnt, cudaMemcpyDeviceToDevice, st) != cudaSuccess)
            rc = BULK_ERR_CUDA;
    }
    if (cudaFreeAsync(tmp, st) != cudaSuccess && rc == BULK_OK) rc = BULK_ERR_CUDA;
    return rc;
}
