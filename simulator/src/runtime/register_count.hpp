// Registers per thread of a kernel, as ptxas would allocate them for sm_90.
#pragma once

#include <string>

#include "runtime/state.hpp"

namespace cudasim {

// Runs ptxas (CUDASIM_PTXAS, else the toolkit's) once per module and
// caches the answer; if ptxas cannot run, assumes 32 registers.
// Call with runtime().mutex held.
int kernel_registers(FunctionEntry& function, const ptx::Kernel& kernel);

}  // namespace cudasim
