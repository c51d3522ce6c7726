#pragma once
/// @file warp_shuffles.cuh
/// @brief Lesson 08's device interface: the two kernels the student writes, as the lesson's host
/// code finds them in the student's modules (course/module.hpp).
///
/// `extern "C"` keeps the kernels' names in the modules plain, and makes the compiler reject a
/// definition whose parameters differ from these declarations.
///
/// Both kernels have the same contract. The lesson launches `grid` blocks of `block` threads, no
/// dynamic shared memory: `block` is any multiple of 32 from 32 to 1024, `grid` any number from 1
/// up (the lesson uses min(ceil(n / (4 * block)), one wave of the kernel's blocks), and the grader
/// tries other grids too). Block b adds its share of `data[0, n)` and writes it to `partials[b]`;
/// the shares of the grid's blocks cover every element exactly once, however the kernel chooses to
/// split them (a grid-stride loop is the usual way). `data` is 4-byte aligned but may start
/// anywhere else: `data + 1`, `+ 2`, `+ 3` of an aligned array are not 16-byte aligned. n >= 1.
/// Every partial holds poison until the kernel writes it.

#include <cstddef>

/// The integer sum: each block's share in 64 bits (ints near 2^31 overflow an int in two
/// additions). Graded exact.
extern "C" __global__ void shuffle_sum(const int* data, std::size_t n, long long* partials);

/// The same for floats, added in float: graded against the sum computed in double, within the
/// rounding-error bound of the order of additions the lesson describes (README, "Floats").
extern "C" __global__ void shuffle_sum_float(const float* data, std::size_t n, float* partials);
