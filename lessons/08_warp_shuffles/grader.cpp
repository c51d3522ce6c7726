// Lesson 08 grader: are shuffle_sum (ints) and shuffle_sum_float right for every n, every block
// size, any grid and any alignment of the data (the integers exactly, the floats within the
// rounding-error bound of their order of additions), do they read memory nearly as fast as the
// device copies it, and does their block stage beat lesson 04's shared-memory tree?
//
//   ./course grade 08                    # builds the modules of exercises/ and runs this on them
//   build/gpu/lessons/lesson08_grader --seed=1234   # repeat a run with its printed seed
//   build/gpu/lessons/lesson08_grader --modules=build/gpu/modules/solution   # the reference

#include "float_sums.hpp"
#include "warp_shuffles.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/checked_runs.hpp"
#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/device_buffer.hpp"
#include "course/failures.hpp"
#include "course/grading.hpp"
#include "course/kernel_profile.hpp"
#include "course/reduction.hpp"
#include "course/results.hpp"
#include "course/sum_grading.hpp"
#include "course/table.hpp"
#include "lesson_checks.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// On a GPU. Calibrated on an H100 80GB HBM3 with repeated runs (lessons/08_warp_shuffles/README.md,
// docs/measurements/h100_lessons_07_08.txt). In 20 runs of the reference, shuffle_sum read at
// 99.1-99.3% of the copy bandwidth and shuffle_sum_float at 99.2-99.4%, and their block stages
// measured 1.45x (ints) and 1.33x (floats) in every run; in 13 runs of the starter (4-byte loads in
// a one-wave grid-stride loop, lesson 04's tree) 74.7-75.0% of the copy for both kernels and 0.77x /
// 0.73x. The block stage's threshold must also fail a kernel with int4 loads and lesson 04's tree,
// which gets 1.00x by construction (its baseline is that very kernel: planted shared_tree_int4).
constexpr std::size_t kTimedSize = course::size_for_backend(std::size_t{1} << 28, std::size_t{1} << 24);
constexpr std::size_t kBlockStageSize = course::size_for_backend(std::size_t{1} << 28, std::size_t{1} << 20);
constexpr unsigned kTimedBlock = 256;
// On the simulator, the counters that make those speeds (the reference's figures in
// lessons/08_warp_shuffles/README.md, "On the CPU simulator"): 16-byte load requests as a share of
// load requests, shfl.sync (or redux.sync) per warp, shared-memory loads and stores per warp,
// __syncthreads() per warp. And the time those counters add up to in the timing model, as a share
// of the modelled copy's bandwidth at 2^24: counters alone pass a kernel with real 16-byte loads and
// shuffles whose thread 0 adds its block's values one after the other (planted serial_thread_zero:
// 2.6%). The reference models 99.5% (ints) and 99.8% (floats), the starter 66.4%; the threshold
// sits below the GPU's for margin. Each kernel's checks are named after it ("shuffle_sum/modelled")
// and their thresholds are read from the manifest by that name.
using course::results::Backend;
using course::results::registered_threshold;

constexpr int kMagnitude = 1 << 16;
/// The grids the grader adds to the lesson's own: a kernel must not depend on the grid it gets.
const std::vector<unsigned> kOtherGrids = {1, 2, 7, 133};
constexpr unsigned kOtherGridsBlock = 96;

