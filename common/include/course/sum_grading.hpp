#pragma once
/// @file sum_grading.hpp
/// @brief What the graders of a whole-array sum share (lessons 05 and 09): inputs at aligned and
/// misaligned addresses with poisoned guard elements after them, cases with their exact sums, and
/// the verdict on one result.

#include "course/checked_runs.hpp"
#include "course/cuda_check.hpp"
#include "course/device_buffer.hpp"
#include "course/grading.hpp"
#include "course/reduction.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace course::grading {

/// A result the kernel never wrote: every byte course::kPoisonByte.
inline constexpr long long kPoisonSum = 0x7f7f7f7f7f7f7f7fLL;
/// The largest offset, in elements, an input is placed at: data + 1, + 2, + 3 are not 16-byte aligned.
inline constexpr std::size_t kMaxMisalignment = 3;

/// A device array with room for any input up to `capacity` at an offset of up to kMaxMisalignment
/// elements, followed by poisoned guard elements: a kernel that reads past n adds poison. For ints
/// (SumInput) and floats (lesson 08).
template <class T>
class GuardedInput {
public:
    explicit GuardedInput(std::size_t capacity) : buffer_(capacity + kMaxMisalignment + kGuardElements) {}
    /// Copies `values` to the array at `offset` elements, poisons the guard after them, and waits
    /// until the device has both; returns the input's address.
    T* put(const std::vector<T>& values, std::size_t offset)
    {
        T* start = buffer_.data() + offset;
        COURSE_CUDA_CHECK(cudaMemcpy(start, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice));
        COURSE_CUDA_CHECK(cudaMemset(start + values.size(), kPoisonByte, kGuardElements * sizeof(T)));
        // Both calls run on the legacy default stream and may return before the device has the
        // data (cudaMemcpy from pageable memory returns once the data is staged). The kernels run
        // on non-blocking streams, which do not wait for the default stream: wait here.
        COURSE_CUDA_CHECK(cudaDeviceSynchronize());
        return start;
    }

private:
    DeviceBuffer<T> buffer_;
};
using SumInput = GuardedInput<int>;

/// One input: its values, how they were drawn, their exact sum.
struct SumCase {
    std::size_t n;
    int lo;
    int hi;
    std::uint64_t seed;
    std::vector<int> values;
    long long expected;
};

/// n random ints in [lo, hi], drawn from the run's seed and `stream` (one stream per case).
[[nodiscard]] SumCase make_sum_case(std::size_t n, int lo, int hi, std::uint64_t stream);

/// "n = 33 at data + 1 (not 16-byte aligned) (values lo..hi, input seed S<extra>)".
[[nodiscard]] std::string describe_sum_case(const SumCase& input, std::size_t offset, std::string_view extra = "");

/// What is wrong with `got`, which is not the exact sum: "not written:" (the result still holds the
/// poison) or "wrong result:", naming `kernel`, `when` and the case.
[[nodiscard]] std::string sum_problem(long long got, const SumCase& input, std::size_t offset, std::string_view kernel,
                                      std::string_view when, std::string_view extra);

/// True when `got` is the exact sum; otherwise fails the test case with sum_problem's message.
bool check_sum(long long got, const SumCase& input, std::size_t offset, std::string_view kernel,
               std::string_view when = "", std::string_view extra = "");

/// A whole-array sum under test, as a lesson runs and judges it.
struct WholeSum {
    /// Poisons what the kernel writes, sums the n ints at `data` on `stream`, waits, returns the
    /// result (run_case: a CUDA error becomes the case's failure).
    std::function<long long(const int* data, std::size_t n, cudaStream_t stream)> run;
    /// True when `got` is right for `input` at `offset`, and the call left what it must (lesson 09:
    /// its ticket back at 0); otherwise fails one check and returns false.
    std::function<bool(long long got, const SumCase& input, std::size_t offset, cudaStream_t stream)> check;
    /// "reduce_sum": the kernel, in messages.
    std::string name;
};

