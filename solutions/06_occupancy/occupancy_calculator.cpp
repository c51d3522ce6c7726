// Lesson 06 reference solution, exercise 1: theoretical occupancy from the device's limits.
//
//   ./course run 06 --solution                          # the demo's limiter column uses this
//   build/gpu/lessons/lesson06_grader --modules=build/gpu/modules/solution
//                                         # checked against cudaOccupancy* and cuda_occupancy.h

#include "occupancy.hpp"

#include <algorithm>
#include <climits>

namespace lesson06 {
namespace {

constexpr int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}
constexpr std::size_t round_up(std::size_t value, std::size_t unit)
{
    return (value + unit - 1) / unit * unit;
}

/// The smallest configuration of the SM's shared memory that holds `bytes`.
std::size_t smallest_config_holding(const AllocationRules& rules, std::size_t bytes)
{
    for (const std::size_t config : rules.shared_configs)
        if (config >= bytes)
            return config;
    return rules.shared_configs.back();
}

}  // namespace

//! [theoretical_occupancy]
OccupancyResult theoretical_occupancy(const DeviceProperties& device, const KernelAttributes& kernel, int block_size,
                                      std::size_t dynamic_shared_bytes)
{
    const AllocationRules rules = allocation_rules(device);
    // A block occupies whole warps: 100 threads take 4 warps' worth of slots and registers.
    const int warps_per_block = ceil_div(block_size, device.warpSize);
    const int warp_slots = device.maxThreadsPerMultiProcessor / device.warpSize;

    // Registers: each warp gets numRegs * 32 rounded up to the allocation unit, all in one of the
    // sub-partitions; a sub-partition holds as many such warps as fit in its quarter of the file.
    int by_registers = INT_MAX;
    if (kernel.numRegs > 0) {
        const int registers_per_warp =
            int(round_up(std::size_t(kernel.numRegs) * device.warpSize, rules.register_unit));
        const int warps_per_partition = device.regsPerMultiprocessor / rules.sub_partitions / registers_per_warp;
        by_registers = warps_per_partition * rules.sub_partitions / warps_per_block;
        // A block must also fit the per-block register limit, counted as if its warps were spread
        // over all sub-partitions evenly.
        const int warps_checked = int(round_up(std::size_t(warps_per_block), rules.sub_partitions));
        if (registers_per_warp * warps_checked > device.regsPerBlock)
            by_registers = 0;
    }

    // Shared memory: static + dynamic + what the driver reserves per block, in allocation units;
    // the SM is configured to the carve-out asked for, or to a larger one if a block needs more.
    const std::size_t per_block =
        round_up(kernel.sharedSizeBytes + dynamic_shared_bytes + device.reservedSharedMemPerBlock, rules.shared_unit);
    std::size_t per_sm = kernel.preferredShmemCarveout < 0
                             ? smallest_config_holding(rules, device.sharedMemPerMultiprocessor)
                             : smallest_config_holding(rules, std::size_t(kernel.preferredShmemCarveout) *
                                                                  device.sharedMemPerMultiprocessor / 100);
    if (per_sm < per_block)
        per_sm = smallest_config_holding(rules, per_block);
    const int by_shared = per_block > 0 ? int(per_sm / per_block) : INT_MAX;

    const int by_warps = warp_slots / warps_per_block;
    const int by_blocks = device.maxBlocksPerMultiProcessor;

    OccupancyResult result;
    result.blocks_per_sm = std::min({by_registers, by_shared, by_warps, by_blocks});
    result.limiter = result.blocks_per_sm == by_registers ? Limiter::registers
                     : result.blocks_per_sm == by_shared  ? Limiter::shared_memory
                     : result.blocks_per_sm == by_warps   ? Limiter::warp_slots
                                                          : Limiter::block_slots;
    result.warps_per_sm = result.blocks_per_sm * warps_per_block;
    result.occupancy = double(result.warps_per_sm) / warp_slots;
    return result;
}
//! [theoretical_occupancy]

}  // namespace lesson06
