// Planted race: the first warp fills a table that the second warp reads, with no barrier between
// the stores and the loads (read-after-write between warps). Only block 2 of the grid does it.
#include <cudasim/faults.hpp>

#include "common.cuh"

__global__ void publish(int* out)
{
    __shared__ int table[32];
    const unsigned warp = threadIdx.y;  // blocks of 32 x 2 threads: threadIdx.y is the warp
    if (blockIdx.x != 2)
        return;
    if (warp == 0)
        table[threadIdx.x] = 3 * threadIdx.x;
    // missing __syncthreads()
    if (warp == 1)
        out[threadIdx.x] = table[threadIdx.x];
}

int main()
{
    int* d;
    cudaMalloc(&d, 32 * sizeof(int));
    publish<<<4, dim3(32, 2)>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    std::printf("fault reported: %s\n", cudasim::last_device_fault().message.empty() ? "no" : "yes");
    return 0;
}
