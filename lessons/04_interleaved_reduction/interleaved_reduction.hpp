#pragma once
/// @file interleaved_reduction.hpp
/// @brief Lesson 04, interleaved-pair reduction: the launchers the demo and the grader call.
///
/// The student's two kernels live in modules compiled from exercises/04_interleaved_reduction/
/// (device code only, declared in interleaved_reduction.cuh); the launchers here are the lesson's
/// host code, which loads them (course/module.hpp).
///
/// Every kernel here has the block-reduction interface of lesson 03 (course::BlockReduceLauncher):
/// block b sums elements [b * block, min(n, (b + 1) * block)) into partials[b]. reduceInterleaved
/// works in place in global memory, as lesson 03's kernels do; the shared-memory ones load their
/// block's slice once and reduce it in shared memory, leaving `data` unchanged.
///
/// @if with_solutions
/// The exercise, global memory (solutions/04_interleaved_reduction/reduce_interleaved.cu):
/// @snippet reduce_interleaved.cu reduce_interleaved
/// The exercise, shared memory with sequential addressing (reduce_shared_interleaved.cu):
/// @snippet reduce_shared_interleaved.cu reduce_shared_interleaved
/// @endif
/// The shared-memory baselines (lessons/04_interleaved_reduction/baselines.cu):
/// @snippet 04_interleaved_reduction/baselines.cu reduce_shared_neighbored_less

#include "course/reduction.hpp"

#include "lesson04_identity.hpp"

#include <cstddef>
#include <vector>

namespace lesson04 {

/// reduceInterleaved, in place in global memory: the stride starts at blockDim.x / 2 and halves;
/// thread tid < stride adds element tid + stride to element tid (the exercise: the student's module,
/// from exercises/04_interleaved_reduction/reduce_interleaved.cu).
void launch_reduce_interleaved(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// Shared-memory version 1 of the University of Verona CUDA slides (reduce0 of a blog post on
/// shared-memory reduction): one load per thread, then tid % (2 * stride) picks the adding threads
/// (the baseline of the shared-memory ladder, given).
void launch_reduce_shared_neighbored(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// The slides' shared-memory version 2 (the blog post's reduce1): index = 2 * stride * tid packs
/// the adding threads into the first warps, at the price of shared-memory bank conflicts (given).
void launch_reduce_shared_neighbored_less(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// Shared memory with sequential addressing: the interleaved pairs of launch_reduce_interleaved,
/// in shared memory; no bank conflicts (the exercise: the student's module, from
/// exercises/04_interleaved_reduction/reduce_shared_interleaved.cu).
void launch_reduce_shared_interleaved(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// The ladder so far, lesson 03's reference kernels first: what the demo lists and --kernel accepts.
[[nodiscard]] const std::vector<course::BlockReduceKernel>& kernels();

}  // namespace lesson04
