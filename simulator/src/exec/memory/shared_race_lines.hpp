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

namespace cudasim {

// Reads of the words from `first_word`, lane l's access being `lane0`'s made by thread
// lane0.thread() + l. Updates the records of the lanes that pass; returns whether all did.
bool read_shared_line(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0);

// Plain stores of `values` (one per lane, their low 32 bits) over the words from `first_word`,
// whose contents were `before`: a lane that leaves its word as it was races with nothing.
// Updates the records of the lanes that pass; returns whether all did.
bool write_shared_line(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0, const uint32_t* before,
                       const uint64_t* values);

}  // namespace cudasim
