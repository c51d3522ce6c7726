// Lesson 06 exercise 1: theoretical occupancy. Read lessons/06_occupancy/README.md first.
//
// This starter counts only the SM's warp slots and block slots, so it believes every kernel fills
// the SM, whatever registers and shared memory it needs. Add the two missing limits:
//   - registers, handed to each warp in units of rules.register_unit, each warp inside one of the
//     rules.sub_partitions quarters of the register file (and a block must fit regsPerBlock);
//   - shared memory: static + dynamic + the driver's reserved bytes per block, in units of
//     rules.shared_unit, out of the shared memory the SM is configured to (see the carve-out rule
//     in occupancy.hpp).
// Then report the smallest of the four limits, and which resource it was.
// This is plain C++ (no CUDA runtime): the lesson builds it into a program of its own and asks it
// questions; print debugging output on std::cerr, never std::cout, which carries the answers.
//
//   ./course grade 06                              # on a GPU: against cudaOccupancy* and NVIDIA's calculator
//   build/ci/lessons/lesson06_host_check           # without a GPU: against NVIDIA's calculator

#include "occupancy.hpp"

#include <algorithm>

namespace lesson06 {

OccupancyResult theoretical_occupancy(const DeviceProperties& device, const KernelAttributes& kernel, int block_size,
                                      std::size_t dynamic_shared_bytes)
{
    const AllocationRules rules = allocation_rules(device);
    (void)rules;  // TODO: needed for the register and shared-memory limits
    (void)kernel;
    (void)dynamic_shared_bytes;

    const int warps_per_block = (block_size + device.warpSize - 1) / device.warpSize;
    const int warp_slots = device.maxThreadsPerMultiProcessor / device.warpSize;
    const int by_warps = warp_slots / warps_per_block;
    const int by_blocks = device.maxBlocksPerMultiProcessor;
    // TODO: by_registers and by_shared.

    OccupancyResult result;
    result.blocks_per_sm = std::min(by_warps, by_blocks);
    result.limiter = result.blocks_per_sm == by_warps ? Limiter::warp_slots : Limiter::block_slots;
    result.warps_per_sm = result.blocks_per_sm * warps_per_block;
    result.occupancy = double(result.warps_per_sm) / warp_slots;
    return result;
}

}  // namespace lesson06
