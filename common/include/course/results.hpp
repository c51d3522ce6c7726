#pragma once
/// @file results.hpp
/// @brief What a grader leaves behind for the course driver: each test case's verdict and
/// messages, each speed check's measured ratio and threshold, as JSON; and per-lesson threshold
/// overrides read from a JSON file (for a class whose GPUs differ from the course's reference GPU).
///
/// A grader run with `COURSE_RESULTS=path` (or `--results=path`) writes the file after every test
/// case, so a run stopped by its watchdog still leaves the cases it finished. `./course status`,
/// `./course watch` and `./course grade --submissions` read it.
///
/// A thresholds file maps a lesson (`"03"`, `"lesson03"` or `"03_neighbored_reduction"`) and a back
/// end (`"gpu"`: timings on a GPU; `"sim"`: technique checks on the CPU simulator's counters) to the
/// checks to override, each by its name in the grader's check list (`lessonNN_grader --list-checks`):
/// @code{.json}
/// {"03": {"gpu": {"reduce_neighbored_less": 1.2}}}
/// @endcode
/// Keys starting with `_` are comments. A name the grader does not have on that back end, or a
/// value that is not a positive number, stops the grader before it grades (exit code 2).

#include <algorithm>
#include <iosfwd>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace course::results {

/// Where a check measures: a GPU's timings, or the CPU simulator's counters (technique checks).
enum class Backend { gpu, sim };

/// "gpu" or "sim", as a thresholds file and --list-checks spell them.
[[nodiscard]] std::string_view backend_name(Backend backend);
/// The back end of this build (course::kOnSimulator).
[[nodiscard]] Backend this_backend();

/// One speed or technique check of a grader: what `lessonNN_grader --list-checks` prints and a
/// thresholds file may override.
struct CheckSpec {
    std::string_view name;  ///< unique in its lesson and back end: the candidate kernel's name,
                            ///< or "candidate/what" where the kernel has more than one check there
    Backend backend = Backend::gpu;
    double threshold = 0;     ///< the grader's own threshold
    bool at_most = false;     ///< passes at or below the threshold (else at or above it)
    std::string_view unit;    ///< printed after the numbers: "x" (a ratio), "%", " B", ""
    std::string_view figure;  ///< what is measured, in a few words
};

/// Registers a grader's checks, once, at namespace scope (static initialisation: nothing else runs
/// then, and --list-checks needs no device). A lesson's checks are its manifest's: the build
/// generates `lesson_checks.hpp` from lesson.json's speed_checks, which registers them (see
/// cmake/CourseManifest.cmake), and the grader reads each threshold from it by name
/// (manifest::threshold). A grader that registers checks may only run checks that it registered,
/// with the registered threshold and direction (course::grading's check functions fail the case
/// otherwise).
class CheckList {
public:
    explicit CheckList(std::span<const CheckSpec> checks);
};

/// The threshold of the check `name` on `backend` in `checks`. In a constant expression a name
/// that `checks` lacks does not compile: a grader cannot ask for a check its manifest does not
/// declare.
constexpr double threshold_of(std::span<const CheckSpec> checks, std::string_view name, Backend backend)
{
    for (const CheckSpec& check : checks)
        if (check.name == name && check.backend == backend)
            return check.threshold;
    throw std::invalid_argument("no speed check of that name and back end in the lesson's manifest");
}

/// Every check registered in this program (its grader's).
[[nodiscard]] const std::vector<CheckSpec>& registered_checks();
/// The registered check `name` on `backend`, or nullptr.
[[nodiscard]] const CheckSpec* find_check(std::string_view name, Backend backend);
/// The threshold of the registered check `name` on `backend`, for a check whose name is made at
/// run time (one per kernel). Throws std::logic_error naming a check that is not registered.
[[nodiscard]] double registered_threshold(std::string_view name, Backend backend);
/// The registered checks of `lesson` as a table: back end, name, pass condition, what is measured.
void print_checks(std::ostream& out, std::string_view lesson);

/// One entry of a thresholds file.
struct Override {
    std::string lesson;  ///< two digits
    Backend backend = Backend::gpu;
    std::string check;
    double threshold = 0;
};

/// Threshold overrides by lesson, back end and check name.
class ThresholdOverrides {
public:
    /// Parses the JSON text of a thresholds file; `source` names it in messages and reports.
    /// Throws std::runtime_error saying what is wrong (not an object, a lesson or back end it
    /// does not know, a value not a positive number).
    [[nodiscard]] static ThresholdOverrides parse(std::string_view json_text, std::string source);
    /// Reads and parses the file at `path`; throws std::runtime_error naming the path.
    [[nodiscard]] static ThresholdOverrides load(const std::string& path);

