// Planted bug: a host array is passed to a kernel.
#include "common.cuh"

__global__ void fill(int* data)
{
    data[threadIdx.x] = threadIdx.x;
}

int main()
{
    static int host[64];
    fill<<<1, 64>>>(host);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
