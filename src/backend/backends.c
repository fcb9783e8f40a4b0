/* Which backend tables exist (backend/backends.h). The one place in the library that asks
 * whether CUDA was built: without it there are no CUDA tables and no devices, and nothing else
 * in the library needs a "CUDA absent" stub. */
#include "backend/backends.h"

#include <stddef.h>

#include "circuit/circuit_backend.h"
#include "cky/cky_backend.h"
#include "collatz/collatz_backend.h"
#include "int/int_backend.h"
#include "life/life_backend.h"

static const bulk_backend_tables cpu_tables = {
    .ints = NULL, /* the CPU side of int is the public wrappers' own loop (int/int_backend.h) */
    .collatz = &bulk_collatz_cpu_backend,
    .life = &bulk_life_cpu_backend,
    .circuit = &bulk_circuit_cpu_backend,
    .cky = &bulk_cky_cpu_backend,
};

const bulk_backend_tables *bulk_cpu_tables(void) { return &cpu_tables; }

#ifdef BULK_HAVE_CUDA
static const bulk_backend_tables cuda_tables = {
    .ints = &bulk_int_cuda_backend,
    .collatz = &bulk_collatz_cuda_backend,
    .life = &bulk_life_cuda_backend,
    .circuit = &bulk_circuit_cuda_backend,
    .cky = &bulk_cky_cuda_backend,
};

const bulk_backend_tables *bulk_cuda_tables(void) { return &cuda_tables; }
int bulk_cuda_probe_devices(void) { return bulk_cuda_device_probe(); }
#else
const bulk_backend_tables *bulk_cuda_tables(void) { return NULL; }
int bulk_cuda_probe_devices(void) { return 0; }
#endif
