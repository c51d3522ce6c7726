// Planted bug: the kernel uses memory that was already freed.
#include "common.cuh"

__global__ void fill(int* data)
{
    data[threadIdx.x] = threadIdx.x;
}

int main()
{
    int* d;
    cudaMalloc(&d, 64 * sizeof(int));
    cudaFree(d);
    fill<<<1, 64>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
