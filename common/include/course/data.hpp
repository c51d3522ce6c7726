#pragma once
/// @file data.hpp
/// @brief Reproducible random inputs and exact host references.
///
/// The generator is SplitMix64 with a plain modulo-free mapping, so that the same seed gives the
/// same array with every compiler and standard library (std::uniform_int_distribution does not).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace course {

/// A seed drawn from the operating system's entropy source, for runs that did not ask for one.
[[nodiscard]] std::uint64_t fresh_seed();

/// Mixes `seed` with `stream` into an independent seed (one per test case, say).
[[nodiscard]] std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

/// `count` integers uniformly distributed in [lo, hi], fully determined by `seed`.
[[nodiscard]] std::vector<int> random_ints(std::size_t count, std::uint64_t seed, int lo, int hi);

/// The exact sum of `values` in 64 bits: the reference every reduction is compared with.
[[nodiscard]] std::int64_t exact_sum(std::span<const int> values);

/// The CPU reduction (recursiveReduce) of the reduceInteger program of Professional CUDA C
/// Programming (ch. 3), in 64 bits: repeatedly adds the second half of the array onto the first
/// half (an odd element out is carried along) until one is left.
/// Returns 0 for an empty array. Works on a copy.
[[nodiscard]] std::int64_t recursive_reduce(std::span<const int> values);

}  // namespace course
