// Straight runs: stretches of instructions that every lane of the warp's path executes one after
// another, each through its fast path (exec/arithmetic/fast_paths.hpp) or as a load, store or
// atomic, with no guard, no branch and no reconvergence point inside. The interpreter's loop runs
// such a stretch in a tight inner loop, without asking at each instruction whether the path ends
// there and which lanes its guard lets run.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/arithmetic/fast_paths.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// By instruction: the length of the straight run that starts there (at least 1 where the
// instruction has no guard and a fast path, or accesses memory), or 0. `with_memory`: loads, stores
// and atomics join runs (not where the kernel syncs its grid: a load there may end the warp's
// slice before it executes).
std::vector<uint32_t> straight_runs_of(const ptx::Kernel& kernel, const std::vector<FastPath>& fast_paths,
                                       bool with_memory);

// Whether `in` is a load, store or atomic that a straight run may hold: none of its operands reads
// the clock, which a run advances only at its end.
bool memory_step(const ptx::Instr& in);

}  // namespace cudasim
