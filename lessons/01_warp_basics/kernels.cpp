// Lesson 01's host side: the reference layout and count, and the registry of counting kernels
// that the demo and the grader share. See lessons/01_warp_basics/README.md.
//
//   ./course run 01 --kernel per-thread-atomic

#include "warp_basics.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lesson01 {

std::size_t thread_count(dim3 grid, dim3 block)
{
    return std::size_t(grid.x) * grid.y * grid.z * block.x * block.y * block.z;
}

std::vector<ThreadLayout> expected_layout(dim3 grid, dim3 block)
{
    constexpr std::uint32_t kWarpSize = 32;  // warpSize on every GPU CUDA 13 supports
    const std::uint32_t per_block = block.x * block.y * block.z;
    std::vector<ThreadLayout> layout(thread_count(grid, block));
    // x varies fastest, then y, then z: for blocks in the grid and for threads in a block alike.
    for (std::uint32_t bz = 0; bz < grid.z; ++bz)
        for (std::uint32_t by = 0; by < grid.y; ++by)
            for (std::uint32_t bx = 0; bx < grid.x; ++bx) {
                const std::uint32_t block_id = bx + by * grid.x + bz * grid.x * grid.y;
                for (std::uint32_t z = 0; z < block.z; ++z)
                    for (std::uint32_t y = 0; y < block.y; ++y)
                        for (std::uint32_t x = 0; x < block.x; ++x) {
                            const std::uint32_t thread = x + y * block.x + z * block.x * block.y;
                            const std::uint32_t global = block_id * per_block + thread;
                            layout[global] = {{x, y, z},          {bx, by, bz},       thread,
                                              thread / kWarpSize, thread % kWarpSize, global};
                        }
            }
    return layout;
}

unsigned long long count_below(std::span<const int> data, int threshold)
{
    return static_cast<unsigned long long>(
        std::count_if(data.begin(), data.end(), [threshold](int value) { return value < threshold; }));
}

const std::vector<CountKernel>& count_kernels()
{
    static const std::vector<CountKernel> registry = {
        {"per-thread-atomic", "every thread atomically adds its own 0 or 1 (64-bit) to one counter",
         &launch_count_per_thread, false},
        {"compiler-aggregated", "if (v < t) atomicAdd(count, 1): nvcc aggregates it per warp by itself",
         &launch_count_compiler_aggregated, false},
        {"per-warp-ballot", "__ballot_sync + __popc, lane 0 adds its warp's count: one atomic per warp",
         &launch_count_per_warp, true},
    };
    return registry;
}

}  // namespace lesson01
