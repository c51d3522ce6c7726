#include "course/sum_grading.hpp"

#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/failures.hpp"
#include "course/gpu_sharing.hpp"
#include "course/grading.hpp"
#include "course/reduction.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace course::grading {

SumCase make_sum_case(std::size_t n, int lo, int hi, std::uint64_t stream)
{
    let_waiting_timing_run();  // host work next: a waiting timing need not wait for it
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

std::string sum_problem(long long got, const SumCase& input, std::size_t offset, std::string_view kernel,
                        std::string_view when, std::string_view extra)
{
    std::ostringstream text;
    const std::string where = std::string(kernel) + std::string(when) + ", " + describe_sum_case(input, offset, extra);
    if (got == kPoisonSum)
        text << failure::not_written << " " << where << ": *result still holds the poison value 0x7f7f7f7f7f7f7f7f";
    else
        text << failure::wrong_result << " " << where << ": got " << got << ", expected " << input.expected
             << " (off by " << input.expected - got << ")";
    return text.str();
}

bool check_sum(long long got, const SumCase& input, std::size_t offset, std::string_view kernel, std::string_view when,
               std::string_view extra)
{
    if (got == input.expected)
        return true;
    FAIL_CHECK(sum_problem(got, input, offset, kernel, when, extra));
    return false;
}

void check_exact_sums(const WholeSumFactory& make, std::span<const std::size_t> sizes, int magnitude)
{
    const std::size_t largest = *std::max_element(sizes.begin(), sizes.end());
    SumInput input(largest);
    const WholeSum sum = make(largest);
    Stream stream;
    std::uint64_t index = 0;
    for (const std::size_t n : sizes) {
        const auto one = make_sum_case(n, -magnitude, magnitude, ++index);
        if (!sum.check(sum.run(input.put(one.values, 0), n, stream.get()), one, 0, stream.get()))
            break;
    }
}

void check_wide_sums(const WholeSumFactory& make)
{
    constexpr std::size_t kLargest = 16'777'259;
    SumInput input(kLargest);
    const WholeSum sum = make(kLargest);
    Stream stream;
    std::uint64_t index = 100;
    const int big = 1 << 30;
    const auto check = [&](std::size_t n, int lo, int hi) {
        const auto one = make_sum_case(n, lo, hi, ++index);
        sum.check(sum.run(input.put(one.values, 0), n, stream.get()), one, 0, stream.get());
    };
    for (const std::size_t n : {std::size_t{2}, std::size_t{3}, std::size_t{1000}, std::size_t{65'537}, kLargest})
        check(n, big, 2 * (big - 1) + 1);  // 2^30 .. 2^31 - 1
    for (const std::size_t n : {std::size_t{3}, std::size_t{1'048'583}})
        check(n, -2 * big, -big);  // -2^31 .. -2^30
}

void check_misaligned_sums(const WholeSumFactory& make, int magnitude)
{
    constexpr std::size_t kLargest = 16'777'213;
    SumInput input(kLargest);
    const WholeSum sum = make(kLargest);
    Stream stream;
    std::uint64_t index = 400;
    for (const std::size_t offset : {1, 2, 3}) {
        for (const std::size_t n :
             {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{1000}, std::size_t{1'000'003}, kLargest}) {
            const auto one = make_sum_case(n, -magnitude, magnitude, ++index);
            const int* data = input.put(one.values, offset);
            try {
                sum.check(sum.run(data, n, stream.get()), one, offset, stream.get());
            } catch (const CudaError& error) {
                FAIL_CHECK(std::string(error.what())
                           << " (" << sum.name << ", " << describe_sum_case(one, offset) << ")");
                return;  // the device is unusable after a fault
            }
        }
    }
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
    : input_(std::move(input)),
      runs_(
          input_.seed,
          [this, data, poison = std::move(poison)](std::mt19937_64& random, cudaStream_t stream) {
              for (int k = 0; k < CheckedRuns::kChangesPerRun; ++k) {
                  const std::size_t at = random() % input_.n;
                  const auto span = static_cast<std::uint64_t>(std::int64_t{input_.hi} - input_.lo + 1);
                  const int value =
                      static_cast<int>(std::int64_t{input_.lo} + static_cast<std::int64_t>(random() % span));
                  input_.expected += std::int64_t{value} - input_.values[at];
                  input_.values[at] = value;
                  // Pageable host memory: the copy is staged before the call returns.
                  COURSE_CUDA_CHECK(
                      cudaMemcpyAsync(data + at, &input_.values[at], sizeof(int), cudaMemcpyHostToDevice, stream));
              }
              poison(stream);
          },
          [this, read = std::move(read),
           kernel = std::move(kernel)](cudaStream_t stream, const std::string& when) -> std::optional<std::string> {
              const long long got = read(stream);
              if (got == input_.expected)
                  return std::nullopt;
              return sum_problem(got, input_, 0, kernel, " (" + when + ")", "");
          })
{
}

void state_launch(std::string_view function, const std::function<std::string()>& describe)
{
    try {
        MESSAGE(function << ": " << describe());
    } catch (const std::invalid_argument& error) {
        FAIL_CHECK(std::string(error.what()));
    }
}

std::vector<std::size_t> whole_sum_sizes(std::initializer_list<std::size_t> extra)
{
    std::vector<std::size_t> all = {1,         2,         3,         4,          5,          7,         31,
                                    32,        33,        255,       256,        257,        1023,      1024,
                                    1025,      4095,      4096,      4097,       65'521,     65'536,    65'537,
                                    1'048'573, 1'048'576, 1'048'583, 16'777'213, 16'777'216, 16'777'259};
    all.insert(all.end(), extra);
    if (!kOnSimulator)
        all.push_back(268'435'399);  // the largest prime below 2^28
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return for_this_run(std::move(all));
}

}  // namespace course::grading
