// The public accessors of include/cudasim/counters.hpp for recent launches, which the runtime
// records (runtime/api_launch.cpp), the switch that turns counting off, and the simulator's thread
// count.
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

unsigned simulator_threads()
{
    return ThreadPool::instance().size();
}

uint64_t launches_so_far()
{
    std::lock_guard lock(runtime().mutex);
    return runtime().launches;
}

std::vector<LaunchCounters> launches_since(uint64_t launches)
{
    std::lock_guard lock(runtime().mutex);
    const RuntimeState& r = runtime();
    uint64_t wanted = r.launches > launches ? r.launches - launches : 0;
    wanted = std::min<uint64_t>(wanted, r.recent_launches.size());
    return {r.recent_launches.end() - static_cast<std::ptrdiff_t>(wanted), r.recent_launches.end()};
}

void set_counting(bool on)
{
    std::lock_guard lock(runtime().mutex);
    runtime().counting = on;
}

bool counting()
{
    std::lock_guard lock(runtime().mutex);
    return runtime().counting;
}

LaunchCounters last_launch_counters()
{
    std::lock_guard lock(runtime().mutex);
    return runtime().last_launch;
}

}  // namespace cudasim
