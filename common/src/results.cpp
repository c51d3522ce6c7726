#include "course/results.hpp"

#include <nlohmann/json.hpp>

#include "course/backend.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace course::results {

std::string lesson_number(std::string_view text)
{
    // The last path component that starts with two digits and an underscore, else "lessonNN",
    // else a bare "NN".
    const auto is_digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    std::string found;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('/', start), text.size());
        const std::string_view part = text.substr(start, end - start);
        if (part.size() >= 3 && is_digit(part[0]) && is_digit(part[1]) && part[2] == '_')
            found = std::string(part.substr(0, 2));
        else if (part.size() == 2 && is_digit(part[0]) && is_digit(part[1]))
            found = std::string(part);
        else if (const auto at = part.find("lesson"); found.empty() && at != std::string_view::npos &&
                                                      part.size() >= at + 8 && is_digit(part[at + 6]) &&
                                                      is_digit(part[at + 7]))
            found = std::string(part.substr(at + 6, 2));
        start = end + 1;
    }
    return found;
}

std::string_view backend_name(Backend backend)
{
    return backend == Backend::sim ? "sim" : "gpu";
}

Backend this_backend()
{
    return kOnSimulator ? Backend::sim : Backend::gpu;
}

namespace {

std::vector<CheckSpec>& registry()
{
    static std::vector<CheckSpec> checks;
    return checks;
}

std::string fixed2(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

/// "reduce_neighbored_less, reduce_interleaved/reduce_neighbored" (or "none").
std::string names_on(std::span<const CheckSpec> checks, Backend backend)
{
    std::string text;
    for (const auto& check : checks)
        if (check.backend == backend)
            text += (text.empty() ? "" : ", ") + std::string(check.name);
    return text.empty() ? "none" : text;
}

}  // namespace

CheckList::CheckList(std::span<const CheckSpec> checks)
{
    registry().insert(registry().end(), checks.begin(), checks.end());
}

const std::vector<CheckSpec>& registered_checks()
{
    return registry();
}

const CheckSpec* find_check(std::string_view name, Backend backend)
{
    for (const auto& check : registry())
        if (check.name == name && check.backend == backend)
            return &check;
    return nullptr;
}

double registered_threshold(std::string_view name, Backend backend)
{
    if (const auto* check = find_check(name, backend))
        return check->threshold;
    throw std::logic_error("the " + std::string(backend_name(backend)) + " check '" + std::string(name) +
                           "' is not in the lesson's manifest");
}

void print_checks(std::ostream& out, std::string_view lesson)
{
    std::size_t width = 5;
    for (const auto& check : registry())
        width = std::max(width, check.name.size());
    out << "lesson " << lesson << "'s speed checks (a thresholds file overrides them by back end and name: {\""
        << lesson << "\": {\"gpu\": {\"NAME\": VALUE}}})\n";
    out << "back end  " << std::string("check") + std::string(width - 5, ' ') << "  passes when      what\n";
    for (const auto& check : registry()) {
        std::string condition = (check.at_most ? "<= " : ">= ") + fixed2(check.threshold) + std::string(check.unit);
        condition.resize(std::max<std::size_t>(condition.size(), 15), ' ');
        out << backend_name(check.backend) << "       " << check.name << std::string(width - check.name.size(), ' ')
            << "  " << condition << "  " << check.figure << '\n';
    }
    if (registry().empty())
        out << "(none)\n";
}

ThresholdOverrides ThresholdOverrides::parse(std::string_view json_text, std::string source)
{
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::parse_error& error) {
        throw std::runtime_error(source + ": not valid JSON (" + error.what() + ")");
    }
    if (!json.is_object())
        throw std::runtime_error(source + ": expected an object {\"NN\": {\"gpu\": {\"check\": threshold, ...}}, ...}");
    ThresholdOverrides overrides;
    overrides.source_ = std::move(source);
    const auto& where = overrides.source_;
    for (const auto& [lesson, backends] : json.items()) {
        if (lesson.starts_with("_"))
            continue;  // "_comment" and the like
        const std::string number = lesson_number(lesson);
        if (number.empty())
            throw std::runtime_error(where + ": '" + lesson + "' does not name a lesson (use \"03\")");
        if (!backends.is_object())
            throw std::runtime_error(where + ": lesson '" + lesson +
                                     "' must map a back end (\"gpu\" or \"sim\") to "
                                     "its checks: {\"" +
                                     lesson + "\": {\"gpu\": {\"check\": threshold}}}");
        for (const auto& [backend, checks] : backends.items()) {
            if (backend.starts_with("_"))
                continue;
            if (backend != "gpu" && backend != "sim")
                throw std::runtime_error(where + ": lesson '" + lesson + "': '" + backend +
                                         "' is not a back end; name \"gpu\" or \"sim\" first: {\"" + lesson +
                                         "\": {\"gpu\": {\"" + backend + "\": ...}}}");
            if (!checks.is_object())
                throw std::runtime_error(where + ": lesson '" + lesson + "', back end '" + backend +
                                         "' must map check names to thresholds");
            for (const auto& [check, value] : checks.items()) {
                if (check.starts_with("_"))
                    continue;
                if (check == "*")
                    throw std::runtime_error(where + ": lesson '" + lesson + "', back end '" + backend +
                                             "': '*' is not accepted, the checks differ in unit and direction; "
                                             "name each one (lesson" +
                                             number + "_grader --list-checks)");
                if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>()))
                    throw std::runtime_error(where + ": the threshold of '" + lesson + "' / '" + backend + "' / '" +
                                             check + "' must be a positive number, not " + value.dump());
                overrides.entries_.push_back(
                    {number, backend == "sim" ? Backend::sim : Backend::gpu, check, value.get<double>()});
            }
        }
    }
    return overrides;
}

