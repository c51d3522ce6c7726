#pragma once
/// @file one_launch.hpp
/// @brief Lesson 09, the whole reduction in one launch: the sum of an int array on the device with
/// a single kernel launch per call, where lesson 05 needed two.
///
/// The exercise is the device code of reduce_once(): one kernel, reduce_once, in which every block
/// adds its share, writes one partial and takes a ticket, and the block that takes the last
/// ticket adds the partials and writes the result; and its launch choices (reduce_once_launch),
/// all in the student's module (one_launch.cuh). The host code here is the lesson's: it owns the
/// workspace (the partials and the ticket counter), reads and checks the student's choices and
/// launches the kernel once per call. The demo times it beside lesson 05's two-launch reference,
/// cub::DeviceReduce::Sum and the lesson's own one-launch designs (designs.cu).
///
/// @if with_solutions
/// The reference solution (solutions/09_one_launch_reduction/reduce_once.cu):
/// @snippet reduce_once.cu reduce_once_launch
/// @snippet reduce_once.cu last_block
/// @endif

#include "reduce_once_launch.hpp"

#include "course/device_buffer.hpp"
#include "course/partial_sums.hpp"

#include "lesson09_identity.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace lesson09 {

/// What the lesson launches reduce_once() with: the student's reduce_once_launch, checked, and
/// the device it runs on.
struct ReduceOncePlan {
    ReduceOnceLaunch launch{};
    std::size_t sm_count = 0;
    /// Blocks of reduce_once one SM holds at a time (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
    int resident_blocks_per_sm = 0;
};

/// Loads the student's module (once per process) and checks its reduce_once_launch; throws
/// std::invalid_argument with "bad configuration: ..." naming a value the lesson cannot launch.
[[nodiscard]] const ReduceOncePlan& reduce_once_plan();

/// The grid reduce_once() launches for n elements (reduce_once_launch.hpp).
[[nodiscard]] std::size_t grid_for(std::size_t n);

/// The device memory one reduce_once() call works in: one 64-bit partial per block and the ticket
/// counter, which is 0 between calls (the kernel's last block sets it back). Allocate it once, for
/// the largest n you will reduce, and pass it to every call; two calls that may run at the same
/// time need two workspaces.
class Workspace : public course::PartialSums {
public:
    /// Room for arrays of up to max_n elements; the ticket starts at 0. (poison() leaves the
    /// ticket alone: it must stay 0 between calls.)
    explicit Workspace(std::size_t max_n);

    [[nodiscard]] unsigned* ticket() { return ticket_.data(); }
    /// The ticket's value now (synchronises `stream` first): 0 after every complete call.
    [[nodiscard]] unsigned read_ticket(cudaStream_t stream) const;

private:
    course::DeviceBuffer<unsigned> ticket_;
};

/// Writes the sum of data[0, n) to *result (device memory), for any n >= 1, with ONE launch of the
/// student's reduce_once (student_kernels.cpp). Nothing else is enqueued: no memset, no copy, no
/// synchronisation, so that the call can be captured in a CUDA graph. `data` need not be 16-byte
/// aligned.
void reduce_once(const int* data, std::size_t n, long long* result, Workspace& workspace, cudaStream_t stream);

/// Lesson 05's reference reduction (two launches: phase_one, then phase_two), from the course's
/// reference module whatever the student's lesson 05 holds: the baseline of the grader's speed
/// check and a row of the demo.
class TwoLaunchReference {
public:
    explicit TwoLaunchReference(std::size_t max_n);
    void run(const int* data, std::size_t n, long long* result, cudaStream_t stream);
    [[nodiscard]] std::size_t grid(std::size_t n) const;

private:
    course::DeviceBuffer<long long> partials_;
};

/// The lesson's own one-launch designs (designs.cu), for the demo's comparison. All read with
/// 16-byte loads in a grid-stride loop and reduce each block with shuffles; they differ in how the
/// per-block sums become one.
enum class Design {
    last_block,        ///< partials, a ticket (acq_rel atomic), the last block adds the partials
    last_block_waves,  ///< the same with up to 4 waves of blocks for large arrays instead of 1
    last_block_512,    ///< the same with blocks of 512 threads
    atomic_result,     ///< a memset of the result, then each block atomicAdd()s its sum into it
    cooperative,       ///< partials, this_grid().sync(), block 0 adds them (cooperative launch)
};

[[nodiscard]] const char* design_name(Design design);
/// Every design, in the demo's order.
[[nodiscard]] const std::vector<Design>& all_designs();

/// Runs the designs with their workspace; the grid follows the same rule as reduce_once's: 16
/// elements per thread, at most one full wave (the design's resident blocks per SM x SMs; four
/// waves for last_block_waves).
class Designs {
public:
    explicit Designs(std::size_t max_n);
    [[nodiscard]] std::size_t grid(Design design, std::size_t n) const;
    void run(Design design, const int* data, std::size_t n, long long* result, cudaStream_t stream);
    /// One launch of an empty kernel: the floor of any one-launch call, timed the same way.
    static void run_empty(cudaStream_t stream);

private:
    course::DeviceBuffer<long long> partials_;
    course::DeviceBuffer<unsigned> ticket_;
};

}  // namespace lesson09