const std::vector<std::size_t>& exact_sizes()
{
    static const std::vector<std::size_t> sizes = [] {
        std::vector<std::size_t> all = {1,   2,   3,   4,   5,    7,    8,    31,   32,     33,       127,
                                        128, 129, 511, 513, 1023, 1024, 1025, 4097, 65'537, 1'000'003};
        if (!course::kOnSimulator) {
            all.push_back((std::size_t{1} << 20) + 7);
            all.push_back((std::size_t{1} << 24) + 3);
        }
        return course::grading::for_this_run(std::move(all));
    }();
    return sizes;
}

using course::Stream;

// ---------------------------------------------------------------------------------------------
// Ints and floats: what differs between the two kernels' checks.

template <class T>
struct Kind;

template <>
struct Kind<int> {
    using Sum = long long;
    static constexpr const char* kernel = "shuffle_sum";
    static void launch(const int* data, std::size_t n, Sum* partials, unsigned grid, unsigned block, cudaStream_t s)
    {
        lesson08::launch_shuffle_sum(data, n, partials, grid, block, s);
    }
    static const void* function() { return lesson08::shuffle_sum_function(); }
};

template <>
struct Kind<float> {
    using Sum = float;
    static constexpr const char* kernel = "shuffle_sum_float";
    static void launch(const float* data, std::size_t n, Sum* partials, unsigned grid, unsigned block, cudaStream_t s)
    {
        lesson08::launch_shuffle_sum_float(data, n, partials, grid, block, s);
    }
    static const void* function() { return lesson08::shuffle_sum_float_function(); }
};

template <class T>
using SumOf = typename Kind<T>::Sum;

/// One input: its values, how they were drawn, and what the kernel's sum is compared with.
template <class T>
struct Case {
    std::vector<T> values;
    std::string drawn;     ///< "values -65536..65536, input seed 123"
    long long exact = 0;   ///< ints: the exact sum
    double reference = 0;  ///< floats: the sum in double, compensated
    double magnitude = 0;  ///< floats: the sum of |x_i|
};

Case<int> int_case(std::size_t n, int lo, int hi, std::uint64_t stream)
{
    const std::uint64_t seed = course::derive_seed(course::grading::run_seed(), stream);
    Case<int> one;
    one.values = course::random_ints(n, seed, lo, hi);
    one.exact = course::exact_sum(one.values);
    one.drawn = "values " + std::to_string(lo) + ".." + std::to_string(hi) + ", input seed " + std::to_string(seed);
    return one;
}

/// Floats in [-1, 1] (spread 0), or times 2^-spread..2^spread; the reference in double.
Case<float> float_case(std::size_t n, int spread, std::uint64_t stream)
{
    const std::uint64_t seed = course::derive_seed(course::grading::run_seed(), stream);
    Case<float> one;
    one.values = lesson08::random_floats(n, seed, spread);
    const auto totals = lesson08::float_totals(one.values);
    one.magnitude = totals.magnitude;
    one.reference = totals.reference;
    one.drawn = spread > 0 ? "values in [-1, 1] x 2^-" + std::to_string(spread) + "..2^" + std::to_string(spread)
                           : std::string("values in [-1, 1]");
    one.drawn += ", input seed " + std::to_string(seed);
    return one;
}

/// "n = 513 at data + 1 (not 16-byte aligned), block = 96, grid 2 (values ..., input seed ...)"
template <class T>
std::string describe(const Case<T>& input, std::size_t offset, unsigned block, unsigned grid)
{
    std::ostringstream text;
    text << "n = " << input.values.size();
    if (offset != 0)
        text << " at data + " << offset << " (not 16-byte aligned)";
    text << ", block = " << block << ", grid = " << grid << " (" << input.drawn << ")";
    return text.str();
}

/// The worst float result of the run, for the closing message.
struct FloatRecord {
    std::size_t cases = 0;
    std::size_t not_exactly_rounded = 0;  ///< results an exact comparison would have failed
    double worst_fraction = 0;            ///< the largest error, as a fraction of its bound
    std::string worst_case;
};
FloatRecord g_float_record;

/// What is wrong with the partials `got` of one run on `input`, or nothing: a partial left
/// unwritten, an int sum that is not exact, a float sum beyond the rounding-error bound. `record`,
/// where given, keeps the worst float error for the closing message.
template <class T>
std::optional<std::string> judge(const std::vector<SumOf<T>>& got, const Case<T>& input, unsigned block, unsigned grid,
                                 const std::string& where, FloatRecord* record)
{
    using Sum = SumOf<T>;
    Sum poison;
    std::memset(&poison, course::kPoisonByte, sizeof poison);
    for (unsigned b = 0; b < grid; ++b) {
        if (std::memcmp(&got[b], &poison, sizeof poison) == 0)
            return course::failure::not_written.with(where + ": partials[" + std::to_string(b) + "] of " +
                                                     std::to_string(grid) +
                                                     " still holds the poison value (every byte 0x7f)");
    }
    std::ostringstream text;
    if constexpr (std::is_same_v<T, int>) {
        unsigned long long total = 0;  // wraps like the device's 64-bit sums, without overflow
        for (const long long partial : got)
            total += static_cast<unsigned long long>(partial);
        const auto sum = static_cast<long long>(total);
        if (sum == input.exact)
            return std::nullopt;
        text << course::failure::wrong_result << " " << where << ": the partials add up to " << sum << ", expected "
             << input.exact << " (off by " << input.exact - sum << ")";
    } else {
        const double sum = lesson08::compensated_sum(got);  // the partials, added exactly enough
        const double exact = input.reference;
        const double error = std::fabs(sum - exact);
        const double additions = lesson08::additions_per_element(input.values.size(), std::size_t(grid) * block);
        const double bound = lesson08::rounding_error_bound(additions, input.magnitude);
        if (error <= bound) {
            if (record != nullptr) {
                ++record->cases;
                if (float(sum) != float(exact))
                    ++record->not_exactly_rounded;
                if (bound > 0 && error / bound > record->worst_fraction) {
                    record->worst_fraction = error / bound;
                    record->worst_case = where;
                }
            }
            return std::nullopt;
        }
        text.precision(9);
        text << course::failure::wrong_result << " " << where << ": the partials add up to " << sum
             << ", the exact sum (double, compensated) is " << exact << ": off by " << error
             << ", more than the rounding-error bound " << bound << " = gamma_d * sum|x| with d = " << additions
             << " additions per element at most and sum|x| = " << input.magnitude;
    }
    return text.str();
}

/// Runs the kernel once (partials poisoned first), waits, checks; fails one check and returns false
/// when a partial is unwritten or the sum is wrong.
template <class T>
bool run_and_check(const Case<T>& input, const T* data, std::size_t offset, unsigned block, unsigned grid,
                   course::DeviceBuffer<SumOf<T>>& partials, cudaStream_t stream, std::string_view when = "")
{
    using Sum = SumOf<T>;
    const std::size_t n = input.values.size();
    const std::string where =
        std::string(Kind<T>::kernel) + std::string(when) + ", " + describe(input, offset, block, grid);
    const auto got = course::grading::run_case(where, [&] {
        partials.fill_bytes(course::kPoisonByte, stream);
        Kind<T>::launch(data, n, partials.data(), grid, block, stream);
        COURSE_CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<Sum> sums(grid);
        COURSE_CUDA_CHECK(cudaMemcpy(sums.data(), partials.data(), grid * sizeof(Sum), cudaMemcpyDeviceToHost));
        return sums;
    });
    if (const auto problem = judge<T>(got, input, block, grid, where, &g_float_record)) {
        FAIL_CHECK(*problem);
        return false;
    }
    return true;
}

/// Every n of exact_sizes() at `offset`, every allowed block size, the lesson's grid; then, for the
/// larger sizes, a few other grids. Stops at the first wrong size (the rest would repeat it).
template <class T>
void check_every_size(std::size_t offset, int float_spread, std::uint64_t stream_base)
{
    const std::size_t largest = exact_sizes().back();
    course::grading::GuardedInput<T> input(largest);
    // Every allowed block size on a GPU; on the simulator, which interprets each launch, and under
    // compute-sanitizer, whose racecheck would not get through all 32 sizes in the pass's budget,
    // the sizes where a warp-slot layout goes wrong (one warp, odd warp counts, powers of two, the
    // largest).
    const auto blocks = course::kOnSimulator || course::grading::under_sanitizer()
                            ? std::vector<unsigned>{32, 64, 96, 160, 256, 480, 992, 1024}
                            : lesson08::allowed_blocks();
    std::size_t most_partials = *std::max_element(kOtherGrids.begin(), kOtherGrids.end());
    for (const unsigned block : blocks)
        most_partials = std::max<std::size_t>(
            most_partials, lesson08::grid_for(lesson08::GridChoice::one_wave, Kind<T>::function(), largest, block));
    course::DeviceBuffer<SumOf<T>> partials(most_partials);
    Stream stream;
    std::uint64_t index = stream_base;
    for (const std::size_t n : exact_sizes()) {
        Case<T> one;
        if constexpr (std::is_same_v<T, int>)
            one = int_case(n, -kMagnitude, kMagnitude, ++index);
        else
            one = float_case(n, float_spread, ++index);
        const T* data = input.put(one.values, offset);
        bool right = true;
        for (const unsigned block : blocks) {
            const unsigned grid = lesson08::grid_for(lesson08::GridChoice::one_wave, Kind<T>::function(), n, block);
            right = run_and_check(one, data, offset, block, grid, partials, stream.get()) && right;
            if (!right)
                break;
        }
        if (right && n >= 65'537)
            for (const unsigned grid : kOtherGrids)
                right = right && run_and_check(one, data, offset, kOtherGridsBlock, grid, partials, stream.get());
        if (!right)
            break;
    }
}

/// Last: a kernel that faults here (a 16-byte load from an address that is not 16-byte aligned)
/// leaves the device unusable for the rest of the run.
template <class T>
void check_misaligned(std::uint64_t stream_base)
{
    for (const std::size_t offset : {1, 2, 3}) {
        try {
            check_every_size<T>(offset, 0, stream_base + 1000 * offset);
        } catch (const course::CudaError& error) {
            const std::string text = std::string(error.what()) + " (" + Kind<T>::kernel + " on data + " +
                                     std::to_string(offset) + ", a pointer that is not 16-byte aligned)";
            FAIL_CHECK(text);
            return;  // the device is unusable after a fault
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Speed.

/// Both kernels' inputs for the timed checks, and their references.
struct TimedInputs {
    Case<int> ints;
    Case<float> floats;
    course::grading::GuardedInput<int> int_data;
    course::grading::GuardedInput<float> float_data;
    int* int_pointer;
    float* float_pointer;

    explicit TimedInputs(std::size_t n, std::uint64_t stream)
        : ints(int_case(n, -kMagnitude, kMagnitude, stream)), floats(float_case(n, 0, stream + 1)), int_data(n),
          float_data(n), int_pointer(int_data.put(ints.values, 0)), float_pointer(float_data.put(floats.values, 0))
    {
    }

    /// Still right after the timed runs, on new contents at the same addresses: a sum remembered
    /// from an earlier call on this pointer is wrong now.
    void recheck(unsigned block, lesson08::GridChoice choice, std::uint64_t stream, std::string_view when)
    {
        const std::size_t n = ints.values.size();
        ints = int_case(n, -kMagnitude, kMagnitude, stream);
        floats = float_case(n, 0, stream + 1);
        int_data.put(ints.values, 0);
        float_data.put(floats.values, 0);
        Stream s;
        const unsigned int_grid = lesson08::grid_for(choice, Kind<int>::function(), n, block);
        const unsigned float_grid = lesson08::grid_for(choice, Kind<float>::function(), n, block);
        course::DeviceBuffer<long long> int_partials(int_grid);
        course::DeviceBuffer<float> float_partials(float_grid);
        run_and_check(ints, int_pointer, 0, block, int_grid, int_partials, s.get(), when);
        run_and_check(floats, float_pointer, 0, block, float_grid, float_partials, s.get(), when);
    }
};

std::string size_text(std::size_t n)
{
    for (int power = 0; power < 40; ++power)
        if (n == std::size_t{1} << power)
            return "2^" + std::to_string(power);
    return std::to_string(n);
}

/// The counters of one kernel, for the technique checks' messages.
std::string counters_text(const course::KernelProfile& p)
{
    std::ostringstream text;
    text << "global load requests " << p.global_load_requests << " (" << p.global_wide_load_requests
         << " of 16 bytes), warps " << p.warps << ", shuffles " << p.shuffles << ", warp reductions "
         << p.warp_reductions << ", shared-memory requests " << p.shared_requests << ", barriers " << p.barriers
         << ", issue slots/warp " << course::fixed(p.issue_slots_per_warp(), 1) << ", modelled "
         << course::fixed(p.modelled_ms, 3) << " ms";
    return text.str();
}

}  // namespace

TEST_SUITE("lesson08")
{
    TEST_CASE("shuffle_sum gives the exact sum for every n, block size and grid (16-byte aligned data)")
    {
        check_every_size<int>(0, 0, 0);
    }

    TEST_CASE("shuffle_sum adds in 64 bits: sums far beyond the range of an int")
    {
        course::grading::GuardedInput<int> input(1'000'003);
        course::DeviceBuffer<long long> partials(
            lesson08::grid_for(lesson08::GridChoice::one_wave, Kind<int>::function(), 1'000'003, 32));
        Stream stream;
        std::uint64_t index = 100;
        const int big = 1 << 30;
        for (const std::size_t n : {2, 3, 1000, 65'537, 1'000'003}) {
            for (const auto& [lo, hi] : {std::pair{big, 2 * (big - 1) + 1}, std::pair{-2 * big, -big}}) {
                const auto one = int_case(n, lo, hi, ++index);
                const int* data = input.put(one.values, 0);
                for (const unsigned block : {32u, 256u, 1024u}) {
                    const unsigned grid =
                        lesson08::grid_for(lesson08::GridChoice::one_wave, Kind<int>::function(), n, block);
                    run_and_check(one, data, 0, block, grid, partials, stream.get());
                }
            }
        }
    }

    TEST_CASE("shuffle_sum_float is within the rounding-error bound for every n, block size and grid")
    {
        g_float_record = {};
        check_every_size<float>(0, 0, 200);
        // Values of very different magnitudes: the bound is relative to sum |x_i|, not to the sum.
        check_every_size<float>(0, 20, 300);
        const auto& record = g_float_record;
        MESSAGE("shuffle_sum_float: " << record.cases << " sums within the rounding-error bound; the largest error was "
                                      << course::fixed(100 * record.worst_fraction, 2) << "% of its bound ("
                                      << record.worst_case << "); " << record.not_exactly_rounded
                                      << " of them differ from the exact sum rounded to float, which an exact "
                                         "comparison would have failed");
    }

    TEST_CASE("shuffle_sum and shuffle_sum_float read memory nearly as fast as the device copies it")
    {
        TimedInputs inputs(kTimedSize, 500);
        const std::size_t n = kTimedSize;
        const unsigned block = kTimedBlock;
        const auto wave = lesson08::GridChoice::one_wave;
        const unsigned int_grid = lesson08::grid_for(wave, Kind<int>::function(), n, block);
        const unsigned float_grid = lesson08::grid_for(wave, Kind<float>::function(), n, block);
        course::DeviceBuffer<long long> int_partials(int_grid);
        course::DeviceBuffer<float> float_partials(float_grid);
        const std::string hint =
            "Most of the array is still read in small loads, with few bytes in flight per thread (see the load "
            "requests above). The lesson's grid is one wave: " +
            lesson08::describe_grid(wave, Kind<int>::function(), n, block) + " at n = " + size_text(n) + ".";
        const auto run_int = [&](cudaStream_t s) {
            lesson08::launch_shuffle_sum(inputs.int_pointer, n, int_partials.data(), int_grid, block, s);
        };
        // Each timed run of shuffle_sum checked: its partials must add up to the sum of an input
        // changed at a few places before the run.
        course::grading::CheckedSumRuns checked(
            inputs.int_pointer,
            {n, -kMagnitude, kMagnitude, course::derive_seed(course::grading::run_seed(), 500), inputs.ints.values,
             inputs.ints.exact},
            [&](cudaStream_t s) { int_partials.fill_bytes(course::kPoisonByte, s); },
            [&](cudaStream_t s) {
                COURSE_CUDA_CHECK(cudaStreamSynchronize(s));
                const auto partials = int_partials.download();
                long long total = 0;
                for (const long long partial : partials)
                    total += partial;
                return total;
            },
            "shuffle_sum (its partials added up)");
        const auto run_float = [&](cudaStream_t s) {
            lesson08::launch_shuffle_sum_float(inputs.float_pointer, n, float_partials.data(), float_grid, block, s);
        };
        // And each of shuffle_sum_float's: within the rounding-error bound of its changed input, the
        // reference and sum|x| kept in step with each change.
        Case<float>& floats = inputs.floats;
        course::grading::CheckedRuns float_checked(
            course::derive_seed(course::grading::run_seed(), 501),
            [&](std::mt19937_64& random, cudaStream_t s) {
                std::uniform_real_distribution<float> draw(-1.0f, 1.0f);
                for (int k = 0; k < course::grading::CheckedRuns::kChangesPerRun; ++k) {
                    const std::size_t at = random() % n;
                    const float value = draw(random);
                    floats.reference += double(value) - double(floats.values[at]);
                    floats.magnitude += std::fabs(double(value)) - std::fabs(double(floats.values[at]));
                    floats.values[at] = value;
                    COURSE_CUDA_CHECK(cudaMemcpyAsync(inputs.float_pointer + at, &floats.values[at], sizeof(float),
                                                      cudaMemcpyHostToDevice, s));
                }
                float_partials.fill_bytes(course::kPoisonByte, s);
            },
            [&](cudaStream_t s, const std::string& when) {
                COURSE_CUDA_CHECK(cudaStreamSynchronize(s));
                return judge<float>(float_partials.download(), floats, block, float_grid,
                                    "shuffle_sum_float (" + when + "), " + describe(floats, 0, block, float_grid),
                                    nullptr);
            });

        course::DeviceBuffer<int> copy_target(n);
        const std::size_t bytes = n * sizeof(int);
        const std::vector<course::BenchmarkCase> cases = {
            {"copy",
             {},
             [&](cudaStream_t s) {
                 COURSE_CUDA_CHECK(
                     cudaMemcpyAsync(copy_target.data(), inputs.int_pointer, bytes, cudaMemcpyDeviceToDevice, s));
             }},
            {"shuffle_sum", checked.setup(), run_int, checked.check()},
            {"shuffle_sum_float", float_checked.setup(), run_float, float_checked.check()},
        };
        const auto timings = course::run_interleaved(cases, course::grading::timed_run_options(101));
        inputs.recheck(block, wave, 501, " (after the timed runs, new contents at the same address)");

        if constexpr (course::kOnSimulator) {
            // The technique (16-byte loads), then the modelled time it adds up to with the rest of
            // the kernel: serial work hidden behind the right counters shows there.
            Stream stream;
            const auto ints = course::profile(run_int, stream.get());
            const auto floats = course::profile(run_float, stream.get());
            inputs.recheck(block, wave, 502, " (after profiling, new contents at the same address)");
            for (const auto& [i, counted] : {std::pair{std::size_t{1}, &ints}, std::pair{std::size_t{2}, &floats}}) {
                const std::string& name = timings[i].name;
                const double modelled_share = timings[0].summary.median * 0.5 / timings[i].summary.median;
                const std::string counters = counters_text(*counted) + "; modelled: copy " +
                                             course::fixed(timings[0].summary.median, 3) + " ms (reads + writes), " +
                                             name + " " + course::fixed(timings[i].summary.median, 3) +
                                             " ms; n = " + size_text(n);
                course::grading::check_technique({name, "16-byte loads, share of global load requests",
                                                  100 * counted->wide_load_share(),
                                                  registered_threshold(name + "/wide_loads", Backend::sim), false, "%",
                                                  counters, name + "/wide_loads"},
                                                 hint);
                course::grading::check_technique(
                    {name, "modelled bandwidth, % of the modelled copy's", 100 * modelled_share,
                     registered_threshold(name + "/modelled", Backend::sim), false, "%", counters, name + "/modelled"},
                    "In the timing model: " + hint);
            }
            return;
        }

        const double copy_gbs = course::gigabytes_per_second(2.0 * double(bytes), timings[0].summary.median);
        for (std::size_t i = 1; i < timings.size(); ++i) {
            const double gbs = course::gigabytes_per_second(double(bytes), timings[i].summary.median);
            std::ostringstream measured;
            measured << timings[i].name << " reads " << size_text(n) << " elements at " << course::fixed(gbs, 0)
                     << " GB/s = " << course::fixed(100 * gbs / copy_gbs, 1)
                     << "% of the device-to-device copy bandwidth measured in this run (" << course::fixed(copy_gbs, 0)
                     << " GB/s, reads + writes; medians: copy " << course::fixed(timings[0].summary.median, 3)
                     << " ms, " << timings[i].name << " " << course::fixed(timings[i].summary.median, 3)
                     << " ms, spread " << course::fixed(100 * timings[i].summary.relative_spread(), 1) << "%, "
                     << timings[i].summary.runs << " runs each, L2 flushed)";
            MESSAGE(measured.str());
            if (!course::grading::check_physically_possible(gbs / copy_gbs, timings[i].name, measured.str()))
                continue;
            course::grading::check_at_least(100 * gbs / copy_gbs,
                                            registered_threshold(timings[i].name + "/bandwidth", Backend::gpu),
                                            timings[i].name + ", % of the device-to-device copy bandwidth", "%",
                                            measured.str() + ". " + hint, timings[i].name + "/bandwidth");
        }
    }

    TEST_CASE("shuffle_sum and shuffle_sum_float: warp shuffles and one barrier beat lesson 04's shared-memory tree")
    {
        // One 16-byte vector per thread: every block lives briefly, so its block stage matters.
        const std::size_t n = kBlockStageSize;
        const unsigned block = kTimedBlock;
        const auto choice = lesson08::GridChoice::one_vector_per_thread;
        TimedInputs inputs(n, 600);
        const unsigned grid = lesson08::grid_for(choice, nullptr, n, block);
        course::DeviceBuffer<long long> int_partials(grid);
        course::DeviceBuffer<long long> int_baseline_partials(grid);
        course::DeviceBuffer<float> float_partials(grid);
        course::DeviceBuffer<float> float_baseline_partials(grid);
        const lesson08::LadderKernel tree{lesson08::BlockStage::shared_tree, lesson08::Loads::vectors};
        constexpr const char* hint =
            "The block stage still goes through shared memory step by step, with a block-wide barrier per "
            "step (see the shared-memory requests and barriers per warp above).";

        const std::vector<course::BenchmarkCase> cases = {
            {"tree",
             {},
             [&](cudaStream_t s) {
                 lesson08::launch_ladder(tree, inputs.int_pointer, n, int_baseline_partials.data(), grid, block, s);
             }},
            {"shuffle_sum",
             {},
             [&](cudaStream_t s) {
                 lesson08::launch_shuffle_sum(inputs.int_pointer, n, int_partials.data(), grid, block, s);
             }},
            {"tree_float",
             {},
             [&](cudaStream_t s) {
                 lesson08::launch_ladder_float(tree, inputs.float_pointer, n, float_baseline_partials.data(), grid,
                                               block, s);
             }},
            {"shuffle_sum_float",
             {},
             [&](cudaStream_t s) {
                 lesson08::launch_shuffle_sum_float(inputs.float_pointer, n, float_partials.data(), grid, block, s);
             }},
        };

        if constexpr (course::kOnSimulator) {
            Stream stream;
            std::vector<course::KernelProfile> counted;
            for (const auto& one : cases)
                counted.push_back(course::profile(one.run, stream.get()));
            inputs.recheck(block, choice, 601, " (after profiling, new contents at the same address)");
            for (const std::size_t i : {1, 3}) {
                const std::string name = cases[i].name;
                const std::string counters = counters_text(counted[i]) + "; lesson 04's tree with the same loads: " +
                                             counters_text(counted[i - 1]) + "; n = " + size_text(n) + ", " +
                                             std::to_string(grid) + " blocks of " + std::to_string(block);
                course::grading::check_technique({name, "warp shuffles per warp", counted[i].warp_exchanges_per_warp(),
                                                  registered_threshold(name + "/shuffles", Backend::sim), false, "",
                                                  counters, name + "/shuffles"},
                                                 hint);
                course::grading::check_technique({name, "shared-memory requests per warp",
                                                  counted[i].shared_requests_per_warp(),
                                                  registered_threshold(name + "/shared_requests", Backend::sim), true,
                                                  "", counters, name + "/shared_requests"},
                                                 hint);
                course::grading::check_technique({name, "barriers per warp", counted[i].barriers_per_warp(),
                                                  registered_threshold(name + "/barriers", Backend::sim), true, "",
                                                  counters, name + "/barriers"},
                                                 hint);
            }
            return;
        }

        const auto timings = course::run_interleaved(cases, course::grading::timed_run_options());
        inputs.recheck(block, choice, 601, " (after the timed runs, new contents at the same address)");
        for (const std::size_t i : {1, 3}) {
            const course::grading::Comparison comparison{timings[i - 1].summary, timings[i].summary};
            course::grading::check_speedup(
                comparison, registered_threshold(cases[i].name + "/block_stage", Backend::gpu), cases[i].name,
                "lesson 04's shared-memory tree with the same 16-byte loads, at one "
                "vector per thread (" +
                    std::to_string(grid) + " blocks of " + std::to_string(block) + ", n = " + size_text(n) + ")",
                hint, cases[i].name + "/block_stage");
        }
    }

    // Last: a kernel that loads 16 bytes from an address that is not 16-byte aligned faults, and a
    // fault leaves the device unusable for the rest of the run.
    TEST_CASE("shuffle_sum works on any int pointer: data + 1, + 2, + 3")
    {
        check_misaligned<int>(700);
    }

    TEST_CASE("shuffle_sum_float works on any float pointer: data + 1, + 2, + 3")
    {
        g_float_record = {};
        check_misaligned<float>(800);
    }
}
