#pragma once
/// @file sum_grading.hpp
/// @brief What the graders of a whole-array sum share (lessons 05 and 09): inputs at aligned and
/// misaligned addresses with poisoned guard elements after them, cases with their exact sums, and
/// the verdict on one result.

#include "course/device_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace course::grading {

/// A result the kernel never wrote: every byte course::kPoisonByte.
inline constexpr long long kPoisonSum = 0x7f7f7f7f7f7f7f7fLL;
/// The largest offset, in elements, an input is placed at: data + 1, + 2, + 3 are not 16-byte aligned.
inline constexpr std::size_t kMaxMisalignment = 3;

/// A device array with room for any input up to `capacity` at an offset of up to kMaxMisalignment
/// elements, followed by poisoned guard elements: a kernel that reads past n adds poison.
class SumInput {
public:
    explicit SumInput(std::size_t capacity);
    /// Copies `values` to the array at `offset` elements, poisons the guard after them, and waits
    /// until the device has both; returns the input's address.
    const int* put(const std::vector<int>& values, std::size_t offset);

private:
    DeviceBuffer<int> buffer_;
};

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

/// True when `got` is the exact sum; otherwise fails the test case with "not written:" (the result
/// still holds the poison) or "wrong result:", naming `kernel`, `when` and the case.
bool check_sum(long long got, const SumCase& input, std::size_t offset, std::string_view kernel,
               std::string_view when = "", std::string_view extra = "");

}  // namespace course::grading