ThresholdOverrides ThresholdOverrides::load(const std::string& path)
{
    std::ifstream file(path);
    if (!file)
        throw std::runtime_error("cannot read the thresholds file " + path);
    std::ostringstream text;
    text << file.rdbuf();
    return parse(text.str(), path);
}

std::optional<double> ThresholdOverrides::find(std::string_view lesson, Backend backend, std::string_view check) const
{
    const std::string number = lesson_number(lesson);
    for (const auto& entry : entries_)
        if (entry.lesson == number && entry.backend == backend && entry.check == check)
            return entry.threshold;
    return std::nullopt;
}

std::vector<std::string> ThresholdOverrides::problems(std::string_view lesson, std::span<const CheckSpec> checks) const
{
    const std::string number = lesson_number(lesson);
    std::vector<std::string> found;
    for (const auto& entry : entries_) {
        if (entry.lesson != number)
            continue;
        const auto has = [&](Backend backend) {
            return std::any_of(checks.begin(), checks.end(),
                               [&](const CheckSpec& c) { return c.backend == backend && c.name == entry.check; });
        };
        if (has(entry.backend))
            continue;
        const Backend other = entry.backend == Backend::gpu ? Backend::sim : Backend::gpu;
        std::string text = source_ + ": lesson " + number + " has no " + std::string(backend_name(entry.backend)) +
                           " check '" + entry.check + "'";
        if (has(other))
            text += " (it is a " + std::string(backend_name(other)) + " check)";
        text += "; its " + std::string(backend_name(entry.backend)) + " checks: " + names_on(checks, entry.backend);
        found.push_back(std::move(text));
    }
    return found;
}

void Recorder::set_status(std::string status, std::string reason)
{
    status_ = std::move(status);
    reason_ = std::move(reason);
}

void Recorder::begin_case(std::string name, std::string suite, std::string_view file)
{
    CaseResult result;
    result.name = std::move(name);
    result.suite = std::move(suite);
    result.lesson = lesson_number(file);
    cases_.push_back(std::move(result));
    in_case_ = true;
}

CaseResult* Recorder::current()
{
    return in_case_ && !cases_.empty() ? &cases_.back() : nullptr;
}

void Recorder::add_failure(std::string text)
{
    if (auto* c = current())
        c->failures.push_back(std::move(text));
}

void Recorder::add_note(std::string text)
{
    if (auto* c = current())
        c->notes.push_back(std::move(text));
}

void Recorder::add_speed(SpeedResult result)
{
    if (auto* c = current())
        c->speed.push_back(std::move(result));
}

void Recorder::end_case(bool passed, double seconds)
{
    if (auto* c = current()) {
        c->passed = passed;
        c->finished = true;
        c->seconds = seconds;
    }
    in_case_ = false;
}

