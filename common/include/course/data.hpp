#pragma once
/// @file data.hpp
/// @brief Reproducible random inputs and exact host references.
///
/// The generator is SplitMix64 with a plain modulo-free mapping, so that the same seed gives the
/// same array with every compiler and standard library (std::uniform_int_distribution does not).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace course {

/// A seed drawn from the operating system's entropy source, for runs that did not ask for one.
[[nodiscard]] std::uint64_t fresh_seed();

/// Mixes `seed` with `stream` into an independent seed (one per test case, say).
[[nodiscard]] std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

/// `count` integers uniformly distributed in [lo, hi], fully determined by `seed`.
[[nodiscard]] std::vector<int> random_ints(std::size_t count, std::uint64_t seed, int lo, int hi);

/// SplitMix64's output for the state `state` (its state after k draws from seed s is
/// s + k * kSplitMix64Step, so any draw can be made alone).
inline constexpr std::uint64_t kSplitMix64Step = 0x9E3779B97F4A7C15ull;
[[nodiscard]] inline std::uint64_t splitmix64_output(std::uint64_t state)
{
    state = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9ull;
    state = (state ^ (state >> 27)) * 0x94D049BB133111EBull;
    return state ^ (state >> 31);
}

/// Element `index` of random_ints(count, seed, lo, hi), for any count past it, without the array:
/// for inputs derived element by element from random integers (lo <= hi).
[[nodiscard]] inline int random_int_at(std::size_t index, std::uint64_t seed, int lo, int hi)
{
    const std::uint64_t bits = splitmix64_output(seed + (index + 1) * kSplitMix64Step) >> 32;
    // Multiply-shift maps 32 random bits onto the range without division; the bias is below
    // range / 2^32, far too small to matter for test data.
    const auto range = std::uint64_t(std::int64_t(hi) - lo) + 1;
    return int(std::int64_t(lo) + std::int64_t((bits * range) >> 32));
}

/// Calls `fill(begin, end)` on stretches that cover [0, count) once, on several threads when
/// `count` is large (a grader's inputs of 2^28 elements), else on this one.
void fill_in_stretches(std::size_t count, const std::function<void(std::size_t, std::size_t)>& fill);

/// The exact sum of `values` in 64 bits: the reference every reduction is compared with.
[[nodiscard]] std::int64_t exact_sum(std::span<const int> values);

/// The CPU reduction (recursiveReduce) of the reduceInteger program of Professional CUDA C
/// Programming (ch. 3), in 64 bits: repeatedly adds the second half of the array onto the first
/// half (an odd element out is carried along) until one is left.
/// Returns 0 for an empty array. Works on a copy.
[[nodiscard]] std::int64_t recursive_reduce(std::span<const int> values);

}  // namespace course
