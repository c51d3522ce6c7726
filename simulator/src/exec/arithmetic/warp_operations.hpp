// Warp-wide instructions (see warp_operations.cpp).
#pragma once

#include <cstdint>

#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// Executes shfl, vote, activemask, redux or match (Executor WarpOperation in ptx/opcodes.def) for
// the lanes in `exec`.
void execute_warp_operation(Warp& w, const ptx::Instr& in, uint32_t exec, uint64_t clock, const ptx::Kernel& kernel);

}  // namespace cudasim