    /// The override for `check` of `lesson` (any spelling of it, see lesson_number) on `backend`.
    [[nodiscard]] std::optional<double> find(std::string_view lesson, Backend backend, std::string_view check) const;
    /// One line for each entry of `lesson` that names no check of `checks` on its back end.
    [[nodiscard]] std::vector<std::string> problems(std::string_view lesson, std::span<const CheckSpec> checks) const;
    [[nodiscard]] const std::vector<Override>& entries() const { return entries_; }
    [[nodiscard]] const std::string& source() const { return source_; }
    [[nodiscard]] bool empty() const { return entries_.empty(); }

private:
    std::vector<Override> entries_;
    std::string source_;
};

/// The two digits that number a lesson, from "03", "lesson03", "03_neighbored_reduction" or a
/// path such as ".../lessons/03_neighbored_reduction/grader.cpp"; empty if there are none.
[[nodiscard]] std::string lesson_number(std::string_view text);

/// One speed check: the measured ratio against the threshold that applied.
struct SpeedResult {
    std::string check;             ///< the check's name in the grader's check list, e.g. "reduce_neighbored_less"
    std::string baseline;          ///< what it was timed against (check_at_least: the figure's unit)
    double ratio = 0;              ///< baseline median / candidate median
    double threshold = 0;          ///< the threshold applied (the override if there was one)
    double default_threshold = 0;  ///< the grader's own threshold
    std::string threshold_source;  ///< "grader" or the overrides file
    bool passed = false;
    std::string kind = "speedup";  ///< "speedup" (check_speedup), "figure" (check_at_least) or
                                   ///< "technique" (check_technique, on the simulator)
    std::string backend = std::string(backend_name(this_backend()));  ///< "gpu" or "sim"
    std::string unit = "x";  ///< printed after ratio and threshold: "x", "%", " B", ""
    bool at_most = false;    ///< passes at or below the threshold (else at or above it)
};

/// One test case of a grader run.
struct CaseResult {
    std::string name;
    std::string suite;
    std::string lesson;  ///< the lesson's number, from the file that defines the case
    bool passed = false;
    bool finished = false;
    double seconds = 0;
    std::vector<std::string> failures;  ///< failed checks, exceptions, crashes, in order
    std::vector<std::string> notes;     ///< informational messages (e.g. "fast enough: ...")
    std::vector<SpeedResult> speed;
};

/// The record of one grader run, filled in by the grader's doctest listener and by
/// course::grading::check_speedup.
class Recorder {
public:
    void set_program(std::string program) { program_ = std::move(program); }
    void set_seed(unsigned long long seed) { seed_ = seed; }
    void set_device(std::string device) { device_ = std::move(device); }
    void set_thresholds_source(std::string source) { thresholds_source_ = std::move(source); }
    /// "running" until set to "finished", "skipped" (with a reason) or "error".
    void set_status(std::string status, std::string reason = {});
    void set_exit_code(int code) { exit_code_ = code; }
    /// What doctest reports at the end of the run: the cases the program has, those that ran.
    void set_run_counts(int registered, int selected)
    {
        registered_cases_ = registered;
        selected_cases_ = selected;
    }
    /// The judge's own verdict: the run finished with exit code 0, every case the program has was
    /// selected, ran to its end and passed. Nothing less is a pass.
    [[nodiscard]] bool complete_pass() const;

    void begin_case(std::string name, std::string suite, std::string_view file);
    /// A message for the current case (dropped when no case is running).
    void add_failure(std::string text);
    void add_note(std::string text);
    void add_speed(SpeedResult result);
    void end_case(bool passed, double seconds);

    /// The lesson of the running case, else the one named by the program ("lesson03_grader").
    [[nodiscard]] std::string current_lesson() const;
    [[nodiscard]] const std::vector<CaseResult>& cases() const { return cases_; }

    /// The record as JSON on one line.
    [[nodiscard]] std::string to_json() const;
    /// Writes to_json() to `path` (through a temporary file, so a reader never sees half a file);
    /// throws std::runtime_error naming the path.
    void write(const std::string& path) const;

private:
    [[nodiscard]] CaseResult* current();

    std::string program_;
    unsigned long long seed_ = 0;
    std::string device_;
    std::string thresholds_source_;
    std::string status_ = "running";
    std::string reason_;
    std::optional<int> exit_code_;
    int registered_cases_ = -1;  ///< -1 until the run ends
    int selected_cases_ = -1;
    std::vector<CaseResult> cases_;
    bool in_case_ = false;
};

/// The process's recorder and threshold overrides (a grader is one process, one run).
[[nodiscard]] Recorder& recorder();
[[nodiscard]] const ThresholdOverrides& threshold_overrides();
void set_threshold_overrides(ThresholdOverrides overrides);

}  // namespace course::results
