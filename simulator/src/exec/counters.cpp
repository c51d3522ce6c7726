// Counter arithmetic and the public accessor for the last launch.
#include <cudasim/counters.hpp>

#include <algorithm>
#include <cstddef>
#include <deque>
#include <mutex>

#include "exec/thread_pool.hpp"
#include "runtime/state.hpp"

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

unsigned simulatorThreads()
{
    return ThreadPool::instance().size();
}

uint64_t launchesSoFar()
{
    std::lock_guard lock(runtime().mutex);
    return runtime().launches;
}

std::vector<LaunchCounters> launchesSince(uint64_t launches)
{
    std::lock_guard lock(runtime().mutex);
    const RuntimeState& r = runtime();
    uint64_t wanted = r.launches > launches ? r.launches - launches : 0;
    wanted = std::min<uint64_t>(wanted, r.recentLaunches.size());
    return {r.recentLaunches.end() - static_cast<std::ptrdiff_t>(wanted), r.recentLaunches.end()};
}

LaunchCounters lastLaunchCounters()
{
    std::lock_guard lock(runtime().mutex);
    return runtime().lastLaunch;
}

}  // namespace cudasim
