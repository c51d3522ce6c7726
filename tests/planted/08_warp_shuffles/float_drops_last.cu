// Planted bug for lesson 08's grader: the float kernel's tail stops one element short (`tail + 1 <
// n`), so the last element is lost whenever it lies in the tail. A float sum is compared within a
// rounding-error bound, not exactly; the bound must still be tight enough to see a missing element.
// The grader must reject this kernel (tests/planted/08_warp_shuffles/CMakeLists.txt says with which
// message).

#include "warp_shuffles.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

namespace cg = cooperative_groups;

namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kPerVector = 4;

__device__ float block_sum(float value)
{
    __shared__ float slots[1024 / kWarpSize];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<kWarpSize> warp = cg::tiled_partition<kWarpSize>(block);
    value = cg::reduce(warp, value, cg::plus<float>());
    if (warp.thread_rank() == 0)
        slots[warp.meta_group_rank()] = value;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        value = warp.thread_rank() < warp.meta_group_size() ? slots[warp.thread_rank()] : 0.0f;
        value = cg::reduce(warp, value, cg::plus<float>());
    }
    return value;
}

__device__ float add4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

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
    if (thread < head)
        sum += data[thread];

    const auto* vectors = reinterpret_cast<const float4*>(data + head);
    const std::size_t vector_count = (n - head) / kPerVector;
    for (std::size_t i = thread; i < vector_count; i += threads)
        sum += add4(vectors[i]);

    const std::size_t tail = head + vector_count * kPerVector + thread;
    if (tail + 1 < n)  // the mistake: the last element is never added
        sum += data[tail];

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
