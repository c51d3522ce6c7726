// plants: nothing wrong: a right choose_launch_config that takes the smallest block size reaching
//   the best occupancy the kernel allows (rather than the largest), and a grid of up to two full
//   waves with at least four elements per thread, so the grid-stride loop still covers any n. The
//   grader must pass it, speed and occupancy included.
// replaces: launch_config.cpp
// passes: *

#include "occupancy.hpp"

#include <algorithm>

namespace lesson06 {

LaunchConfig choose_launch_config(const DeviceProperties& device, const KernelAttributes& scaled_add, std::size_t n)
{
    constexpr std::size_t kElementsPerThread = 4;  // each thread's share before the grid is cut short
    constexpr std::size_t kWaves = 2;              // the blocks of two full waves at most

    // The best resident-warp count of any block size, then the first (smallest) block that reaches it.
    int most_warps = 0;
    for (int block = device.warpSize; block <= scaled_add.maxThreadsPerBlock; block += device.warpSize)
        most_warps = std::max(most_warps, theoretical_occupancy(device, scaled_add, block, 0).warps_per_sm);
    int chosen = device.warpSize;
    OccupancyResult at_chosen = theoretical_occupancy(device, scaled_add, chosen, 0);
    while (at_chosen.warps_per_sm < most_warps) {
        chosen += device.warpSize;
        at_chosen = theoretical_occupancy(device, scaled_add, chosen, 0);
    }

    const std::size_t block = std::size_t(chosen);
    const std::size_t wave = std::size_t(at_chosen.blocks_per_sm) * std::size_t(device.multiProcessorCount);
    const std::size_t for_n = (n + block * kElementsPerThread - 1) / (block * kElementsPerThread);
    const std::size_t grid = std::clamp<std::size_t>(for_n, 1, kWaves * wave);
    return {unsigned(grid), unsigned(block), 0};
}

}  // namespace lesson06
