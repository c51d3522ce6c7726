// Counter arithmetic and the public accessor for the last launch.
#include <cudasim/counters.hpp>

#include "exec/thread_pool.hpp"
#include "runtime/state.hpp"

namespace cudasim {

Counts& Counts::operator+=(const Counts& o) {
  warpInstructions += o.warpInstructions;
  threadInstructions += o.threadInstructions;
  branches += o.branches;
  divergentBranches += o.divergentBranches;
  barriers += o.barriers;
  globalLoadRequests += o.globalLoadRequests;
  globalStoreRequests += o.globalStoreRequests;
  globalLoadSectors += o.globalLoadSectors;
  globalStoreSectors += o.globalStoreSectors;
  sharedLoadRequests += o.sharedLoadRequests;
  sharedStoreRequests += o.sharedStoreRequests;
  sharedBankConflicts += o.sharedBankConflicts;
  atomics += o.atomics;
  return *this;
}

double LaunchCounters::warpExecutionEfficiency() const {
  if (counts.warpInstructions == 0) return 1.0;
  return static_cast<double>(counts.threadInstructions) / (32.0 * static_cast<double>(counts.warpInstructions));
}

double LaunchCounters::branchEfficiency() const {
  if (counts.branches == 0) return 1.0;
  return 1.0 - static_cast<double>(counts.divergentBranches) / static_cast<double>(counts.branches);
}

unsigned simulatorThreads() { return ThreadPool::instance().size(); }

LaunchCounters lastLaunchCounters() {
  std::lock_guard lock(runtime().mutex);
  return runtime().lastLaunch;
}

}  // namespace cudasim
