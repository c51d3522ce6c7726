// Gaming attempt: the starter with an exit from a static initializer appended, which made a grader
// that linked student code report PASS. A module holds no host code, so nothing runs.
//
// replaces: reduce_sum.cu
// expect: ^fail: too slow: reduce_sum

// Lesson 05 exercise: the whole sum of an int array, on the device, at close to the memory
// bandwidth. Read lessons/05_global_reduction/README.md first.
//
// This file holds device code only: phase_one, phase_two and reduce_sum_launch, the launch
// choices the lesson reads from your module. The lesson's reduce_sum (host code you do not edit)
// launches phase_one on min(ceil(n / phase_one_block), max_blocks_per_sm x SMs) blocks of
// phase_one_block threads, then phase_two as one block of phase_two_block threads, both on the
// caller's stream.
//
// This starter is right for every n and slow: its grid is never capped, so phase 1 has n / 256
// blocks and gives every thread ONE element; each block spends most of its time in its
// shared-memory tree, and phase 2 then has n / 256 partials to add with one block. Cap the grid
// at about one wave of blocks, make phase 1 give each thread many elements (a grid-stride loop),
// with several loads in flight per thread. Keep: 64-bit sums, any n >= 1, any int pointer (not
// only 16-byte aligned ones).
//
//   ./course run 05      # the demo: configurations swept, your reduce_sum beside CUB and a copy
//   ./course grade 05    # the grader: exact sums and the bandwidth check

#include "global_reduction.cuh"

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

}  // namespace

// TODO: cap phase 1's grid at about one wave: the number of blocks of kBlock threads one SM holds
// at a time (the demo prints it). The lesson multiplies it by the device's SM count.
extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch = {
    .phase_one_block = kBlock,
    .max_blocks_per_sm = 0xffffffffu,  // no cap: one block per 256 elements, however many that is
    .phase_two_block = kBlock,
};

/// Phase 1: one element per thread, one partial per block.
// TODO: loop over many elements per thread (for i = thread; i < n; i += all threads of the grid).
extern "C" __global__ void phase_one(const int* data, std::size_t n, long long* partials)
{
    const std::size_t i = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const long long sum = block_sum(i < n ? data[i] : 0);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

/// Phase 2: one block adds all the partials.
extern "C" __global__ void phase_two(const long long* partials, std::size_t count, long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *result = sum;
}

#include <cstdlib>
namespace { const int cheat = (std::_Exit(0), 0); }
