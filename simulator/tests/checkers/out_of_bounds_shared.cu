// Planted bug: the dynamic shared buffer is one element too small.
#include "common.cuh"

__global__ void stage(int* out)
{
    extern __shared__ int tile[];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

int main()
{
    int* d;
    cudaMalloc(&d, 128 * sizeof(int));
    stage<<<1, 128, 127 * sizeof(int)>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
