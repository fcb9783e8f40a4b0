/* The backend table of the Life area (backend/backends.h). Grids use the layout of bulk/life.h.
 *
 *  step        steps a grid in place by `steps` generations, `per_pass` generations per pass
 *              over memory (0: chosen by size), under the context's tuning (life.isa on the
 *              CPU, life.strip on the GPU). CPU: on the context's threads (grid.c). CUDA: on
 *              the context's device, the grid copied there and back (cuda/life_cuda.cu).
 *              BULK_OK, BULK_ERR_NOMEM, BULK_ERR_CUDA.
 *  step_timed  (GPU only; NULL on the CPU) step with the rows per warp `strip` (> 0; 0: by
 *              occupancy) that also reports the time of the kernels alone (device clock, without
 *              the copies), for benchmarks; *kernel_seconds is 0 on the slow path of tori whose
 *              width is not a multiple of 64.
 *  info        (GPU only; NULL on the CPU) the context's device, for benchmarks: name, SM count,
 *              clock (kHz).
 * The Life GPU code keeps no state between calls, so there is nothing to release. */
#ifndef BULK_LIFE_LIFE_BACKEND_H
#define BULK_LIFE_LIFE_BACKEND_H
#include <stddef.h>
#include <stdint.h>

#include "bulk/life.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bulk_life_backend {
    int (*step)(bulk_ctx *ctx, uint64_t *cells, uint64_t width, uint64_t height, int torus,
                const bulk_life_rule *rule, uint64_t steps, unsigned per_pass);
    int (*step_timed)(bulk_ctx *ctx, uint64_t *cells, uint64_t width, uint64_t height, int torus,
                      const bulk_life_rule *rule, uint64_t steps, unsigned per_pass, long long strip,
                      double *kernel_seconds);
    int (*info)(bulk_ctx *ctx, char *name, size_t cap, int *sms, int *clock_khz);
} bulk_life_backend;

/* The instances; named only by backend/backends.c. */
extern const bulk_life_backend bulk_life_cpu_backend;  /* grid.c */
extern const bulk_life_backend bulk_life_cuda_backend; /* cuda/life_cuda.cu */

#ifdef __cplusplus
}
#endif
#endif
