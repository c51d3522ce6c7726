// Lesson 02 demo: branches that split warps, with tiny bodies (the compiler predicates them: no
// cost) and with heavy ones (both paths run one after the other), against your rewrites.
//
//   ./course run 02                      # your kernels (your module, from exercises/)
//   ./course run 02 --solution           # the reference (solutions/)
//   ./course run 02 --n 2^22 --block 128 --kernel value-uniform --json results.json

#include "divergence.hpp"

#include "course/benchmark.hpp"
#include "course/cuda_check.hpp"
#include "course/data.hpp"
#include "course/demo.hpp"
#include "course/device_buffer.hpp"
#include "course/module.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

/// Index of the row named `name` among the rows so far, if it was chosen.
std::optional<std::size_t> row_of(const std::vector<course::TimedRow>& rows, const std::string& name)
{
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (rows[r].name == name)
            return r;
    return std::nullopt;
}

course::DemoSpec spec()
{
    return {.program = COURSE_PROGRAM,
            .description = "divergent branches with tiny and heavy bodies, and their warp-uniform rewrites (lesson 02)",
            .default_n =
                course::size_for_backend(std::size_t{1} << 24, std::size_t{1} << 18),  // 7 kernels, heavy paths
            .default_block = 256,
            .kernels = course::names_of(lesson02::tiny_kernels(), lesson02::map_kernels())};
}

int run(const course::DemoOptions& options, const course::DeviceInfo& device)
{
    const std::size_t n = options.n;
    course::print_heading(std::cout, COURSE_PROGRAM, "divergence (lesson 02)", device);
    std::cout << n << " elements, block " << options.block << ", random ints (seed " << options.seed << "; --seed "
              << options.seed << " repeats it); heavy paths: " << lesson02::kHeavyRounds
              << " rounds of integer arithmetic each\n\n";

    const auto input = course::random_ints(n, options.seed, INT_MIN, INT_MAX);
    course::DeviceBuffer<int> in{std::span<const int>(input)};
    course::DeviceBuffer<int> out(n);
    course::DeviceBuffer<float> tiny_out(n);

    const auto wanted = [&](const std::string& name) { return options.kernel == "all" || options.kernel == name; };
    std::vector<course::BenchmarkCase> cases;
    std::vector<const lesson02::TinyKernel*> tiny;
    std::vector<const lesson02::MapKernel*> heavy;
    for (const auto& kernel : lesson02::tiny_kernels())
        if (wanted(kernel.name)) {
            tiny.push_back(&kernel);
            cases.push_back({kernel.name, {}, [&, k = &kernel](cudaStream_t s) {
                                 k->launch(tiny_out.data(), n, options.block, s);
                             }});
        }
    for (const auto& kernel : lesson02::map_kernels())
        if (wanted(kernel.name)) {
            heavy.push_back(&kernel);
            cases.push_back({kernel.name, {}, [&, k = &kernel](cudaStream_t s) {
                                 k->launch(in.data(), out.data(), n, options.block, s);
                             }});
        }
    const auto timings = course::run_interleaved(cases, course::demo_timing(options));

    // Each kernel once more, untimed, into a poisoned output, checked against its host reference.
    std::vector<course::TimedRow> rows;
    std::size_t t = 0;
    bool all_correct = true;
    for (const auto* kernel : tiny) {
        tiny_out.fill_bytes(0x7f);
        kernel->launch(tiny_out.data(), n, options.block, nullptr);
        COURSE_CHECK_LAUNCH();
        const bool correct = tiny_out.download() == lesson02::expected_tiny(n, kernel->by_warp);
        all_correct = all_correct && correct;
        rows.push_back({kernel->name, kernel->name, timings[t++].summary, double(n) * sizeof(float),
                        row_of(rows, kernel->baseline), correct});
    }
    for (const auto* kernel : heavy) {
        out.fill_bytes(0x7f);
        kernel->launch(in.data(), out.data(), n, options.block, nullptr);
        COURSE_CHECK_LAUNCH();
        const bool correct = out.download() == lesson02::expected_output(kernel->output, input);
        all_correct = all_correct && correct;
        const std::string label = kernel->written_by_student
                                      ? kernel->name + " (" + course::student_code_label(lesson02::kLesson) + ")"
                                      : kernel->name;
        rows.push_back({label, kernel->name, timings[t++].summary, 2.0 * double(n) * sizeof(int),
                        row_of(rows, kernel->baseline), correct});
    }
    course::RunReport report{"02_divergence", device, n, options.block, options.seed, 0, {}};
    course::print_timing_table(rows, std::cout, &report.rows);
    std::cout << "\nmedian of up to " << options.reps << " runs per kernel, interleaved, L2 flushed before each\n"
              << "speedup: tiny-by-warp over tiny-by-thread; warp-parity and index-uniform over index-divergent; "
                 "value-uniform over value-divergent\n"
              << "correct: the output equals the host reference of what the kernel computes; index-uniform and "
                 "value-uniform must equal their divergent kernel's output, warp-parity computes another one\n";
    for (const auto* kernel : heavy)
        std::cout << "  " << kernel->name << ": " << kernel->summary << '\n';
    return course::finish_demo(report, options, all_correct);
}

}  // namespace

int main(int argc, char** argv)
{
    // The input, the output and the tiny kernels' float output.
    return course::run_demo(spec(), 3.0 * sizeof(int), argc, argv, run);
}
