/* The backend table of the CKY area (backend/backends.h). parse has the contract of
 * bulk_cky_parse (arguments checked by it; it steps `pr`, the progress of
 * the call, and stops early once that is cancelled): CPU on the context's threads (cky.c), CUDA on the
 * context's device with the default kernel choice (cuda/cky_cuda.cu). The CKY GPU code keeps no
 * state between calls. */
#ifndef BULK_CKY_CKY_BACKEND_H
#define BULK_CKY_CKY_BACKEND_H
#include <stddef.h>
#include <stdint.h>

#include "backend/report.h"
#include "bulk/cky.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bulk_cky_backend {
    int (*parse)(bulk_ctx *ctx, const bulk_grammar *g, uint8_t *accept, const int32_t *syms,
                 const size_t *offsets, size_t nstrings, bulk_progress_run *pr);
} bulk_cky_backend;

/* The instances; named only by backend/backends.c. */
extern const bulk_cky_backend bulk_cky_cpu_backend;  /* cky.c */
extern const bulk_cky_backend bulk_cky_cuda_backend; /* cuda/cky_cuda.cu */

#ifdef __cplusplus
}
#endif
#endif
