// Arithmetic on the 16-bit floats (see half_precision.cpp).
#pragma once

#include <cstdint>

#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// Whether execute_half_precision runs `op` on .f16, .bf16, .f16x2 and .bf16x2.
bool is_half_precision_operation(ptx::Op op);

// Executes add, sub, mul, fma (mad), neg, abs, min or max on a 16-bit float type for the lanes in
// `exec`, each half of a pair on its own.
void execute_half_precision(Warp& w, const ptx::Instr& in, uint32_t exec, uint64_t clock);

// a + b rounded to nearest, for atom.add on .f16, .bf16 (the low 16 bits) and their pairs.
uint64_t add_half_precision(uint64_t a, uint64_t b, ptx::Type t);

}  // namespace cudasim
