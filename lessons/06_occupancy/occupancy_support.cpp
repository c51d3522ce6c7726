// Lesson 06, the judge's side: NVIDIA's own calculator (cuda_occupancy.h) as the reference for
// sweeps, the comparison of the student's answers with it, and an H100 and a T4 described by hand so
// that the calculator can be checked on a machine without a GPU. None of this is linked into the
// student program.
//
//   build/ci/lessons/lesson06_host_check --modules=build/ci/modules/solution   # the sweep, no GPU

#include "occupancy_lesson.hpp"

#include "course/failures.hpp"
#include "course/table.hpp"

#include <cuda_occupancy.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace lesson06 {
namespace {

constexpr std::size_t KiB = 1024;

}  // namespace

const char* limiter_name(Limiter limiter)
{
    // In the enum's order, as the student program's protocol numbers them (occupancy_protocol.hpp).
    constexpr std::array<const char*, 4> kNames{"warp slots", "block slots", "registers", "shared memory"};
    const auto index = static_cast<std::size_t>(limiter);
    return index < kNames.size() ? kNames[index] : "?";
}

DeviceProperties student_view(const cudaDeviceProp& device)
{
    DeviceProperties view;
    view.major = device.major;
    view.minor = device.minor;
    view.multiProcessorCount = device.multiProcessorCount;
    view.warpSize = device.warpSize;
    view.maxThreadsPerBlock = device.maxThreadsPerBlock;
    view.maxThreadsPerMultiProcessor = device.maxThreadsPerMultiProcessor;
    view.maxBlocksPerMultiProcessor = device.maxBlocksPerMultiProcessor;
    view.regsPerBlock = device.regsPerBlock;
    view.regsPerMultiprocessor = device.regsPerMultiprocessor;
    view.sharedMemPerBlock = device.sharedMemPerBlock;
    view.sharedMemPerBlockOptin = device.sharedMemPerBlockOptin;
    view.sharedMemPerMultiprocessor = device.sharedMemPerMultiprocessor;
    view.reservedSharedMemPerBlock = device.reservedSharedMemPerBlock;
    std::copy(std::begin(device.maxGridSize), std::end(device.maxGridSize), view.maxGridSize);
    return view;
}

KernelAttributes student_view(const cudaFuncAttributes& kernel)
{
    return {kernel.numRegs, kernel.sharedSizeBytes, kernel.maxThreadsPerBlock, kernel.maxDynamicSharedSizeBytes,
            kernel.preferredShmemCarveout};
}

CalculatorAnswer nvidia_calculator(const cudaDeviceProp& device, const cudaFuncAttributes& kernel, int block_size,
                                   std::size_t dynamic_shared_bytes)
{
    const cudaOccDeviceProp properties(device);
    const cudaOccFuncAttributes attributes(kernel);
    cudaOccDeviceState state;
    // The runtime applies the kernel's own carve-out preference; the header takes it as device state.
    state.carveoutConfig = kernel.preferredShmemCarveout;
    cudaOccResult result{};
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &properties, &attributes, &state, block_size,
                                                dynamic_shared_bytes) != CUDA_OCC_SUCCESS)
        return {};
    CalculatorAnswer answer{result.activeBlocksPerMultiprocessor, {}};
    if (result.limitingFactors & OCC_LIMIT_WARPS)
        answer.limiters.push_back(Limiter::warp_slots);
    if (result.limitingFactors & OCC_LIMIT_BLOCKS)
        answer.limiters.push_back(Limiter::block_slots);
    if (result.limitingFactors & OCC_LIMIT_REGISTERS)
        answer.limiters.push_back(Limiter::registers);
    if (result.limitingFactors & OCC_LIMIT_SHARED_MEMORY)
        answer.limiters.push_back(Limiter::shared_memory);
    return answer;
}

