// The race check (exec/memory/race_check.hpp) of a whole warp's 4-byte shared-memory accesses of
// consecutive words, lane after lane, a vector of words at a time: most of a kernel's shared
// accesses are such lines (cache[threadIdx.x]). A lane passes the quick test when nothing in its
// word's record can race with it: the other thread's accesses are from an earlier barrier
// interval, or the record is its own thread's. Every other lane needs the full check
// (check_shared_access), which then runs for the whole warp in lane order: for the lanes that
// passed, it repeats the update made here.
#pragma once

#include <cstdint>

#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/warp.hpp"

namespace cudasim {

// Reads by warp `w`'s lanes of the words from `first_word`, lane l at first_word + l, by the
// instruction `pc` (an index into Kernel::code). Updates the records of the lanes that pass; returns
// whether all did.
bool read_shared_line(BlockState& b, const Warp& w, uint32_t pc, uint64_t first_word);

// Plain stores of `values` (one per lane, their low 32 bits) over the same words, whose contents
// were `before`: a lane that leaves its word as it was races with nothing. Updates the records of
// the lanes that pass; returns whether all did.
bool write_shared_line(BlockState& b, const Warp& w, uint32_t pc, uint64_t first_word, const uint32_t* before,
                       const uint64_t* values);

}  // namespace cudasim
