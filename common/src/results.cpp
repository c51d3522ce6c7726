#include "course/results.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
        else if (const auto at = part.find("lesson");
                 found.empty() && at != std::string_view::npos && part.size() >= at + 8 && is_digit(part[at + 6]) &&
                 is_digit(part[at + 7]))
            found = std::string(part.substr(at + 6, 2));
        start = end + 1;
    }
    return found;
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
        throw std::runtime_error(source + ": expected an object {\"NN\": {\"check\": threshold, ...}, ...}");
    ThresholdOverrides overrides;
    overrides.source_ = std::move(source);
    for (const auto& [lesson, checks] : json.items()) {
        if (lesson.starts_with("_"))
            continue;  // "_comment" and the like
        const std::string number = lesson_number(lesson);
        if (number.empty())
            throw std::runtime_error(overrides.source_ + ": '" + lesson + "' does not name a lesson (use \"03\")");
        if (!checks.is_object())
            throw std::runtime_error(overrides.source_ + ": lesson '" + lesson + "' must map check names to numbers");
        for (const auto& [check, value] : checks.items()) {
            if (!value.is_number() || value.get<double>() <= 0)
                throw std::runtime_error(overrides.source_ + ": threshold of '" + lesson + "' / '" + check +
                                         "' must be a positive number");
            overrides.by_lesson_[number][check] = value.get<double>();
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

std::optional<double> ThresholdOverrides::find(std::string_view lesson, std::string_view check) const
{
    const auto lesson_it = by_lesson_.find(lesson_number(lesson));
    if (lesson_it == by_lesson_.end())
        return std::nullopt;
    for (const std::string_view key : {check, std::string_view("*")}) {
        if (const auto it = lesson_it->second.find(key); it != lesson_it->second.end())
            return it->second;
    }
    return std::nullopt;
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

CaseResult* Recorder::current() { return in_case_ && !cases_.empty() ? &cases_.back() : nullptr; }

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
    json["status"] = status_;
    if (!reason_.empty())
        json["reason"] = reason_;
    json["exit_code"] = exit_code_ ? nlohmann::json(*exit_code_) : nlohmann::json(nullptr);
    json["registered_cases"] = registered_cases_;
    json["selected_cases"] = selected_cases_;
    json["complete_pass"] = complete_pass();
    json["thresholds_file"] = thresholds_source_.empty() ? nlohmann::json(nullptr) : nlohmann::json(thresholds_source_);
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
                             {"kind", s.kind}});
        }
        json["cases"].push_back({{"name", c.name},
                                 {"suite", c.suite},
                                 {"lesson", c.lesson},
                                 {"verdict", !c.finished ? "unfinished" : c.passed ? "pass" : "fail"},
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

const ThresholdOverrides& threshold_overrides() { return g_overrides; }
void set_threshold_overrides(ThresholdOverrides overrides) { g_overrides = std::move(overrides); }

}  // namespace course::results
