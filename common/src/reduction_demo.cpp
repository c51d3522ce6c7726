#include "course/reduction_demo.hpp"

#include "course/module.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cli.hpp"
#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/demo.hpp"
#include "course/device.hpp"
#include "course/report.hpp"
#include "course/table.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <optional>
#include <ratio>
#include <span>

namespace course {
namespace {

/// The input of the reduceInteger program of Professional CUDA C Programming (ch. 3): small
/// non-negative integers, so that the CPU row looks like the book's.
constexpr int kInputMax = 255;

DemoSpec spec_of(const BlockReductionDemo& demo)
{
    return {.program = demo.program, .description = demo.title, .kernels = names_of(demo.kernels)};
}

std::string row_name(const BlockReduceKernel& kernel, const std::string& student_folder)
{
    return kernel.written_by_student ? kernel.name + " (" + student_folder + ")" : kernel.name;
}

/// The first launch of a program pays for loading the module; the book shows it as a warm-up row.
double time_first_launch(BlockReductionBench& bench, BlockReduceLauncher launch)
{
    const Event start;
    const Event stop;
    bench.restore(nullptr);
    COURSE_CUDA_CHECK(cudaEventRecord(start.get()));
    bench.launch(launch, nullptr);
    COURSE_CUDA_CHECK(cudaEventRecord(stop.get()));
    COURSE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    return stop.milliseconds_since(start);
}

int run(const BlockReductionDemo& demo, const DemoOptions& options, const DeviceInfo& device)
{
    // Unrolled kernels (several data blocks per block, lesson 07) launch fewer blocks: a grid column.
    const bool unrolled = std::any_of(demo.kernels.begin(), demo.kernels.end(),
                                      [](const BlockReduceKernel& k) { return k.data_blocks != nullptr; });
    print_heading(std::cout, demo.program, demo.title, device);
    std::cout << int_array_text(options.n, kInputMax, options.seed) << '\n'
              << "grid " << blocks_for(options.n, options.block) << (unrolled ? " for one data block per block" : "")
              << ", block " << options.block << "; student kernels from " << course::student_code_label(demo.lesson)
              << "/\n";

    const auto input = random_ints(options.n, options.seed, 0, kInputMax);
    const auto cpu_start = std::chrono::steady_clock::now();
    const std::int64_t cpu_sum = recursive_reduce(input);
    const std::chrono::duration<double, std::milli> cpu_time = std::chrono::steady_clock::now() - cpu_start;
    const std::int64_t expected = exact_sum(input);
    std::cout << "cpu reduce: " << fixed(cpu_time.count(), 3) << " ms, sum " << cpu_sum
              << (cpu_sum == expected ? "" : " (WRONG)") << "\n\n";

    std::vector<const BlockReduceKernel*> chosen;
    for (const auto& kernel : demo.kernels)
        if (options.kernel == "all" || options.kernel == kernel.name)
            chosen.push_back(&kernel);

    BlockReductionBench bench(input, options.block);
    const double warmup_ms = time_first_launch(bench, chosen.front()->launch);

    std::vector<BenchmarkCase> cases;
    for (const auto* kernel : chosen)
        cases.push_back({kernel->name, [&bench](cudaStream_t s) { bench.restore(s); },
                         [&bench, kernel](cudaStream_t s) { bench.launch(kernel->launch, s); }});
    const auto timings = run_interleaved(cases, demo_timing(options));

    RunReport report{demo.lesson, device, options.n, options.block, options.seed, expected, {}};
    const double bytes = double(options.n) * sizeof(int);
    const bool baseline_chosen = chosen.front() == &demo.kernels.front();
    std::vector<std::string> columns = {"kernel", kTimeColumn, "min ms", "spread", "GB/s", "speedup", "correct"};
    if (unrolled)
        columns.insert(columns.begin() + 1, "grid");
    Table table(columns);
    std::vector<std::string> warmup_row = {
        "warm-up (first launch, " + chosen.front()->name + ")", fixed(warmup_ms, 3), "", "", "", "", ""};
    if (unrolled)
        warmup_row.insert(warmup_row.begin() + 1, "");
    table.add_row(warmup_row);
    bool all_correct = true;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        // Re-run once more untimed and check: the result must hold after the timed runs too.
        const unsigned per_partial = data_blocks_of(*chosen[i]) * options.block;
        const auto partials = bench.run_once(chosen[i]->launch);
        const bool correct =
            !compare_partials(partials, expected_block_sums(input, per_partial), per_partial, options.n);
        all_correct = all_correct && correct;
        const auto& summary = timings[i].summary;
        const double speedup = baseline_chosen ? timings[0].summary.median / summary.median : 0;
        report.rows.push_back({chosen[i]->name, summary.median, summary.min, summary.relative_spread(), summary.runs,
                               gigabytes_per_second(bytes, summary.median), speedup, correct});
        std::vector<std::string> row = {row_name(*chosen[i], course::student_code_label(demo.lesson)),
                                        fixed(summary.median, 3),
                                        fixed(summary.min, 3),
                                        fixed(100 * summary.relative_spread(), 1) + "%",
                                        fixed(gigabytes_per_second(bytes, summary.median), 1),
                                        baseline_chosen ? fixed(speedup, 2) + "x" : "",
                                        correct ? "yes" : "NO"};
        if (unrolled)
            row.insert(row.begin() + 1, std::to_string(blocks_for(options.n, per_partial)));
        table.add_row(row);
    }
    table.print(std::cout);
    std::cout << "\nmedian of up to " << options.reps << " runs per kernel, interleaved, L2 flushed and input "
              << "restored before each (untimed); GB/s counts the input read once\n";
    return finish_demo(report, options, all_correct, {},
                       "some kernels gave wrong partial sums: run the grader for the failing case");
}

}  // namespace

int run_block_reduction_demo(const BlockReductionDemo& demo, int argc, const char* const* argv)
{
    // Per element: the pristine input, the working copy, and a share of the partials.
    return run_demo(
        spec_of(demo), 2 * sizeof(int) + double(sizeof(int)) / 32, argc, argv,
        [&demo](const DemoOptions& options, const DeviceInfo& device) { return run(demo, options, device); });
}

}  // namespace course
