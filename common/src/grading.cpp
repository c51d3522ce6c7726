#include "course/grading.hpp"
#include "course/failures.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/results.hpp"
#include "course/table.hpp"

#include <doctest/doctest.h>

#if COURSE_ON_SIMULATOR
#include <cudasim/schedule.hpp>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace course::grading {
namespace {

std::uint64_t g_seed = 0;
DeviceInfo g_device;

/// Grader inputs: signed and wide, so that a wrong element or a lost sign changes the sum, yet a
/// block of 1024 cannot overflow an int (1024 * 2^16 < 2^31).
constexpr int kInputMagnitude = 1 << 16;

constexpr std::size_t kProfiledSize = std::size_t{1} << 20;

/// Elements changed before each timed run of a candidate (compare_block_reductions).
constexpr int kChangesPerTimedRun = 4;

std::string case_text(std::size_t n, unsigned block, std::uint64_t seed)
{
    return "n = " + std::to_string(n) + ", block = " + std::to_string(block) + " (input seed " + std::to_string(seed) +
           ")";
}

/// The first counter two profiles of one launch disagree on, as "NAME A then B", if any.
std::optional<std::string> differing_counters(const KernelProfile& a, const KernelProfile& b)
{
    const std::pair<const char*, std::uint64_t KernelProfile::*> counters[] = {
        {"warp instructions", &KernelProfile::warp_instructions},
        {"issue slots", &KernelProfile::issue_slots},
        {"global load sectors", &KernelProfile::global_load_sectors},
        {"global store sectors", &KernelProfile::global_store_sectors},
        {"shared-memory requests", &KernelProfile::shared_requests},
        {"barriers", &KernelProfile::barriers},
        {"shuffles", &KernelProfile::shuffles},
        {"warp reductions", &KernelProfile::warp_reductions},
        {"memory round trips", &KernelProfile::memory_round_trips},
    };
    for (const auto& [name, member] : counters)
        if (a.*member != b.*member)
            return std::string(name) + " " + std::to_string(a.*member) + " then " + std::to_string(b.*member);
    return std::nullopt;
}

/// "wrong result: ..." or "not written: ..." for a mismatch found by compare_partials.
std::string failure_text(std::string_view kernel, const std::string& where, const std::string& mismatch)
{
    const bool unwritten = mismatch.find("never written") != std::string::npos;
    return (unwritten ? failure::not_written : failure::wrong_result)
        .with(std::string(kernel) + ", " + where + ": " + mismatch);
}

}  // namespace

std::uint64_t run_seed()
{
    return g_seed;
}
void set_run_seed(std::uint64_t seed)
{
    g_seed = seed;
}
const DeviceInfo& device()
{
    return g_device;
}
void set_device(const DeviceInfo& device)
{
    g_device = device;
}

std::uint64_t shuffled_schedule()
{
    return derive_seed(run_seed(), 0x5C4ED) | 1;
}

void use_schedule([[maybe_unused]] std::uint64_t schedule)
{
#if COURSE_ON_SIMULATOR
    cudasim::set_schedule(schedule);
#endif
}

void schedule_dependent_result(const std::string& running)
{
    FAIL(failure::race.with(running +
                            ": the result depends on the order in which the warps run (the simulator ran the case in "
                            "order, then under schedule " +
                            std::to_string(shuffled_schedule()) + ", drawn from the grader's seed " +
                            std::to_string(run_seed()) +
                            "): threads read what other threads write with no __syncthreads() or __syncwarp() "
                            "between them"));
}

bool under_sanitizer()
{
    static const bool sanitizing = [] {
        const char* value = std::getenv("COURSE_SANITIZE");
        return value != nullptr && std::string_view(value) == "1";
    }();
    return sanitizing;
}

