/* Device discovery for the CUDA backend. */
#include <cuda_runtime.h>

extern "C" int bulk_cuda_probe_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no driver" error */
        return 0;
    }
    return n;
}
