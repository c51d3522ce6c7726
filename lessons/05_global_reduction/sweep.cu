// Lesson 05: the lesson's own configurable two-phase reduction, the instrument of the demo's sweep
// over kernel configurations (threads per block x elements per thread). Plain 4-byte loads in a
// grid-stride loop, so that the table shows what the grid alone changes.
//
//   ./course run 05              # the sweep, with your reduce_sum, CUB and a copy beside it
//   ./course run 05 --block 256  # one block size only

#include "global_reduction.hpp"

#include "course/cuda_check.hpp"

#include <cub/block/block_reduce.cuh>

#include <stdexcept>
#include <string>

namespace lesson05 {
namespace {

/// The sum of `value` over the block, valid in thread 0: the library's block reduction (CUB), so
/// that this instrument gives away none of the course's exercises (lessons 04, 07 and 08 write
/// their own).
template <unsigned Block>
__device__ long long block_sum(long long value)
{
    using Reduce = cub::BlockReduce<long long, Block>;
    __shared__ typename Reduce::TempStorage storage;
    return Reduce(storage).Sum(value);
}

template <unsigned Block>
__global__ void __launch_bounds__(Block)
    sweep_phase_one(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    long long sum = 0;
    const std::size_t threads = std::size_t(gridDim.x) * Block;
    for (std::size_t i = std::size_t(blockIdx.x) * Block + threadIdx.x; i < n; i += threads)
        sum += data[i];
    sum = block_sum<Block>(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

constexpr unsigned kPhaseTwoBlock = 256;

__global__ void __launch_bounds__(kPhaseTwoBlock)
    sweep_phase_two(const long long* __restrict__ partials, std::size_t count, long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kPhaseTwoBlock)
        sum += partials[i];
    sum = block_sum<kPhaseTwoBlock>(sum);
    if (threadIdx.x == 0)
        *result = sum;
}

template <unsigned Block>
void launch_phase_one(const int* data, std::size_t n, long long* partials, std::size_t grid, cudaStream_t stream)
{
    sweep_phase_one<Block><<<unsigned(grid), Block, 0, stream>>>(data, n, partials);
}

}  // namespace

std::size_t sweep_grid(std::size_t n, SweepConfig config)
{
    const std::size_t per_block = std::size_t(config.block) * config.items_per_thread;
    return (n + per_block - 1) / per_block;
}

void sweep_reduce_sum(const int* data, std::size_t n, long long* result, long long* partials, SweepConfig config,
                      cudaStream_t stream)
{
    const std::size_t grid = sweep_grid(n, config);
    if (grid == 0 || grid > 0x7fffffff || config.items_per_thread == 0)
        throw std::invalid_argument("sweep_reduce_sum: " + std::to_string(n) + " elements, " +
                                    std::to_string(config.items_per_thread) + " per thread: no valid grid");
    switch (config.block) {
    case 128:
        launch_phase_one<128>(data, n, partials, grid, stream);
        break;
    case 256:
        launch_phase_one<256>(data, n, partials, grid, stream);
        break;
    case 512:
        launch_phase_one<512>(data, n, partials, grid, stream);
        break;
    case 1024:
        launch_phase_one<1024>(data, n, partials, grid, stream);
        break;
    default:
        throw std::invalid_argument("sweep_reduce_sum: block " + std::to_string(config.block));
    }
    COURSE_CHECK_LAUNCH();
    sweep_phase_two<<<1, kPhaseTwoBlock, 0, stream>>>(partials, grid, result);
    COURSE_CHECK_LAUNCH();
}

}  // namespace lesson05
