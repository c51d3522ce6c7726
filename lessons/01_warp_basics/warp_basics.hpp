#pragma once
/// @file warp_basics.hpp
/// @brief Lesson 01, warp basics: the launchers the demo and the grader call.
///
/// The student's kernels live in modules compiled from exercises/01_warp_basics/ (device code
/// only, declared in warp_basics.cuh); their launchers here are the lesson's host code, which
/// loads them (course/module.hpp, student_kernels.cpp).
///
/// Exercise 1 records, for every thread of a 3-D grid of 3-D blocks, where the hardware puts it:
/// its linear id in the block, its warp and lane, and its linear id in the grid.
/// @if with_solutions
/// The reference solution, from solutions/01_warp_basics/thread_layout.cu:
/// @snippet thread_layout.cu record_layout
/// @endif
///
/// Exercise 2 counts the elements below a threshold with one atomic per warp instead of one per
/// thread. The baseline, from lessons/01_warp_basics/baselines.cu:
/// @snippet 01_warp_basics/baselines.cu count_per_thread
/// @if with_solutions
/// The reference solution, from solutions/01_warp_basics/count_per_warp.cu:
/// @snippet count_per_warp.cu count_per_warp
/// @endif

#include "thread_layout.hpp"

#include "lesson01_identity.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace lesson01 {

/// Exercise 1: launches the student's record_layout (their module, from
/// exercises/01_warp_basics/thread_layout.cu) with `grid` blocks of `block` threads; every thread
/// writes its ThreadLayout to out[global]. `out` holds one entry per thread of the grid (fewer than
/// 2^32 of them).
void launch_record_layout(dim3 grid, dim3 block, ThreadLayout* out, cudaStream_t stream);

/// The same layout computed on the host, indexed by the global linear id: the reference.
[[nodiscard]] std::vector<ThreadLayout> expected_layout(dim3 grid, dim3 block);

/// Threads in a grid of `grid` blocks of `block` threads each.
[[nodiscard]] std::size_t thread_count(dim3 grid, dim3 block);

/// Counts data[i] < threshold for i in [0, n) into *count (which the launcher resets to 0 first),
/// with blocks of `block` threads, a multiple of 32 from 32 to 1024.
using CountLauncher = void (*)(const int* data, std::size_t n, int threshold, unsigned long long* count, unsigned block,
                               cudaStream_t stream);

/// The baseline: every thread adds its own 0 or 1 to the counter, one atomic per thread.
void launch_count_per_thread(const int* data, std::size_t n, int threshold, unsigned long long* count, unsigned block,
                             cudaStream_t stream);

/// `if (data[i] < threshold) atomicAdd(count, 1)`: source with one atomic per matching thread that
/// nvcc turns into one atomic per warp by itself (shown by the demo; see the README).
void launch_count_compiler_aggregated(const int* data, std::size_t n, int threshold, unsigned long long* count,
                                      unsigned block, cudaStream_t stream);

/// Exercise 2: resets *count to 0 and launches the student's count_per_warp (their module, from
/// exercises/01_warp_basics/count_per_warp.cu): the same count with __ballot_sync and __popc, lane 0
/// of each warp adding the warp's count with one atomic.
void launch_count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count, unsigned block,
                           cudaStream_t stream);

/// A named counting kernel, as listed in the lesson's registry.
struct CountKernel {
    std::string name;     ///< what --kernel accepts, e.g. "per-warp-ballot"
    std::string summary;  ///< one line: what it does
    CountLauncher launch = nullptr;
    bool written_by_student = false;
};

/// The lesson's counting kernels, baseline first: what the demo lists and --kernel accepts.
[[nodiscard]] const std::vector<CountKernel>& count_kernels();

/// The exact count of values below `threshold`: the reference.
[[nodiscard]] unsigned long long count_below(std::span<const int> data, int threshold);

}  // namespace lesson01
