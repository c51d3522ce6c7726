#include "course/cuda_check.hpp"
#include "course/failures.hpp"

#include <iostream>
#include <sstream>

#ifdef COURSE_ON_SIMULATOR
#include <cudasim/faults.hpp>
#endif

namespace course {

std::string describe_cuda_error(cudaError_t code, const char* call, const char* file, int line)
{
    std::ostringstream text;
    text << failure::cuda_error << " " << cudaGetErrorName(code) << " (" << cudaGetErrorString(code) << ") in `" << call
         << "` at " << file << ':' << line;
#ifdef COURSE_ON_SIMULATOR
    // The runtime's text for a faulting kernel is terse ("unspecified launch failure"); the
    // simulator knows which thread did what where (an out-of-bounds access, a race, ...).
    if (const auto fault = cudasim::last_device_fault();
        fault.error == static_cast<int>(code) && !fault.message.empty())
        text << ": " << fault.message;
#endif
    return text.str();
}

CudaError::CudaError(cudaError_t code, const char* call, const char* file, int line)
    : std::runtime_error(describe_cuda_error(code, call, file, line)), code_(code)
{
}

CudaError::CudaError(const CudaError& error, const std::string& running)
    : std::runtime_error(std::string(error.what()) + " while running " + running), code_(error.code())
{
}

namespace detail {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line)
{
    throw CudaError(code, call, file, line);
}

void report_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept
{
    std::cerr << describe_cuda_error(code, call, file, line) << '\n';
}

}  // namespace detail
}  // namespace course
