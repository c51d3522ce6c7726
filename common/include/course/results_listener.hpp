#pragma once
/// @file results_listener.hpp
/// @brief The doctest listener that fills course::results::recorder() during a grader run and
/// rewrites the results file after every test case. Only host C++ that already uses doctest
/// includes this (the graders' main and the course's own tests).

#include <doctest/doctest.h>

#include <string>

namespace course::results {

/// Where write_results() writes (empty: nowhere).
void set_results_path(std::string path);
[[nodiscard]] const std::string& results_path();
/// A pipe the process that started the grader reads (-1: none): the channel it trusts, since no
/// other process can write into it (the grader keeps it from its children, and a student's code
/// never runs in the grader). Each write_results() appends the whole record as one JSON line.
void set_results_channel(int fd);
/// Writes the recorder to the results path and the channel, where set; a failure is printed
/// once, then that destination is forgotten (the grading itself goes on).
void write_results() noexcept;

/// Feeds the recorder from doctest's events: every case's verdict and what it reported.
/// Register it with REGISTER_LISTENER("course_results", 1, course::results::ResultsListener).
class ResultsListener : public doctest::IReporter {
public:
    explicit ResultsListener(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats& stats) override;
    void test_case_start(const doctest::TestCaseData& data) override;
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats& stats) override;
    void test_case_exception(const doctest::TestCaseException& e) override;
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData& a) override;
    void log_message(const doctest::MessageData& m) override;
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace course::results
