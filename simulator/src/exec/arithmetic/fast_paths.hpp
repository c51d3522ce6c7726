// The common integer forms of the arithmetic instructions, chosen once per instruction when a
// launch starts, instead of at every execution through executeArithmetic's tests of the opcode,
// the type, the modifiers and the operands' kinds. Each computes exactly what executeArithmetic
// computes for the instruction; every other form has none and takes executeArithmetic.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// Executes `in` for the lanes in `exec`.
using FastPath = void (*)(Warp& w, const ptx::Instr& in, uint32_t exec);

// The fast path of one instruction, or null where executeArithmetic must run it.
FastPath fastPathOf(const ptx::Instr& in);

// fastPathOf of each instruction of `code`, by index.
std::vector<FastPath> fastPathsOf(const std::vector<ptx::Instr>& code);

}  // namespace cudasim