std::string describe_case(const std::string& device_name, const std::string& kernel_name,
                          const cudaFuncAttributes& kernel, int block_size, std::size_t dynamic_shared_bytes)
{
    std::ostringstream text;
    text << "kernel " << kernel_name << " (" << kernel.numRegs << " registers/thread, " << kernel.sharedSizeBytes
         << " B static shared memory, ";
    if (kernel.preferredShmemCarveout < 0)
        text << "no carve-out preference";
    else
        text << "carve-out " << kernel.preferredShmemCarveout << "%";
    text << "), block = " << block_size << ", dynamic shared memory = " << dynamic_shared_bytes << " B on "
         << device_name;
    return text.str();
}

std::string describe(const OccupancyResult& result)
{
    std::ostringstream text;
    text << result.blocks_per_sm << " blocks/SM (" << result.warps_per_sm << " warps, "
         << course::fixed(100 * result.occupancy, 1) << "%, limited by " << limiter_name(result.limiter) << ")";
    return text.str();
}

std::vector<int> sweep_block_sizes()
{
    // Multiples of 32 and a few that are not (a partial warp still takes a whole warp's resources).
    return {32, 33, 64, 96, 100, 128, 160, 192, 224, 256, 288, 320, 384, 448, 512, 640, 768, 896, 1000, 1024};
}

std::vector<std::size_t> sweep_dynamic_shared_sizes()
{
    // Zero, sizes that are not multiples of the allocation unit, and sizes that limit to a few blocks.
    return {0, 1, 1000, 3077, 8192, 20000, 49152, 65541, 102400, 153600, 204800, 232448};
}

SweepReport check_student_calculator(const cudaDeviceProp& device, const std::string& device_name,
                                     const std::vector<OccupancyCase>& cases, const std::string& what)
{
    std::vector<student::OccupancyQuestion> questions;
    questions.reserve(cases.size());
    for (const auto& c : cases)
        questions.push_back({student_view(c.kernel), c.block_size, c.dynamic_shared_bytes});
    const auto answers = student::theoretical_occupancy(device, questions);

    SweepReport report;
    report.cases = int(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto& c = cases[i];
        if (auto problem = compare_occupancy(device, c.block_size, answers[i], c.expected))
            report.mismatches.push_back(course::failure::wrong_occupancy.with(
                "theoretical_occupancy, " + what +
                describe_case(device_name, c.kernel_name, c.kernel, c.block_size, c.dynamic_shared_bytes) + ": " +
                *problem));
    }
    return report;
}

SweepReport sweep_against_calculator(const cudaDeviceProp& device, const std::string& device_name)
{
    const int register_counts[] = {8, 16, 24, 32, 37, 40, 48, 56, 64, 72, 80, 96, 128, 168, 200, 255};
    const std::size_t static_sizes[] = {0, 2048, 12000, 40960};
    const int carveouts[] = {-1, 0, 25, 50, 100};

    std::vector<OccupancyCase> cases;
    for (const int registers : register_counts) {
        for (const std::size_t static_bytes : static_sizes) {
            for (const int carveout : carveouts) {
                cudaFuncAttributes kernel{};
                kernel.numRegs = registers;
                kernel.sharedSizeBytes = static_bytes;
                kernel.maxThreadsPerBlock = device.maxThreadsPerBlock;
                kernel.maxDynamicSharedSizeBytes = int(device.sharedMemPerBlockOptin - static_bytes);
                kernel.preferredShmemCarveout = carveout;
                for (const int block : sweep_block_sizes()) {
                    for (const std::size_t dynamic_bytes : sweep_dynamic_shared_sizes()) {
                        auto expected = nvidia_calculator(device, kernel, block, dynamic_bytes);
                        if (expected.blocks_per_sm == 0)
                            continue;  // cannot be launched: not asked
                        cases.push_back({"synthetic", kernel, block, dynamic_bytes, std::move(expected)});
                    }
                }
            }
        }
    }
    return check_student_calculator(device, device_name, cases);
}

