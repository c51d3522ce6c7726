// Planted bug: __syncthreads() inside a branch that only half a warp takes.
#include "common.cuh"

__global__ void halfSync(int* out)
{
    if (threadIdx.x % 32 < 16) {
        __syncthreads();
    }
    out[threadIdx.x] = threadIdx.x;
}

int main()
{
    int* d;
    cudaMalloc(&d, 64 * sizeof(int));
    halfSync<<<1, 64>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