std::string Recorder::current_lesson() const
{
    if (in_case_ && !cases_.empty() && !cases_.back().lesson.empty())
        return cases_.back().lesson;
    return lesson_number(std::filesystem::path(program_).filename().string());
}

bool Recorder::complete_pass() const
{
    if (status_ != "finished" || exit_code_ != 0 || registered_cases_ <= 0 || selected_cases_ != registered_cases_ ||
        cases_.size() != static_cast<std::size_t>(registered_cases_))
        return false;
    for (const auto& c : cases_)
        if (!c.finished || !c.passed)
            return false;
    return true;
}

std::string Recorder::to_json() const
{
    nlohmann::json json;
    json["format"] = 1;
    json["program"] = std::filesystem::path(program_).filename().string();
    json["lesson"] = current_lesson();
    json["seed"] = seed_;
    json["device"] = device_;
    json["backend"] = backend_name(this_backend());
    json["status"] = status_;
    if (!reason_.empty())
        json["reason"] = reason_;
    json["exit_code"] = exit_code_ ? nlohmann::json(*exit_code_) : nlohmann::json(nullptr);
    json["registered_cases"] = registered_cases_;
    json["selected_cases"] = selected_cases_;
    json["complete_pass"] = complete_pass();
    json["thresholds_file"] = thresholds_source_.empty() ? nlohmann::json(nullptr) : nlohmann::json(thresholds_source_);
    // The thresholds file's entries for this lesson, and whether each replaced a check's own
    // threshold in this run (an entry for the other back end never does).
    json["threshold_overrides"] = nlohmann::json::array();
    const std::string lesson = current_lesson();
    for (const auto& entry : threshold_overrides().entries()) {
        if (entry.lesson != lesson)
            continue;
        bool applied = false;
        for (const auto& c : cases_)
            for (const auto& s : c.speed)
                applied = applied || (s.check == entry.check && s.backend == backend_name(entry.backend) &&
                                      s.threshold_source != "grader");
        const auto* spec = find_check(entry.check, entry.backend);
        json["threshold_overrides"].push_back(
            {{"check", entry.check},
             {"backend", backend_name(entry.backend)},
             {"threshold", entry.threshold},
             {"default_threshold", spec != nullptr ? nlohmann::json(spec->threshold) : nlohmann::json(nullptr)},
             {"applied", applied}});
    }
    json["cases"] = nlohmann::json::array();
    for (const auto& c : cases_) {
        nlohmann::json speed = nlohmann::json::array();
        for (const auto& s : c.speed) {
            speed.push_back({{"check", s.check},
                             {"baseline", s.baseline},
                             {"ratio", s.ratio},
                             {"threshold", s.threshold},
                             {"default_threshold", s.default_threshold},
                             {"threshold_source", s.threshold_source},
                             {"passed", s.passed},
                             {"kind", s.kind},
                             {"backend", s.backend},
                             {"unit", s.unit},
                             {"at_most", s.at_most}});
        }
        json["cases"].push_back({{"name", c.name},
                                 {"suite", c.suite},
                                 {"lesson", c.lesson},
                                 {"verdict", !c.finished ? "unfinished"
                                             : c.passed  ? "pass"
                                                         : "fail"},
                                 {"seconds", c.seconds},
                                 {"failures", c.failures},
                                 {"notes", c.notes},
                                 {"speed", speed}});
    }
    return json.dump();
}

void Recorder::write(const std::string& path) const
{
    const std::string temporary = path + ".part";
    {
        std::ofstream file(temporary, std::ios::trunc);
        if (!file)
            throw std::runtime_error("cannot write the results file " + path);
        file << to_json() << '\n';
        if (!file.flush())
            throw std::runtime_error("cannot write the results file " + path);
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error)
        throw std::runtime_error("cannot write the results file " + path + ": " + error.message());
}

namespace {
ThresholdOverrides g_overrides;
}

Recorder& recorder()
{
    static Recorder instance;
    return instance;
}

const ThresholdOverrides& threshold_overrides()
{
    return g_overrides;
}
void set_threshold_overrides(ThresholdOverrides overrides)
{
    g_overrides = std::move(overrides);
}

}  // namespace course::results
