// Counter arithmetic (the accessors for recent launches are in runtime/api_counters.cpp).
#include <cudasim/counters.hpp>

namespace cudasim {

Counts& Counts::operator+=(const Counts& o)
{
    warpInstructions += o.warpInstructions;
    threadInstructions += o.threadInstructions;
    branches += o.branches;
    divergentBranches += o.divergentBranches;
    barriers += o.barriers;
    globalLoadRequests += o.globalLoadRequests;
    globalWideLoadRequests += o.globalWideLoadRequests;
    globalStoreRequests += o.globalStoreRequests;
    globalLoadSectors += o.globalLoadSectors;
    globalStoreSectors += o.globalStoreSectors;
    sharedLoadRequests += o.sharedLoadRequests;
    sharedStoreRequests += o.sharedStoreRequests;
    sharedBankConflicts += o.sharedBankConflicts;
    atomics += o.atomics;
    shuffles += o.shuffles;
    warpReductions += o.warpReductions;
    issueSlots += o.issueSlots;
    atomicOperations += o.atomicOperations;
    dramSectors += o.dramSectors;
    dramRounds += o.dramRounds;
    l2Rounds += o.l2Rounds;
    cachedRounds += o.cachedRounds;
    return *this;
}

double LaunchCounters::warpExecutionEfficiency() const
{
    if (counts.warpInstructions == 0)
        return 1.0;
    return static_cast<double>(counts.threadInstructions) / (32.0 * static_cast<double>(counts.warpInstructions));
}

double LaunchCounters::branchEfficiency() const
{
    if (counts.branches == 0)
        return 1.0;
    return 1.0 - static_cast<double>(counts.divergentBranches) / static_cast<double>(counts.branches);
}

}  // namespace cudasim
