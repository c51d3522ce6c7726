#pragma once
/// @file grading.hpp
/// @brief Helpers for the lessons' doctest graders: the run's seed and device, size sweeps,
/// correctness sweeps of block reductions, and speedup checks that print what they measured.
///
/// Every failure message starts with one of the failure words of course/failures.hpp, so that a
/// reader, the course's self-tests and the driver can tell why a grader failed.

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cuda_check.hpp"
#include "course/device.hpp"
#include "course/gpu_sharing.hpp"
#include "course/kernel_profile.hpp"
#include "course/reduction.hpp"
#include "course/stats.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace course::grading {

/// The seed of this grader run (printed at start; --seed=N or COURSE_SEED=N repeats it).
[[nodiscard]] std::uint64_t run_seed();
void set_run_seed(std::uint64_t seed);

/// The device the grader runs on (set up by the grader's main before any test case).
[[nodiscard]] const DeviceInfo& device();
void set_device(const DeviceInfo& device);

/// Whether this grader runs under compute-sanitizer (COURSE_SANITIZE=1, set by ./course for its
/// sanitizer pass): its tools slow kernels down a hundredfold, so the correctness cases keep their
/// small sizes only (for_this_run).
[[nodiscard]] bool under_sanitizer();
/// `sizes`, or under compute-sanitizer those up to 65,537: the awkward small ones, which find the
/// same out-of-bounds accesses, races and barrier misuse as the large ones.
[[nodiscard]] std::vector<std::size_t> for_this_run(std::vector<std::size_t> sizes);

/// Sizes that catch the usual indexing bugs: 1, around warp and block multiples, primes, large
/// (up to 2^24 on a GPU, 10^6 on the simulator).
[[nodiscard]] std::vector<std::size_t> awkward_sizes();
/// 32, 64, ..., 1024.
[[nodiscard]] std::vector<unsigned> power_of_two_blocks();

/// Runs `launch` on fresh random input for every n in `sizes` and every block in `blocks`, with
/// poisoned partials; fails one check per wrong case, naming n, block, seed and the first bad block.
/// An unrolled kernel sums `data_blocks` data blocks of `block` elements per block (reduction.hpp).
void check_block_reduction(BlockReduceLauncher launch, std::string_view kernel, const std::vector<std::size_t>& sizes,
                           const std::vector<unsigned>& blocks, unsigned data_blocks = 1);

/// Timings of a candidate against a baseline on the same input, interleaved.
struct Comparison {
    TimingSummary baseline;
    TimingSummary candidate;
    [[nodiscard]] double speedup() const { return baseline.median / candidate.median; }
};

/// The graders' timing settings: after the warm-up, at least 21 and at most `max_runs` runs of each
/// case, until every case's spread is below 2%, L2 flushed before every run; on the simulator, whose
/// modelled times are the same every run, one run of each.
[[nodiscard]] BenchmarkOptions timed_run_options(int max_runs = 201);

/// Times two prepared cases interleaved with the graders' settings (timed_run_options()).
[[nodiscard]] Comparison compare_cases(const BenchmarkCase& baseline, const BenchmarkCase& candidate);

/// Times `candidate` against `baseline` on one fresh random input of n ints (input restored and L2
/// flushed before each run), then checks the candidate's result once more, as a kernel that sums
/// `candidate_data_blocks` data blocks per block.
[[nodiscard]] Comparison compare_block_reductions(BlockReduceLauncher baseline, BlockReduceLauncher candidate,
                                                  std::size_t n, unsigned block, unsigned candidate_data_blocks = 1);

/// The seeded warp schedule the simulator runs each correctness case under a second time
/// (cudasim/schedule.hpp), drawn from the run's seed: --seed=N repeats it. Never 0 (in order).
[[nodiscard]] std::uint64_t shuffled_schedule();
/// The simulator's launches from now on run under `schedule` (0: in order); nothing on a GPU.
void use_schedule(std::uint64_t schedule);
/// Fails the test case with "race:": the result of `running` changed with the order the warps ran in.
void schedule_dependent_result(const std::string& running);

