// plants: nothing wrong: a right theoretical_occupancy that counts every resource in its own
//   allocation units (register units per sub-partition, shared-memory units per SM) instead of in
//   registers and bytes, finds the SM's shared-memory configuration with std::lower_bound, and picks
//   the limiter as the smallest of the four limits (ties broken as the lesson orders them). The
//   grader must pass it.
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
    const int slots = device.maxThreadsPerMultiProcessor / device.warpSize;
    const int warps = (block_size - 1) / device.warpSize + 1;  // block_size >= 1: a partial warp counts whole

    struct Limit {
        int blocks;
        Limiter what;
    };
    // In the order the lesson names a tie: registers, shared memory, warp slots, block slots.
    Limit limits[4] = {{INT_MAX, Limiter::registers},
                       {INT_MAX, Limiter::shared_memory},
                       {slots / warps, Limiter::warp_slots},
                       {device.maxBlocksPerMultiProcessor, Limiter::block_slots}};

    if (kernel.numRegs > 0) {
        // Register units: a warp takes ceil(numRegs * 32 / unit), a sub-partition holds floor(its registers / unit).
        const int units_per_warp = (kernel.numRegs * device.warpSize + rules.register_unit - 1) / rules.register_unit;
        const int units_per_partition = device.regsPerMultiprocessor / rules.sub_partitions / rules.register_unit;
        const int warps_in_sm = units_per_partition / units_per_warp * rules.sub_partitions;
        const int partition_rounds = (warps + rules.sub_partitions - 1) / rules.sub_partitions;
        const bool over_block_limit =
            units_per_warp * rules.register_unit * partition_rounds * rules.sub_partitions > device.regsPerBlock;
        limits[0].blocks = over_block_limit ? 0 : warps_in_sm / warps;
    }

    // Shared-memory units: the block's bytes rounded up, the SM's configuration rounded down.
    const std::size_t unit = std::size_t(rules.shared_unit);
    const std::size_t block_units =
        (kernel.sharedSizeBytes + dynamic_shared_bytes + device.reservedSharedMemPerBlock + unit - 1) / unit;
    if (block_units > 0) {
        const std::size_t preferred = kernel.preferredShmemCarveout < 0 ? device.sharedMemPerMultiprocessor
                                                                        : std::size_t(kernel.preferredShmemCarveout) *
                                                                              device.sharedMemPerMultiprocessor / 100;
        const std::size_t at_least = std::max(preferred, block_units * unit);
        const auto config = std::lower_bound(rules.shared_configs.begin(), rules.shared_configs.end(), at_least);
        const std::size_t sm_bytes = config == rules.shared_configs.end() ? rules.shared_configs.back() : *config;
        limits[1].blocks = int(sm_bytes / unit / block_units);
    }

    // The first smallest limit: std::min_element keeps the earliest of equal ones.
    const Limit& least = *std::min_element(std::begin(limits), std::end(limits),
                                           [](const Limit& a, const Limit& b) { return a.blocks < b.blocks; });
    OccupancyResult result;
    result.blocks_per_sm = least.blocks;
    result.limiter = least.what;
    result.warps_per_sm = least.blocks * warps;
    result.occupancy = double(result.warps_per_sm) / slots;
    return result;
}

}  // namespace lesson06
