// Lesson 05 reference solution: the two-phase reduction of an int array to a 64-bit sum, on the
// device, for any n, at close to the memory bandwidth. Device code only: the lesson launches
// phase_one on min(ceil(n / 256), 8 x SMs) blocks, then phase_two, as reduce_sum_launch says.
//
//   ./course run 05 --solution
//   ./course grade 05    (against exercises/; the course's tests grade this file)

#include "global_reduction.cuh"

#include <cstdint>

namespace {

constexpr unsigned kBlock = 256;  // threads per block, both phases
constexpr unsigned kUnroll = 4;   // 16-byte loads each thread has in flight per loop trip
constexpr unsigned kIntsPerVector = 4;

/// The sum over the block, valid in thread 0: shared memory with sequential addressing down to
/// one warp's worth, then shuffles within that warp (no volatile tricks: __shfl_down_sync
/// exchanges registers and synchronises the warp).
__device__ long long block_sum(long long value)
{
    __shared__ long long cache[kBlock];
    const unsigned tid = threadIdx.x;
    cache[tid] = value;
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride >= 32; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        value = cache[tid];
        for (unsigned offset = 16; offset > 0; offset /= 2)
            value += __shfl_down_sync(0xffffffffu, value, offset);
    }
    return value;
}

/// Widened before adding: four ints near 2^31 overflow an int.
__device__ long long add4(int4 v)
{
    return (long long)v.x + v.y + v.z + v.w;
}

}  // namespace

//! [reduce_sum_launch]
// One wave of phase-1 blocks: 256 threads with __launch_bounds__(256) and few registers, so an SM
// holds 2048 / 256 = 8 of them at a time (the demo prints what cudaOccupancy* says). Each thread
// then loops over many 16-byte vectors; small arrays get fewer blocks (ceil(n / 256)).
extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch = {
    .phase_one_block = kBlock,
    .max_blocks_per_sm = 8,
    .phase_two_block = kBlock,
};
//! [reduce_sum_launch]

//! [phase_one]
/// Phase 1: each block adds a grid-stride share of the array and writes one partial sum.
extern "C" __global__ void __launch_bounds__(kBlock)
    phase_one(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * kBlock;
    long long sum = 0;

    // 16-byte loads need a 16-byte aligned address: the first (up to 3) elements before the first
    // such address are added one by one, so `data` may be any int pointer.
    const auto misalignment = unsigned(reinterpret_cast<std::uintptr_t>(data) / sizeof(int) % kIntsPerVector);
    const std::size_t head =
        misalignment == 0 ? 0 : (n < kIntsPerVector - misalignment ? n : kIntsPerVector - misalignment);
    if (thread < head)
        sum += data[thread];

    const auto* vectors = reinterpret_cast<const int4*>(data + head);
    const std::size_t vector_count = (n - head) / kIntsPerVector;
    std::size_t i = thread;
    // kUnroll independent loads issued before any of them is used: enough bytes in flight per
    // thread to cover the memory latency with the threads one SM holds.
    for (; i + (kUnroll - 1) * threads < vector_count; i += kUnroll * threads) {
        int4 v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            v[u] = vectors[i + u * threads];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            sum += add4(v[u]);
    }
    for (; i < vector_count; i += threads)
        sum += add4(vectors[i]);

    // The last (n - head) % 4 elements, one thread each.
    const std::size_t tail = head + vector_count * kIntsPerVector;
    if (tail + thread < n)
        sum += data[tail + thread];

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
//! [phase_one]

/// Phase 2: one block adds the partials and writes the result. It runs after every block of
/// phase 1 has finished: the boundary between two launches is the grid-wide barrier.
extern "C" __global__ void __launch_bounds__(kBlock)
    phase_two(const long long* __restrict__ partials, std::size_t count, long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *result = sum;
}
