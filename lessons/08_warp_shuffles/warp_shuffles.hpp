#pragma once
/// @file warp_shuffles.hpp
/// @brief Lesson 08, warps talk to each other: shuffles, cooperative groups, vector loads. The
/// launchers the demo and the grader call, and the lesson's own ladder of kernels.
///
/// The student's two kernels live in modules compiled from exercises/08_warp_shuffles/ (device
/// code only, declared in warp_shuffles.cuh); the launchers here are the lesson's host code, which
/// loads them (course/module.hpp). Every kernel here writes one partial sum per block, the blocks'
/// shares covering `data[0, n)` once; the caller adds the partials (the grader and the demo do, on
/// the host: lesson 05 showed how to finish on the device).
///
/// @if with_solutions
/// The reference solution, integers (solutions/08_warp_shuffles/shuffle_sum.cu):
/// @snippet shuffle_sum.cu warp_sum
/// @snippet shuffle_sum.cu block_sum
/// @snippet shuffle_sum.cu shuffle_sum
/// and floats, with cooperative groups (shuffle_sum_float.cu):
/// @snippet shuffle_sum_float.cu block_sum_float
/// @endif
/// The lesson's `__reduce_add_sync` on 64-bit sums (lessons/08_warp_shuffles/baselines.cu):
/// @snippet 08_warp_shuffles/baselines.cu warp_sum_redux

#include "lesson08_identity.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace lesson08 {

/// Elements in one 16-byte vector (int4, float4).
inline constexpr unsigned kPerVector = 4;

/// The block sizes the lesson launches the student's kernels with: every multiple of 32 from 32 to
/// 1024 (a block reduction with one slot per warp needs no power of two).
[[nodiscard]] std::vector<unsigned> allowed_blocks();

/// How many blocks a launch on n elements gets.
enum class GridChoice {
    one_element_per_thread,  ///< ceil(n / block): lessons 03 and 04's grids
    one_vector_per_thread,   ///< ceil(n / (4 * block)): each thread reads one 16-byte vector
    one_wave,                ///< min(ceil(n / (4 * block)), the blocks of this kernel the device holds at once)
};

/// The grid for `kernel` (a kernel function or a module's, for the occupancy calculator).
[[nodiscard]] unsigned grid_for(GridChoice choice, const void* kernel, std::size_t n, unsigned block);
/// "one wave (1056 = 132 SMs x 8 blocks)" and the like, for messages.
[[nodiscard]] std::string describe_grid(GridChoice choice, const void* kernel, std::size_t n, unsigned block);

/// The student's kernels (their modules), and the course's reference of them (solutions/).
void launch_shuffle_sum(const int* data, std::size_t n, long long* partials, unsigned grid, unsigned block,
                        cudaStream_t stream);
void launch_shuffle_sum_float(const float* data, std::size_t n, float* partials, unsigned grid, unsigned block,
                              cudaStream_t stream);
/// The kernels' functions, for grid_for().
[[nodiscard]] const void* shuffle_sum_function();
[[nodiscard]] const void* shuffle_sum_float_function();

/// The course's lesson 04 reference, reduce_shared_interleaved (one element per thread, a
/// shared-memory tree with sequential addressing, int partials), whatever the student's lesson 04
/// holds: the first row of the demo's ladder. `block` a power of two.
void launch_lesson04_shared_tree(const int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// How a ladder kernel reduces its block: lesson 04's shared-memory tree, or one of three warp
/// reductions, each followed by one slot per warp in shared memory.
enum class BlockStage {
    shared_tree,      ///< lesson 04's sequential addressing, log2(block) barriers
    shuffles,         ///< __shfl_down_sync, offsets 16, 8, 4, 2, 1
    cooperative,      ///< cooperative_groups::reduce over a thread_block_tile<32>
    reduce_add_sync,  ///< __reduce_add_sync on sm_80 and later (the H100, and the simulator's compute_90), shuffles below
};

/// How a ladder kernel reads its share of the array.
enum class Loads {
    scalar,   ///< 4-byte loads, a grid-stride loop
    vectors,  ///< a scalar head to the first 16-byte boundary, int4/float4 loads, a scalar tail
};

/// A kernel of the lesson's ladder (lessons/08_warp_shuffles/baselines.cu).
struct LadderKernel {
    BlockStage stage;
    Loads loads;
};

[[nodiscard]] const void* ladder_function(LadderKernel kernel);
[[nodiscard]] const void* ladder_float_function(LadderKernel kernel);
/// Runs a ladder kernel on ints (64-bit partials) or floats: any grid, any multiple of 32 as block.
void launch_ladder(LadderKernel kernel, const int* data, std::size_t n, long long* partials, unsigned grid,
                   unsigned block, cudaStream_t stream);
void launch_ladder_float(LadderKernel kernel, const float* data, std::size_t n, float* partials, unsigned grid,
                         unsigned block, cudaStream_t stream);

/// The mistake the lesson shows: int4 loads straight from `data`, as if it were 16-byte aligned.
/// On `data + 1` it faults: "Misaligned __global__ read of size 16" (the simulator,
/// compute-sanitizer), cudaErrorMisalignedAddress (the GPU).
void launch_aligned_only(const int* data, std::size_t n, long long* partials, unsigned grid, unsigned block,
                         cudaStream_t stream);
[[nodiscard]] const void* aligned_only_function();

}  // namespace lesson08
