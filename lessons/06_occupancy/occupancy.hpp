#pragma once
/// @file occupancy.hpp
/// @brief Lesson 06, occupancy: what the demo, the grader and the host check call.
///
/// Exercise 1 (exercises/06_occupancy/occupancy_calculator.cpp): theoretical_occupancy(), the
/// number of blocks of a kernel that one SM holds at once, and which resource stops it holding more.
/// Exercise 2 (exercises/06_occupancy/launch_config.cpp): choose_launch_config(), a launch of the
/// memory-bound kernel scaled_add that keeps enough bytes in flight to hide the memory latency.
///
/// The reference calculator, from solutions/06_occupancy/occupancy_calculator.cpp:
/// @snippet occupancy_calculator.cpp theoretical_occupancy

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lesson06 {

// ---------------------------------------------------------------------------------------------
// Exercise 1: theoretical occupancy

/// The resource that stops an SM from holding one more block.
enum class Limiter {
    warp_slots,     ///< maxThreadsPerMultiProcessor / warpSize warps per SM
    block_slots,    ///< maxBlocksPerMultiProcessor blocks per SM
    registers,      ///< regsPerMultiprocessor, handed out per warp
    shared_memory,  ///< the SM's shared memory (as configured), handed out per block
};

/// "warp slots", "block slots", "registers", "shared memory".
[[nodiscard]] const char* limiter_name(Limiter limiter);

/// What one SM holds of a kernel launched with a given block size and dynamic shared memory.
struct OccupancyResult {
    int blocks_per_sm = 0;  ///< resident blocks per SM
    int warps_per_sm = 0;   ///< resident warps per SM: blocks_per_sm * warps per block
    double occupancy = 0;   ///< warps_per_sm / (maxThreadsPerMultiProcessor / warpSize), from 0 to 1
    Limiter limiter = Limiter::warp_slots;  ///< a resource whose limit equals blocks_per_sm
};

/// Facts about how an SM hands out its resources that cudaDeviceProp does not report.
struct AllocationRules {
    int register_unit = 256;  ///< registers go to a warp in multiples of this many
    int sub_partitions = 4;   ///< an SM's register file is split evenly among this many schedulers;
                              ///< each warp lives in one of them, with all its registers
    int shared_unit = 128;    ///< shared memory goes to a block in multiples of this many bytes
    /// The shared-memory sizes (bytes) the SM's unified L1/shared storage can be configured to,
    /// smallest first; the driver uses the smallest one that holds what is asked for.
    std::vector<std::size_t> shared_configs;
};

/// The rules for `device`'s architecture (sm_75 ... sm_90 and later).
[[nodiscard]] AllocationRules allocation_rules(const cudaDeviceProp& device);

/// EXERCISE 1. The theoretical occupancy of `kernel` launched on `device` with `block_size`
/// threads per block and `dynamic_shared_bytes` of dynamic shared memory per block: each of the
/// four resources allows some number of blocks per SM; the smallest number wins.
/// The configuration is launchable (the grader asks about no other): block_size <=
/// kernel.maxThreadsPerBlock, and the block's shared memory fits the per-block limit.
/// Shared memory per SM: the kernel's carve-out preference (kernel.preferredShmemCarveout, percent
/// of sharedMemPerMultiprocessor, -1 for none) rounded up to a configuration the SM supports,
/// or a larger configuration if one block needs more.
[[nodiscard]] OccupancyResult theoretical_occupancy(const cudaDeviceProp& device, const cudaFuncAttributes& kernel,
                                                    int block_size, std::size_t dynamic_shared_bytes);

// ---------------------------------------------------------------------------------------------
// Exercise 2: a launch configuration that hides the memory latency

/// How scaled_add is launched.
struct LaunchConfig {
    unsigned grid = 0;                 ///< blocks; the kernel loops over the array (grid-stride)
    unsigned block = 0;                ///< threads per block
    std::size_t dynamic_shared_bytes = 0;  ///< dynamic shared memory per block (the kernel uses none)
};

/// EXERCISE 2. A configuration for scaled_add over n elements on `device` that keeps the memory
/// system busy: the grader wants it at least 3x as fast as starving_config on 2^26 ints.
[[nodiscard]] LaunchConfig choose_launch_config(const cudaDeviceProp& device, std::size_t n);

/// The lesson's starting point: blocks of 64 threads that each ask for 60 KiB of dynamic shared
/// memory (a staging buffer left over from an older version of the kernel). Only 3 such blocks fit
/// in an H100 SM: 6 warps, 9% occupancy.
[[nodiscard]] LaunchConfig starving_config(const cudaDeviceProp& device, std::size_t n);

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
    std::string name;       ///< e.g. "pressure<64> capped at 40 registers"
    const void* function = nullptr;
    cudaFuncAttributes attributes{};
};

/// Prepares and returns the sweep's kernels on the current device.
[[nodiscard]] std::vector<SweepKernel> sweep_kernels(const cudaDeviceProp& device);

// ---------------------------------------------------------------------------------------------
// Checking a calculator against NVIDIA's (cuda_occupancy.h, host only)

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

/// Result of comparing a calculator with a reference over a sweep.
struct SweepReport {
    int cases = 0;
    std::vector<std::string> mismatches;  ///< one sentence each, "wrong occupancy: ..."
};

/// Compares theoretical_occupancy with NVIDIA's calculator for `device` (which need not be this
/// machine's: the host check describes an H100 and a T4 by hand) over synthetic kernels with many
/// register counts, static shared-memory sizes and carve-outs, every sweep block size and dynamic
/// shared-memory size that can be launched.
[[nodiscard]] SweepReport sweep_against_calculator(const cudaDeviceProp& device, const std::string& device_name);

/// An H100 SXM (sm_90) and a T4 (sm_75) as cudaGetDeviceProperties describes them (the fields the
/// occupancy calculation reads), for checks that need no GPU.
[[nodiscard]] cudaDeviceProp h100_properties();
[[nodiscard]] cudaDeviceProp t4_properties();

}  // namespace lesson06
