// Lesson 06 grader. Exercise 1: does theoretical_occupancy agree with NVIDIA's calculator and with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor on this GPU? Exercise 2: is choose_launch_config
// valid, exact, and faster than the starving configuration? The student's functions answer from
// the student program, a separate process (occupancy_lesson.hpp, namespace student); this grader
// launches the kernels and judges.
//
//   ./course grade 06                    # builds and runs this against exercises/
//   build/gpu/lessons/lesson06_grader --seed=1234   # repeat a run with its printed seed
//   build/gpu/lessons/lesson06_grader --modules=build/gpu/modules/solution   # the reference

#include "occupancy_lesson.hpp"
#include "sweep_check.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/device_buffer.hpp"
#include "course/failures.hpp"
#include "course/grading.hpp"
#include "course/results.hpp"
#include "course/table.hpp"
#include "lesson_checks.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace lesson06;

// Calibrated on an H200 (lessons/06_occupancy/README.md): the reference runs 7.4x faster than the
// starving configuration, the unchanged starter 1.00x, one one-warp block per SM below 1x. Any launch
// that keeps half of the warp slots busy passes (2584 GB/s against 476 there).
constexpr double kSpeedupThreshold = manifest::threshold("choose_launch_config", manifest::Backend::gpu);
constexpr std::size_t kTimedSize = course::size_for_backend(std::size_t{1} << 26, std::size_t{1} << 22);
// On the simulator: the share of an SM's 64 warp slots the chosen launch keeps busy (the starving
// launch 9.4%, the reference 100%); Little's law asks for about 23 warps, 36%, on an H100.
constexpr double kLeastOccupancy = manifest::threshold("choose_launch_config", manifest::Backend::sim) / 100;

constexpr int kFactor = 3;
constexpr int kInputMagnitude = 1 << 15;  // 3 * 2^15 + 2^15 fits an int with room to spare

cudaDeviceProp this_device()
{
    cudaDeviceProp device{};
    COURSE_CUDA_CHECK(cudaGetDeviceProperties(&device, course::grading::device().id));
    return device;
}

std::string text(const LaunchConfig& config)
{
    return "{grid " + std::to_string(config.grid) + ", block " + std::to_string(config.block) + ", " +
           std::to_string(config.dynamic_shared_bytes) + " B dynamic shared memory}";
}

/// Why `config` cannot launch scaled_add, or nothing.
std::optional<std::string> invalid(const LaunchConfig& config, const cudaDeviceProp& device)
{
    const auto kernel = attributes_of(scaled_add_kernel());
    if (config.block == 0 || int(config.block) > kernel.maxThreadsPerBlock)
        return "block = " + std::to_string(config.block) + ", but scaled_add takes 1 to " +
               std::to_string(kernel.maxThreadsPerBlock) + " threads per block";
    if (config.grid == 0 || config.grid > unsigned(device.maxGridSize[0]))
        return "grid = " + std::to_string(config.grid) + ", but a grid has 1 to " +
               std::to_string(device.maxGridSize[0]) + " blocks";
    if (config.dynamic_shared_bytes > std::size_t(kernel.maxDynamicSharedSizeBytes))
        return std::to_string(config.dynamic_shared_bytes) + " B of dynamic shared memory, but a block may have " +
               std::to_string(kernel.maxDynamicSharedSizeBytes);
    return std::nullopt;
}

/// "3 blocks/SM, 6 warps (9.4% occupancy)": what the runtime lets an SM hold, or fewer when the grid
/// has fewer blocks than that per SM.
std::string residency(const LaunchConfig& config, const cudaDeviceProp& device)
{
    int blocks = 0;
    COURSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scaled_add_kernel(), int(config.block),
                                                                    config.dynamic_shared_bytes));
    const auto sms = unsigned(device.multiProcessorCount);
    blocks = int(std::min<unsigned>(unsigned(blocks), (config.grid + sms - 1) / sms));
    const int warps = blocks * int((config.block + device.warpSize - 1) / device.warpSize);
    const int slots = device.maxThreadsPerMultiProcessor / device.warpSize;
    return std::to_string(blocks) + " blocks/SM, " + std::to_string(warps) + " warps (" +
           course::fixed(100.0 * warps / slots, 1) + "% occupancy)";
}

/// The arrays of one scaled_add problem, with the expected answer.
struct StreamProblem {
    std::vector<int> expected;
    course::DeviceBuffer<int> x, y, z;
    std::size_t n;
    std::uint64_t seed;

    StreamProblem(std::size_t count, std::uint64_t input_seed) : n(count), seed(input_seed)
    {
        const auto xs = course::random_ints(n, course::derive_seed(seed, 1), -kInputMagnitude, kInputMagnitude);
        const auto ys = course::random_ints(n, course::derive_seed(seed, 2), -kInputMagnitude, kInputMagnitude);
        expected.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            expected[i] = kFactor * xs[i] + ys[i];
        x = course::DeviceBuffer<int>(std::span<const int>(xs));
        y = course::DeviceBuffer<int>(std::span<const int>(ys));
        z = course::DeviceBuffer<int>(n);
    }

