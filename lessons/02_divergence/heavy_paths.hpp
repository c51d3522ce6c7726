#pragma once
/// @file heavy_paths.hpp
/// @brief Lesson 02's per-element work: the two heavy paths a branch chooses between, compiled
/// for the device (the kernels, the student's module among them) and for the host (the
/// references the grader compares with).
///
/// Integer arithmetic only, so the host computes the very same bits and outputs compare exactly.

#include <cstdint>

#if defined(__CUDACC__)
#define LESSON02_HOST_DEVICE __host__ __device__
#else
#define LESSON02_HOST_DEVICE
#endif

namespace lesson02 {

/// Rounds of each heavy path: enough work that running both paths costs about twice one.
inline constexpr int kHeavyRounds = 64;

/// The work an element on the even path gets.
LESSON02_HOST_DEVICE inline std::uint32_t even_path(std::uint32_t x)
{
    for (int round = 0; round < kHeavyRounds; ++round) {
        x = x * 0x9E3779B1u + 0x7F4A7C15u;
        x ^= x >> 15;
    }
    return x;
}

/// The work an element on the odd path gets: different instructions from even_path, so the
/// compiler cannot fold the two paths into one.
LESSON02_HOST_DEVICE inline std::uint32_t odd_path(std::uint32_t x)
{
    for (int round = 0; round < kHeavyRounds; ++round) {
        x = ((x << 7) | (x >> 25)) ^ (x + 0x632BE5ABu);
        x += x >> 11;
    }
    return x;
}

}  // namespace lesson02
