// Register-to-register instructions (see arithmetic.cpp).
#pragma once

#include <cstdint>

#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// Executes an arithmetic, logic, comparison, conversion or move instruction (Executor Arithmetic
// in ptx/opcodes.def) for the lanes in `exec`. Throws DeviceFault for forms the simulator does not
// implement.
void execute_arithmetic(Warp& w, const ptx::Instr& in, uint32_t exec, uint64_t clock, const ptx::Kernel& kernel);

// Reports an instruction form the simulator does not implement, with its source position ("reduce.cu:20
// (PTX line 131)", or the PTX line alone without .loc).
[[noreturn]] void throw_unsupported(const ptx::Instr& in, const ptx::Kernel& kernel, const char* what);

}  // namespace cudasim