/// On the simulator, runs `work` in order and then under shuffled_schedule(): a race the in-order
/// schedule hides (a barrier missing between warps) changes the result, and the case fails with
/// "race:", unless a third run, in order again, shows that the result changes from call to call
/// anyway. A result that `is_right` finds wrong already in order is returned at once: it is a
/// wrong result, which the caller reports as such, never a race. Returns the first run's result.
/// On a GPU, the order is the GPU's own: `work` runs once.
template <class Work, class IsRight>
decltype(auto) run_under_schedules(const std::string& running, Work& work, const IsRight& is_right)
{
    if constexpr (!kOnSimulator) {
        return work();
    } else {
        struct InOrderAfterwards {
            ~InOrderAfterwards() { use_schedule(0); }
        } in_order_afterwards;
        use_schedule(0);
        if constexpr (std::is_void_v<std::invoke_result_t<Work&>>) {
            work();
            use_schedule(shuffled_schedule());
            work();
        } else {
            auto in_order = work();
            if (!is_right(in_order))
                return in_order;
            use_schedule(shuffled_schedule());
            if (!(work() == in_order)) {
                // In order once more: the first result again means the schedule made the difference
                // (a race); another one means the result changes from call to call anyway (state kept
                // across calls), which the grader's own checks of the result and the state judge.
                use_schedule(0);
                if (work() == in_order)
                    schedule_dependent_result(running);
            }
            return in_order;
        }
    }
}

/// What run_case assumes of a result it cannot check itself: that it may be right.
inline constexpr auto kUnchecked = [](const auto&) { return true; };

/// Runs one case of a check (under both schedules on the simulator: run_under_schedules), so
/// `work` must set up its own outputs. `is_right` tells a right result from a wrong one (a wrong
/// one in order is a wrong result, not a race); without it, every result may be right. A CUDA
/// error it raises (a faulting kernel) is thrown again with `running` ("reduce_x, n = 513,
/// block = 64, seed 12") appended, so the report names the case.
template <class Work, class IsRight = decltype(kUnchecked)>
decltype(auto) run_case(const std::string& running, Work&& work, const IsRight& is_right = kUnchecked)
{
    // Before and after each run, a timing of another grader that waits for the GPU goes first
    // (course/gpu_sharing.hpp): it waits for one run, not for this grader's whole test case. On the
    // simulator, a run that measures nothing is not counted (SimulatorCounting): it takes less time.
    let_waiting_timing_run();
    const SimulatorCounting uncounted(false);
    try {
        if constexpr (std::is_void_v<decltype(run_under_schedules(running, work, is_right))>) {
            run_under_schedules(running, work, is_right);
            let_waiting_timing_run();
        } else {
            decltype(auto) result = run_under_schedules(running, work, is_right);
            let_waiting_timing_run();
            return result;
        }
    } catch (const CudaError& error) {
        throw CudaError(error, running);
    }
}

/// The simulator's counters for a candidate and its baseline, each run once on the same input.
struct ProfiledPair {
    KernelProfile baseline;
    KernelProfile candidate;
    std::size_t n = 0;   ///< the input's size
    unsigned block = 0;  ///< threads per block
};

/// A size and a block size the simulator profiles a speed check at.
struct ProfiledShape {
    std::size_t n;
    unsigned block;
};

/// The shapes a simulator speed check holds at: 2^20 elements in blocks of `block`, and an odd size
/// near 1.5 x 2^20 in blocks of half or twice that, so that a kernel tuned to one shape does not pass.
[[nodiscard]] std::vector<ProfiledShape> profiled_shapes(unsigned block);

/// On the simulator: profiles `baseline` and `candidate` on one fresh random input of n ints and
/// checks the candidate's partials (as compare_block_reductions does after its timed runs).
[[nodiscard]] ProfiledPair profile_block_reductions(BlockReduceLauncher baseline, BlockReduceLauncher candidate,
                                                    std::size_t n, unsigned block, unsigned candidate_data_blocks = 1);

/// A block reduction's speed check on either back end. On a GPU: `candidate` timed against
/// `baseline` at n ints (compare_block_reductions, check_speedup with `threshold`). On the
/// simulator: both profiled at each of profiled_shapes(block); at each, `technique` judges their
/// counters and the modelled time must show the speedup of the check "<name>/modelled"
/// (check_modelled_speedup). The candidate's result is checked as one that sums
/// `candidate_data_blocks` data blocks per block. `name`: the GPU check's name in the grader's
/// check list, if not `candidate_name`.
void check_block_reduction_speed(BlockReduceLauncher baseline, BlockReduceLauncher candidate, std::size_t n,
                                 unsigned block, double threshold, std::string_view candidate_name,
                                 std::string_view baseline_name, std::string_view hint,
                                 const std::function<void(const ProfiledPair&)>& technique, std::string_view name = {},
                                 unsigned candidate_data_blocks = 1);

