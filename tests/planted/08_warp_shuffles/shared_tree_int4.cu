// Planted bug for lesson 08's grader: right sums, int4 loads, but the block's sum still comes from
// lesson 04's shared-memory tree (a barrier per step): the grader's baseline itself.
// The grader must reject this kernel (tests/planted/08_warp_shuffles/CMakeLists.txt says with which
// message).

#include "warp_shuffles.cuh"

#include <cstdint>

namespace {

constexpr unsigned kPerVector = 4;

__device__ long long block_sum(long long value)
{
    __shared__ long long cache[1024];
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

__device__ long long add4(int4 v) { return (long long)v.x + v.y + v.z + v.w; }

}  // namespace

extern "C" __global__ void shuffle_sum(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    long long sum = 0;

    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::size_t to_boundary = (sizeof(int4) - address % sizeof(int4)) % sizeof(int4) / sizeof(int);
    const std::size_t head = to_boundary < n ? to_boundary : n;
    if (thread < head)
        sum += data[thread];

    const auto* vectors = reinterpret_cast<const int4*>(data + head);
    const std::size_t vector_count = (n - head) / kPerVector;
    for (std::size_t i = thread; i < vector_count; i += threads)
        sum += add4(vectors[i]);

    const std::size_t tail = head + vector_count * kPerVector + thread;
    if (tail < n)
        sum += data[tail];

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
