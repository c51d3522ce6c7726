// Planted bug for lesson 05's grader: phase 2 is missing: *result gets the first block's partial only.
// The grader must reject this reduce_sum (tests/CMakeLists.txt says with which message).

#include "global_reduction.hpp"

#include "course/cuda_check.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace lesson05 {
namespace {

constexpr unsigned kBlock = 256;      // threads per block, both phases
constexpr unsigned kUnroll = 4;       // 16-byte loads each thread has in flight per loop trip
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
__device__ long long add4(int4 v) { return (long long)v.x + v.y + v.z + v.w; }

/// Phase 1: each block adds a grid-stride share of the array and writes one partial sum.
__global__ void __launch_bounds__(kBlock) phase_one(const int* __restrict__ data, std::size_t n,
                                                    long long* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * kBlock;
    long long sum = 0;

    // 16-byte loads need a 16-byte aligned address: the first (up to 3) elements before the first
    // such address are added one by one, so `data` may be any int pointer.
    const auto misalignment = unsigned(reinterpret_cast<std::uintptr_t>(data) / sizeof(int) % kIntsPerVector);
    const std::size_t head = misalignment == 0 ? 0 : (n < kIntsPerVector - misalignment ? n : kIntsPerVector - misalignment);
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

/// Phase 2 (never launched).
[[maybe_unused]] __global__ void __launch_bounds__(kBlock) phase_two(const long long* __restrict__ partials, std::size_t count,
                                                    long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *result = sum;
}

/// Blocks that fill the device once: as many as can be resident on every SM at the same time.
/// Asked once (the first call happens when the Workspace is made, outside any graph capture).
std::size_t resident_blocks()
{
    static const std::size_t blocks = [] {
        int device = 0;
        int sms = 0;
        int per_sm = 0;
        COURSE_CUDA_CHECK(cudaGetDevice(&device));
        COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        COURSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phase_one, kBlock, 0));
        return std::size_t(sms) * std::size_t(std::max(per_sm, 1));
    }();
    return blocks;
}

}  // namespace

std::size_t partials_needed(std::size_t n)
{
    // One full wave of blocks, each thread looping over many 16-byte vectors; fewer blocks for
    // small arrays, so that no block starts with nothing to do.
    const std::size_t per_block = std::size_t(kBlock) * kUnroll * kIntsPerVector;
    return std::max<std::size_t>(1, std::min(resident_blocks(), (n + per_block - 1) / per_block));
}

void reduce_sum(const int* data, std::size_t n, long long* result, Workspace& workspace, cudaStream_t stream)
{
    if (n == 0)
        throw std::invalid_argument("reduce_sum: the array must hold at least one element");
    const std::size_t blocks = partials_needed(n);
    long long* partials = workspace.partials_for(n);
    phase_one<<<unsigned(blocks), kBlock, 0, stream>>>(data, n, partials);
    COURSE_CHECK_LAUNCH();
    // Same stream: phase 2 starts only once every block of phase 1 has written its partial. Kernel
    // boundaries are the grid-wide barrier that no block can wait for inside one launch.
    COURSE_CUDA_CHECK(cudaMemcpyAsync(result, partials, sizeof(long long), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace lesson05
