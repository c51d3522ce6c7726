// Control-flow analysis used for SIMT reconvergence.
#pragma once

#include <vector>

#include "ptx/ir.hpp"

namespace cudasim {

// Sets Instr::reconverge of every conditional branch to the first
// instruction of its block's immediate post-dominator: the point where the
// two sides of a divergent branch are guaranteed to meet again. Branches
// whose paths only meet at kernel exit get code.size().
void computeReconvergencePoints(std::vector<ptx::Instr>& code);

}  // namespace cudasim
