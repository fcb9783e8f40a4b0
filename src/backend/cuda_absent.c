/* Built when CUDA is not: there are no devices. */
#include "backend/context.h"

int bulk_cuda_probe_devices(void) { return 0; }
