#pragma once
/// @file failures.hpp
/// @brief The words a grader's failure message starts with: the course's one failure vocabulary.
///
/// A reader, the course's self-tests and the driver tell why a grader failed by the first words of
/// its message. They are defined here and nowhere else: cmake/Course.cmake (a starter's forbidden
/// failures) and the driver (`course`, the verdict) read the `inline constexpr Word` lines of this
/// file, so a new word is one line here. Keep each on one line, in that form.

#include <ostream>
#include <string>
#include <string_view>

namespace course::failure {

/// What a failure says about the submission, and so the verdict the driver gives.
enum class Kind {
    correctness,  ///< the results are wrong: fail
    fault,        ///< the kernel or the student's program crashed: fault
    speed,        ///< right, and too slow: fail
    timeout,      ///< the grader had to stop it: timeout
    grader,       ///< the grader itself failed: error, no verdict on the submission
};

/// One failure word: the text a message starts with, and its kind.
struct Word {
    std::string_view text;
    Kind kind;

    /// The whole message: the word, a space, then what went wrong.
    [[nodiscard]] std::string with(std::string_view details) const
    {
        std::string message(text);
        message += ' ';
        message += details;
        return message;
    }
    friend std::ostream& operator<<(std::ostream& out, const Word& word) { return out << word.text; }
};

// clang-format off
inline constexpr Word wrong_result{"wrong result:", Kind::correctness};          ///< a value is not the exact one
inline constexpr Word not_written{"not written:", Kind::correctness};            ///< an output still holds poison
inline constexpr Word wrong_occupancy{"wrong occupancy:", Kind::correctness};    ///< lesson 06: a calculator's answer
inline constexpr Word missing_fence{"missing fence:", Kind::correctness};        ///< lesson 09: unordered partials
inline constexpr Word race{"race:", Kind::correctness};                          ///< the result changed with the warps' order
inline constexpr Word bad_configuration{"bad configuration:", Kind::correctness}; ///< a launch that cannot run
inline constexpr Word exception{"exception:", Kind::correctness};                ///< a test case threw
inline constexpr Word bad_module{"bad module:", Kind::correctness};              ///< lacks a kernel, or keeps state
inline constexpr Word unsafe{"unsafe:", Kind::correctness};                      ///< compute-sanitizer found a bug
inline constexpr Word impossible{"impossible time:", Kind::correctness};         ///< faster than the device can be
inline constexpr Word inconsistent{"inconsistent:", Kind::correctness};          ///< two same launches, other work
inline constexpr Word cuda_error{"CUDA error", Kind::fault};                     ///< a CUDA call or a kernel failed
inline constexpr Word crash{"crash:", Kind::fault};                              ///< the grader caught a fatal signal
inline constexpr Word too_slow{"too slow:", Kind::speed};                        ///< right, below the threshold
inline constexpr Word timeout{"timeout:", Kind::timeout};                        ///< the watchdog stopped the grader
inline constexpr Word grader_error{"grader error:", Kind::grader};               ///< the grader's own exception
// clang-format on

}  // namespace course::failure
