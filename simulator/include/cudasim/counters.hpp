// Per-launch performance counters of the CUDA CPU simulator.
//
//   #include <cudasim/counters.hpp>
//   kernel<<<grid, block>>>(...);
//   cudasim::LaunchCounters c = cudasim::lastLaunchCounters();
//
// Setting CUDASIM_COUNTERS=1 also prints them to stderr after every launch.
#pragma once

#include <cstdint>
#include <string>

namespace cudasim {

struct Counts {
  uint64_t warpInstructions = 0;     // instructions issued, one per warp
  uint64_t threadInstructions = 0;   // summed over the lanes that executed them
  uint64_t branches = 0;             // conditional branches issued
  uint64_t divergentBranches = 0;    // ... whose lanes went both ways
  uint64_t barriers = 0;             // bar.sync issued (per warp)
  uint64_t globalLoadRequests = 0;   // warp-level global load instructions
  uint64_t globalStoreRequests = 0;
  uint64_t globalLoadSectors = 0;    // distinct 32-byte sectors they touched
  uint64_t globalStoreSectors = 0;
  uint64_t sharedLoadRequests = 0;
  uint64_t sharedStoreRequests = 0;
  uint64_t sharedBankConflicts = 0;  // extra shared-memory wavefronts (32 banks x 4 B)
  uint64_t atomics = 0;              // atom/red instructions issued

  Counts& operator+=(const Counts& o);
};

struct LaunchCounters {
  std::string kernel;
  uint32_t grid[3] = {0, 0, 0};
  uint32_t block[3] = {0, 0, 0};
  Counts counts;
  double modelledMilliseconds = 0;  // see README, "Timing model"

  // Average fraction of a warp's 32 lanes active per issued instruction.
  double warpExecutionEfficiency() const;
  // Fraction of conditional branches that did not diverge.
  double branchEfficiency() const;
};

// Counters of the most recent kernel launch (all zero before the first).
LaunchCounters lastLaunchCounters();

// Number of CPU threads that execute blocks (CUDASIM_THREADS, else cores).
unsigned simulatorThreads();

}  // namespace cudasim