/// The WholeSum of a lesson with a workspace for up to `capacity` elements.
using WholeSumFactory = std::function<WholeSum(std::size_t capacity)>;

/// The sizes a whole-array sum's exact sums are checked at, ascending: tiny ones, around warp,
/// block and vector multiples, primes just below and above powers of two, powers of two, up to
/// 2^24 + 43, and on a GPU the largest prime below 2^28; `extra` ones of the lesson's own (a limit of
/// its design) among them; for_this_run's selection of them.
[[nodiscard]] std::vector<std::size_t> whole_sum_sizes(std::initializer_list<std::size_t> extra = {});

/// The test cases every whole-array sum shares (lessons 05 and 09), each on one workspace reused by
/// every call. The exact sum of `magnitude`-bounded values for each n of `sizes`, stopping at the
/// first wrong one (the larger sizes would only repeat it, slowly on the simulator).
void check_exact_sums(const WholeSumFactory& make, std::span<const std::size_t> sizes, int magnitude);
/// Sums far beyond an int's range: values from 2^30 to 2^31 - 1, and from -2^31 to -2^30.
void check_wide_sums(const WholeSumFactory& make);
/// The data at data + 1, + 2 and + 3 (not 16-byte aligned), n from 1 to 2^24 - 3. A CUDA error
/// (a misaligned 16-byte load) ends the case: the device is unusable after a fault, so a grader
/// runs this case last.
void check_misaligned_sums(const WholeSumFactory& make, int magnitude);

/// One call of a whole-array sum as the graders make it: the result and the workspace poisoned,
/// `sum(data, n, result, workspace, stream)` run, waited for, and its result returned; an exception
/// or a CUDA error is the case's failure (run_case), which names `kernel` and n.
template <class Workspace, class Sum>
long long run_whole_sum(std::string_view kernel, const Sum& sum, const int* data, std::size_t n, Workspace& workspace,
                        DeviceBuffer<long long>& result, cudaStream_t stream)
{
    return run_case(std::string(kernel) + ", n = " + std::to_string(n), [&] {
        result.fill_bytes(kPoisonByte, stream);
        workspace.poison(stream);
        sum(data, n, result.data(), workspace, stream);
        COURSE_CUDA_CHECK(cudaStreamSynchronize(stream));
        return result.download()[0];
    });
}

/// The launch a lesson's launch function (`function`) makes of the student's choices, as `describe`
/// says it, in a message; a choice the lesson cannot launch (describe throws std::invalid_argument)
/// fails the test case with its reason.
void state_launch(std::string_view function, const std::function<std::string()>& describe);

/// Every timed run of a whole-array sum checked (CheckedRuns): before each run (untimed) a few
/// elements of the input change at random positions and the result is poisoned, after it the
/// result must be the new exact sum.
class CheckedSumRuns {
public:
    /// `input` at `data` (its first `input.n` elements, already on the device); `result` is where the
    /// timed kernel writes the sum; `kernel` names it in a failure.
    CheckedSumRuns(int* data, SumCase input, long long* result, std::string kernel);
    /// The same where the kernel leaves its sum in pieces: `poison` marks them unwritten before a
    /// run, `read` adds them up after it (on `stream`, waiting for it).
    CheckedSumRuns(int* data, SumCase input, std::function<void(cudaStream_t)> poison,
                   std::function<long long(cudaStream_t)> read, std::string kernel);
    CheckedSumRuns(const CheckedSumRuns&) = delete;  // its checks refer to its own input
    CheckedSumRuns& operator=(const CheckedSumRuns&) = delete;
    /// A BenchmarkCase's setup and check for the timed case.
    [[nodiscard]] std::function<void(cudaStream_t)> setup() { return runs_.setup(); }
    [[nodiscard]] std::function<void(cudaStream_t)> check() { return runs_.check(); }
    [[nodiscard]] int runs() const { return runs_.runs(); }

private:
    // Declared before runs_, whose functions refer to it.
    SumCase input_;
    CheckedRuns runs_;
};

}  // namespace course::grading
