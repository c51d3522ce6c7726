// plants: nothing wrong: a right float kernel in another order of additions than the reference's.
//   Each vector's four elements go one by one into the thread's running sum, the tail before the
//   head, and the warps reduce with __shfl_xor_sync. Its sums differ from the reference's in the last
//   bits; the grader's rounding-error bound must accept them.
// replaces: shuffle_sum_float.cu
// passes: *shuffle_sum_float is within*,*shuffle_sum_float works*

#include "warp_shuffles.cuh"

#include <cstdint>

namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned kPerVector = 4;

/// The butterfly: every lane ends with the warp's sum.
__device__ float warp_sum(float value)
{
    for (unsigned offset = 1; offset < kWarpSize; offset *= 2)
        value += __shfl_xor_sync(kFullMask, value, offset);
    return value;
}

__device__ float block_sum(float value)
{
    __shared__ float slots[1024 / kWarpSize];
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warp = threadIdx.x / kWarpSize;
    value = warp_sum(value);
    if (lane == 0)
        slots[warp] = value;
    __syncthreads();
    if (warp == 0) {
        value = lane < blockDim.x / kWarpSize ? slots[lane] : 0.0f;
        value = warp_sum(value);
    }
    return value;
}

}  // namespace

extern "C" __global__ void shuffle_sum_float(const float* __restrict__ data, std::size_t n,
                                             float* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::size_t to_boundary = (sizeof(float4) - address % sizeof(float4)) % sizeof(float4) / sizeof(float);
    const std::size_t head = to_boundary < n ? to_boundary : n;
    const auto* vectors = reinterpret_cast<const float4*>(data + head);
    const std::size_t vector_count = (n - head) / kPerVector;

    const std::size_t tail = head + vector_count * kPerVector + thread;
    if (tail < n)
        sum += data[tail];
    for (std::size_t i = thread; i < vector_count; i += threads) {
        const float4 v = vectors[i];
        sum += v.x;
        sum += v.y;
        sum += v.z;
        sum += v.w;
    }
    if (thread < head)
        sum += data[thread];

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
