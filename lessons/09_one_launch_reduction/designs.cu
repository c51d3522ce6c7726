// Lesson 09: the lesson's own one-launch designs, for the demo's comparison. The same loads and block
// reduction in each (templates on the block size and the 16-byte loads in flight per thread); the
// designs differ in how the blocks' sums become one:
//   last_block     partials, then a ticket taken with an acq_rel atomic; the block that takes the
//                  last ticket adds the partials and sets the ticket back to 0
//   atomic_result  an 8-byte memset of the result, then one atomicAdd per block
//                  (exact for integers in any order; two operations per call, not one)
//   cooperative    partials, cooperative_groups::this_grid().sync(), block 0 adds them (a
//                  cooperative launch: every block resident at once)
//
//   ./course run 09

#include "one_launch.hpp"

#include "course/cuda_check.hpp"

#include <cooperative_groups.h>
#include <cuda/atomic>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson09 {
namespace {

constexpr unsigned kItemsPerThread = 16;

__device__ long long add4(int4 v)
{
    return (long long)v.x + v.y + v.z + v.w;
}

template <unsigned Block, unsigned Unroll>
__device__ long long thread_sum(const int* __restrict__ data, std::size_t n)
{
    const std::size_t thread = std::size_t(blockIdx.x) * Block + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * Block;
    long long sum = 0;
    const auto misalignment = unsigned(reinterpret_cast<std::uintptr_t>(data) / sizeof(int) % 4);
    const std::size_t head = misalignment == 0 ? 0 : (n < 4 - misalignment ? n : 4 - misalignment);
    const std::size_t vector_count = (n - head) / 4;
    const std::size_t tail = head + vector_count * 4;
    // Every load of this thread issued before any of them is used: the head and tail elements
    // (predicated: 0 where this thread has none), then Unroll vectors per loop trip.
    const int head_value = thread < head ? __ldg(data + thread) : 0;
    const int tail_value = tail + thread < n ? __ldg(data + tail + thread) : 0;
    const auto* vectors = reinterpret_cast<const int4*>(data + head);
    std::size_t i = thread;
    for (; i + (Unroll - 1) * threads < vector_count; i += Unroll * threads) {
        int4 v[Unroll];
#pragma unroll
        for (unsigned u = 0; u < Unroll; ++u)
            v[u] = __ldg(vectors + i + u * threads);
#pragma unroll
        for (unsigned u = 0; u < Unroll; ++u)
            sum += add4(v[u]);
    }
    // The last trip: fewer than Unroll vectors left for this thread, still loaded all at once.
    int4 v[Unroll];
#pragma unroll
    for (unsigned u = 0; u < Unroll; ++u)
        v[u] = i + u * threads < vector_count ? __ldg(vectors + i + u * threads) : make_int4(0, 0, 0, 0);
#pragma unroll
    for (unsigned u = 0; u < Unroll; ++u)
        sum += add4(v[u]);
    sum += head_value;
    sum += tail_value;
    return sum;
}

template <unsigned Block>
__device__ long long block_sum(long long value)
{
    constexpr unsigned kWarps = Block / 32;
    __shared__ long long warp_sums[kWarps];
    for (unsigned offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    const unsigned warp = threadIdx.x / 32;
    const unsigned lane = threadIdx.x % 32;
    if (lane == 0)
        warp_sums[warp] = value;
    __syncthreads();
    if (warp == 0) {
        value = lane < kWarps ? warp_sums[lane] : 0;
        for (unsigned offset = 16; offset > 0; offset /= 2)
            value += __shfl_down_sync(0xffffffffu, value, offset);
    }
    return value;
}

/// The partials of the whole grid, added by one block (valid in its thread 0).
template <unsigned Block>
__device__ long long sum_partials(const long long* partials, unsigned count)
{
    long long total = 0;
    for (unsigned b = threadIdx.x; b < count; b += Block)
        total += partials[b];
    return block_sum<Block>(total);
}

template <unsigned Block, unsigned Unroll>
__global__ void __launch_bounds__(Block) last_block_kernel(const int* __restrict__ data, std::size_t n,
                                                           long long* result, long long* partials, unsigned* ticket)
{
    const long long sum = block_sum<Block>(thread_sum<Block, Unroll>(data, n));
    if (gridDim.x == 1) {
        if (threadIdx.x == 0)
            *result = sum;
        return;
    }
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter(*ticket);
        last = counter.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    const long long total = sum_partials<Block>(partials, gridDim.x);
    if (threadIdx.x == 0) {
        *result = total;
        *ticket = 0;
    }
}

template <unsigned Block, unsigned Unroll>
__global__ void __launch_bounds__(Block)
    atomic_result_kernel(const int* __restrict__ data, std::size_t n, long long* result)
{
    const long long sum = block_sum<Block>(thread_sum<Block, Unroll>(data, n));
    // Two's complement: adding the 64-bit pattern as unsigned is adding the signed value.
    if (threadIdx.x == 0)
        atomicAdd(reinterpret_cast<unsigned long long*>(result), static_cast<unsigned long long>(sum));
}

template <unsigned Block, unsigned Unroll>
__global__ void __launch_bounds__(Block)
    cooperative_kernel(const int* __restrict__ data, std::size_t n, long long* result, long long* partials)
{
    const long long sum = block_sum<Block>(thread_sum<Block, Unroll>(data, n));
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
    // Every block waits here until every block has arrived: possible only because the cooperative
    // launch guarantees that all of them are resident at once. The barrier orders the partials.
    cooperative_groups::this_grid().sync();
    if (blockIdx.x != 0)
        return;
    const long long total = sum_partials<Block>(partials, gridDim.x);
    if (threadIdx.x == 0)
        *result = total;
}

/// Nothing at all: the floor under any one-launch design, timed the same way.
__global__ void empty_kernel()
{
}

/// A design's kernel as the runtime knows it, its block size and the blocks of it a wave holds.
struct Kernel {
    const void* function;
    unsigned block;
};

Kernel kernel_of(Design design)
{
    switch (design) {
    case Design::last_block:
        return {reinterpret_cast<const void*>(&last_block_kernel<256, 4>), 256};
    case Design::last_block_waves:
        return {reinterpret_cast<const void*>(&last_block_kernel<256, 4>), 256};
    case Design::last_block_512:
        return {reinterpret_cast<const void*>(&last_block_kernel<512, 4>), 512};
    case Design::atomic_result:
        return {reinterpret_cast<const void*>(&atomic_result_kernel<256, 4>), 256};
    case Design::cooperative:
        return {reinterpret_cast<const void*>(&cooperative_kernel<256, 4>), 256};
    }
    throw std::invalid_argument(std::string("not on this device: ") + design_name(design));
}

/// Blocks of the design's kernel the whole device holds at once: one wave.
std::size_t measure_full_wave(Design design)
{
    int device = 0;
    int sms = 0;
    int per_sm = 0;
    const Kernel kernel = kernel_of(design);
    COURSE_CUDA_CHECK(cudaGetDevice(&device));
    COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    COURSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel.function, int(kernel.block), 0));
    return std::size_t(sms) * std::size_t(per_sm);
}

