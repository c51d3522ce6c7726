// Lesson 06 demo: occupancy against bandwidth. Little's law with this GPU's own figures, then one
// memory-bound kernel launched across block sizes and shared-memory sizes (blocks and warps per SM,
// occupancy, the limiting resource, the bandwidth reached), then the exercise-2 launch beside the
// starving one. The limiter column and the exercise-2 launch come from the student program (your
// functions, run in a process of their own); the demo launches the kernels itself.
//
//   ./course run 06                                  # your calculator and launch (exercises/)
//   ./course run 06 --solution                       # the reference (solutions/)
//   ./course run 06 --solution --seed 1 --json occupancy.json   # the data behind the README's plot
//   ./course run 06 --kernel scaled_add --block 256  # one kernel, one block size

#include "latency_probe.hpp"
#include "occupancy_lesson.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cli.hpp"
#include "course/cuda_check.hpp"
#include "course/data.hpp"
#include "course/demo.hpp"
#include "course/device.hpp"
#include "course/device_buffer.hpp"
#include "course/module.hpp"
#include "course/table.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace lesson06;

constexpr int kFactor = 3;
/// Dynamic shared memory asked for per block (the kernels use none): each step cuts the blocks an
/// SM can hold.
constexpr std::size_t kSharedSizes[] = {0, 24 * 1024, 56 * 1024, 112 * 1024};
constexpr unsigned kBlocks[] = {32, 64, 128, 256, 512, 1024};

using Launcher = void (*)(const LaunchConfig&, const int*, const int*, int*, int, std::size_t, cudaStream_t);

struct Kernel {
    const char* name;
    Launcher launch;
    const void* function;
};

struct Row {
    std::string kernel;
    LaunchConfig config;
    int blocks_per_sm = 0;
    int warps_per_sm = 0;
    double occupancy = 0;
    std::string limiter;
    double median_ms = 0;
    double gbps = 0;
    bool correct = false;
};

std::string json_escape(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

void write_json(const std::string& path, const course::DeviceInfo& info, std::size_t n, std::uint64_t seed,
                double peak_gbps, const LatencyProbe& latency, const std::vector<Row>& rows)
{
    std::ofstream out(path);
    out << "{\n  \"lesson\": \"06_occupancy\",\n  \"device\": \"" << json_escape(info.name) << "\",\n  \"banner\": \""
        << json_escape(course::banner(info)) << "\",\n  \"n\": " << n << ",\n  \"seed\": " << seed
        << ",\n  \"multiprocessors\": " << info.multiprocessors << ",\n  \"peak_dram_gbps\": " << peak_gbps
        << ",\n  \"dram_latency_ns\": " << latency.nanoseconds << ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        out << "    {\"kernel\": \"" << r.kernel << "\", \"block\": " << r.config.block
            << ", \"dynamic_shared_bytes\": " << r.config.dynamic_shared_bytes << ", \"grid\": " << r.config.grid
            << ", \"blocks_per_sm\": " << r.blocks_per_sm << ", \"warps_per_sm\": " << r.warps_per_sm
            << ", \"occupancy\": " << r.occupancy << ", \"limiter\": \"" << r.limiter
            << "\", \"median_ms\": " << r.median_ms << ", \"gbps\": " << r.gbps
            << ", \"correct\": " << (r.correct ? "true" : "false") << "}" << (i + 1 < rows.size() ? "," : "") << '\n';
    }
    out << "  ]\n}\n";
    if (!out)
        throw std::runtime_error("cannot write " + path);
}

