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
#include <vector>

namespace cudasim {

struct Counts {
    uint64_t warpInstructions = 0;    // instructions issued, one per warp
    uint64_t threadInstructions = 0;  // summed over the lanes that executed them
    uint64_t branches = 0;            // conditional branches issued
    uint64_t divergentBranches = 0;   // ... whose lanes went both ways
    uint64_t barriers = 0;            // bar.sync issued (per warp)
    uint64_t globalLoadRequests = 0;  // warp-level global load instructions
    uint64_t globalStoreRequests = 0;
    uint64_t globalWideLoadRequests = 0;  // ... of them 16 bytes per lane (ld.v4.b32, ld.v2.b64, ...)
    uint64_t globalLoadSectors = 0;       // distinct 32-byte sectors they touched
    uint64_t globalStoreSectors = 0;
    uint64_t sharedLoadRequests = 0;
    uint64_t sharedStoreRequests = 0;
    uint64_t sharedBankConflicts = 0;  // extra shared-memory wavefronts (32 banks x 4 B)
    uint64_t atomics = 0;              // atom/red instructions issued
    uint64_t shuffles = 0;             // shfl.sync issued (per warp)
    uint64_t warpReductions = 0;       // redux.sync issued (per warp; sm_80 and later)
    // What the timing model (README, "Timing model") needs beyond the profiler's counts:
    uint64_t issueSlots = 0;        // warp instructions weighted by their cost in machine instructions
    uint64_t atomicOperations = 0;  // atomic updates that reach memory: one per lane, or one per warp
                                    // for a constant added to one address (the compiler aggregates it)
    uint64_t dramSectors = 0;       // distinct 32-byte global sectors the launch touched
    uint64_t dramRounds = 0;        // memory round trips on each block's critical path that fetched
    uint64_t l2Rounds = 0;          // ... a sector from DRAM / one the previous launch left in L2 /
    uint64_t cachedRounds = 0;      // ... only sectors this launch had touched already

    Counts& operator+=(const Counts& o);
};

struct LaunchCounters {
    std::string kernel;
    uint32_t grid[3] = {0, 0, 0};
    uint32_t block[3] = {0, 0, 0};
    Counts counts;
    uint64_t atomicsOnHottestAddress = 0;  // atomic updates to the address that received the most
    int residentBlocksPerSm = 0;           // blocks an SM holds at once (occupancy, capped by the grid)
    int residentWarpsPerSm = 0;
    double theoreticalOccupancy = 0;  // resident warps the occupancy limits allow / 64
    double modelledMilliseconds = 0;  // see README, "Timing model"
    // The model's terms, in milliseconds: what bounds the kernel.
    double issueMilliseconds = 0;    // instruction issue and load/store pipe
    double latencyMilliseconds = 0;  // memory round trips that occupancy does not hide
    double dramMilliseconds = 0;     // bytes to and from device memory
    double atomicMilliseconds = 0;   // atomics serialised on one address

    // Average fraction of a warp's 32 lanes active per issued instruction.
    double warpExecutionEfficiency() const;
    // Fraction of conditional branches that did not diverge.
    double branchEfficiency() const;
};

// Counters of the most recent kernel launch (all zero before the first).
LaunchCounters lastLaunchCounters();

// Kernel launches run so far by this process.
uint64_t launchesSoFar();
// Counters of every launch after the first `launches`, oldest first (at most the last 1024).
std::vector<LaunchCounters> launchesSince(uint64_t launches);

// Number of CPU threads that execute blocks (CUDASIM_THREADS, else cores).
unsigned simulatorThreads();

}  // namespace cudasim
