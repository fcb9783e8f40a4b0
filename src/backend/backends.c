/* Which backend tables exist (backend/backends.h). The one place in the library that asks
 * whether CUDA was built. */
#include "backend/backends.h"
#include "collatz/collatz_backend.h"

#include <stddef.h>

static const bulk_backend_tables cpu_tables = {
    .ints = NULL,
    .collatz = &bulk_collatz_cpu_backend,
    .life = NULL,
    .circuit = NULL,
    .cky = NULL,
};

const bulk_backend_tables *bulk_cpu_tables(void) { return &cpu_tables; }

#ifdef BULK_HAVE_CUDA
static const bulk_backend_tables cuda_tables = {
    .ints = NULL,
    .collatz = &bulk_collatz_cuda_backend,
    .life = NULL,
    .circuit = NULL,
    .cky = NULL,
};

const bulk_backend_tables *bulk_cuda_tables(void) { return &cuda_tables; }
#else
const bulk_backend_tables *bulk_cuda_tables(void) { return NULL; }
#endif
