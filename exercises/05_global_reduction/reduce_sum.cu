// Lesson 05 exercise: the whole sum of an int array, on the device, at close to the memory
// bandwidth. Read lessons/05_global_reduction/README.md first.
//
// This starter is right for every n and slow: phase 1 gives every thread ONE element, so the grid
// has n / 256 blocks, each spending most of its time in its shared-memory tree, and phase 2 then
// has n / 256 partials to add with one block. Make phase 1 give each thread many elements (a
// grid-stride loop over a grid of about one wave of blocks), with several loads in flight per
// thread, and size the workspace for that grid. Keep: 64-bit sums, any n >= 1, any int pointer
// (not only 16-byte aligned ones), everything on `stream`, no host-side summation.
//
//   ./course run 05      # the demo: configurations swept, your reduce_sum beside CUB and a copy
//   ./course grade 05    # the grader: exact sums, device-only, and the bandwidth check

#include "global_reduction.hpp"

#include "course/cuda_check.hpp"

#include <stdexcept>

namespace lesson05 {
namespace {

constexpr unsigned kBlock = 256;

/// The sum over the block, valid in thread 0 (lesson 04's sequential addressing, in 64 bits).
__device__ long long block_sum(long long value)
{
    __shared__ long long cache[kBlock];
    const unsigned tid = threadIdx.x;
    cache[tid] = value;
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    return cache[0];
}

/// Phase 1: one element per thread, one partial per block.
// TODO: loop over many elements per thread (for i = thread; i < n; i += all threads of the grid).
__global__ void phase_one(const int* data, std::size_t n, long long* partials)
{
    const std::size_t i = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const long long sum = block_sum(i < n ? data[i] : 0);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

/// Phase 2: one block adds all the partials.
__global__ void phase_two(const long long* partials, std::size_t count, long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *result = sum;
}

}  // namespace

// TODO: one block per element group of the grid you choose (a few blocks per SM, not n / 256).
std::size_t partials_needed(std::size_t n) { return (n + kBlock - 1) / kBlock; }

void reduce_sum(const int* data, std::size_t n, long long* result, Workspace& workspace, cudaStream_t stream)
{
    if (n == 0)
        throw std::invalid_argument("reduce_sum: the array must hold at least one element");
    const std::size_t blocks = partials_needed(n);
    long long* partials = workspace.partials_for(n);
    phase_one<<<unsigned(blocks), kBlock, 0, stream>>>(data, n, partials);
    COURSE_CHECK_LAUNCH();
    phase_two<<<1, kBlock, 0, stream>>>(partials, blocks, result);
    COURSE_CHECK_LAUNCH();
}

}  // namespace lesson05