    void launch(const LaunchConfig& config, cudaStream_t stream)
    {
        launch_scaled_add(config, x.data(), y.data(), z.data(), kFactor, n, stream);
    }

    /// Poisons z, launches, waits, compares: nothing, or what is wrong.
    std::optional<std::string> run_and_compare(const LaunchConfig& config)
    {
        const auto got = course::grading::run_case("scaled_add, " + text(config), [&] {
            z.fill_bytes(0x7f);
            launch(config, nullptr);
            COURSE_CHECK_LAUNCH();
            COURSE_CUDA_CHECK(cudaDeviceSynchronize());
            return z.download();
        });
        std::size_t wrong = 0;
        std::size_t first = n;
        for (std::size_t i = 0; i < n; ++i) {
            if (got[i] != expected[i]) {
                first = std::min(first, i);
                ++wrong;
            }
        }
        if (wrong == 0)
            return std::nullopt;
        std::ostringstream text;
        const bool unwritten = got[first] == 0x7f7f7f7f;
        text << (unwritten ? course::failure::not_written : course::failure::wrong_result)
             << " scaled_add launched with " << ::text(config) << ", n = " << n << " (input seed " << seed << "): z["
             << first << "] " << (unwritten ? "was never written" : "holds " + std::to_string(got[first]))
             << ", expected " << expected[first] << "; " << wrong << " of " << n << " elements are wrong";
        return text.str();
    }
};

}  // namespace

