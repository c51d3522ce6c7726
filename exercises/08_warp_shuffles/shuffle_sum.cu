// Lesson 08 exercise: shuffle_sum. Read lessons/08_warp_shuffles/README.md first.
//
// This starter is right and slow: every thread adds its share with 4-byte loads in a grid-stride
// loop, then the block adds its threads' sums with lesson 04's shared-memory tree, log2(block)
// steps and a __syncthreads() after each. Make it fast in two ways, keeping every sum exact:
//
//   1. The block's sum: reduce each warp in registers with __shfl_down_sync (or __shfl_xor_sync,
//      or cooperative_groups::reduce), let lane 0 write its warp's sum to one shared-memory slot,
//      one __syncthreads(), and let the first warp reduce the slots the same way. No shared-memory
//      tree, no barrier inside the warp stage.
//   2. The loads: read the array as int4 (16 bytes per load). An int4 load needs a 16-byte aligned
//      address and `data` may be any int pointer: add the elements before the first 16-byte
//      boundary one by one (the head), read the aligned middle as int4, add the last ones one by
//      one (the tail). Any n, any grid, any multiple of 32 from 32 to 1024 as block size.
//
// This file holds device code only: the lesson launches shuffle_sum with its own grid and block
// (warp_shuffles.cuh says which) and adds the partials.
//
//   ./course run 08      # the demo: your kernels beside the lesson's ladder and the copy
//   ./course grade 08    # the grader: exact sums on every alignment; the copy's bandwidth

#include "warp_shuffles.cuh"

namespace {

constexpr unsigned kMaxBlock = 1024;

/// The sum of `value` over the block, in thread 0: lesson 04's sequential addressing, for any
/// multiple of 32 (the first stride is the largest power of two below blockDim.x).
__device__ long long block_sum(long long value)
{
    // TODO: replace this tree by a warp reduction (shuffles) and one slot per warp.
    __shared__ long long cache[kMaxBlock];
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

extern "C" __global__ void shuffle_sum(const int* data, std::size_t n, long long* partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;

    // TODO: a scalar head up to the first 16-byte boundary, int4 loads for the body, a scalar tail.
    long long sum = 0;
    for (std::size_t i = thread; i < n; i += threads)
        sum += data[i];

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
