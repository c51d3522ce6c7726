// Integer instructions on the parts of a register (see packed_integer.cpp).
#pragma once

#include <cstdint>

#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// Executes add/sub/min/max on .s16x2 or .u16x2, dp2a or vabsdiff4 for the lanes in `exec`.
// Throws DeviceFault for the forms it does not implement (.sat, merge masks other than the default).
void execute_packed_integer(Warp& w, const ptx::Instr& in, uint32_t exec, uint64_t clock, const ptx::Kernel& kernel);

}  // namespace cudasim
