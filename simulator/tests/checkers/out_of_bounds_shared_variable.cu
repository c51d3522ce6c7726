// Planted bug: a static shared array sized for 512 threads, written by blocks of 1024, with another
// shared array after it. The writes past the first array stay inside the block's shared memory (they
// land in the second array and the padding), so only a check of each variable's extent sees them.
// Then the same kernel with blocks of 512, which must pass.
#include "common.cuh"

__global__ void stage(int* out)
{
    __shared__ int sums[512];
    __shared__ int spill[1024];
    sums[threadIdx.x] = threadIdx.x;
    spill[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = sums[threadIdx.x % 512] + spill[threadIdx.x];
}

int main()
{
    int* d;
    cudaMalloc(&d, 1024 * sizeof(int));
    stage<<<1, 1024>>>(d);
    report("blocks of 1024", cudaDeviceSynchronize());
    cudaDeviceReset();
    cudaMalloc(&d, 1024 * sizeof(int));
    stage<<<1, 512>>>(d);
    report("blocks of 512", cudaDeviceSynchronize());
    return 0;
}
