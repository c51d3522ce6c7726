#pragma once
/// @file warp_basics.hpp
/// @brief Lesson 01, warp basics: the launchers the demo and the grader call.
///
/// Exercise 1 records, for every thread of a 3-D grid of 3-D blocks, where the hardware puts it:
/// its linear id in the block, its warp and lane, and its linear id in the grid.
/// @snippet thread_layout.cu record_layout
///
/// Exercise 2 counts the elements below a threshold with one atomic per warp instead of one per
/// thread. The baseline, from lessons/01_warp_basics/count_baselines.cu:
/// @snippet count_baselines.cu count_per_thread
/// The reference solution, from solutions/01_warp_basics/count_per_warp.cu:
/// @snippet count_per_warp.cu count_per_warp

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lesson01 {

/// Three coordinates: a copy of threadIdx or blockIdx.
struct Coords {
    std::uint32_t x = 0;
    std::uint32_t y = 0;
    std::uint32_t z = 0;
    friend bool operator==(const Coords&, const Coords&) = default;
};

/// Where one thread sits: what exercise 1 records for it, in out[global]. The coordinates let the
/// grader see which thread wrote an entry, so a linearisation in the wrong order cannot pass.
struct ThreadLayout {
    Coords thread_idx;         ///< threadIdx of the thread that wrote this entry
    Coords block_idx;          ///< its blockIdx
    std::uint32_t thread = 0;  ///< linear id in its block: x + y * blockDim.x + z * blockDim.x * blockDim.y
    std::uint32_t warp = 0;    ///< warp of the block it belongs to: thread / warpSize
    std::uint32_t lane = 0;    ///< its place in that warp: thread % warpSize
    std::uint32_t global = 0;  ///< linear block id * threads per block + thread
    friend bool operator==(const ThreadLayout&, const ThreadLayout&) = default;
};

/// Exercise 1 (exercises/01_warp_basics/thread_layout.cu): launches `grid` blocks of `block`
/// threads; every thread writes its ThreadLayout to out[global]. `out` holds one entry per thread
/// of the grid (fewer than 2^32 of them).
void launch_record_layout(dim3 grid, dim3 block, ThreadLayout* out, cudaStream_t stream);

/// The same layout computed on the host, indexed by the global linear id: the reference.
[[nodiscard]] std::vector<ThreadLayout> expected_layout(dim3 grid, dim3 block);

/// Threads in a grid of `grid` blocks of `block` threads each.
[[nodiscard]] std::size_t thread_count(dim3 grid, dim3 block);

/// Counts data[i] < threshold for i in [0, n) into *count (which the launcher resets to 0 first),
/// with blocks of `block` threads, a multiple of 32 from 32 to 1024.
using CountLauncher = void (*)(const int* data, std::size_t n, int threshold, unsigned long long* count,
                               unsigned block, cudaStream_t stream);

/// The baseline: every thread adds its own 0 or 1 to the counter, one atomic per thread.
void launch_count_per_thread(const int* data, std::size_t n, int threshold, unsigned long long* count,
                             unsigned block, cudaStream_t stream);

/// `if (data[i] < threshold) atomicAdd(count, 1)`: source with one atomic per matching thread that
/// nvcc turns into one atomic per warp by itself (shown by the demo; see the README).
void launch_count_compiler_aggregated(const int* data, std::size_t n, int threshold, unsigned long long* count,
                                      unsigned block, cudaStream_t stream);

/// Exercise 2 (exercises/01_warp_basics/count_per_warp.cu): the same count with __ballot_sync and
/// __popc, lane 0 of each warp adding the warp's count with one atomic.
void launch_count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count,
                           unsigned block, cudaStream_t stream);

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
