// Which __shared__ variable a shared-memory access's address comes from. nvcc takes a variable's
// address once (mov %r, sums) and indexes it with register arithmetic, so the address of
// `sums[threadIdx.x]` with 1024 threads can land in the variable declared after `sums`: inside the
// block's shared memory, and out of bounds all the same. Following each register's definitions
// (mov, cvta, cvt, add and sub of an offset, mad's addend) tells which variable an address was
// derived from; the interpreter then checks the access against that variable's bytes. Where the
// definitions disagree (a select between two arrays, a pointer loaded from memory), the access is
// left unattributed and checked against whichever variable holds it.
#pragma once

#include "ptx/ir.hpp"

namespace cudasim::ptx {

// Sets Instr::shared_symbol of each ld, st, atom and red whose address is derived from one
// shared variable (Operand::shared_symbol on the symbol operands); the others keep kNoSharedSymbol.
void attribute_shared_accesses(Kernel& kernel);

}  // namespace cudasim::ptx
