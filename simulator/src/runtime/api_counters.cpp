// The public accessors of include/cudasim/counters.hpp for recent launches, which the runtime
// records (runtime/api_launch.cpp), and the simulator's thread count.
#include <cudasim/counters.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "exec/scheduling/thread_pool.hpp"
#include "runtime/state.hpp"

namespace cudasim {

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
