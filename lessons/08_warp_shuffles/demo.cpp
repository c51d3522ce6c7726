// Lesson 08 demo: the ladder from lesson 04's shared-memory tree to warp shuffles and 16-byte
// loads, your shuffle_sum and shuffle_sum_float beside it, the device-to-device copy as the ceiling;
// then one float array added in several orders.
//
//   ./course run 08                          # your kernels (exercises/), 2^28 elements (2^20 simulated)
//   ./course run 08 --solution               # the reference (solutions/)
//   ./course run 08 --kernel cg-reduce       # one row, beside the copy
//   ./course run 08 --kernel misaligned-int4 # int4 loads straight from data + 1: the fault

#include "float_sums.hpp"
#include "warp_shuffles.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cli.hpp"
#include "course/cuda_check.hpp"
#include "course/data.hpp"
#include "course/demo.hpp"
#include "course/device_buffer.hpp"
#include "course/module.hpp"
#include "course/reduction.hpp"
#include "course/report.hpp"
#include "course/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kInputMax = 255;
constexpr const char* kMisaligned = "misaligned-int4";

using lesson08::BlockStage;
using lesson08::GridChoice;
using lesson08::LadderKernel;
using lesson08::Loads;

/// One row of the table.
struct Row {
    std::string name;   ///< what --kernel accepts
    std::string label;  ///< as printed
    std::string loads;
    std::string stage;
    std::function<unsigned()> grid;  ///< 0: not a kernel (the copy)
    std::function<void(cudaStream_t)> run;
    std::function<bool()> check;  ///< runs once more from poisoned partials, compares
};

course::DemoSpec spec()
{
    return {.program = COURSE_PROGRAM,
            .description = "warps talk to each other: shuffles, cooperative groups, vector loads (lesson 08)",
            .default_n = course::size_for_backend(std::uint64_t{1} << 28, std::uint64_t{1} << 20),
            .default_block = 256,
            .allowed_blocks_text = "a power of two from 32 to 1024 (the grader also tries every multiple of 32)",
            .kernels = {"copy", "shared-tree", "shuffle", "shared-tree-int4", "shuffle-int4", "shuffle-wave",
                        "cg-reduce", "reduce-add-sync", "shuffle_sum", "shuffle_sum_float", kMisaligned}};
}

/// Adds 64-bit (or int) partials as the device would, wrapping instead of overflowing.
template <class T>
long long add_partials(const std::vector<T>& partials)
{
    unsigned long long total = 0;
    for (const T partial : partials)
        total += static_cast<unsigned long long>(static_cast<long long>(partial));
    return static_cast<long long>(total);
}

/// int4 loads from data + 1, to show what the hardware (or the simulator, or compute-sanitizer) says.
int show_misaligned(std::size_t n, unsigned block)
{
    const std::vector<int> values(n + 1, 1);
    const unsigned grid = lesson08::grid_for(GridChoice::one_wave, lesson08::aligned_only_function(), n, block);
    // Plain allocations, never freed: after the fault every call fails, and the end of the process
    // releases them.
    int* data = nullptr;
    long long* partials = nullptr;
    COURSE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data), values.size() * sizeof(int)));
    COURSE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&partials), grid * sizeof(long long)));
    COURSE_CUDA_CHECK(cudaMemcpy(data, values.data(), values.size() * sizeof(int), cudaMemcpyHostToDevice));
    std::cout << "int4 loads straight from data + 1 (4 bytes past a 16-byte boundary), no scalar head: " << grid
              << " blocks of " << block << std::endl;
    lesson08::launch_aligned_only(data + 1, n, partials, grid, block, nullptr);
    const cudaError_t error = cudaDeviceSynchronize();
    if (error == cudaSuccess) {
        std::cout << "no fault: this device did not check the alignment of the loads\n";
        return 1;
    }
    std::cout << "the kernel faulted: " << cudaGetErrorName(error) << " (" << cudaGetErrorString(error)
              << "); the device is unusable until the process ends\n";
    return 0;
}