TEST_SUITE("lesson06")
{
    TEST_CASE("exercise 1: theoretical_occupancy reproduces the lesson's worked examples")
    {
        check_worked_examples();
    }

    TEST_CASE("exercise 1: theoretical_occupancy agrees with NVIDIA's calculator on an H100 and a T4 described by hand")
    {
        check_sweep_on_described_devices();
    }

    TEST_CASE("exercise 1: theoretical_occupancy agrees with cudaOccupancyMaxActiveBlocksPerMultiprocessor on this GPU")
    {
        const cudaDeviceProp device = this_device();
        const auto& name = course::grading::device().name;
        std::vector<OccupancyCase> cases;
        int unlaunchable = 0;
        int calculator_differs = 0;
        std::string first_difference;
        int fewest_registers = 256;
        int most_registers = 0;
        const auto kernels = sweep_kernels(device);
        for (const auto& kernel : kernels) {
            fewest_registers = std::min(fewest_registers, kernel.attributes.numRegs);
            most_registers = std::max(most_registers, kernel.attributes.numRegs);
            for (const int block : sweep_block_sizes()) {
                if (block > kernel.attributes.maxThreadsPerBlock)
                    continue;
                for (const std::size_t dynamic_bytes : sweep_dynamic_shared_sizes()) {
                    if (kernel.attributes.sharedSizeBytes + dynamic_bytes > device.sharedMemPerBlockOptin)
                        continue;
                    int blocks = 0;
                    COURSE_CUDA_CHECK(
                        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.function, block, dynamic_bytes));
                    if (blocks == 0) {
                        ++unlaunchable;
                        continue;
                    }
                    // The limiter is judged by NVIDIA's header calculator where it agrees with the
                    // runtime on the number of blocks; elsewhere any limiter is accepted.
                    auto expected = nvidia_calculator(device, kernel.attributes, block, dynamic_bytes);
                    if (expected.blocks_per_sm != blocks) {
                        if (calculator_differs++ == 0)
                            first_difference =
                                describe_case(name, kernel.name, kernel.attributes, block, dynamic_bytes) +
                                ": runtime " + std::to_string(blocks) + ", cuda_occupancy.h " +
                                std::to_string(expected.blocks_per_sm);
                        expected = {
                            blocks,
                            {Limiter::warp_slots, Limiter::block_slots, Limiter::registers, Limiter::shared_memory}};
                    }
                    cases.push_back({kernel.name, kernel.attributes, block, dynamic_bytes, std::move(expected)});
                }
            }
        }
        MESSAGE(kernels.size() << " kernels with " << fewest_registers << " to " << most_registers
                               << " registers/thread; " << unlaunchable
                               << " configurations the GPU cannot launch were skipped");
        if (calculator_differs > 0)
            MESSAGE("cuda_occupancy.h and the runtime differ in " << calculator_differs << " configurations, e.g. "
                                                                  << first_difference);
        report_mismatches(check_student_calculator(device, name, cases),
                          "configurations of " + std::to_string(kernels.size()) + " kernels on " + name);
    }

    TEST_CASE("exercise 2: choose_launch_config gives a valid launch and exact results for every n")
    {
        const cudaDeviceProp device = this_device();
        allow_large_shared_memory(device);
        const std::size_t sizes[] = {1, 31, 32, 33, 1000, 4097, 65'537, 1'000'003, (std::size_t{1} << 22) + 7};
        const auto configs = student::choose_launch_config(device, attributes_of(scaled_add_kernel()), sizes);
        std::uint64_t case_index = 0;
        for (std::size_t i = 0; i < configs.size(); ++i) {
            const std::size_t n = sizes[i];
            const LaunchConfig& config = configs[i];
            if (const auto problem = invalid(config, device)) {
                FAIL_CHECK(course::failure::bad_configuration << " choose_launch_config(n = " << n << ") gave "
                                                              << text(config) << ": " << *problem);
                continue;
            }
            StreamProblem problem(n, course::derive_seed(course::grading::run_seed(), ++case_index));
            if (const auto wrong = problem.run_and_compare(config))
                FAIL_CHECK(*wrong);
        }
    }

    TEST_CASE("exercise 2: choose_launch_config is faster than the starving configuration")
    {
        const cudaDeviceProp device = this_device();
        allow_large_shared_memory(device);
        const LaunchConfig starving = starving_config(kTimedSize);
        const std::size_t sizes[] = {kTimedSize};
        const LaunchConfig chosen = student::choose_launch_config(device, attributes_of(scaled_add_kernel()), sizes)[0];
        if (const auto problem = invalid(chosen, device)) {
            FAIL_CHECK(course::failure::bad_configuration << " choose_launch_config(n = " << kTimedSize << ") gave "
                                                          << text(chosen) << ": " << *problem);
            return;
        }
        StreamProblem problem(kTimedSize, course::derive_seed(course::grading::run_seed(), 0x57A7));
        const std::string hint =
            "Your launch keeps " + residency(chosen, device) +
            " resident: too few bytes in flight per SM to cover the memory's latency (Little's law: bandwidth x "
            "latency).";
        if constexpr (course::kOnSimulator) {
            // The technique: the occupancy the simulator reports for the launch, over the whole
            // device (one full SM of 132 is not occupancy), and the modelled time's speedup.
            course::Stream stream;
            course::grading::ProfiledPair pair;
            pair.baseline = course::profile([&](cudaStream_t s) { problem.launch(starving, s); }, stream.get());
            pair.candidate = course::profile([&](cudaStream_t s) { problem.launch(chosen, s); }, stream.get());
            pair.n = kTimedSize;
            pair.block = chosen.block;
            if (const auto wrong = problem.run_and_compare(chosen))
                FAIL_CHECK(*wrong);
            const auto& before = pair.baseline;
            const auto& yours = pair.candidate;
            const int sms = device.multiProcessorCount;
            course::grading::check_technique(
                {"choose_launch_config", "occupancy: resident warps / (64 x " + std::to_string(sms) + " SMs)",
                 100 * yours.achieved_occupancy(sms), 100 * kLeastOccupancy, false, "%",
                 "starving_config " + text(starving) + " -> yours " + text(chosen) + ": resident warps/SM " +
                     std::to_string(before.resident_warps_per_sm) + " -> " +
                     std::to_string(yours.resident_warps_per_sm) + ", warps launched " + std::to_string(before.warps) +
                     " -> " + std::to_string(yours.warps) + ", modelled " + course::fixed(before.modelled_ms, 3) +
                     " -> " + course::fixed(yours.modelled_ms, 3) + " ms; n = 2^22"},
                hint);
            course::grading::check_modelled_speedup(pair, "choose_launch_config", "starving_config", hint);
            return;
        }
        const std::vector<course::BenchmarkCase> cases = {
            {"starving", {}, [&](cudaStream_t s) { problem.launch(starving, s); }},
            {"chosen", {}, [&](cudaStream_t s) { problem.launch(chosen, s); }},
        };
        const auto results = course::run_interleaved(cases, course::grading::timed_run_options());
        // A fast launch only counts if its results are still right.
        if (const auto wrong = problem.run_and_compare(chosen))
            FAIL_CHECK(*wrong);

        const double bytes = 3.0 * sizeof(int) * double(kTimedSize);
        MESSAGE("starving_config " << text(starving) << ": " << residency(starving, device) << ", "
                                   << course::fixed(course::gigabytes_per_second(bytes, results[0].summary.median), 0)
                                   << " GB/s");
        MESSAGE(
            "choose_launch_config " << text(chosen) << ": " << residency(chosen, device) << ", "
                                    << course::fixed(course::gigabytes_per_second(bytes, results[1].summary.median), 0)
                                    << " GB/s");
        const course::grading::Comparison comparison{results[0].summary, results[1].summary};
        course::grading::check_speedup(comparison, kSpeedupThreshold, "choose_launch_config", "starving_config", hint);
    }
}
