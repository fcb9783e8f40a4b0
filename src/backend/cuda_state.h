/* GPU state that belongs to one context. A context opened on the CUDA backend owns one
 * bulk_cuda_state (bulk_ctx_open allocates it zeroed, bulk_ctx_close releases it). Each module
 * keeps its streams, pinned staging buffers and device-side caches behind its own pointer here,
 * created on first use, and never in file-scope variables, so that two contexts (on one device
 * or two, used from two threads) share nothing. What is truly per process stays per process:
 * the device count, and tables in a device's constant memory, which are identical for every
 * context (filled once per device under a lock). */
#ifndef BULK_BACKEND_CUDA_STATE_H
#define BULK_BACKEND_CUDA_STATE_H

#ifdef __cplusplus
extern "C" {
#endif

struct bulk_int_cuda_state;
struct bulk_collatz_cuda_state;
struct bulk_life_cuda_state;
struct bulk_circuit_cuda_state;
struct bulk_cky_cuda_state;

typedef struct bulk_cuda_state {
    int device;  /* the device of single-device work (bulk_ctx_set_device; default 0) */
    int devices; /* devices multi-device work may use: device .. device + devices - 1 (all at
                  * open; 1 once bulk_ctx_set_device chose one) */
    struct bulk_int_cuda_state *ints;
    struct bulk_collatz_cuda_state *collatz;
    struct bulk_life_cuda_state *life;
    struct bulk_circuit_cuda_state *circuit;
    struct bulk_cky_cuda_state *cky;
} bulk_cuda_state;

#ifdef __cplusplus
}
#endif
#endif