/// One float array added in several orders; returns false if the student's kernel is outside the bound.
bool show_float_orders(const std::vector<float>& values, double kernel_sum, std::size_t threads, std::ostream& out)
{
    const double exact = lesson08::compensated_sum(values);
    const double magnitude = lesson08::magnitude_sum(values);
    const double unit = lesson08::kFloatUnitRoundoff * magnitude;  // u * sum |x|
    const std::size_t n = values.size();
    const double tree_d = lesson08::additions_per_element(n, threads);
    const double bound = lesson08::rounding_error_bound(tree_d, magnitude);

    out << "\nthe float array added in different orders (n = " << n
        << ", values in [-1, 1]; sum |x| = " << course::fixed(magnitude, 1) << "; u = 2^-24):\n";
    course::Table table({"order", "sum", "error", "error / (u sum|x|)", "d"});
    std::ostringstream exact_text;
    exact_text.precision(10);
    exact_text << exact;
    table.add_row({"exact (double, compensated)", exact_text.str(), "", "", ""});
    const auto add = [&](const std::string& order, double sum, double additions) {
        std::ostringstream text;
        text.precision(10);
        text << sum;
        const double error = std::fabs(sum - exact);
        std::ostringstream error_text;
        std::ostringstream relative_text;
        error_text.precision(3);
        relative_text.precision(3);
        error_text << error;
        relative_text << error / unit;
        table.add_row({order, text.str(), error_text.str(), relative_text.str(), course::fixed(additions, 0)});
    };
    add("float, first to last", lesson08::sequential_sum(values), double(n - 1));
    add("float, last to first", lesson08::backward_sum(values), double(n - 1));
    add("float, pairwise (a balanced tree)", lesson08::pairwise_sum(values), std::ceil(std::log2(double(n))));
    add("shuffle_sum_float (partials added in double)", kernel_sum, tree_d);
    table.print(out);
    const bool within = std::fabs(kernel_sum - exact) <= bound;
    out << "d: the most additions one element goes through in that order; the error is at most about d u sum|x| "
           "(gamma_d sum|x|, gamma_d = d u / (1 - d u))\n"
        << "the grader's bound for shuffle_sum_float here: gamma_" << course::fixed(tree_d, 0)
        << " sum|x| = " << course::fixed(bound, 4) << (within ? " (within it)" : " (OUTSIDE it: wrong)") << '\n';
    return within;
}

