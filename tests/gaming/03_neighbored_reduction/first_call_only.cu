// Gaming attempt: the reference kernel on its first launch, a kernel that does nothing on every
// later one (a counter in device memory tells them apart): right once, then never.
//
// The judge reads the compiled module before running it and refuses it: its __device__ variables
// would keep state from one call to the next.
//
// replaces: reduce_neighbored_less.cu
// expect: ^fail: bad module: [a-z_]+\.fatbin defines module-scope global memory

#include "neighbored_reduction.cuh"

namespace {
__device__ unsigned long long g_launches = 0;
}

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    __shared__ bool first_launch;
    const unsigned tid = threadIdx.x;
    if (tid == 0) {
        first_launch = g_launches < gridDim.x;
        atomicAdd(&g_launches, 1ull);
    }
    __syncthreads();
    if (!first_launch)
        return;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index + stride < count)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
