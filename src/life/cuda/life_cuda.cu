/* The CUDA backend of Life: seed 001's multi-step register + warp-shuffle kernel (section 6.5),
 * reorganised for throughput.
 *
 * A warp owns a tile 32 words (64 cells each) wide and a strip of S rows tall. Lane l holds
 * word column 30 i - 1 + l of tile i, as two 32-bit halves; lanes 1..30 are the tile's own
 * columns and lanes 0 and 31 its halo (a pass of T <= 64 generations dirties at most T cells
 * from each side, so only those two lanes). Horizontal neighbours come from the adjacent lanes
 * by __shfl_up/down_sync of one half-word each (seed 001 section 6.5: no shared memory), then
 * funnel shifts. Vertically the warp streams down its strip: each row read from global memory
 * passes through T pipeline levels held in registers, level k turning generation k-1 rows
 * into generation k rows one row behind, and the level-T row is written out. So a pass reads
 * S + 2T rows and writes S rows per T generations (seed 001 section 6.4's dirty halo, in one
 * direction only), and the three row sums a level needs are computed once per row and kept.
 *
 * Logic per 32-bit half-word per generation (Conway): 2 funnel shifts, 2 LOP3 for the row sum,
 * 6 for sum9 and 2 for the rule, plus one AND with the boundary mask: 13 integer instructions,
 * and 1 shuffle (on its own pipe). Other rules use life_generic_32 (about 19 more LOP3).
 *
 * Boundaries: dead boundaries of any width; tori whose width is a multiple of 64 directly
 * (columns wrap by word). Other tori run as a dead-boundary grid one word and T rows larger
 * whose halo is refilled from the torus on the host every pass (correct, but slow). */
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "life/life_internal.h"
}
#include "backend/context.h"
#include "backend/cuda/cuda_check.cuh"
#include "life/life_backend.h"
#include "life/life_core.h"

#include "life/cuda/life_kernel.cuh"

/* ---- host side ------------------------------------------------------------------------------ */

typedef void (*life_kernel_fn)(const uint32_t *, uint32_t *, life_geom);

/* Generations per pass that have a kernel: powers of two up to 32 (each level keeps 5
 * registers; 32 generations dirty exactly the halo lanes' 32 cells). */
template <int RULE, int TORUS> static life_kernel_fn pick_t(int t)
{
    switch (t) {
    case 1: return life_kernel<1, RULE, TORUS>;
    case 2: return life_kernel<2, RULE, TORUS>;
    case 4: return life_kernel<4, RULE, TORUS>;
    case 8: return life_kernel<8, RULE, TORUS>;
    case 16: return life_kernel<16, RULE, TORUS>;
    default: return life_kernel<32, RULE, TORUS>;
    }
}

static life_kernel_fn pick_kernel(int t, int conway, int torus)
{
    if (conway) return torus ? pick_t<1, 1>(t) : pick_t<1, 0>(t);
    return torus ? pick_t<0, 1>(t) : pick_t<0, 0>(t);
}

static int pow2_floor(uint64_t v, int cap)
{
    int t = 1;
    while ((uint64_t)t * 2 <= v && t * 2 <= cap) t *= 2;
    return t;
}

/* Rows per warp. One wave of warps: as many as the SMs hold at once for this kernel (its
 * registers decide), so no SM idles in a tail, and strips as tall as that allows (the 2T halo
 * rows are then the smallest share). forced > 0 (the tuning life.strip) overrides. */
static long long pick_strip(life_kernel_fn fn, long long h, long long tiles_x, int t, int sms, long long forced)
{
    if (forced > 0) return forced;
    int blocks_per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, fn, 128, 0) != cudaSuccess ||
        blocks_per_sm < 1)
        blocks_per_sm = 2;
    long long wave = (long long)sms * blocks_per_sm * 4;
    long long strips = wave / tiles_x;
    if (strips < 1) strips = 1;
    long long s = (h + strips - 1) / strips;
    if (s < 4LL * t) s = 4LL * t; /* keep the halo at most half the rows read */
    if (s > h) s = h;
    return s < 1 ? 1 : s;
}

/* `steps` generations of the device grid in a/b (result in *a): nw64 64-bit words x h rows,
 * dead boundary or (when the width is a multiple of 64) torus. */
static int run_passes(bulk_ctx *ctx, uint32_t **a, uint32_t **b, long long nw64, long long h, uint64_t width, int torus,
                      const bulk_life_rule *rule, uint64_t steps, int tmax, int sms, long long strip)
{
    int st = BULK_OK;
    int conway = rule->birth == LIFE_CONWAY_BIRTH && rule->survive == LIFE_CONWAY_SURVIVE;
    life_geom g;
    memset(&g, 0, sizeof g);
    g.nw = 2 * nw64;
    g.h = h;
    g.width = (long long)width;
    g.torus = torus;
    g.birth = rule->birth;
    g.survive = rule->survive;
    g.tiles_x = (g.nw + TILE_OWN - 1) / TILE_OWN;
    while (steps > 0) {
        int t = pow2_floor(steps, tmax);
        life_kernel_fn fn = pick_kernel(t, conway, torus);
        g.strip = pick_strip(fn, h, g.tiles_x, t, sms, strip);
        g.warps = g.tiles_x * ((h + g.strip - 1) / g.strip);
        long long blocks = (g.warps * 32 + 127) / 128;
        fn<<<(unsigned)blocks, 128>>>(*a, *b, g);
        BULK_CUDA_CHECK_GOTO(ctx, cudaGetLastError(), st);
        uint32_t *tmp = *a;
        *a = *b;
        *b = tmp;
        steps -= (uint64_t)t;
    }
fail:
    return st;
}