std::optional<std::string> compare_occupancy(const cudaDeviceProp& device, int block_size, const OccupancyResult& got,
                                             const CalculatorAnswer& expected)
{
    const int warps_per_block = (block_size + device.warpSize - 1) / device.warpSize;
    const int max_warps = device.maxThreadsPerMultiProcessor / device.warpSize;
    const int warps = expected.blocks_per_sm * warps_per_block;
    const double occupancy = double(warps) / max_warps;
    const bool limiter_ok =
        std::find(expected.limiters.begin(), expected.limiters.end(), got.limiter) != expected.limiters.end();
    if (got.blocks_per_sm == expected.blocks_per_sm && got.warps_per_sm == warps &&
        std::abs(got.occupancy - occupancy) < 1e-9 && limiter_ok)
        return std::nullopt;

    std::ostringstream text;
    text << "got " << describe(got) << ", expected " << expected.blocks_per_sm << " blocks/SM (" << warps << " warps, "
         << course::fixed(100 * occupancy, 1) << "%, limited by ";
    for (std::size_t i = 0; i < expected.limiters.size(); ++i)
        text << (i == 0 ? "" : " or ") << limiter_name(expected.limiters[i]);
    text << ")";
    if (got.blocks_per_sm == expected.blocks_per_sm) {
        if (got.warps_per_sm != warps)
            text << "; warps_per_sm must be blocks_per_sm times the warps of one block (" << warps_per_block << ")";
        else if (std::abs(got.occupancy - occupancy) >= 1e-9)
            text << "; occupancy must be warps_per_sm / " << max_warps;
        else
            text << "; the blocks are right but that resource does not set the limit";
    }
    return text.str();
}

namespace {

// What cudaGetDeviceProperties says of a GPU, for the fields the calculators read that differ between
// the two described by hand below.
struct DescribedDevice {
    const char* name;
    int major;
    int minor;
    int sms;
    int threads_per_sm;
    int blocks_per_sm;
    std::size_t shared_per_block_optin;
    std::size_t shared_per_sm;
    std::size_t reserved_shared_per_block;
    int l2_bytes;
    int bus_bits;
};

// The rest is the same on both: warps of 32, blocks of up to 1024 threads, 64 K registers per block
// and per SM, 48 KiB of shared memory per block by default, the grid's limits.
cudaDeviceProp properties_of(const DescribedDevice& d)
{
    cudaDeviceProp device{};
    std::snprintf(device.name, sizeof device.name, "%s", d.name);
    device.major = d.major;
    device.minor = d.minor;
    device.multiProcessorCount = d.sms;
    device.warpSize = 32;
    device.maxThreadsPerBlock = 1024;
    device.maxThreadsPerMultiProcessor = d.threads_per_sm;
    device.maxBlocksPerMultiProcessor = d.blocks_per_sm;
    device.regsPerBlock = 65536;
    device.regsPerMultiprocessor = 65536;
    device.sharedMemPerBlock = 48 * KiB;
    device.sharedMemPerBlockOptin = d.shared_per_block_optin;
    device.sharedMemPerMultiprocessor = d.shared_per_sm;
    device.reservedSharedMemPerBlock = d.reserved_shared_per_block;
    device.maxGridSize[0] = 2147483647;
    device.maxGridSize[1] = 65535;
    device.maxGridSize[2] = 65535;
    device.l2CacheSize = d.l2_bytes;
    device.memoryBusWidth = d.bus_bits;
    return device;
}

}  // namespace

cudaDeviceProp h100_properties()
{
    // cudaGetDeviceProperties on an H100 80GB HBM3 (SXM), CUDA 13.
    return properties_of(
        {"H100 SXM (described by hand)", 9, 0, 132, 2048, 32, 227 * KiB, 228 * KiB, 1 * KiB, 50 * 1024 * 1024, 5120});
}

cudaDeviceProp t4_properties()
{
    // cudaGetDeviceProperties on a Tesla T4 (Turing), CUDA 13.
    return properties_of({"T4 (described by hand)", 7, 5, 40, 1024, 16, 64 * KiB, 64 * KiB, 0, 4 * 1024 * 1024, 256});
}

}  // namespace lesson06
