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
/// A thresholds file maps a lesson (`"03"`, `"lesson03"` or `"03_neighbored_reduction"`) to the
/// speed checks to override, by the candidate's name as the grader prints it (`"*"`: every check
/// of that lesson):
/// @code{.json}
/// {"03": {"reduce_neighbored_less": 1.2}}
/// @endcode

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace course::results {

/// Threshold overrides by lesson number and check name.
class ThresholdOverrides {
public:
    /// Parses the JSON text of a thresholds file; `source` names it in messages and reports.
    /// Throws std::runtime_error saying what is wrong (not an object, a value not a positive number).
    [[nodiscard]] static ThresholdOverrides parse(std::string_view json_text, std::string source);
    /// Reads and parses the file at `path`; throws std::runtime_error naming the path.
    [[nodiscard]] static ThresholdOverrides load(const std::string& path);

    /// The override for `check` of `lesson` (any spelling that starts with the lesson's two
    /// digits, or "lessonNN"), if the file has one: the check's own entry first, then "*".
    [[nodiscard]] std::optional<double> find(std::string_view lesson, std::string_view check) const;
    [[nodiscard]] const std::string& source() const { return source_; }
    [[nodiscard]] bool empty() const { return by_lesson_.empty(); }

private:
    std::map<std::string, std::map<std::string, double, std::less<>>, std::less<>> by_lesson_;
    std::string source_;
};

/// The two digits that number a lesson, from "03", "lesson03", "03_neighbored_reduction" or a
/// path such as ".../lessons/03_neighbored_reduction/grader.cpp"; empty if there are none.
[[nodiscard]] std::string lesson_number(std::string_view text);

/// One speed check: the measured ratio against the threshold that applied.
struct SpeedResult {
    std::string check;     ///< the candidate's name, e.g. "reduce_neighbored_less"
    std::string baseline;  ///< what it was timed against (check_at_least: the figure's unit)
    double ratio = 0;      ///< baseline median / candidate median
    double threshold = 0;  ///< the threshold applied (the override if there was one)
    double default_threshold = 0;  ///< the grader's own threshold
    std::string threshold_source;  ///< "grader" or the overrides file
    bool passed = false;
    std::string kind = "speedup";  ///< "speedup" (check_speedup), "figure" (check_at_least) or
                                   ///< "technique" (check_technique, on the simulator)
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
