// Control-flow analysis used for SIMT reconvergence: the parser runs it on each decoded kernel.
#pragma once

#include <vector>

#include "ptx/ir.hpp"

namespace cudasim::ptx {

// Sets Instr::reconverge of every conditional branch to the first
// instruction of its block's immediate post-dominator: the point where the
// two sides of a divergent branch are guaranteed to meet again. Branches
// whose paths only meet at kernel exit get code.size().
void compute_reconvergence_points(std::vector<Instr>& code);

}  // namespace cudasim::ptx
