/* The backend layer. Each module that has more than one backend describes the operations that
 * differ by backend in one table of function pointers (its "backend table", declared in the
 * module: int/int_backend.h, collatz/collatz_backend.h, life/life_backend.h,
 * circuit/circuit_backend.h, cky/cky_backend.h). A context holds the CPU tables always and the
 * CUDA tables when the library was built with CUDA and the context opened on a device; public
 * functions call through them and never name a backend's function directly.
 *
 * backends.c is the one place that knows whether CUDA was built: without it bulk_cuda_tables()
 * is NULL and no module has a "CUDA absent" stub. */
#ifndef BULK_BACKEND_BACKENDS_H
#define BULK_BACKEND_BACKENDS_H

#ifdef __cplusplus
extern "C" {
#endif

struct bulk_int_backend;
struct bulk_collatz_backend;
struct bulk_life_backend;
struct bulk_circuit_backend;
struct bulk_cky_backend;
struct bulk_cuda_state;

typedef struct bulk_backend_tables {
    const struct bulk_int_backend *ints;
    const struct bulk_collatz_backend *collatz;
    const struct bulk_life_backend *life;
    const struct bulk_circuit_backend *circuit;
    const struct bulk_cky_backend *cky;
} bulk_backend_tables;

/* The CPU tables (always present). */
const bulk_backend_tables *bulk_cpu_tables(void);
/* The CUDA tables; NULL when the library was built without CUDA. */
const bulk_backend_tables *bulk_cuda_tables(void);

/* The number of CUDA devices (0 without CUDA or without a driver); asks the driver each time
 * (bulk_cuda_device_count caches it). */
int bulk_cuda_probe_devices(void);
/* backend/cuda/device.cu: the same when CUDA is built (named only by backends.c). */
int bulk_cuda_device_probe(void);

#ifdef __cplusplus
}
#endif
#endif
