#include "course/results_listener.hpp"
#include "course/failures.hpp"

#include "course/results.hpp"

#include <cerrno>
#include <cstddef>
#include <exception>
#include <iostream>
#include <utility>

#include <unistd.h>

namespace course::results {
namespace {

std::string g_results_path;
int g_results_channel = -1;

/// Writes all of `text`, however many calls the pipe takes.
bool write_all(int fd, const std::string& text)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        done += static_cast<std::size_t>(written);
    }
    return true;
}

std::string text_of(const doctest::String& s)
{
    return std::string(s.c_str(), s.size());
}

}  // namespace

void set_results_path(std::string path)
{
    g_results_path = std::move(path);
}
const std::string& results_path()
{
    return g_results_path;
}

void set_results_channel(int fd)
{
    g_results_channel = fd;
}

void write_results() noexcept
{
    if (g_results_channel >= 0) {
        try {
            if (!write_all(g_results_channel, recorder().to_json() + "\n")) {
                std::cerr << "results: the results channel (fd " << g_results_channel << ") is closed\n";
                g_results_channel = -1;
            }
        } catch (const std::exception& error) {
            std::cerr << "results: " << error.what() << '\n';
            g_results_channel = -1;
        }
    }
    if (g_results_path.empty())
        return;
    try {
        recorder().write(g_results_path);
    } catch (const std::exception& error) {
        std::cerr << "results: " << error.what() << '\n';
        g_results_path.clear();
    }
}

void ResultsListener::test_run_end(const doctest::TestRunStats& stats)
{
    recorder().set_run_counts(static_cast<int>(stats.numTestCases), static_cast<int>(stats.numTestCasesPassingFilters));
}

void ResultsListener::test_case_start(const doctest::TestCaseData& data)
{
    recorder().begin_case(data.m_name, data.m_test_suite != nullptr ? data.m_test_suite : "", text_of(data.m_file));
}

void ResultsListener::test_case_end(const doctest::CurrentTestCaseStats& stats)
{
    recorder().end_case(stats.testCaseSuccess, stats.seconds);
    write_results();
}

void ResultsListener::test_case_exception(const doctest::TestCaseException& e)
{
    recorder().add_failure((e.is_crash ? failure::crash.with("") : std::string()) + text_of(e.error_string));
}

void ResultsListener::log_assert(const doctest::AssertData& a)
{
    if (!a.m_failed)
        return;
    std::string text = a.m_threw ? failure::exception.with(text_of(a.m_exception)) : std::string(a.m_expr);
    if (!a.m_threw && a.m_decomp.size() > 0)
        text += " (" + text_of(a.m_decomp) + ")";
    recorder().add_failure(std::move(text));
}

void ResultsListener::log_message(const doctest::MessageData& m)
{
    // MESSAGE() is a note; FAIL_CHECK() and friends are failures.
    if ((m.m_severity & doctest::assertType::is_warn) != 0)
        recorder().add_note(text_of(m.m_string));
    else
        recorder().add_failure(text_of(m.m_string));
}

}  // namespace course::results
