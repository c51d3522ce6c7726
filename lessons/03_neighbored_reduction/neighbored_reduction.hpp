#pragma once
/// @file neighbored_reduction.hpp
/// @brief Lesson 03, neighbored-pair reduction: the launchers the demo and the grader call.
///
/// The student's kernel lives in a module compiled from exercises/03_neighbored_reduction/
/// (device code only, declared in neighbored_reduction.cuh); the launchers here are the lesson's
/// host code, which loads it (course/module.hpp).
///
/// Both kernels reduce each block's slice of `data` in place, in global memory, adding neighbours
/// at strides 1, 2, 4, ... and leave the block's sum in `partials[blockIdx.x]`. They differ only in
/// which threads do the adding at each step.
///
/// The baseline, from lessons/03_neighbored_reduction/baselines.cu:
/// @snippet 03_neighbored_reduction/baselines.cu reduce_neighbored
/// @if with_solutions
/// The reference solution of the exercise, from solutions/03_neighbored_reduction/:
/// @snippet reduce_neighbored_less.cu reduce_neighbored_less
/// @endif

#include "course/reduction.hpp"

#include "lesson03_identity.hpp"

#include <cstddef>
#include <vector>

namespace lesson03 {

/// reduceNeighbored: thread tid adds when tid % (2 * stride) == 0 (the baseline, given).
void launch_reduce_neighbored(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// reduceNeighboredLess: the same sums, with the working threads packed into the first warps
/// (the exercise: the student's module, from exercises/03_neighbored_reduction/reduce_neighbored_less.cu).
void launch_reduce_neighbored_less(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// The course's reference reduceNeighboredLess (solutions/), whatever the student's module
/// holds: the baseline of later lessons.
void launch_reference_reduce_neighbored_less(int* data, int* partials, std::size_t n, unsigned block,
                                             cudaStream_t stream);

/// The lesson's kernels, baseline first: what the demo lists and --kernel accepts.
[[nodiscard]] const std::vector<course::BlockReduceKernel>& kernels();

}  // namespace lesson03
