// plants: a cooperative launch (this_grid().sync()) asking for 16 blocks per SM where one SM holds 8 of them: a grid wait needs every block resident at once
// expect: bad configuration: reduce_once_launch.max_blocks_per_sm = 16: a cooperative launch must fit on the device at once, and one SM holds [0-9]+ blocks
// replaces: reduce_once.cu

#include "one_launch.cuh"

#include <cooperative_groups.h>

namespace {

constexpr unsigned kBlock = 256;
constexpr unsigned kWarps = kBlock / 32;

__device__ long long block_sum(long long value)
{
    __shared__ long long warp_sums[kWarps];
    for (unsigned offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = value;
    __syncthreads();
    if (threadIdx.x < 32) {
        value = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : 0;
        for (unsigned offset = 16; offset > 0; offset /= 2)
            value += __shfl_down_sync(0xffffffffu, value, offset);
    }
    return value;
}

}  // namespace

// Two waves' worth of blocks: more than can be resident, so the grid-wide wait could never end.
extern "C" __constant__ lesson09::ReduceOnceLaunch reduce_once_launch = {
    .block = kBlock,
    .items_per_thread = 16,
    .max_blocks_per_sm = 16,
    .cooperative = 1,
};

extern "C" __global__ void __launch_bounds__(kBlock)
    reduce_once(const int* data, std::size_t n, long long* result, long long* partials, unsigned int* /*ticket*/)
{
    long long sum = 0;
    for (std::size_t i = std::size_t(blockIdx.x) * kBlock + threadIdx.x; i < n; i += std::size_t(gridDim.x) * kBlock)
        sum += data[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
    cooperative_groups::this_grid().sync();
    if (blockIdx.x != 0)
        return;
    long long total = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += kBlock)
        total += partials[b];
    total = block_sum(total);
    if (threadIdx.x == 0)
        *result = total;
}
