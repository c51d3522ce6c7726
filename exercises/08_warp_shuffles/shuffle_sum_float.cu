// Lesson 08 exercise, floats: shuffle_sum_float. Read lessons/08_warp_shuffles/README.md first
// (its section "Floats" says how this kernel is graded).
//
// The same starter as shuffle_sum.cu, for floats added in float: right (within the rounding-error
// bound the grader allows) and slow. Do the same two things: a warp reduction and one slot per
// warp instead of the shared-memory tree (cooperative_groups::reduce over a
// thread_block_tile<32> is one way), and float4 loads with a scalar head and tail.
//
// This file holds device code only.
//
//   ./course run 08 --kernel shuffle_sum_float
//   ./course grade 08

#include "warp_shuffles.cuh"

namespace {

constexpr unsigned kMaxBlock = 1024;

/// The sum of `value` over the block, in thread 0 (lesson 04's tree, for any multiple of 32).
__device__ float block_sum(float value)
{
    // TODO: a warp reduction and one slot per warp.
    __shared__ float cache[kMaxBlock];
    const unsigned tid = threadIdx.x;
    cache[tid] = value;
    __syncthreads();
    unsigned stride = 1;
    while (2 * stride < blockDim.x)
        stride *= 2;
    for (; stride > 0; stride /= 2) {
        if (tid < stride && tid + stride < blockDim.x)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    return cache[0];
}

}  // namespace

extern "C" __global__ void shuffle_sum_float(const float* data, std::size_t n, float* partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;

    // TODO: a scalar head, float4 loads for the body, a scalar tail.
    float sum = 0.0f;
    for (std::size_t i = thread; i < n; i += threads)
        sum += data[i];

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