/// "issue slots/warp 311.9 -> 113.3, instructions/warp ..., modelled ...": the counters of a
/// baseline and a candidate that a block reduction's technique checks use.
[[nodiscard]] std::string compare_counters(const ProfiledPair& pair);

/// " Hints, one at a time: ./course hint NN" for the running lesson: how every failure that a
/// student fixes by changing their code ends. The message says what is wrong and by how much; the
/// fix stays in the hints, revealed on request.
[[nodiscard]] std::string hint_command();

/// Passes when `speedup` >= `threshold`; prints the measured ratio, the threshold and the device
/// either way. `hint` is appended to the failure message: what usually makes the kernel slow.
/// `name` is the check's name in the grader's check list (course::results::CheckList), if not
/// `candidate`. A thresholds file (COURSE_THRESHOLDS, see results.hpp) may replace `threshold`
/// for this lesson, back end and check; the message then names the file. The ratio and
/// threshold are recorded for the grader's results file (COURSE_RESULTS).
void check_speedup(const Comparison& comparison, double threshold, std::string_view candidate,
                   std::string_view baseline, std::string_view hint, std::string_view name = {});

/// The most a kernel can read, as a share of the device-to-device copy's bandwidth measured in the
/// same run (reads + writes), over an array several times the L2: the reference kernels read at 99%.
inline constexpr double kMostPossibleShareOfCopy = 1.25;

/// Fails the test case with "impossible time:" when `share_of_copy` (a kernel's read bandwidth over
/// the copy's) is beyond what the device can do: the timed runs did not do the work they claim
/// (an answer kept from an earlier call, work skipped while timed). `measured` says how it was timed.
/// Returns whether the time is possible.
bool check_physically_possible(double share_of_copy, std::string_view kernel, std::string_view measured);

/// The general form of check_speedup, for a figure that must reach a threshold but is not a
/// ratio of two kernels' times (a fraction of the device's copy bandwidth, say): passes when
/// `measured` >= `threshold` (or the override for `check`, as in check_speedup), prints
/// "fast enough: <check>: <measured> <unit>, threshold ..." or fails with "too slow: ...", and
/// records both figures for the results file.
void check_at_least(double measured, double threshold, std::string_view check, std::string_view unit,
                    std::string_view hint, std::string_view name = {});

/// On the simulator a speed check becomes a technique check: a figure from the kernel's counters
/// (kernel_profile.hpp) that explains the speedup a GPU would measure.
struct Technique {
    std::string check;   ///< the kernel checked, e.g. "reduce_neighbored_less"
    std::string figure;  ///< what is compared, e.g. "issue slots per warp, baseline / yours"
    double measured = 0;
    double threshold = 0;
    bool at_most = false;  ///< the figure must stay at or below the threshold
    std::string unit;      ///< appended to the numbers, e.g. "x" or "%"
    std::string counters;  ///< the counters the figure comes from, printed either way
    std::string name{};    ///< the name in the grader's check list, if not `check`
};

/// On the simulator, beside a technique check: the timing model's speedup of `pair.candidate` over
/// `pair.baseline` must reach the threshold of the registered check "<name>/modelled" (`name`: the
/// GPU check's name, if not `candidate`), so that a kernel that meets the counters' figure without
/// being faster (busy work that raises lanes per instruction, say) fails. Its threshold is set
/// below the GPU's where the model, checked on correct kernels written other ways, gives less
/// speedup than a GPU measures.
void check_modelled_speedup(const ProfiledPair& pair, std::string_view candidate, std::string_view baseline,
                            std::string_view hint, std::string_view name = {});

/// Passes when the technique's figure reaches its threshold (or stays at or below it); prints
/// "fast enough: ..." or fails with "too slow: ..." and `hint`, naming the counters used, and
/// records both figures for the results file. A thresholds file may replace the threshold.
/// Returns whether it passed.
bool check_technique(const Technique& technique, std::string_view hint);

}  // namespace course::grading
