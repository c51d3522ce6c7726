// The order in which the simulator runs the warps of a block.
//
//   #include <cudasim/schedule.hpp>
//   cudasim::set_schedule(12345);   // the launches that follow run under schedule 12345
//   ...
//   cudasim::set_schedule(cudasim::kInOrder);
//
// In order (the default), each warp of a block runs until it waits at a barrier or exits, warp 0
// first, and a divergent branch runs its taken lanes first. A seeded schedule runs the warps in
// slices of 1 to 64 instructions, each slice given to a ready warp drawn at random, and runs either
// side of a divergent branch first: as on a GPU, nothing but barriers, __syncwarp() and the
// warp-wide operations orders what two warps, or two sides of a branch, do. A kernel whose result
// changes from one schedule to another has a race. The same seed gives the same order in every
// block, however many CPU threads run them. CUDASIM_SCHEDULE=<seed> sets the schedule of a whole
// program (CUDASIM_SCHEDULE=random picks a seed and prints it).
#pragma once

#include <cstdint>

namespace cudasim {

inline constexpr std::uint64_t kInOrder = 0;

// Launches from now on run under `seed` (kInOrder: in order).
void set_schedule(std::uint64_t seed);

// The schedule launches run under now.
std::uint64_t schedule();

}  // namespace cudasim
