// Lesson 08's own kernels: the ladder the demo times and the baselines the grader measures against.
// One template, two choices: how a block adds its threads' sums (lesson 04's shared-memory tree,
// or a warp reduction and one slot per warp), and how a thread reads its share (4-byte loads, or a
// scalar head, 16-byte vectors and a scalar tail). See lessons/08_warp_shuffles/README.md.
//
//   ./course run 08                          # every row of the ladder
//   ./course run 08 --kernel cg-reduce       # one of them
//   ./course run 08 --kernel misaligned-int4 # int4 loads on data + 1: the fault

#include "warp_shuffles.hpp"

#include "course/cuda_check.hpp"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>
#include <stdexcept>

namespace lesson08 {
namespace {

namespace cg = cooperative_groups;

constexpr unsigned kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;  // all 32 lanes take part in every exchange
constexpr unsigned kMaxBlock = 1024;

/// What a thread adds its elements into, and the 16-byte vector it reads them in.
template <class T>
struct Types;
template <>
struct Types<int> {
    using Sum = long long;  // 64 bits: ints near 2^31 overflow an int in two additions
    using Vector = int4;
};
template <>
struct Types<float> {
    using Sum = float;
    using Vector = float4;
};

template <class T>
using Sum = typename Types<T>::Sum;

/// The four elements of a vector, widened to the sum's type before they are added.
__device__ long long add4(int4 v)
{
    return (long long)v.x + v.y + v.z + v.w;
}
__device__ float add4(float4 v)
{
    return (v.x + v.y) + (v.z + v.w);
}

/// The warp's sum in lane 0: offsets 16, 8, 4, 2, 1 halve the lanes that still matter.
template <class S>
__device__ S warp_sum_shuffles(S value)
{
    for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(kFullMask, value, offset);
    return value;
}

//! [warp_sum_redux]
/// The warp's sum in every lane, with __reduce_add_sync where the GPU has it (sm_80 and later: one
/// redux.sync instruction per 32-bit sum). It adds 32-bit unsigned values only, so a 64-bit sum is
/// cut in three: the high word, and the low word's two 16-bit halves. The halves' sums need at most
/// 21 bits, so they are exact; the high words' sum may wrap, but only its value modulo 2^32 matters
/// once it is shifted into the high word, and integer addition modulo 2^64 is exact in any order.
__device__ long long warp_sum_redux(long long value)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const auto bits = static_cast<unsigned long long>(value);
    const unsigned high = __reduce_add_sync(kFullMask, unsigned(bits >> 32));
    const unsigned low_high = __reduce_add_sync(kFullMask, unsigned(bits >> 16) & 0xffffu);
    const unsigned low_low = __reduce_add_sync(kFullMask, unsigned(bits) & 0xffffu);
    return static_cast<long long>((static_cast<unsigned long long>(high) << 32) +
                                  (static_cast<unsigned long long>(low_high) << 16) + low_low);
#else
    // Before sm_80 (a T4, say) there is no redux.sync: shuffles instead.
    return warp_sum_shuffles(value);
#endif
}
//! [warp_sum_redux]
__device__ float warp_sum_redux(float value)
{
    return warp_sum_shuffles(value);
}  // no float redux

template <BlockStage stage, class S>
__device__ S warp_sum(S value)
{
    if constexpr (stage == BlockStage::cooperative) {
        const auto tile = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
        return cg::reduce(tile, value, cg::plus<S>());
    } else if constexpr (stage == BlockStage::reduce_add_sync) {
        return warp_sum_redux(value);
    } else {
        return warp_sum_shuffles(value);
    }
}

/// The block's sum, valid in thread 0.
template <BlockStage stage, class S>
__device__ S block_sum(S value)
{
    const unsigned tid = threadIdx.x;
    if constexpr (stage == BlockStage::shared_tree) {
        // Lesson 04's sequential addressing, for any multiple of 32: the first stride is the
        // largest power of two below blockDim.x, and a pair exists only below blockDim.x.
        __shared__ S cache[kMaxBlock];
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
    } else {
        // One slot per warp: each warp reduces its 32 values in registers, lane 0 writes the
        // warp's sum, one barrier, and the first warp reduces the slots.
        __shared__ S slots[kMaxBlock / kWarpSize];
        const unsigned lane = tid % kWarpSize;
        const unsigned warp = tid / kWarpSize;
        value = warp_sum<stage>(value);
        if (lane == 0)
            slots[warp] = value;
        __syncthreads();
        if (warp == 0) {
            value = lane < blockDim.x / kWarpSize ? slots[lane] : S(0);
            value = warp_sum<stage>(value);
        }
        return value;
    }
}

/// Thread `thread` of `threads` adds its share of data[0, n).
template <Loads loads, class T>
__device__ Sum<T> thread_sum(const T* __restrict__ data, std::size_t n, std::size_t thread, std::size_t threads)
{
    Sum<T> sum = 0;
    if constexpr (loads == Loads::scalar) {
        for (std::size_t i = thread; i < n; i += threads)
            sum += data[i];
    } else {
        using Vector = typename Types<T>::Vector;
        // Head: the elements before the first 16-byte boundary (0 to 3 of them, never more than n).
        const auto address = reinterpret_cast<std::uintptr_t>(data);
        const std::size_t to_boundary = (sizeof(Vector) - address % sizeof(Vector)) % sizeof(Vector) / sizeof(T);
        const std::size_t head = to_boundary < n ? to_boundary : n;
        if (thread < head)
            sum += data[thread];
        // Body: whole 16-byte vectors, from an aligned address.
        const auto* vectors = reinterpret_cast<const Vector*>(data + head);
        const std::size_t vector_count = (n - head) / kPerVector;
        for (std::size_t i = thread; i < vector_count; i += threads)
            sum += add4(vectors[i]);
        // Tail: the last 0 to 3 elements.
        const std::size_t tail = head + vector_count * kPerVector + thread;
        if (tail < n)
            sum += data[tail];
    }
    return sum;
}

template <BlockStage stage, Loads loads, class T>
__global__ void ladder_sum(const T* __restrict__ data, std::size_t n, Sum<T>* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const Sum<T> sum = block_sum<stage>(thread_sum<loads>(data, n, thread, threads));
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

/// int4 loads from `data` itself: right only when data is 16-byte aligned.
__global__ void aligned_only_sum(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    long long sum = 0;
    const auto* vectors = reinterpret_cast<const int4*>(data);  // the mistake: no head
    for (std::size_t i = thread; i < n / kPerVector; i += threads)
        sum += add4(vectors[i]);
    if (n / kPerVector * kPerVector + thread < n)
        sum += data[n / kPerVector * kPerVector + thread];
    sum = block_sum<BlockStage::shuffles>(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

template <class T>
using LadderFunction = void (*)(const T*, std::size_t, Sum<T>*);

template <class T, Loads loads>
LadderFunction<T> pick_stage(BlockStage stage)
{
    switch (stage) {
    case BlockStage::shared_tree:
        return &ladder_sum<BlockStage::shared_tree, loads, T>;
    case BlockStage::shuffles:
        return &ladder_sum<BlockStage::shuffles, loads, T>;
    case BlockStage::cooperative:
        return &ladder_sum<BlockStage::cooperative, loads, T>;
    case BlockStage::reduce_add_sync:
        return &ladder_sum<BlockStage::reduce_add_sync, loads, T>;
    }
    throw std::invalid_argument("lesson08: unknown block stage");
}

template <class T>
LadderFunction<T> pick(LadderKernel kernel)
{
    return kernel.loads == Loads::scalar ? pick_stage<T, Loads::scalar>(kernel.stage)
                                         : pick_stage<T, Loads::vectors>(kernel.stage);
}

}  // namespace

const void* ladder_function(LadderKernel kernel)
{
    return reinterpret_cast<const void*>(pick<int>(kernel));
}
const void* ladder_float_function(LadderKernel kernel)
{
    return reinterpret_cast<const void*>(pick<float>(kernel));
}
const void* aligned_only_function()
{
    return reinterpret_cast<const void*>(&aligned_only_sum);
}

void launch_ladder(LadderKernel kernel, const int* data, std::size_t n, long long* partials, unsigned grid,
                   unsigned block, cudaStream_t stream)
{
    pick<int>(kernel)<<<grid, block, 0, stream>>>(data, n, partials);
    COURSE_CHECK_LAUNCH();
}

void launch_ladder_float(LadderKernel kernel, const float* data, std::size_t n, float* partials, unsigned grid,
                         unsigned block, cudaStream_t stream)
{
    pick<float>(kernel)<<<grid, block, 0, stream>>>(data, n, partials);
    COURSE_CHECK_LAUNCH();
}

void launch_aligned_only(const int* data, std::size_t n, long long* partials, unsigned grid, unsigned block,
                         cudaStream_t stream)
{
    aligned_only_sum<<<grid, block, 0, stream>>>(data, n, partials);
    COURSE_CHECK_LAUNCH();
}

}  // namespace lesson08
