// Executes the decoded instructions of one warp, all 32 lanes at a time.
#pragma once

#include <cstdint>
#include <cudasim/counters.hpp>
#include <vector>

#include "exec/arithmetic/fast_paths.hpp"
#include "exec/memory/memory_access.hpp"
#include "exec/observers/counter_listener.hpp"
#include "exec/observers/listener.hpp"
#include "exec/observers/warp_trace.hpp"
#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/launch_context.hpp"
#include "exec/scheduling/schedule.hpp"
#include "exec/scheduling/warp.hpp"

namespace cudasim {

// The listeners of the one warp the warp trace follows; every other warp has the counters alone.
using TracedListeners = ListenerPair<CounterListener, WarpTrace>;

class Interpreter {
public:
    Interpreter(LaunchContext& launch, Counts& counts)
        : launch_(launch), counters_(counts, launch.epoch), memory_(launch.params, launch.kernel->paramBytes),
          sliced_(launch.gridWorkspace != 0), raceCheck_(launch.raceCheck), initCheck_(launch.initCheck),
          ordering_(launch.ordering), fastPaths_(fastPathsOf(launch.kernel->code))
    {
    }

    // Runs `warp` until it reaches a barrier (status AtBarrier) or all its
    // threads have exited (status Done), or, under a seeded schedule or where the
    // kernel syncs its grid, until its slice of instructions is spent (status
    // stays Ready). Throws DeviceFault.
    void run(Warp& warp, BlockState& block);

    // Under a seeded schedule (exec/scheduling/schedule.hpp): the block's random stream, or null for the
    // in-order schedule; then (there, and where the kernel syncs its grid) the length of the next slice,
    // charged to the instruction budget.
    void shuffleWith(ScheduleRandom* random) { shuffle_ = random; }
    void startSlice(const Warp& w, const BlockState& b, uint64_t instructions);

    // The listener every warp has: the counters, with the atomic updates per address.
    CounterListener& counters() { return counters_; }

private:
    template <class Listener>
    void runWith(Warp& w, BlockState& b, Listener& listener);
    // The rare paths out of the loop of runWith: a new chunk of the instruction budget, and trap.
    // Returns true when the warp's slice is over instead (seeded schedule, a kernel that syncs its grid).
    [[gnu::noinline]] bool chargeBudget(const Warp& w, const BlockState& b, const ptx::Instr& in);
    void prepay(const Warp& w, const BlockState& b, uint64_t instructions);
    [[noreturn, gnu::cold, gnu::noinline]] void budgetExceeded(const Warp& w, const BlockState& b,
                                                               const ptx::Instr& in);
    bool waitsAtGridSync(const Warp& w, const ptx::Instr& in, uint32_t exec) const;
    [[noreturn, gnu::cold, gnu::noinline]] void trap(const Warp& w, const BlockState& b, const ptx::Instr& in,
                                                     uint32_t exec);
    void branch(Warp& w, const ptx::Instr& in, uint32_t exec);
    bool arriveAtBarrier(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, const ptx::Instr* code);
    void exitLanes(Warp& w, BlockState& b, uint32_t lanes);
    void retireLanesWaitingAtExit(Warp& w, const ptx::Instr* code);
    void popPath(Warp& w, BlockState& b);
    void callSubroutine(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void returnFromSubroutine(Warp& w, BlockState& b, const SimtEntry& e);
    // In memory_operations.cpp, for the two sets of listeners run() chooses between.
    template <class Listener>
    void load(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    template <class Listener>
    void store(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    template <class Listener>
    void atomic(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    // In texture_fetch.cpp: tex.1d (tex1Dfetch).
    template <class Listener>
    void fetchTexture(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    void call(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void warpSync(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void checkMembermask(const Warp& w, const BlockState& b, const ptx::Instr& in, uint32_t exec,
                         const ptx::Operand& mask);
    [[noreturn, gnu::cold, gnu::noinline]] void
    invalidMembermask(const Warp& w, const BlockState& b, const ptx::Instr& in, int lane, const ptx::Operand& mask);
    // Race check of a warp's shared-memory reads or atomics at `addrs` (in.space addresses).
    void checkSharedLanes(Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                          uint32_t size, bool atomic);
    void checkReadsWritten(Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                           uint32_t size, uint64_t lowest, uint64_t highest);
    void markWritten(const uint64_t* addrs, uint32_t exec, uint32_t size);
    void checkGlobalReads(Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                          uint32_t size);
    void orderLoads(const Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                    uint32_t size);
    void orderStores(const Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                     uint32_t size);
    uint32_t pcOf(const ptx::Instr& in) const { return static_cast<uint32_t>(&in - launch_.kernel->code.data()); }

    AccessSite site(const Warp& w, const BlockState& b, int lane, const ptx::Instr& in) const
    {
        return {&launch_, &b, &w, lane, in.line, &in};
    }

    LaunchContext& launch_;
    CounterListener counters_;
    MemoryAccess memory_;
    uint64_t budgetLeft_ = 0;  // instructions until chargeBudget, or until the slice ends
    uint64_t prepaid_ = 0;     // instructions taken from the launch's budget for slices not yet started
    ScheduleRandom* shuffle_ = nullptr;
    bool sliced_;  // warps run a slice at a time even in order (a kernel that syncs its grid)
    bool raceCheck_;
    bool initCheck_;
    OrderingCheck* ordering_;          // the ordering check across blocks, or none
    std::vector<FastPath> fastPaths_;  // by instruction: its fast path, or null (exec/arithmetic/fast_paths.hpp)
};

}  // namespace cudasim
