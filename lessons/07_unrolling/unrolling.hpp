#pragma once
/// @file unrolling.hpp
/// @brief Lesson 07, unrolling: the launchers the demo and the grader call.
///
/// Every kernel here is a block reduction in shared memory (course/reduction.hpp) whose blocks
/// each sum d data blocks of `block` elements: d = 1 for the baseline (lesson 04's reference,
/// sequential addressing), 2, 4 or 8 for the unrolled ones, and the student's choice,
/// reduce_unrolled_data_blocks, for the exercise. The ladder:
///
/// 1. add during the load: each thread adds its d elements, one from each data block, before the
///    tree starts (reduceUnrolling2/4/8 of Professional CUDA C Programming, ch. 3; Harris's kernel 4);
/// 2. the last warp unrolled: the tree's last six steps run in one warp, ordered by __syncwarp()
///    instead of __syncthreads() (Harris's kernel 5, without its volatile warp-synchronous code);
/// 3. complete unrolling: the block size is a template parameter, so every loop of the tree is
///    unrolled and every bound is a constant (Harris's kernel 6).
///
/// @if with_solutions
/// The exercise's reference (solutions/07_unrolling/reduce_unrolled.cu):
/// @snippet reduce_unrolled.cu data_blocks
/// @snippet reduce_unrolled.cu add_during_load
/// @snippet reduce_unrolled.cu last_warp
/// @snippet reduce_unrolled.cu reduce_unrolled
/// @endif
/// The ladder's first rung (lessons/07_unrolling/baselines.cu):
/// @snippet 07_unrolling/baselines.cu reduce_unrolling

#include "course/reduction.hpp"

#include "lesson07_identity.hpp"

#include <cstddef>
#include <vector>

namespace lesson07 {

/// The most data blocks one block may sum (reduce_unrolled_data_blocks).
inline constexpr unsigned kMaxDataBlocks = 16;

/// The student's reduce_unrolled_data_blocks, read from their module when first asked; throws
/// std::invalid_argument with "bad configuration: ..." for a value the lesson cannot launch, or
/// a kernel that cannot run the block size its name gives.
[[nodiscard]] unsigned reduce_unrolled_data_blocks();

/// The student's reduce_unrolled_<block> (exercises/07_unrolling/reduce_unrolled.cu), launched
/// on ceil(n / (reduce_unrolled_data_blocks() * block)) blocks.
void launch_reduce_unrolled(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// Lesson 04's reference reduce_shared_interleaved (its solution module, never the student's):
/// one element per thread, then the tree with sequential addressing. The baseline.
void launch_reduce_shared_interleaved(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// Adds 2, 4 or 8 data blocks during the load, then the whole tree with __syncthreads().
void launch_reduce_unrolling2(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);
void launch_reduce_unrolling4(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);
void launch_reduce_unrolling8(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// 8 data blocks, the tree down to 64 elements, then the last warp's steps with __syncwarp().
void launch_reduce_unrolled_warp8(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// The same with the block size a template parameter (one instantiation per block size).
void launch_reduce_complete_unroll8(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// The ladder, baseline first, the student's kernel last: what the demo lists and --kernel accepts.
[[nodiscard]] const std::vector<course::BlockReduceKernel>& kernels();

}  // namespace lesson07
