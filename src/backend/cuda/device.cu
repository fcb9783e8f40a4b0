/* Device discovery for the CUDA backend (backends.c's bulk_cuda_probe_devices). */
#include <cuda_runtime.h>

extern "C" int bulk_cuda_device_probe(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no driver" error */
        return 0;
    }
    return n;
}
