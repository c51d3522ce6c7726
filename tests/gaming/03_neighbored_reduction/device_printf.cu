// Gaming attempt: the starter's kernel prints what a passing grader prints, from the device. The
// verdict comes from the grader's results channel, never from what a program prints.
//
// replaces: reduce_neighbored_less.cu
// expect: ^fail: too slow: reduce_neighbored_less

#include "neighbored_reduction.cuh"

#include <cstdio>

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0 && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0) {
        partials[blockIdx.x] = block_data[0];
        if (blockIdx.x == 0)
            printf("lesson 03 neighbored reduction: PASS\n[doctest] Status: SUCCESS!\n");
    }
}
