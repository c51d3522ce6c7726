// Planted race: the first warp reads the second warp's half of a tile while the second warp
// already overwrites it with the next values (write-after-read between warps: a missing barrier
// in a double-buffered loop).
#include "common.cuh"

__global__ void shiftDown(int* data)
{
    __shared__ int tile[64];
    tile[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 32)
        data[threadIdx.x] = tile[threadIdx.x + 32];
    // missing __syncthreads()
    if (threadIdx.x >= 32)
        tile[threadIdx.x] = 2 * data[threadIdx.x];
    __syncthreads();
    data[threadIdx.x] += tile[threadIdx.x];
}

int main()
{
    int host[64];
    for (int i = 0; i < 64; ++i)
        host[i] = i + 1;
    int* d;
    cudaMalloc(&d, sizeof host);
    cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
    shiftDown<<<1, 64>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
