// plants: nothing wrong: a right theoretical_occupancy that never divides by a block's needs: it
//   asks, for one more block at a time, whether that many blocks still fit every resource (warp
//   slots, block slots, registers per sub-partition, shared memory), and names as the limiter the
//   first resource that refuses the next block. The grader must pass it.
// replaces: occupancy_calculator.cpp
// passes: *

#include "occupancy.hpp"

#include <algorithm>
#include <climits>

namespace lesson06 {

OccupancyResult theoretical_occupancy(const DeviceProperties& device, const KernelAttributes& kernel, int block_size,
                                      std::size_t dynamic_shared_bytes)
{
    const AllocationRules rules = allocation_rules(device);
    const int warp_slots = device.maxThreadsPerMultiProcessor / device.warpSize;
    // Threads are handed out a whole warp at a time.
    const int block_warps = (block_size + device.warpSize - 1) / device.warpSize;

    // Registers: what one warp takes, after rounding to the allocation unit.
    const long long warp_registers =
        (static_cast<long long>(kernel.numRegs) * device.warpSize + rules.register_unit - 1) / rules.register_unit *
        rules.register_unit;
    const long long partition_registers = device.regsPerMultiprocessor / rules.sub_partitions;
    // The per-block limit counts the block's warps rounded up to a multiple of the sub-partitions.
    const long long spread_warps =
        (block_warps + rules.sub_partitions - 1) / rules.sub_partitions * rules.sub_partitions;
    const bool block_fits_registers = warp_registers * spread_warps <= device.regsPerBlock;

    // Shared memory: the block's bytes in allocation units, and the SM's configured size.
    const std::size_t asked = kernel.sharedSizeBytes + dynamic_shared_bytes + device.reservedSharedMemPerBlock;
    const std::size_t block_shared = (asked + rules.shared_unit - 1) / rules.shared_unit * rules.shared_unit;
    const std::size_t wanted = kernel.preferredShmemCarveout < 0 ? device.sharedMemPerMultiprocessor
                                                                 : std::size_t(kernel.preferredShmemCarveout) *
                                                                       device.sharedMemPerMultiprocessor / 100;
    const std::size_t need = std::max(wanted, block_shared);
    std::size_t sm_shared = rules.shared_configs.back();
    for (auto it = rules.shared_configs.rbegin(); it != rules.shared_configs.rend(); ++it)
        if (*it >= need)
            sm_shared = *it;  // walking down, the last one that holds `need` is the smallest

    // Does the SM hold `blocks` blocks? One resource at a time, in the order the limiter is named.
    const auto refuses = [&](int blocks) -> int {
        if (kernel.numRegs > 0) {
            if (!block_fits_registers)
                return 0;
            // Warps are placed whole into sub-partitions: as many per partition as its registers hold.
            const long long per_partition = warp_registers > 0 ? partition_registers / warp_registers : LLONG_MAX;
            if (static_cast<long long>(blocks) * block_warps > per_partition * rules.sub_partitions)
                return 1;
        }
        if (block_shared > 0 && blocks * block_shared > sm_shared)
            return 2;
        if (blocks * block_warps > warp_slots)
            return 3;
        if (blocks > device.maxBlocksPerMultiProcessor)
            return 4;
        return -1;
    };

    int blocks = 0;
    int stopped_by = refuses(1);
    while (stopped_by < 0) {
        ++blocks;
        stopped_by = refuses(blocks + 1);
    }

    OccupancyResult result;
    result.blocks_per_sm = blocks;
    result.limiter = stopped_by <= 1   ? Limiter::registers
                     : stopped_by == 2 ? Limiter::shared_memory
                     : stopped_by == 3 ? Limiter::warp_slots
                                       : Limiter::block_slots;
    result.warps_per_sm = blocks * block_warps;
    result.occupancy = double(result.warps_per_sm) / warp_slots;
    return result;
}

}  // namespace lesson06
