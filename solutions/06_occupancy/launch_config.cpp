// Lesson 06 reference solution, exercise 2: a launch that keeps enough bytes in flight.
//
//   ./course run 06 --solution
//   build/gpu/lessons/lesson06_grader --modules=build/gpu/modules/solution --test-case='*faster*'

#include "occupancy.hpp"

#include <algorithm>

namespace lesson06 {

//! [choose_launch_config]
LaunchConfig choose_launch_config(const DeviceProperties& device, const KernelAttributes& scaled_add, std::size_t n)
{
    // The block size (a multiple of a warp) that keeps the most warps resident with no dynamic
    // shared memory (the kernel needs none), the largest on a tie, as cudaOccupancyMaxPotentialBlockSize
    // chooses; then as many such blocks as fill every SM once. The kernel's grid-stride loop covers
    // any n with that grid: all blocks stay resident until the array is done.
    int best_block = device.warpSize;
    OccupancyResult best = theoretical_occupancy(device, scaled_add, best_block, 0);
    for (int block = 2 * device.warpSize; block <= scaled_add.maxThreadsPerBlock; block += device.warpSize) {
        const OccupancyResult candidate = theoretical_occupancy(device, scaled_add, block, 0);
        if (candidate.warps_per_sm >= best.warps_per_sm) {
            best = candidate;
            best_block = block;
        }
    }
    const std::size_t full_grid = std::size_t(best.blocks_per_sm) * unsigned(device.multiProcessorCount);
    const std::size_t needed = (n + best_block - 1) / unsigned(best_block);
    return {unsigned(std::max<std::size_t>(1, std::min(full_grid, needed))), unsigned(best_block), 0};
}
//! [choose_launch_config]

}  // namespace lesson06
