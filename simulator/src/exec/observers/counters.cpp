// Counter arithmetic (the accessors for recent launches are in runtime/api_counters.cpp).
#include <cudasim/counters.hpp>

namespace cudasim {

Counts& Counts::operator+=(const Counts& o)
{
    warp_instructions += o.warp_instructions;
    thread_instructions += o.thread_instructions;
    branches += o.branches;
    divergent_branches += o.divergent_branches;
    barriers += o.barriers;
    global_load_requests += o.global_load_requests;
    global_wide_load_requests += o.global_wide_load_requests;
    global_store_requests += o.global_store_requests;
    global_load_sectors += o.global_load_sectors;
    global_store_sectors += o.global_store_sectors;
    shared_load_requests += o.shared_load_requests;
    shared_store_requests += o.shared_store_requests;
    shared_bank_conflicts += o.shared_bank_conflicts;
    atomics += o.atomics;
    shuffles += o.shuffles;
    warp_reductions += o.warp_reductions;
    issue_slots += o.issue_slots;
    atomic_operations += o.atomic_operations;
    dram_sectors += o.dram_sectors;
    dram_rounds += o.dram_rounds;
    l2_rounds += o.l2_rounds;
    cached_rounds += o.cached_rounds;
    return *this;
}

double LaunchCounters::warp_execution_efficiency() const
{
    if (counts.warp_instructions == 0)
        return 1.0;
    return static_cast<double>(counts.thread_instructions) / (32.0 * static_cast<double>(counts.warp_instructions));
}

double LaunchCounters::branch_efficiency() const
{
    if (counts.branches == 0)
        return 1.0;
    return 1.0 - static_cast<double>(counts.divergent_branches) / static_cast<double>(counts.branches);
}

}  // namespace cudasim
