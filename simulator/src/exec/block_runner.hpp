// Runs one thread block: its warps take turns until each reaches the
// block's barrier or exits, like coroutines that yield at bar.sync (in
// order, or in slices under a seeded schedule: exec/schedule.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "exec/block_state.hpp"
#include "exec/interpreter.hpp"
#include "exec/warp.hpp"

namespace cudasim {

class BlockRunner {
public:
    BlockRunner(LaunchContext& launch, Counts& counts);

    // Executes block number `linearIndex` of the grid. Printf output is left
    // in state().printfOutput. Throws DeviceFault.
    void run(uint64_t linearIndex);
    BlockState& state() { return block_; }
    Interpreter& interpreter() { return interpreter_; }

private:
    void fillConstantRegisters();
    void startWarps(uint64_t linearIndex);
    void checkBarrier() const;
    void finishBarrierReduction();
    void runShuffled(ScheduleRandom& random);

    LaunchContext& launch_;
    Interpreter interpreter_;
    BlockState block_;
    std::vector<Warp> warps_;
    std::vector<uint64_t> registers_;
    std::vector<Warp*> readyWarps_;  // runShuffled's choice, kept to spare an allocation per slice
};

}  // namespace cudasim
