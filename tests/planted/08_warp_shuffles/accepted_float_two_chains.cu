// plants: nothing wrong: a right shuffle_sum_float that keeps two running sums per thread (the
//   vectors of a trip alternate between them, so two dependency chains of additions run side by
//   side), adds over each warp with a hand-written __shfl_down_sync tree, and lets one list of
//   "extra" indices cover both the head and the tail. The grader must pass it, speed included.
// replaces: shuffle_sum_float.cu
// passes: *

#include "warp_shuffles.cuh"

#include <cstdint>

namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kAll = 0xffffffffu;

__device__ float warp_reduce(float x)
{
    // Lane i adds lane i + offset; lane 0 ends with the warp's sum.
    x += __shfl_down_sync(kAll, x, 16);
    x += __shfl_down_sync(kAll, x, 8);
    x += __shfl_down_sync(kAll, x, 4);
    x += __shfl_down_sync(kAll, x, 2);
    x += __shfl_down_sync(kAll, x, 1);
    return x;
}

__device__ float block_reduce(float x)
{
    __shared__ float partial_of_warp[1024 / kWarp];
    const unsigned lane = threadIdx.x % kWarp;
    const unsigned warp = threadIdx.x / kWarp;
    x = warp_reduce(x);
    if (lane == 0)
        partial_of_warp[warp] = x;
    __syncthreads();
    if (warp == 0)
        x = warp_reduce(lane * kWarp < blockDim.x ? partial_of_warp[lane] : 0.0f);
    return x;
}

__device__ float pair_sum(float4 v)
{
    return (v.x + v.y) + (v.z + v.w);
}

}  // namespace

extern "C" __global__ void shuffle_sum_float(const float* __restrict__ data, std::size_t n,
                                             float* __restrict__ partials)
{
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t id = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    float even = 0.0f;  // two independent chains of additions
    float odd = 0.0f;

    const std::size_t skew = reinterpret_cast<std::uintptr_t>(data) / sizeof(float) % 4;
    const std::size_t head = skew == 0 ? 0 : (4 - skew < n ? 4 - skew : n);
    const std::size_t vectors = (n - head) / 4;
    const std::size_t tail = n - head - 4 * vectors;

    // Extras: index e < head is data[e]; head <= e < head + tail is the e - head-th int after the vectors.
    if (id < head + tail)
        even += data[id < head ? id : id + 4 * vectors];

    const float4* body = reinterpret_cast<const float4*>(data + head);
    std::size_t i = id;
    for (; i + 3 * threads < vectors; i += 4 * threads) {
        const float4 a = body[i];
        const float4 b = body[i + threads];
        const float4 c = body[i + 2 * threads];
        const float4 d = body[i + 3 * threads];
        even += pair_sum(a) + pair_sum(c);
        odd += pair_sum(b) + pair_sum(d);
    }
    for (; i < vectors; i += threads)
        even += pair_sum(body[i]);

    const float sum = block_reduce(even + odd);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