int run(const course::DemoOptions& options, const course::DeviceInfo& info)
{
    cudaDeviceProp device{};
    COURSE_CUDA_CHECK(cudaGetDeviceProperties(&device, info.id));
    int memory_khz = 0;
    COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, info.id));
    allow_large_shared_memory(device);

    std::cout << COURSE_PROGRAM << ": occupancy against bandwidth for a memory-bound kernel (lesson 06)\n"
              << "device " << info.id << ": " << course::banner(info) << '\n'
              << "calculator and launch from " << course::student_code_label(kLesson) << "/\n"
              << "registers per thread: scaled_add " << attributes_of(scaled_add_kernel()).numRegs
              << ", scaled_add_wide " << attributes_of(scaled_add_wide_kernel()).numRegs << "\n\n";

    // Little's law: bytes in flight = bandwidth x latency.
    const double peak_gbps = 2.0 * memory_khz * 1e3 * (device.memoryBusWidth / 8.0) / 1e9;
    const auto latency = measure_dram_latency(options.seed);
    const double in_flight = peak_gbps * 1e9 * latency.nanoseconds * 1e-9;
    const double per_sm = in_flight / device.multiProcessorCount;
    const int warp_slots = device.maxThreadsPerMultiProcessor / device.warpSize;
    std::cout << "Little's law on this GPU\n"
              << "  peak DRAM bandwidth: 2 x " << memory_khz / 1000 << " MHz x " << device.memoryBusWidth
              << "-bit bus = " << course::fixed(peak_gbps, 0) << " GB/s\n"
              << "  DRAM latency (one thread, " << latency.hops << " dependent loads over "
              << latency.bytes / (1024 * 1024) << " MiB): " << course::fixed(latency.nanoseconds, 0) << " ns\n"
              << "  bytes in flight needed: " << course::fixed(peak_gbps, 0) << " GB/s x "
              << course::fixed(latency.nanoseconds, 0) << " ns = " << course::fixed(in_flight / 1e6, 2) << " MB, or "
              << course::fixed(per_sm / 1024, 1) << " KiB per SM (" << device.multiProcessorCount << " SMs)\n"
              << "  scaled_add moves 12 bytes per thread per round trip (x and y loaded together, z stored): "
              << course::fixed(per_sm / 12 / device.warpSize, 1) << " warps per SM needed; an SM holds " << warp_slots
              << "\n"
              << "  scaled_add_wide moves 192 bytes per thread per round trip (four 16-byte loads of x and of y, four "
                 "stores): "
              << course::fixed(per_sm / 192 / device.warpSize, 1) << " warps per SM needed\n\n";

    const std::size_t n = options.n;
    const auto xs = course::random_ints(n, course::derive_seed(options.seed, 1), -(1 << 15), 1 << 15);
    const auto ys = course::random_ints(n, course::derive_seed(options.seed, 2), -(1 << 15), 1 << 15);
    std::vector<int> expected(n);
    for (std::size_t i = 0; i < n; ++i)
        expected[i] = kFactor * xs[i] + ys[i];
    const course::DeviceBuffer<int> x{std::span<const int>(xs)};
    const course::DeviceBuffer<int> y{std::span<const int>(ys)};
    const course::DeviceBuffer<int> want{std::span<const int>(expected)};
    course::DeviceBuffer<int> z(n);
    const double bytes = 3.0 * sizeof(int) * double(n);
    std::cout << "z = " << kFactor << " * x + y over " << n << " ints (" << course::fixed(bytes / 1e6, 0)
              << " MB moved per launch: x and y read, z written), seed " << options.seed << "; grid = blocks/SM x "
              << device.multiProcessorCount << " SMs (one full wave, grid-stride loop)\n\n";

    const Kernel kernels[] = {{"scaled_add", &launch_scaled_add, scaled_add_kernel()},
                              {"scaled_add_wide", &launch_scaled_add_wide, scaled_add_wide_kernel()}};
    const cudaFuncAttributes scaled_add_attributes = attributes_of(scaled_add_kernel());
    std::vector<Row> rows;
    // The student's calculator is asked about every row at once: one run of the student program.
    std::vector<student::OccupancyQuestion> questions;
    for (const auto& kernel : kernels) {
        if (options.kernel != "all" && options.kernel != kernel.name)
            continue;
        const auto attributes = attributes_of(kernel.function);
        for (const unsigned block : kBlocks) {
            if (options.block != 0 && options.block != block)
                continue;
            for (const std::size_t shared : kSharedSizes) {
                int blocks = 0;
                COURSE_CUDA_CHECK(
                    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.function, int(block), shared));
                Row row;
                row.kernel = kernel.name;
                row.config = {unsigned(blocks * device.multiProcessorCount), block, shared};
                row.blocks_per_sm = blocks;
                rows.push_back(row);
                questions.push_back({student_view(attributes), int(block), shared});
            }
        }
    }
    // The exercise-2 launches, for comparison.
    if (options.kernel == "all" || options.kernel == "scaled_add") {
        const std::size_t sizes[] = {n};
        const LaunchConfig chosen = student::choose_launch_config(device, scaled_add_attributes, sizes)[0];
        for (const auto& [name, config] :
             {std::pair{"starving_config", starving_config(n)}, std::pair{"choose_launch_config", chosen}}) {
            int blocks = 0;
            COURSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &blocks, scaled_add_kernel(), int(config.block), config.dynamic_shared_bytes));
            Row row;
            row.kernel = std::string("scaled_add, ") + name;
            row.config = config;
            row.blocks_per_sm = blocks;
            rows.push_back(row);
            questions.push_back({student_view(scaled_add_attributes), int(config.block), config.dynamic_shared_bytes});
        }
    }
    const auto yours = student::theoretical_occupancy(device, questions);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto& row = rows[i];
        row.warps_per_sm = row.blocks_per_sm * int((row.config.block + device.warpSize - 1) / device.warpSize);
        row.occupancy = double(row.warps_per_sm) / warp_slots;
        row.limiter = limiter_name(yours[i].limiter);
        if (yours[i].blocks_per_sm != row.blocks_per_sm)
            row.limiter += " (yours: " + std::to_string(yours[i].blocks_per_sm) + " blocks)";
    }

    std::vector<course::BenchmarkCase> cases;
    for (const auto& row : rows) {
        const Launcher launch = row.kernel == "scaled_add_wide" ? &launch_scaled_add_wide : &launch_scaled_add;
        const std::string name = row.kernel + ", block " + std::to_string(row.config.block) + ", " +
                                 std::to_string(row.config.dynamic_shared_bytes / 1024) + " KiB shared";
        cases.push_back({name, {}, [&, launch, config = row.config](cudaStream_t s) {
                             launch(config, x.data(), y.data(), z.data(), kFactor, n, s);
                         }});
    }
    const auto timings = course::run_interleaved(cases, course::demo_timing(options));

    course::Table table({"kernel", "block", "shared KiB", "grid", "blocks/SM", "warps/SM", "occupancy", "limiter",
                         course::kTimeColumn, "GB/s", "correct"});
    bool all_correct = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto& row = rows[i];
        row.median_ms = timings[i].summary.median;
        row.gbps = course::gigabytes_per_second(bytes, row.median_ms);
        // Checked once more after the timed runs, on the device.
        z.fill_bytes(0x7f);
        cases[i].run(nullptr);
        COURSE_CHECK_LAUNCH();
        row.correct = count_differences(z.data(), want.data(), n) == 0;
        all_correct = all_correct && row.correct;
        table.add_row({row.kernel, std::to_string(row.config.block),
                       std::to_string(row.config.dynamic_shared_bytes / 1024), std::to_string(row.config.grid),
                       std::to_string(row.blocks_per_sm), std::to_string(row.warps_per_sm),
                       course::fixed(100 * row.occupancy, 1) + "%", row.limiter, course::fixed(row.median_ms, 3),
                       course::fixed(row.gbps, 0), row.correct ? "yes" : "NO"});
    }
    table.print(std::cout);
    std::cout << "\nblocks/SM from cudaOccupancyMaxActiveBlocksPerMultiprocessor, limiter from theoretical_occupancy; "
              << "median of up to " << options.reps << " runs, interleaved, L2 flushed before each; GB/s counts "
              << "x and y read and z written\n";
    if (!options.json_path.empty()) {
        write_json(options.json_path, info, n, options.seed, peak_gbps, latency, rows);
        std::cout << "results written to " << options.json_path << '\n';
    }
    if (!all_correct)
        std::cout << "some launches gave wrong results: run the grader for the failing case\n";
    return all_correct ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    const course::DemoSpec spec{.program = COURSE_PROGRAM,
                                .description = "occupancy against bandwidth for a memory-bound kernel (lesson 06)",
                                .default_n = course::size_for_backend(std::size_t{1} << 26, std::size_t{1} << 20),
                                .default_block = 0,
                                .allowed_blocks = {0, 32, 64, 128, 256, 512, 1024},
                                .allowed_blocks_text = "0 (every block size) or a power of two from 32 to 1024",
                                .kernels = {"scaled_add", "scaled_add_wide"}};
    // x, y, z and the expected z, plus the 256 MiB of the latency probe.
    return course::run_demo(spec, 4 * sizeof(int), argc, argv, run, std::uint64_t{1} << 24);
}