/// full_wave() asked once per design (a host-side query that back-to-back calls should not repeat).
std::size_t full_wave(Design design)
{
    static std::array<std::size_t, 8> known{};
    std::size_t& blocks = known.at(std::size_t(design));
    if (blocks == 0)
        blocks = measure_full_wave(design);
    return blocks;
}

}  // namespace

const char* design_name(Design design)
{
    switch (design) {
    case Design::last_block:
        return "one launch: last block adds the partials";
    case Design::last_block_waves:
        return "  the same, up to 4 waves of blocks";
    case Design::last_block_512:
        return "  the same, blocks of 512 threads";
    case Design::atomic_result:
        return "memset + one launch: atomicAdd per block";
    case Design::cooperative:
        return "one cooperative launch: this_grid().sync()";
    }
    return "?";
}

const std::vector<Design>& all_designs()
{
    static const std::vector<Design> designs = {Design::last_block, Design::last_block_waves, Design::last_block_512,
                                                Design::atomic_result, Design::cooperative};
    return designs;
}

Designs::Designs(std::size_t max_n) : ticket_(1)
{
    std::size_t most = 1;
    for (const Design design : all_designs())
        most = std::max(most, grid(design, max_n));
    partials_ = course::DeviceBuffer<long long>(most);
    ticket_.fill_bytes(0);
    COURSE_CUDA_CHECK(cudaDeviceSynchronize());
}

std::size_t Designs::grid(Design design, std::size_t n) const
{
    const std::size_t per_block = std::size_t(kernel_of(design).block) * kItemsPerThread;
    const std::size_t waves = design == Design::last_block_waves ? 4 : 1;
    return std::max<std::size_t>(1, std::min((n + per_block - 1) / per_block, waves * full_wave(design)));
}

void Designs::run_empty(cudaStream_t stream)
{
    empty_kernel<<<1, 32, 0, stream>>>();
    COURSE_CHECK_LAUNCH();
}

void Designs::run(Design design, const int* data, std::size_t n, long long* result, cudaStream_t stream)
{
    const unsigned blocks = unsigned(grid(design, n));
    long long* partials = partials_.data();
    unsigned* ticket = ticket_.data();
    switch (design) {
    case Design::last_block:
        last_block_kernel<256, 4><<<blocks, 256, 0, stream>>>(data, n, result, partials, ticket);
        break;
    case Design::last_block_waves:
        last_block_kernel<256, 4><<<blocks, 256, 0, stream>>>(data, n, result, partials, ticket);
        break;
    case Design::last_block_512:
        last_block_kernel<512, 4><<<blocks, 512, 0, stream>>>(data, n, result, partials, ticket);
        break;
    case Design::atomic_result:
        COURSE_CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(long long), stream));
        atomic_result_kernel<256, 4><<<blocks, 256, 0, stream>>>(data, n, result);
        break;
    case Design::cooperative: {
        const Kernel kernel = kernel_of(design);
        std::array<void*, 4> arguments{&data, &n, &result, &partials};
        COURSE_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel.function, dim3(blocks), dim3(kernel.block),
                                                      arguments.data(), 0, stream));
        break;
    }
    }
    COURSE_CHECK_LAUNCH();
}

}  // namespace lesson09
