// Straight runs: stretches of instructions that every lane of the warp's path executes one after
// another through fast paths (exec/arithmetic/fast_paths.hpp), with no guard, no branch and no
// reconvergence point inside. The interpreter's loop runs such a stretch in a tight inner loop,
// without asking at each instruction whether the path ends there, what executes it and which lanes
// its guard lets run.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/arithmetic/fast_paths.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// By instruction: the length of the straight run that starts there (at least 1 where the
// instruction has a fast path and no guard), or 0.
std::vector<uint32_t> straight_runs_of(const ptx::Kernel& kernel, const std::vector<FastPath>& fast_paths);

}  // namespace cudasim