std::vector<std::size_t> for_this_run(std::vector<std::size_t> sizes)
{
    if (under_sanitizer())
        std::erase_if(sizes, [](std::size_t n) { return n > 65'537; });
    return sizes;
}

std::vector<std::size_t> awkward_sizes()
{
    std::vector<std::size_t> sizes = {1, 31, 32, 33, 511, 512, 513, 1023, 1024, 1025, 4097, 65'537, 1'000'003};
    if (!kOnSimulator) {  // the simulator interprets every instruction: its largest size is 10^6
        sizes.push_back((1u << 20) + 7);
        sizes.push_back(1u << 24);
    }
    return for_this_run(std::move(sizes));
}

std::vector<unsigned> power_of_two_blocks()
{
    return {32, 64, 128, 256, 512, 1024};
}

void check_block_reduction(BlockReduceLauncher launch, std::string_view kernel, const std::vector<std::size_t>& sizes,
                           const std::vector<unsigned>& blocks, unsigned data_blocks)
{
    std::uint64_t case_index = 0;
    for (const std::size_t n : sizes) {
        for (const unsigned block : blocks) {
            const std::uint64_t seed = derive_seed(run_seed(), ++case_index);
            const auto input = random_ints(n, seed, -kInputMagnitude, kInputMagnitude);
            BlockReductionBench bench(input, block);
            const unsigned per_partial = data_blocks * block;
            const auto expected = expected_block_sums(input, per_partial);
            const auto right = [&](const auto& got) { return !compare_partials(got, expected, per_partial, n); };
            const auto partials = run_case(
                std::string(kernel) + ", " + case_text(n, block, seed), [&] { return bench.run_once(launch); }, right);
            const auto mismatch = compare_partials(partials, expected, per_partial, n);
            if (mismatch)
                FAIL_CHECK(failure_text(kernel, case_text(n, block, seed), *mismatch));
        }
    }
}

namespace {

/// Runs `candidate` once more on a fresh input written over the bench's buffers and checks it.
void recheck_on_new_input(BlockReductionBench& bench, BlockReduceLauncher candidate, std::string_view when,
                          std::uint64_t seed, unsigned data_blocks)
{
    const std::uint64_t fresh = derive_seed(seed, 0xF2E54);
    const auto input = random_ints(bench.n(), fresh, -kInputMagnitude, kInputMagnitude);
    bench.replace_input(input);
    const unsigned per_partial = data_blocks * bench.block();
    const auto expected = expected_block_sums(input, per_partial);
    const auto right = [&](const auto& got) { return !compare_partials(got, expected, per_partial, bench.n()); };
    const auto partials = run_case(
        std::string(when) + ", " + case_text(bench.n(), bench.block(), fresh),
        [&] { return bench.run_once(candidate); }, right);
    if (const auto mismatch = compare_partials(partials, expected, per_partial, bench.n()))
        FAIL_CHECK(failure_text(when, case_text(bench.n(), bench.block(), fresh), *mismatch));
}

}  // namespace

BenchmarkOptions timed_run_options(int max_runs)
{
    BenchmarkOptions options;
    options.min_runs = 21;
    options.max_runs = max_runs;
    options.stable_spread = 0.02;
    if (kOnSimulator) {
        options.warmup_runs = 0;
        options.min_runs = options.max_runs = 1;
    }
    return options;
}

Comparison compare_cases(const BenchmarkCase& baseline, const BenchmarkCase& candidate)
{
    const std::vector<BenchmarkCase> cases = {baseline, candidate};
    const auto results = run_interleaved(cases, timed_run_options());
    return {results[0].summary, results[1].summary};
}

Comparison compare_block_reductions(BlockReduceLauncher baseline, BlockReduceLauncher candidate, std::size_t n,
                                    unsigned block, unsigned candidate_data_blocks)
{
    const std::uint64_t seed = derive_seed(run_seed(), 0xBE7C4);
    const auto input = random_ints(n, seed, -kInputMagnitude, kInputMagnitude);
    BlockReductionBench bench(input, block);
    const auto restore = [&bench](cudaStream_t s) { bench.restore(s); };
    // Every timed run of the candidate is checked, on an input changed at a few random places
    // before the run (outside the timed region): an answer remembered from an earlier run is
    // caught at the first repeat, not only by the recheck afterwards.
    const unsigned per_partial = candidate_data_blocks * block;
    const auto base = expected_block_sums(input, per_partial);
    std::mt19937_64 random(derive_seed(seed, 0xC4A2));
    std::vector<std::size_t> positions;
    std::vector<int> values;
    std::vector<std::int64_t> expected;
    int run = 0;
    bool failed = false;
    const auto change = [&](cudaStream_t s) {
        bench.restore(s);
        bench.poison(s);
        positions.clear();
        values.clear();
        expected = base;
        for (int k = 0; k < kChangesPerTimedRun; ++k) {
            const std::size_t at = random() % bench.n();
            if (std::find(positions.begin(), positions.end(), at) != positions.end())
                continue;
            const int value = int(random() % (2 * kInputMagnitude + 1)) - kInputMagnitude;
            expected[at / per_partial] += std::int64_t{value} - input[at];
            positions.push_back(at);
            values.push_back(value);
        }
        bench.change(positions, values, s);
    };
    const auto check = [&](cudaStream_t) {
        ++run;
        if (failed)
            return;
        if (const auto mismatch = compare_partials(bench.partials(), expected, per_partial, bench.n())) {
            failed = true;
            FAIL_CHECK(failure_text("during the timed runs",
                                    "timed run " + std::to_string(run) + ", " +
                                        case_text(bench.n(), bench.block(), seed) + ", " +
                                        std::to_string(positions.size()) + " elements changed before it",
                                    *mismatch));
        }
    };
    const auto comparison =
        compare_cases({"baseline", restore, [&](cudaStream_t s) { bench.launch(baseline, s); }},
                      {"candidate", change, [&](cudaStream_t s) { bench.launch(candidate, s); }, check});

    // A fast kernel only counts if it is still right after all those runs, on new contents at
    // the same addresses (an answer remembered from an earlier call is wrong now).
    recheck_on_new_input(bench, candidate, "after the timed runs", seed, candidate_data_blocks);
    return comparison;
}

ProfiledPair profile_block_reductions(BlockReduceLauncher baseline, BlockReduceLauncher candidate, std::size_t n,
                                      unsigned block, unsigned candidate_data_blocks)
{
    const std::uint64_t seed = derive_seed(run_seed(), 0xBE7C4);
    const auto input = random_ints(n, seed, -kInputMagnitude, kInputMagnitude);
    BlockReductionBench bench(input, block);
    Stream stream;
    ProfiledPair pair;
    for (const auto& [launcher, into] : {std::pair{baseline, &pair.baseline}, std::pair{candidate, &pair.candidate}}) {
        bench.restore(stream.get());
        const BlockReduceLauncher launch = launcher;  // a structured binding cannot be captured before C++20's clang 16
        bench.poison(stream.get());
        *into = profile([&](cudaStream_t s) { bench.launch(launch, s); }, stream.get());
    }
    // The profiled launch's own result counts: a kernel fast and wrong when profiled, right
    // afterwards, fails here.
    const unsigned per_partial = candidate_data_blocks * block;
    if (const auto mismatch =
            compare_partials(bench.partials(), expected_block_sums(input, per_partial), per_partial, bench.n()))
        FAIL_CHECK(failure_text("the profiled launch", case_text(n, block, seed), *mismatch));
    // And the same launch again does the same work: counters that change from one launch to the next
    // (a kernel that keeps state in its buffers and takes a shortcut once) describe no technique.
    bench.restore(stream.get());
    bench.poison(stream.get());
    const KernelProfile again = profile([&](cudaStream_t s) { bench.launch(candidate, s); }, stream.get());
    if (const auto differs = differing_counters(pair.candidate, again))
        FAIL_CHECK(failure::inconsistent.with("two launches of the same kernel on the same input, " +
                                              case_text(n, block, seed) + ", did different work: " + *differs));
    recheck_on_new_input(bench, candidate, "after profiling", seed, candidate_data_blocks);
    pair.n = n;
    pair.block = block;
    return pair;
}

std::vector<ProfiledShape> profiled_shapes(unsigned block)
{
    const unsigned other = block >= 512 ? block / 2 : block * 2;
    return {{kProfiledSize, block}, {3 * kProfiledSize / 2 + 4097, other}};
}

void check_block_reduction_speed(BlockReduceLauncher baseline, BlockReduceLauncher candidate, std::size_t n,
                                 unsigned block, double threshold, std::string_view candidate_name,
                                 std::string_view baseline_name, std::string_view hint,
                                 const std::function<void(const ProfiledPair&)>& technique, std::string_view name,
                                 unsigned candidate_data_blocks)
{
    if (kOnSimulator) {
        for (const auto& shape : profiled_shapes(block)) {
            const ProfiledPair pair =
                profile_block_reductions(baseline, candidate, shape.n, shape.block, candidate_data_blocks);
            technique(pair);
            check_modelled_speedup(pair, candidate_name, baseline_name, hint, name);
        }
        return;
    }
    check_speedup(compare_block_reductions(baseline, candidate, n, block, candidate_data_blocks), threshold,
                  candidate_name, baseline_name, hint, name);
}

std::string compare_counters(const ProfiledPair& pair)
{
    const KernelProfile& a = pair.baseline;
    const KernelProfile& b = pair.candidate;
    std::ostringstream text;
    text << "baseline -> yours: issue slots/warp " << fixed(a.issue_slots_per_warp(), 1) << " -> "
         << fixed(b.issue_slots_per_warp(), 1) << ", instructions/warp " << fixed(a.instructions_per_warp(), 1)
         << " -> " << fixed(b.instructions_per_warp(), 1) << ", divergent branches " << a.divergent_branches << " -> "
         << b.divergent_branches << ", global sectors " << a.global_load_sectors + a.global_store_sectors << " -> "
         << b.global_load_sectors + b.global_store_sectors << " (per load request "
         << fixed(a.sectors_per_load_request(), 2) << " -> " << fixed(b.sectors_per_load_request(), 2)
         << "), shared bank conflicts " << a.bank_conflicts << " -> " << b.bank_conflicts << ", modelled "
         << fixed(a.modelled_ms, 3) << " -> " << fixed(b.modelled_ms, 3) << " ms; n = " << pair.n << ", block "
         << pair.block;
    return text.str();
}

namespace {

/// The threshold that applies to the check `name` of the running lesson on this back end, and
/// " (from FILE; the course's is X)" when a thresholds file replaced the grader's own. A grader
/// that lists its checks (course::results::CheckList) runs only those, as listed.
std::pair<double, std::string> applied_threshold(double threshold, bool at_most, std::string_view name,
                                                 std::string_view suffix)
{
    const auto backend = results::this_backend();
    if (!results::registered_checks().empty()) {
        const auto* listed = results::find_check(name, backend);
        if (listed == nullptr || listed->threshold != threshold || listed->at_most != at_most)
            FAIL_CHECK("internal: the " << results::backend_name(backend) << " check '" << name << "' (threshold "
                                        << fixed(threshold, 2) << ") is not in the grader's check list as it runs");
    }
    const auto& overrides = results::threshold_overrides();
    const auto value = overrides.find(results::recorder().current_lesson(), backend, name);
    if (!value)
        return {threshold, ""};
    std::ostringstream note;
    note << " (from " << overrides.source() << "; the course's is " << fixed(threshold, 2) << suffix << ")";
    return {*value, note.str()};
}

std::string key(std::string_view name, std::string_view fallback)
{
    return std::string(name.empty() ? fallback : name);
}

}  // namespace

void check_at_least(double measured, double threshold, std::string_view check, std::string_view unit,
                    std::string_view hint, std::string_view name)
{
    const auto [applied, note] = applied_threshold(threshold, false, key(name, check), "");
    const bool passed = measured >= applied;
    std::ostringstream text;
    text << check << ": " << fixed(measured, 2) << ' ' << unit << ", threshold " << fixed(applied, 2) << note << ", on "
         << device().name;
    results::SpeedResult recorded{
        key(name, check), std::string(unit),
        measured,         applied,
        threshold,        note.empty() ? std::string("grader") : results::threshold_overrides().source(),
        passed,           "figure"};
    recorded.unit = std::string(unit);
    results::recorder().add_speed(std::move(recorded));
    if (passed) {
        MESSAGE("fast enough: " << text.str());
    } else {
        FAIL_CHECK(failure::too_slow << " " << text.str() << ". " << hint << hint_command());
    }
}

bool check_physically_possible(double share_of_copy, std::string_view kernel, std::string_view measured)
{
    if (share_of_copy <= kMostPossibleShareOfCopy)
        return true;
    FAIL_CHECK(
        failure::impossible.with(std::string(kernel) + " would read at " + fixed(100 * share_of_copy, 1) +
                                 "% of the device-to-device copy bandwidth measured in the same run, beyond the " +
                                 fixed(100 * kMostPossibleShareOfCopy, 0) +
                                 "% any kernel reaches over an array this size: the timed runs did not do "
                                 "the work (" +
                                 std::string(measured) + ")"));
    return false;
}

bool check_technique(const Technique& t, std::string_view hint)
{
    const auto [applied, note] = applied_threshold(t.threshold, t.at_most, key(t.name, t.check), t.unit);
    const bool passed = t.at_most ? t.measured <= applied : t.measured >= applied;
    std::ostringstream text;
    text << t.check << ", " << t.figure << ": " << fixed(t.measured, 2) << t.unit << ", threshold "
         << (t.at_most ? "at most " : "at least ") << fixed(applied, 2) << t.unit << note
         << " (technique check on the CPU simulator's counters: " << t.counters << ")";
    results::SpeedResult recorded{key(t.name, t.check),
                                  t.figure,
                                  t.measured,
                                  applied,
                                  t.threshold,
                                  note.empty() ? std::string("grader") : results::threshold_overrides().source(),
                                  passed,
                                  "technique"};
    recorded.unit = t.unit;
    recorded.at_most = t.at_most;
    results::recorder().add_speed(std::move(recorded));
    if (passed) {
        MESSAGE("fast enough: " << text.str());
    } else {
        FAIL_CHECK(failure::too_slow << " " << text.str() << ". " << hint << hint_command());
    }
    return passed;
}

std::string hint_command()
{
    return " Hints, one at a time: ./course hint " + results::recorder().current_lesson();
}

void check_modelled_speedup(const ProfiledPair& pair, std::string_view candidate, std::string_view baseline,
                            std::string_view hint, std::string_view name)
{
    const std::string check = key(name, candidate) + "/modelled";
    const auto* listed = results::find_check(check, results::Backend::sim);
    if (listed == nullptr) {
        FAIL_CHECK("internal: the sim check '" << check << "' is not in the lesson's manifest");
        return;
    }
    const double threshold = listed->threshold;
    const double speedup = pair.baseline.modelled_ms / pair.candidate.modelled_ms;
    check_technique({std::string(candidate) + ", modelled time", "modelled speedup over " + std::string(baseline),
                     speedup, threshold, false, "x",
                     "modelled " + fixed(pair.baseline.modelled_ms, 3) + " ms -> " +
                         fixed(pair.candidate.modelled_ms, 3) + " ms; n = " + std::to_string(pair.n) + ", block " +
                         std::to_string(pair.block),
                     check},
                    hint);
}

void check_speedup(const Comparison& comparison, double threshold, std::string_view candidate,
                   std::string_view baseline, std::string_view hint, std::string_view name)
{
    // A class on other GPUs may override the threshold per lesson and check (COURSE_THRESHOLDS).
    const auto [applied, note] = applied_threshold(threshold, false, key(name, candidate), "x");
    const double speedup = comparison.speedup();
    const bool passed = speedup >= applied;

    std::ostringstream measured;
    measured << fixed(speedup, 2) << "x over " << baseline << " (median " << fixed(comparison.baseline.median, 3)
             << " ms -> " << fixed(comparison.candidate.median, 3) << " ms, spread "
             << fixed(100 * comparison.baseline.relative_spread(), 1) << "% / "
             << fixed(100 * comparison.candidate.relative_spread(), 1) << "%, " << comparison.candidate.runs
             << " runs each), threshold " << fixed(applied, 2) << "x" << note << ", on " << device().name;

    results::recorder().add_speed({key(name, candidate), std::string(baseline), speedup, applied, threshold,
                                   note.empty() ? std::string("grader") : results::threshold_overrides().source(),
                                   passed});
    if (passed) {
        MESSAGE("fast enough: " << candidate << " runs " << measured.str());
    } else {
        FAIL_CHECK(failure::too_slow << " " << candidate << " runs " << measured.str() << ". " << hint
                                     << hint_command());
    }
}

}  // namespace course::grading
