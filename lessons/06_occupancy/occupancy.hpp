#pragma once
/// @file occupancy.hpp
/// @brief Lesson 06, occupancy: what the student implements, and everything their files may use.
///
/// Exercise 1 (exercises/06_occupancy/occupancy_calculator.cpp): theoretical_occupancy(), the
/// number of blocks of a kernel that one SM holds at once, and which resource stops it holding more.
/// Exercise 2 (exercises/06_occupancy/launch_config.cpp): choose_launch_config(), a launch of the
/// memory-bound kernel scaled_add that keeps enough bytes in flight to hide the memory latency.
///
/// Both are plain C++ functions of plain data. The lesson builds them, with a `main` of its own
/// (student_program.cpp), into a separate program without the CUDA runtime; the grader, the host
/// check and the demo run that program and ask it questions (course/student_program.hpp). So your
/// code never runs inside the program that judges it, and it cannot reach the lesson's references:
/// it sees this header, the C++ library and nothing else of the course. Print any debugging output
/// on std::cerr: the program's standard output carries its answers.
///
/// @if with_solutions
/// The reference calculator, from solutions/06_occupancy/occupancy_calculator.cpp:
/// @snippet occupancy_calculator.cpp theoretical_occupancy
/// @endif

#include <cstddef>
#include <vector>

namespace lesson06 {

/// The fields of cudaDeviceProp this lesson reads, under the same names: what
/// cudaGetDeviceProperties reports for the GPU the question is about.
struct DeviceProperties {
    int major = 0;                               ///< compute capability, 9 on an H100
    int minor = 0;                               ///< 0 on an H100
    int multiProcessorCount = 0;                 ///< SMs (132 on an H100 SXM)
    int warpSize = 0;                            ///< 32
    int maxThreadsPerBlock = 0;                  ///< 1024
    int maxThreadsPerMultiProcessor = 0;         ///< 2048 on sm_90: 64 warp slots
    int maxBlocksPerMultiProcessor = 0;          ///< 32 on sm_90, 16 on Turing
    int regsPerBlock = 0;                        ///< 65536
    int regsPerMultiprocessor = 0;               ///< 65536
    std::size_t sharedMemPerBlock = 0;           ///< 48 KiB: a block's limit without opting in
    std::size_t sharedMemPerBlockOptin = 0;      ///< 227 KiB on sm_90: the limit after opting in
    std::size_t sharedMemPerMultiprocessor = 0;  ///< 228 KiB on sm_90
    std::size_t reservedSharedMemPerBlock = 0;   ///< 1 KiB the driver keeps per block (sm_80 and later)
    int maxGridSize[3] = {0, 0, 0};              ///< blocks per grid dimension
};

/// The fields of cudaFuncAttributes this lesson reads, under the same names: what
/// cudaFuncGetAttributes reports for the kernel the question is about.
struct KernelAttributes {
    int numRegs = 0;                    ///< registers per thread
    std::size_t sharedSizeBytes = 0;    ///< static shared memory per block
    int maxThreadsPerBlock = 0;         ///< the most threads a block of this kernel may have
    int maxDynamicSharedSizeBytes = 0;  ///< the most dynamic shared memory a block may ask for
    int preferredShmemCarveout = -1;    ///< percent of sharedMemPerMultiprocessor, -1 for none
};

// ---------------------------------------------------------------------------------------------
// Exercise 1: theoretical occupancy

/// The resource that stops an SM from holding one more block.
enum class Limiter {
    warp_slots,     ///< maxThreadsPerMultiProcessor / warpSize warps per SM
    block_slots,    ///< maxBlocksPerMultiProcessor blocks per SM
    registers,      ///< regsPerMultiprocessor, handed out per warp
    shared_memory,  ///< the SM's shared memory (as configured), handed out per block
};

/// What one SM holds of a kernel launched with a given block size and dynamic shared memory.
struct OccupancyResult {
    int blocks_per_sm = 0;                  ///< resident blocks per SM
    int warps_per_sm = 0;                   ///< resident warps per SM: blocks_per_sm * warps per block
    double occupancy = 0;                   ///< warps_per_sm / (maxThreadsPerMultiProcessor / warpSize), from 0 to 1
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

/// The rules for `device`'s architecture (sm_75 ... sm_90 and later); given by the lesson.
[[nodiscard]] AllocationRules allocation_rules(const DeviceProperties& device);

/// EXERCISE 1. The theoretical occupancy of `kernel` launched on `device` with `block_size`
/// threads per block and `dynamic_shared_bytes` of dynamic shared memory per block: each of the
/// four resources allows some number of blocks per SM; the smallest number wins.
/// The configuration is launchable (the grader asks about no other): block_size <=
/// kernel.maxThreadsPerBlock, and the block's shared memory fits the per-block limit.
/// Shared memory per SM: the kernel's carve-out preference (kernel.preferredShmemCarveout, percent
/// of sharedMemPerMultiprocessor, -1 for none) rounded up to a configuration the SM supports,
/// or a larger configuration if one block needs more.
[[nodiscard]] OccupancyResult theoretical_occupancy(const DeviceProperties& device, const KernelAttributes& kernel,
                                                    int block_size, std::size_t dynamic_shared_bytes);

// ---------------------------------------------------------------------------------------------
// Exercise 2: a launch configuration that hides the memory latency

/// How scaled_add is launched.
struct LaunchConfig {
    unsigned grid = 0;                     ///< blocks; the kernel loops over the array (grid-stride)
    unsigned block = 0;                    ///< threads per block
    std::size_t dynamic_shared_bytes = 0;  ///< dynamic shared memory per block (the kernel uses none)
};

/// EXERCISE 2. A configuration for scaled_add (whose attributes are `scaled_add`) over n elements
/// on `device` that keeps the memory system busy: the grader wants it at least 3x as fast as
/// starving_config on 2^26 ints.
[[nodiscard]] LaunchConfig choose_launch_config(const DeviceProperties& device, const KernelAttributes& scaled_add,
                                                std::size_t n);

/// The lesson's starting point: blocks of 64 threads that each ask for 60 KiB of dynamic shared
/// memory (a staging buffer left over from an older version of the kernel). Shared memory allows 3
/// such blocks per H100 SM (3 x 61 KiB with the reserved 1 KiB): 6 warps of the 64 the SM could
/// hold, 9% occupancy.
[[nodiscard]] inline LaunchConfig starving_config(std::size_t n)
{
    constexpr unsigned block = 64;
    return {unsigned((n + block - 1) / block), block, 60 * 1024};
}

}  // namespace lesson06
