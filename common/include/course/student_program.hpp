#pragma once
/// @file student_program.hpp
/// @brief A student's host C++ code, run as a separate program that the judge questions.
///
/// A lesson whose exercises are plain C++ functions (lesson 06's occupancy calculator) builds the
/// student's `.cpp` files together with a `main` the lesson writes into a program of their own,
/// without the CUDA runtime (cmake/Course.cmake, STUDENT_PROGRAM). The grader, the host check and
/// the demo never link the student's code: they run that program as a child process, write
/// questions on its standard input, read the answers from its standard output and compare them with
/// their own references. Nothing the program prints is a verdict, only answers to be checked.
///
/// The protocol (the lesson's `main` and the lesson's client both keep to it):
///   - the judge writes every question of one run, one per line, then closes the program's input:
///     a word naming the question, then numbers, separated by single spaces;
///   - the program writes exactly one answer per question, in the same order, one per line:
///     numbers separated by single spaces (integers in decimal, real numbers as `%.17g` prints
///     them), and nothing else on its standard output; then it exits with status 0;
///   - its standard error is the student's for debugging: the judge shows what it holds, marked
///     as the student program's, and never reads meaning into it.
/// One run answers many questions (a whole test case), so that a check of 100000 configurations
/// starts one process, not 100000.
///
/// The program runs with an empty environment, in a fresh temporary folder that is removed
/// afterwards, with only its standard input, output and error open (never the grader's results
/// pipe), in a process group of its own, and under these limits: CPU time, no file it could write
/// (RLIMIT_FSIZE 0), no file it could open (RLIMIT_NOFILE 3: the program is linked statically, so
/// starting it opens nothing), a finite address space, no core file, and a wall-clock limit after
/// which the judge kills its whole process group.
///
/// Where the program is: `FOLDER/LESSON/student_program` in the first folder of the student
/// module path that has one (course/module.hpp: set by the graders' and demos' --modules option).

#include <charconv>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

namespace course {

/// Why a run of the student program gave no usable answers; what() is one sentence that starts
/// with "error: the student program ...".
class StudentProgramError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// How long and how much one run may take.
struct StudentProgramLimits {
    std::chrono::seconds wall_clock{15};                     ///< then the judge kills it
    int cpu_seconds = 5;                                     ///< RLIMIT_CPU (then SIGXCPU)
    std::size_t address_space_bytes = std::size_t{2} << 30;  ///< RLIMIT_AS
    std::size_t answer_bytes = std::size_t{64} << 20;        ///< more standard output than this is refused
};

/// One line the program printed on its standard output, split at spaces.
struct Answer {
    std::string line;                 ///< as printed, without its newline
    std::vector<std::string> fields;  ///< the numbers, as text
};

/// The student program of one lesson.
class StudentProgram {
public:
    /// Finds `lesson`'s program ("06_occupancy") on the student module path; throws
    /// StudentProgramError when no folder of it has one.
    explicit StudentProgram(std::string_view lesson, StudentProgramLimits limits = {});

    [[nodiscard]] const std::filesystem::path& file() const { return file_; }

    /// Runs the program once with `questions` (each one line, without its newline) and returns its
    /// answers, one per question, in order. Throws StudentProgramError when the program cannot be
    /// started, does not finish within the limits, dies of a signal, exits with another status than
    /// 0, prints a line that is not numbers, or prints more or fewer lines than there are questions.
    [[nodiscard]] std::vector<Answer> ask(std::span<const std::string> questions) const;

    /// Field `index` of `answer` as a T, after checking that the answer has exactly `fields` fields;
    /// throws the "printed something that is not an answer" error otherwise.
    template <class T>
    [[nodiscard]] T number(const Answer& answer, std::size_t fields, std::size_t index) const
    {
        static_assert(std::is_arithmetic_v<T>);
        T value{};
        if (answer.fields.size() == fields && index < fields) {
            const std::string& text = answer.fields[index];
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (error == std::errc{} && end == text.data() + text.size())
                return value;
        }
        reject(answer, fields);
    }

    /// Throws the "printed something that is not an answer" error for `answer`, where an answer of
    /// `fields` numbers was expected (for a lesson's own checks of a number's range, say).
    [[noreturn]] void reject(const Answer& answer, std::size_t fields) const;

private:
    [[nodiscard]] std::string error_prefix() const;

    std::filesystem::path file_;
    StudentProgramLimits limits_;
};

}  // namespace course
