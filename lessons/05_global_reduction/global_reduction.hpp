#pragma once
/// @file global_reduction.hpp
/// @brief Lesson 05, two-phase global reduction: the whole sum of an int array, on the device.
///
/// The exercise is the device code of reduce_sum(): phase 1, a grid of blocks, each reducing its
/// share of the array to one 64-bit partial sum; phase 2, one block reducing those partials to the
/// result; and the launch choices (reduce_sum_launch: threads per block, the phase-1 grid's cap),
/// all in the student's module (global_reduction.cuh declares them). The host code here is the
/// lesson's: it reads the student's choices, checks them, and launches both phases on `stream`;
/// the result stays in device memory. The demo also times the lesson's own configurable reduction
/// (sweep_reduce_sum) and cub::DeviceReduce::Sum beside it.
///
/// @if with_solutions
/// The reference solution (solutions/05_global_reduction/reduce_sum.cu):
/// @snippet reduce_sum.cu reduce_sum_launch
/// @snippet reduce_sum.cu phase_one
/// @endif

#include "reduce_sum_launch.hpp"

#include "course/partial_sums.hpp"

#include "lesson05_identity.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace lesson05 {

/// What the lesson launches reduce_sum() with: the student's reduce_sum_launch, checked, and the
/// device it runs on.
struct ReduceSumPlan {
    ReduceSumLaunch launch{};
    std::size_t sm_count = 0;
    /// Blocks of phase_one, launch.phase_one_block threads each, that one SM holds at a time
    /// (cudaOccupancyMaxActiveBlocksPerMultiprocessor): a full wave is sm_count times this.
    int resident_blocks_per_sm = 0;
};

/// Loads the student's module (once per process) and checks its reduce_sum_launch; throws
/// std::invalid_argument with "bad configuration: ..." naming a value the lesson cannot launch.
[[nodiscard]] const ReduceSumPlan& reduce_sum_plan();

/// How many 64-bit partial sums phase 1 writes for an array of n elements: its grid,
/// min(ceil(n / phase_one_block), max_blocks_per_sm x SMs). Workspace sizes itself with it.
[[nodiscard]] std::size_t partials_needed(std::size_t n);

/// The device memory reduce_sum() works in between its two phases: one 64-bit partial per
/// phase-1 block. Allocate it once, for the largest n you will reduce, and pass it to every call;
/// reduce_sum() then allocates nothing, and two calls never share one workspace at the same time.
class Workspace : public course::PartialSums {
public:
    /// Room for arrays of up to max_n elements: partials_needed(max_n) partials.
    explicit Workspace(std::size_t max_n) : PartialSums(partials_needed(max_n), max_n, "lesson05::Workspace") {}
};

/// Writes the sum of data[0, n) to *result (device memory), for any n >= 1, with the student's
/// phase_one and phase_two (student_kernels.cpp launches them).
///
/// `data` need not be 16-byte aligned (any int pointer). Both launches go on `stream` and the call
/// does not wait for the device: no synchronisation, no copies to the host, no allocations, so that
/// it can be captured in a CUDA graph. Inputs are ints; the sum is 64-bit, so that it cannot
/// overflow for any n that fits in memory.
void reduce_sum(const int* data, std::size_t n, long long* result, Workspace& workspace, cudaStream_t stream);

/// One configuration of the lesson's sweep: threads per block (128, 256, 512 or 1024) and how many
/// elements each thread adds in phase 1.
struct SweepConfig {
    unsigned block = 256;
    unsigned items_per_thread = 1;
};

/// Phase-1 blocks the sweep reduction launches: ceil(n / (block * items_per_thread)).
[[nodiscard]] std::size_t sweep_grid(std::size_t n, SweepConfig config);

/// The lesson's configurable two-phase reduction (plain 4-byte loads, grid-stride loop), used by
/// the demo to compare kernel configurations. `partials` holds sweep_grid(n, config) elements.
void sweep_reduce_sum(const int* data, std::size_t n, long long* result, long long* partials, SweepConfig config,
                      cudaStream_t stream);

/// cub::DeviceReduce::Sum on the same input, with its temporary storage: the demo's reference row.
class CubSum {
public:
    /// Sizes the temporary storage for arrays of up to max_n elements.
    explicit CubSum(std::size_t max_n);
    void run(const int* data, std::size_t n, long long* result, cudaStream_t stream);

private:
    course::DeviceBuffer<unsigned char> temp_;
};

}  // namespace lesson05
