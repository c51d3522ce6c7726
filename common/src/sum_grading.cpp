#include "course/sum_grading.hpp"

#include "course/cuda_check.hpp"
#include "course/data.hpp"
#include "course/failures.hpp"
#include "course/grading.hpp"
#include "course/reduction.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <utility>

namespace course::grading {

SumInput::SumInput(std::size_t capacity) : buffer_(capacity + kMaxMisalignment + kGuardElements)
{
}

int* SumInput::put(const std::vector<int>& values, std::size_t offset)
{
    int* start = buffer_.data() + offset;
    COURSE_CUDA_CHECK(cudaMemcpy(start, values.data(), values.size() * sizeof(int), cudaMemcpyHostToDevice));
    COURSE_CUDA_CHECK(cudaMemset(start + values.size(), kPoisonByte, kGuardElements * sizeof(int)));
    // Both calls run on the legacy default stream and may return before the device has the data
    // (cudaMemcpy from pageable memory returns once the data is staged). The kernels run on
    // non-blocking streams, which do not wait for the default stream: wait here.
    COURSE_CUDA_CHECK(cudaDeviceSynchronize());
    return start;
}

SumCase make_sum_case(std::size_t n, int lo, int hi, std::uint64_t stream)
{
    const std::uint64_t seed = derive_seed(run_seed(), stream);
    auto values = random_ints(n, seed, lo, hi);
    const long long expected = exact_sum(values);
    return {n, lo, hi, seed, std::move(values), expected};
}

std::string describe_sum_case(const SumCase& input, std::size_t offset, std::string_view extra)
{
    std::ostringstream text;
    text << "n = " << input.n;
    if (offset != 0)
        text << " at data + " << offset << " (not 16-byte aligned)";
    text << " (values " << input.lo << ".." << input.hi << ", input seed " << input.seed << extra << ")";
    return text.str();
}

bool check_sum(long long got, const SumCase& input, std::size_t offset, std::string_view kernel, std::string_view when,
               std::string_view extra)
{
    if (got == input.expected)
        return true;
    std::ostringstream text;
    const std::string where = std::string(kernel) + std::string(when) + ", " + describe_sum_case(input, offset, extra);
    if (got == kPoisonSum)
        text << failure::not_written << " " << where << ": *result still holds the poison value 0x7f7f7f7f7f7f7f7f";
    else
        text << failure::wrong_result << " " << where << ": got " << got << ", expected " << input.expected
             << " (off by " << input.expected - got << ")";
    FAIL_CHECK(text.str());
    return false;
}

CheckedSumRuns::CheckedSumRuns(int* data, SumCase input, long long* result, std::string kernel)
    : CheckedSumRuns(
          data, std::move(input),
          [result](cudaStream_t stream) {
              COURSE_CUDA_CHECK(cudaMemsetAsync(result, kPoisonByte, sizeof(long long), stream));
          },
          [result](cudaStream_t stream) {
              long long got = 0;
              COURSE_CUDA_CHECK(cudaMemcpyAsync(&got, result, sizeof got, cudaMemcpyDeviceToHost, stream));
              COURSE_CUDA_CHECK(cudaStreamSynchronize(stream));
              return got;
          },
          std::move(kernel))
{
}

CheckedSumRuns::CheckedSumRuns(int* data, SumCase input, std::function<void(cudaStream_t)> poison,
                               std::function<long long(cudaStream_t)> read, std::string kernel)
    : data_(data), input_(std::move(input)), poison_(std::move(poison)), read_(std::move(read)),
      kernel_(std::move(kernel)), random_(derive_seed(input_.seed, 0x5E7C))
{
}

std::function<void(cudaStream_t)> CheckedSumRuns::setup()
{
    return [this](cudaStream_t stream) {
        for (int k = 0; k < kChangesPerRun; ++k) {
            const std::size_t at = random_() % input_.n;
            const auto span = static_cast<std::uint64_t>(std::int64_t{input_.hi} - input_.lo + 1);
            const int value = static_cast<int>(std::int64_t{input_.lo} + static_cast<std::int64_t>(random_() % span));
            input_.expected += std::int64_t{value} - input_.values[at];
            input_.values[at] = value;
            // Pageable host memory: the copy is staged before the call returns, so `value` may go.
            COURSE_CUDA_CHECK(
                cudaMemcpyAsync(data_ + at, &input_.values[at], sizeof(int), cudaMemcpyHostToDevice, stream));
        }
        poison_(stream);
    };
}

std::function<void(cudaStream_t)> CheckedSumRuns::check()
{
    return [this](cudaStream_t stream) {
        ++runs_;
        if (failed_)
            return;
        failed_ = !check_sum(read_(stream), input_, 0, kernel_,
                             " (timed run " + std::to_string(runs_) + ", " + std::to_string(kChangesPerRun) +
                                 " elements changed before it)");
    };
}

}  // namespace course::grading
