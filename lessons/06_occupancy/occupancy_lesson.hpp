#pragma once
/// @file occupancy_lesson.hpp
/// @brief Lesson 06's trusted side: what the demo, the grader and the host check call. The
/// kernels and their launchers, the student's functions asked through the student program
/// (namespace lesson06::student), NVIDIA's calculator as the reference, the sweeps that compare
/// them, and an H100 and a T4 described by hand.
///
/// The student program never sees this header's definitions: it is built from the student's files
/// and student_program.cpp alone, and this header needs the CUDA runtime's, which its include path
/// does not reach (tests/planted/06_occupancy/calls_reference.cpp checks both).

#include "occupancy.hpp"

#include "lesson06_identity.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lesson06 {

/// "warp slots", "block slots", "registers", "shared memory".
[[nodiscard]] const char* limiter_name(Limiter limiter);

/// What the student's functions are told about a device and a kernel.
[[nodiscard]] DeviceProperties student_view(const cudaDeviceProp& device);
[[nodiscard]] KernelAttributes student_view(const cudaFuncAttributes& kernel);

// ---------------------------------------------------------------------------------------------
// The student's functions, answered by the student program (one run per call)

namespace student {

/// One call of theoretical_occupancy.
struct OccupancyQuestion {
    KernelAttributes kernel;
    int block_size = 0;
    std::size_t dynamic_shared_bytes = 0;
};

/// theoretical_occupancy(device, q.kernel, q.block_size, q.dynamic_shared_bytes) for every q, in
/// one run of the student program; throws course::StudentProgramError when it gives no answers.
[[nodiscard]] std::vector<OccupancyResult> theoretical_occupancy(const cudaDeviceProp& device,
                                                                 std::span<const OccupancyQuestion> questions);

/// choose_launch_config(device, scaled_add, n) for every n of `sizes`, in one run.
[[nodiscard]] std::vector<LaunchConfig> choose_launch_config(const cudaDeviceProp& device,
                                                             const cudaFuncAttributes& scaled_add,
                                                             std::span<const std::size_t> sizes);

}  // namespace student

// ---------------------------------------------------------------------------------------------
// The memory-bound kernels of exercise 2 and the demo

/// scaled_add: z[i] = a * x[i] + y[i] for i < n, one int per thread per step, grid-stride.
void launch_scaled_add(const LaunchConfig& config, const int* x, const int* y, int* z, int a, std::size_t n,
                       cudaStream_t stream);
/// The same sums with 16-byte loads, four of them in flight per array per thread and step: much more
/// memory parallelism per warp (the demo's "occupancy is not everything" kernel).
void launch_scaled_add_wide(const LaunchConfig& config, const int* x, const int* y, int* z, int a, std::size_t n,
                            cudaStream_t stream);

/// The kernels as opaque pointers, for the cudaOccupancy* and cudaFuncGetAttributes calls.
[[nodiscard]] const void* scaled_add_kernel();
[[nodiscard]] const void* scaled_add_wide_kernel();

/// Lets both kernels take up to the device's opt-in limit of dynamic shared memory per block
/// (more than the default 48 KiB needs cudaFuncSetAttribute). Idempotent.
void allow_large_shared_memory(const cudaDeviceProp& device);

/// How many of a[0, n) differ from b[0, n), both in device memory (counted on the device; waits).
[[nodiscard]] unsigned long long count_differences(const int* a, const int* b, std::size_t n);

/// cudaFuncGetAttributes of a kernel, checked.
[[nodiscard]] cudaFuncAttributes attributes_of(const void* kernel);

// ---------------------------------------------------------------------------------------------
// Kernels with different register and shared-memory needs, for the grader's sweep

/// One kernel of the sweep, ready to be asked about (its dynamic shared memory limit raised to the
/// opt-in maximum, its carve-out preference set).
struct SweepKernel {
    std::string name;  ///< e.g. "pressure<64> capped at 40 registers"
    const void* function = nullptr;
    cudaFuncAttributes attributes{};
};

/// Prepares and returns the sweep's kernels on the current device.
[[nodiscard]] std::vector<SweepKernel> sweep_kernels(const cudaDeviceProp& device);

// ---------------------------------------------------------------------------------------------
// Checking the student's calculator against NVIDIA's (cuda_occupancy.h, host only)

/// What NVIDIA's header-only calculator says: blocks per SM and every limit that equals it.
struct CalculatorAnswer {
    int blocks_per_sm = 0;
    std::vector<Limiter> limiters;  ///< all resources whose limit equals blocks_per_sm
};
[[nodiscard]] CalculatorAnswer nvidia_calculator(const cudaDeviceProp& device, const cudaFuncAttributes& kernel,
                                                 int block_size, std::size_t dynamic_shared_bytes);

/// Nothing when `got` (for a block of `block_size` threads) agrees with `expected`: same blocks per
/// SM, warps and occupancy that follow from them, and a limiter that really sets the limit. Otherwise
/// what differs, as a sentence.
[[nodiscard]] std::optional<std::string> compare_occupancy(const cudaDeviceProp& device, int block_size,
                                                           const OccupancyResult& got,
                                                           const CalculatorAnswer& expected);

/// "kernel K (R registers/thread, S B static shared memory, carve-out C), block = B, dynamic shared
/// memory = D B on DEVICE"
[[nodiscard]] std::string describe_case(const std::string& device_name, const std::string& kernel_name,
                                        const cudaFuncAttributes& kernel, int block_size,
                                        std::size_t dynamic_shared_bytes);

/// "24 blocks/SM (48 warps, 75.0%, limited by registers)"
[[nodiscard]] std::string describe(const OccupancyResult& result);

/// Blocks sizes and dynamic shared-memory sizes the sweeps try (every one that is launchable is used).
[[nodiscard]] std::vector<int> sweep_block_sizes();
[[nodiscard]] std::vector<std::size_t> sweep_dynamic_shared_sizes();

/// One configuration to ask the student's calculator about, with the answer it must give.
struct OccupancyCase {
    std::string kernel_name;
    cudaFuncAttributes kernel{};
    int block_size = 0;
    std::size_t dynamic_shared_bytes = 0;
    CalculatorAnswer expected;
};

/// Result of comparing the student's calculator with a reference over many cases.
struct SweepReport {
    int cases = 0;
    std::vector<std::string> mismatches;  ///< one sentence each, "wrong occupancy: ..."
};

/// Asks the student's theoretical_occupancy about every case on `device` (one run of the student
/// program) and compares; each mismatch reads "wrong occupancy: theoretical_occupancy, " then
/// `what`, the case (describe_case) and what differs.
[[nodiscard]] SweepReport check_student_calculator(const cudaDeviceProp& device, const std::string& device_name,
                                                   const std::vector<OccupancyCase>& cases,
                                                   const std::string& what = "");

/// Compares the student's theoretical_occupancy with NVIDIA's calculator for `device` (which need
/// not be this machine's: the host check describes an H100 and a T4 by hand) over synthetic kernels
/// with many register counts, static shared-memory sizes and carve-outs, every sweep block size and
/// dynamic shared-memory size that can be launched.
[[nodiscard]] SweepReport sweep_against_calculator(const cudaDeviceProp& device, const std::string& device_name);

/// An H100 SXM (sm_90) and a T4 (sm_75) as cudaGetDeviceProperties describes them (the fields the
/// occupancy calculation reads), for checks that need no GPU.
[[nodiscard]] cudaDeviceProp h100_properties();
[[nodiscard]] cudaDeviceProp t4_properties();

}  // namespace lesson06
