/* The CUDA instance of the Collatz backend table (collatz/collatz_backend.h): the entry points of
 * cg_verify.cu, cg_delays.cu and cg_records.cu, and the context state's statistics and release
 * (cg_device.cu). */
#include "collatz/cuda/cg_host.h"

/* (C++17 has no designated initializers: the members in their order) */
extern "C" const struct bulk_collatz_backend bulk_collatz_cuda_backend = {
    bulk_collatz_cuda_verify_chunk, /* verify_chunk */
    bulk_collatz_cuda_delays,       /* delays */
    bulk_collatz_cuda_delay_stats,  /* delay_stats */
    bulk_collatz_cuda_records,      /* records */
    bulk_collatz_cuda_last_stats,   /* last_stats */
    bulk_collatz_cuda_release,      /* release */
};
