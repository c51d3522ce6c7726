#pragma once
/// @file cuda_check.hpp
/// @brief Checking every CUDA runtime call: one macro, one exception type.
///
/// A failed call throws course::CudaError carrying the call's text, file:line, and the error's name
/// and description. In a grader doctest catches it and reports a failed test case with that text,
/// instead of the whole process dying; in a demo main() prints it and exits non-zero.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace course {

/// A CUDA runtime call returned something other than cudaSuccess.
class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, const char* call, const char* file, int line);
    /// `error` with what was running when it happened appended: "... while running reduce_x,
    /// n = 513, block = 64, seed 12". A fault is reported with the case that caused it, not only
    /// the line of the course's code that noticed it.
    CudaError(const CudaError& error, const std::string& running);

    /// The runtime's error code, e.g. cudaErrorIllegalAddress.
    [[nodiscard]] cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

/// The message CudaError carries: "CUDA error cudaErrorX (text) in `call` at file:line"; on the
/// simulator followed by ": " and its description of the kernel fault behind the error, if any
/// (which kernel, block and thread did what where: an illegal access, a shared-memory race, ...).
[[nodiscard]] std::string describe_cuda_error(cudaError_t code, const char* call, const char* file, int line);

namespace detail {
/// A checked CUDA call returned: what the demos' idle watchdog (course/watchdog.hpp) waits for.
void note_progress() noexcept;
void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);
void report_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept;
}  // namespace detail

}  // namespace course

/// Evaluates a CUDA runtime call; throws course::CudaError if it did not return cudaSuccess.
#define COURSE_CUDA_CHECK(call)                                                            \
    do {                                                                                   \
        const cudaError_t course_status_ = (call);                                         \
        ::course::detail::note_progress();                                                 \
        if (course_status_ != cudaSuccess)                                                 \
            ::course::detail::throw_cuda_error(course_status_, #call, __FILE__, __LINE__); \
    } while (false)

/// For destructors and other places that must not throw: reports the failure on stderr.
#define COURSE_CUDA_CHECK_NOEXCEPT(call)                                                    \
    do {                                                                                    \
        const cudaError_t course_status_ = (call);                                          \
        if (course_status_ != cudaSuccess)                                                  \
            ::course::detail::report_cuda_error(course_status_, #call, __FILE__, __LINE__); \
    } while (false)

/// After a kernel launch: a bad configuration shows up at once (cudaGetLastError); a fault inside
/// the kernel shows up at the next synchronising call, which COURSE_CUDA_CHECK also checks.
#define COURSE_CHECK_LAUNCH() COURSE_CUDA_CHECK(cudaGetLastError())
