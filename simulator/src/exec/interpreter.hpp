// Executes the decoded instructions of one warp, all 32 lanes at a time.
#pragma once

#include <cstdint>
#include <cudasim/counters.hpp>
#include <unordered_map>
#include <vector>

#include "exec/block_state.hpp"
#include "exec/device_memory.hpp"
#include "exec/launch_context.hpp"
#include "exec/memory_access.hpp"
#include "exec/warp.hpp"

namespace cudasim {

class Interpreter {
public:
    Interpreter(LaunchContext& launch, Counts& counts)
        : launch_(launch), counts_(counts), memory_(launch.params, launch.kernel->paramBytes),
          raceCheck_(launch.raceCheck)
    {
    }

    // Runs `warp` until it reaches a barrier (status AtBarrier) or all its
    // threads have exited (status Done). Throws DeviceFault.
    void run(Warp& warp, BlockState& block);

private:
    void branch(Warp& w, const ptx::Instr& in, uint32_t exec);
    bool arriveAtBarrier(Warp& w, const ptx::Instr& in, uint32_t exec, const ptx::Instr* code);
    void exitLanes(Warp& w, uint32_t lanes);
    void retireLanesWaitingAtExit(Warp& w, const ptx::Instr* code);
    void popPath(Warp& w);
    void load(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void store(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void atomic(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void call(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    // Counts one warp-wide access; for global memory, returns where its farthest sector came from
    // (a RoundSource, for the timing model).
    uint8_t countMemory(ResolvedSpace where, bool write, const uint64_t* addrs, uint32_t lanes, uint32_t bytes);
    SectorTouch touchSector(uint64_t address);
    void startRound(Warp& w, const ptx::Operand& destination, uint8_t source);
    void countAtomic(const ptx::Instr& in, const ptx::Operand& value, const uint64_t* addrs, uint32_t exec);
    void warpSync(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    // Race check of a warp's shared-memory reads or atomics at `addrs` (in.space addresses).
    void checkSharedLanes(Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                          uint32_t size, bool atomic);
    uint32_t pcOf(const ptx::Instr& in) const { return static_cast<uint32_t>(&in - launch_.kernel->code.data()); }

public:
    // Atomic updates per global address (timing model: updates of one address serialise).
    std::unordered_map<uint64_t, uint64_t>& atomicTargets() { return atomicTargets_; }

private:
    AccessSite site(const Warp& w, const BlockState& b, int lane, const ptx::Instr& in) const
    {
        return {&launch_, &b, &w, lane, in.line, &in};
    }

    LaunchContext& launch_;
    Counts& counts_;
    MemoryAccess memory_;
    uint64_t budgetLeft_ = 0;
    uint64_t budgetChunk_ = 0;
    const Allocation* footprintAllocation_ = nullptr;  // the allocation touchSector used last
    std::unordered_map<uint64_t, uint64_t> atomicTargets_;
    bool raceCheck_;
};

}  // namespace cudasim
