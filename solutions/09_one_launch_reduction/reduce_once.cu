// Lesson 09 reference solution: the whole sum of an int array in ONE kernel launch. Every block
// adds its share with 16-byte loads, writes one partial sum and takes a ticket; the block that
// takes the last ticket adds the partials, writes the result and sets the ticket back to 0 for the
// next call. Device code only: the lesson launches reduce_once on
// min(ceil(n / (512 x 16)), 4 x SMs) blocks, as reduce_once_launch says.
//
//   ./course run 09 --solution
//   ./course grade 09    (against exercises/; the course's tests grade this file)

#include "one_launch.cuh"

#include <cuda/atomic>

#include <cstdint>

namespace {

constexpr unsigned kBlock = 512;  // threads per block
constexpr unsigned kUnroll = 4;   // 16-byte loads each thread has in flight per loop trip
constexpr unsigned kIntsPerVector = 4;
constexpr unsigned kWarps = kBlock / 32;

/// Widened before adding: four ints near 2^31 overflow an int.
__device__ long long add4(int4 v)
{
    return (long long)v.x + v.y + v.z + v.w;
}

/// This thread's share of data[0, n): the unaligned head one element per thread, the aligned
/// middle as int4 in a grid-stride loop with kUnroll loads in flight, the tail one per thread.
__device__ long long thread_sum(const int* __restrict__ data, std::size_t n)
{
    const std::size_t thread = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * kBlock;
    long long sum = 0;
    const auto misalignment = unsigned(reinterpret_cast<std::uintptr_t>(data) / sizeof(int) % kIntsPerVector);
    const std::size_t head =
        misalignment == 0 ? 0 : (n < kIntsPerVector - misalignment ? n : kIntsPerVector - misalignment);
    const std::size_t vector_count = (n - head) / kIntsPerVector;
    const std::size_t tail = head + vector_count * kIntsPerVector;
    // Every load of this thread issued before any of them is used: the head and tail elements
    // (predicated: 0 where this thread has none), then kUnroll vectors per loop trip.
    const int head_value = thread < head ? __ldg(data + thread) : 0;
    const int tail_value = tail + thread < n ? __ldg(data + tail + thread) : 0;
    const auto* vectors = reinterpret_cast<const int4*>(data + head);
    std::size_t i = thread;
    for (; i + (kUnroll - 1) * threads < vector_count; i += kUnroll * threads) {
        int4 v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            v[u] = __ldg(vectors + i + u * threads);
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            sum += add4(v[u]);
    }
    // The last trip: fewer than kUnroll vectors left for this thread, still loaded all at once.
    int4 v[kUnroll];
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u)
        v[u] = i + u * threads < vector_count ? __ldg(vectors + i + u * threads) : make_int4(0, 0, 0, 0);
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u)
        sum += add4(v[u]);
    sum += head_value;
    sum += tail_value;
    return sum;
}

/// The sum over the block, valid in thread 0: shuffles within each warp, one shared word per warp,
/// shuffles again in warp 0.
__device__ long long block_sum(long long value)
{
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

}  // namespace

//! [reduce_once_launch]
// 512 threads with __launch_bounds__(512): an SM holds 4 such blocks, so 4 per SM is one wave for a
// large array (it ends closer to CUB than 8 x 256: README). Below 512 x 16 elements per block a
// small array gets fewer blocks: one block up to 8192 elements, which then needs no ticket at all.
extern "C" __constant__ lesson09::ReduceOnceLaunch reduce_once_launch = {
    .block = kBlock,
    .items_per_thread = 16,
    .max_blocks_per_sm = 4,
    .cooperative = 0,
};
//! [reduce_once_launch]

//! [last_block]
extern "C" __global__ void __launch_bounds__(kBlock)
    reduce_once(const int* __restrict__ data, std::size_t n, long long* result, long long* partials,
                unsigned int* ticket)
{
    const long long sum = block_sum(thread_sum(data, n));
    if (gridDim.x == 1) {  // one block: its sum is the whole sum
        if (threadIdx.x == 0)
            *result = sum;
        return;
    }
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        // acq_rel: the release half makes this block's partial visible to whichever block reads
        // the ticket's new value; the acquire half makes every partial released before this
        // ticket visible here. Device scope: the blocks may run on any SM.
        cuda::atomic_ref<unsigned int, cuda::thread_scope_device> counter(*ticket);
        last = counter.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncthreads();  // thread 0's acquire, then the barrier: the whole block may read the partials
    if (!last)
        return;
    long long total = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += kBlock)
        total += partials[b];
    total = block_sum(total);
    if (threadIdx.x == 0) {
        *result = total;
        // Every block has taken its ticket (this one took the last): nobody else touches the
        // counter in this launch, and the next launch on this workspace starts from 0.
        *ticket = 0;
    }
}
//! [last_block]
