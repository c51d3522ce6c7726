// The common integer forms of the arithmetic instructions, chosen once per instruction when a
// launch starts, instead of at every execution through execute_arithmetic's tests of the opcode,
// the type, the modifiers and the operands' kinds. Each computes exactly what execute_arithmetic
// computes for the instruction; every other form has none and takes execute_arithmetic.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// Executes `in` for the lanes in `exec`.
using FastPath = void (*)(Warp& w, const ptx::Instr& in, uint32_t exec);

// The fast paths are compiled twice on x86-64: for any x86-64 CPU (SSE2, two 64-bit lanes per
// vector instruction) and for CPUs with AVX2 (four). Both compute the same values; the best build
// the CPU runs is chosen when the first kernel starts, so the program runs on any x86-64 machine.
enum class FastPathBuild { Baseline, Avx2 };

// The builds this program has and this CPU runs, the baseline first and the one used last.
const std::vector<FastPathBuild>& fast_path_builds();

// The fast path of one instruction in `build`, or null where execute_arithmetic must run it.
FastPath fast_path_of(const ptx::Instr& in, FastPathBuild build);

// fast_path_of of each instruction of `code`, by index, in the build used: the last of
// fast_path_builds().
std::vector<FastPath> fast_paths_of(const std::vector<ptx::Instr>& code);

}  // namespace cudasim