int run(const course::DemoOptions& options, const course::DeviceInfo& device)
{
    const std::size_t n = options.n;
    const unsigned block = options.block;
    if (options.kernel == kMisaligned)
        return show_misaligned(n, block);

    const double bytes = double(n) * sizeof(int);
    course::print_heading(std::cout, COURSE_PROGRAM, "warps talk to each other (lesson 08)", device);
    std::cout << "arrays: " << n << " ints (" << course::fixed(bytes / 1e6, 1) << " MB), values 0.." << kInputMax
              << ", and as many floats in [-1, 1]; " << course::seed_text(options.seed) << '\n'
              << "block " << block << "; student kernels from " << course::student_code_label(lesson08::kLesson)
              << "/\n";

    const auto ints = course::random_ints(n, options.seed, 0, kInputMax);
    const long long expected = course::exact_sum(ints);
    const bool want_all = options.kernel == "all";
    const auto wanted = [&](const std::string& name) { return want_all || options.kernel == name; };
    const bool floats_wanted = wanted("shuffle_sum_float");
    const auto floats =
        floats_wanted ? lesson08::random_floats(n, course::derive_seed(options.seed, 8), 0) : std::vector<float>{};

    const course::DeviceBuffer<int> data{std::span<const int>(ints)};
    const auto float_data =
        floats_wanted ? course::DeviceBuffer<float>(std::span<const float>(floats)) : course::DeviceBuffer<float>();
    course::DeviceBuffer<int> copy_target(n);
    // Enough partials for any row: one element per thread has the most blocks.
    course::DeviceBuffer<long long> partials(course::blocks_for(n, block));
    course::DeviceBuffer<int> int_partials(course::blocks_for(n, block));
    course::DeviceBuffer<float> float_partials(course::blocks_for(n, block));
    double float_kernel_sum = 0;
    std::size_t float_threads = 1;

    std::vector<Row> rows;
    rows.push_back({"copy", "device-to-device copy (reads + writes)", "", "", [] { return 0u; },
                    [&](cudaStream_t s) {
                        COURSE_CUDA_CHECK(cudaMemcpyAsync(copy_target.data(), data.data(), n * sizeof(int),
                                                          cudaMemcpyDeviceToDevice, s));
                    },
                    [] { return true; }});
    if (wanted("shared-tree")) {
        const unsigned grid = course::blocks_for(n, block);
        rows.push_back({"shared-tree", "lesson 04's reference: shared-memory tree", "1 int", "tree",
                        [grid] { return grid; },
                        [&](cudaStream_t s) {
                            lesson08::launch_lesson04_shared_tree(data.data(), int_partials.data(), n, block, s);
                        },
                        [&, grid] {
                            int_partials.fill_bytes(course::kPoisonByte);
                            lesson08::launch_lesson04_shared_tree(data.data(), int_partials.data(), n, block, nullptr);
                            COURSE_CUDA_CHECK(cudaDeviceSynchronize());
                            auto got = int_partials.download();
                            got.resize(grid);
                            return add_partials(got) == expected;
                        }});
    }
    // The lesson's ladder: the same kernel template with a block stage and loads chosen.
    struct Step {
        std::string name;
        std::string label;
        LadderKernel kernel;
        GridChoice grid;
        const char* loads;  // the table's columns for the loads and the block stage
        const char* stage;
    };
    const std::vector<Step> steps = {
        {"shuffle",
         "warp shuffles + one slot per warp",
         {BlockStage::shuffles, Loads::scalar},
         GridChoice::one_element_per_thread,
         "1 int",
         "shuffles"},
        {"shared-tree-int4",
         "shared-memory tree, int4 loads",
         {BlockStage::shared_tree, Loads::vectors},
         GridChoice::one_vector_per_thread,
         "1 int4",
         "tree"},
        {"shuffle-int4",
         "warp shuffles, int4 loads",
         {BlockStage::shuffles, Loads::vectors},
         GridChoice::one_vector_per_thread,
         "1 int4",
         "shuffles"},
        {"shuffle-wave",
         "warp shuffles, int4 loads, one wave",
         {BlockStage::shuffles, Loads::vectors},
         GridChoice::one_wave,
         "int4 loop",
         "shuffles"},
        {"cg-reduce",
         "cg::reduce over thread_block_tile<32>",
         {BlockStage::cooperative, Loads::vectors},
         GridChoice::one_wave,
         "int4 loop",
         "cg::reduce"},
        {"reduce-add-sync",
         device.cc_major >= 8 && !course::kOnSimulator ? "__reduce_add_sync (redux.sync)"
                                                       : "__reduce_add_sync (shuffles below sm_80)",
         {BlockStage::reduce_add_sync, Loads::vectors},
         GridChoice::one_wave,
         "int4 loop",
         "redux"},
    };
    const auto check_long_partials = [&](const std::function<void(cudaStream_t)>& run, unsigned grid) {
        partials.fill_bytes(course::kPoisonByte);
        run(nullptr);
        COURSE_CUDA_CHECK(cudaDeviceSynchronize());
        auto got = partials.download();
        got.resize(grid);
        return add_partials(got) == expected;
    };
    for (const auto& step : steps) {
        if (!wanted(step.name))
            continue;
        const unsigned grid = lesson08::grid_for(step.grid, lesson08::ladder_function(step.kernel), n, block);
        const LadderKernel kernel = step.kernel;
        std::function<void(cudaStream_t)> launch = [&, kernel, grid](cudaStream_t s) {
            lesson08::launch_ladder(kernel, data.data(), n, partials.data(), grid, block, s);
        };
        rows.push_back({step.name, step.label, step.loads, step.stage, [grid] { return grid; }, launch,
                        [&, launch, grid] { return check_long_partials(launch, grid); }});
    }
    const std::string code = course::student_code_label(lesson08::kLesson);
    if (wanted("shuffle_sum")) {
        const unsigned grid = lesson08::grid_for(GridChoice::one_wave, lesson08::shuffle_sum_function(), n, block);
        std::function<void(cudaStream_t)> launch = [&, grid](cudaStream_t s) {
            lesson08::launch_shuffle_sum(data.data(), n, partials.data(), grid, block, s);
        };
        rows.push_back({"shuffle_sum", "shuffle_sum (" + code + ")", "yours", "yours", [grid] { return grid; }, launch,
                        [&, launch, grid] { return check_long_partials(launch, grid); }});
    }
    if (floats_wanted) {
        const unsigned grid =
            lesson08::grid_for(GridChoice::one_wave, lesson08::shuffle_sum_float_function(), n, block);
        float_threads = std::size_t(grid) * block;
        rows.push_back(
            {"shuffle_sum_float", "shuffle_sum_float (" + code + "), floats", "yours", "yours", [grid] { return grid; },
             [&, grid](cudaStream_t s) {
                 lesson08::launch_shuffle_sum_float(float_data.data(), n, float_partials.data(), grid, block, s);
             },
             [&, grid] {
                 float_partials.fill_bytes(course::kPoisonByte);
                 lesson08::launch_shuffle_sum_float(float_data.data(), n, float_partials.data(), grid, block, nullptr);
                 COURSE_CUDA_CHECK(cudaDeviceSynchronize());
                 auto got = float_partials.download();
                 got.resize(grid);
                 float_kernel_sum = lesson08::compensated_sum(got);
                 return std::fabs(float_kernel_sum - lesson08::compensated_sum(floats)) <=
                        lesson08::rounding_error_bound(lesson08::additions_per_element(n, float_threads),
                                                       lesson08::magnitude_sum(floats));
             }});
    }

    std::vector<course::BenchmarkCase> cases;
    for (const auto& row : rows)
        cases.push_back({row.name, {}, row.run});
    const auto timings = course::run_interleaved(cases, course::demo_timing(options));

    std::optional<double> copy_gbs;
    std::optional<double> baseline_ms;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].name == "copy")
            copy_gbs = course::gigabytes_per_second(2 * bytes, timings[i].summary.median);
        if (rows[i].name == "shared-tree")
            baseline_ms = timings[i].summary.median;
    }

    course::RunReport report{lesson08::kLesson, device, n, block, options.seed, expected, {}};
    course::Table table({"kernel", "loads/thread", "block stage", "grid", course::kTimeColumn, "spread", "GB/s",
                         "% of copy", "speedup", "correct"});
    bool all_correct = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const auto& summary = timings[i].summary;
        const bool is_copy = row.name == "copy";
        const double gbs = course::gigabytes_per_second(is_copy ? 2 * bytes : bytes, summary.median);
        const bool correct = row.check();
        all_correct = all_correct && correct;
        const double speedup = baseline_ms && !is_copy ? *baseline_ms / summary.median : 0;
        report.rows.push_back(
            {row.name, summary.median, summary.min, summary.relative_spread(), summary.runs, gbs, speedup, correct});
        const unsigned grid = row.grid();
        table.add_row({row.label, row.loads, row.stage, grid == 0 ? "" : std::to_string(grid),
                       course::fixed(summary.median, 3), course::fixed(100 * summary.relative_spread(), 1) + "%",
                       course::fixed(gbs, 0), copy_gbs ? course::fixed(100 * gbs / *copy_gbs, 1) : "",
                       speedup > 0 ? course::fixed(speedup, 2) + "x" : "", is_copy ? "" : (correct ? "yes" : "NO")});
    }
    std::cout << "exact sum of the ints " << expected << "\n\n";
    table.print(std::cout);
    std::cout << "\nmedian of up to " << options.reps << " runs per row, interleaved, L2 flushed before each; GB/s "
              << "counts the input read once (the copy: read and written); speedup over lesson 04's shared-memory "
              << "tree; each kernel writes one partial per block, added on the host for the check (not timed); "
              << "\"1 int4\": grid = n / (4 x block); \"int4 loop\": one wave of blocks, a grid-stride loop\n";
    if (floats_wanted)
        all_correct = show_float_orders(floats, float_kernel_sum, float_threads, std::cout) && all_correct;
    return course::finish_demo(report, options, all_correct, "speedup over lesson 04's shared-memory tree",
                               "some rows gave a wrong sum: run ./course grade 08 for the failing case");
}

}  // namespace

int main(int argc, char** argv)
{
    // Per element: the ints, the floats, the copy's target, and the partials (a share of each).
    return course::run_demo(spec(), 3 * sizeof(int) + 0.5, argc, argv, run);
}