static int device_sms(void)
{
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return 132;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0) return 132;
    return sms;
}

static int life_cuda_step_timed(bulk_ctx *ctx, uint64_t *cells, uint64_t width, uint64_t height, int torus,
                                    const bulk_life_rule *rule, uint64_t steps, unsigned per_pass,
                                    long long strip, double *kernel_seconds)
{
    if (!cells || !rule || width == 0 || height == 0) return BULK_ERR_ARG;
    if (kernel_seconds) *kernel_seconds = 0;
    if (steps == 0) return BULK_OK;
    BULK_CUDA_CHECK(ctx, cudaSetDevice(ctx->cuda->device));
    int st = BULK_OK;
    cudaEvent_t ev0 = NULL, ev1 = NULL;
    int tmax = per_pass ? pow2_floor(per_pass, 32) : 16;
    int sms = device_sms();
    uint64_t nw = bulk_life_words(width);
    uint32_t *da = NULL, *db = NULL;
    uint64_t *ext = NULL;
    if (!torus || width % 64 == 0) {
        size_t bytes = (size_t)(nw * height * 8);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc((void **)&da, bytes), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc((void **)&db, bytes), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(da, cells, bytes, cudaMemcpyHostToDevice), st);
        if (kernel_seconds) {
            BULK_CUDA_CHECK_GOTO(ctx, cudaEventCreate(&ev0), st);
            BULK_CUDA_CHECK_GOTO(ctx, cudaEventCreate(&ev1), st);
            BULK_CUDA_CHECK_GOTO(ctx, cudaEventRecord(ev0), st);
        }
        st = run_passes(ctx, &da, &db, (long long)nw, (long long)height, width, torus, rule, steps, tmax, sms, strip);
        if (st) goto fail;
        if (kernel_seconds) {
            float ms = 0;
            BULK_CUDA_CHECK_GOTO(ctx, cudaEventRecord(ev1), st);
            BULK_CUDA_CHECK_GOTO(ctx, cudaEventSynchronize(ev1), st);
            BULK_CUDA_CHECK_GOTO(ctx, cudaEventElapsedTime(&ms, ev0, ev1), st);
            *kernel_seconds = ms / 1e3;
        }
        BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(cells, da, bytes, cudaMemcpyDeviceToHost), st);
    } else {
        /* a torus of any other width: each pass steps a dead-boundary copy with a halo of one
         * word and t rows on every side, refilled from the torus on the host */
        uint64_t enw = nw + 2, eh = height + 2 * (uint64_t)tmax;
        size_t bytes = (size_t)(enw * eh * 8);
        ext = (uint64_t *)malloc(bytes);
        if (!ext) {
            st = BULK_ERR_NOMEM;
            goto fail;
        }
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc((void **)&da, bytes), st);
        BULK_CUDA_CHECK_GOTO(ctx, cudaMalloc((void **)&db, bytes), st);
        uint64_t lm = (1ull << (width % 64)) - 1;
        while (steps > 0) {
            int t = pow2_floor(steps, tmax);
            uint64_t rows = height + 2 * (uint64_t)t;
            for (uint64_t r = 0; r < rows; r++) {
                long long gy = ((long long)r - t) % (long long)height;
                if (gy < 0) gy += (long long)height;
                const uint64_t *row = cells + (uint64_t)gy * nw;
                for (uint64_t k = 0; k < enw; k++)
                    ext[r * enw + k] = life_row_get64(row, width, 1, 64 * ((int64_t)k - 1));
            }
            size_t pbytes = (size_t)(enw * rows * 8);
            BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(da, ext, pbytes, cudaMemcpyHostToDevice), st);
            st = run_passes(ctx, &da, &db, (long long)enw, (long long)rows, enw * 64, 0, rule, (uint64_t)t, t, sms, strip);
            if (st) goto fail;
            BULK_CUDA_CHECK_GOTO(ctx, cudaMemcpy(ext, da, pbytes, cudaMemcpyDeviceToHost), st);
            for (uint64_t y = 0; y < height; y++) {
                memcpy(cells + y * nw, ext + (y + (uint64_t)t) * enw + 1, nw * 8);
                cells[y * nw + nw - 1] &= lm;
            }
            steps -= (uint64_t)t;
        }
    }
    BULK_CUDA_CHECK_GOTO(ctx, cudaDeviceSynchronize(), st);
fail:
    if (ev0) cudaEventDestroy(ev0);
    if (ev1) cudaEventDestroy(ev1);
    if (da) cudaFree(da);
    if (db) cudaFree(db);
    free(ext);
    return st;
}

static int life_cuda_step(bulk_ctx *ctx, uint64_t *cells, uint64_t width, uint64_t height, int torus,
                          const bulk_life_rule *rule, uint64_t steps, unsigned per_pass)
{
    return life_cuda_step_timed(ctx, cells, width, height, torus, rule, steps, per_pass,
                                ctx->tune.life_strip, NULL);
}

static int life_cuda_info(bulk_ctx *ctx, char *name, size_t cap, int *sms, int *clock_khz)
{
    const int dev = ctx->cuda->device;
    cudaDeviceProp prop;
    BULK_CUDA_CHECK(ctx, cudaGetDeviceProperties(&prop, dev));
    if (name && cap) {
        strncpy(name, prop.name, cap - 1);
        name[cap - 1] = 0;
    }
    if (sms) *sms = prop.multiProcessorCount;
    if (clock_khz) {
        int khz = 0;
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
        *clock_khz = khz;
    }
    return BULK_OK;
}

extern "C" const bulk_life_backend bulk_life_cuda_backend = {
    life_cuda_step,
    life_cuda_step_timed,
    life_cuda_info,
};
