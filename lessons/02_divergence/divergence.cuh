#pragma once
/// @file divergence.cuh
/// @brief Lesson 02's device interface: the two kernels the student writes, as the lesson's host
/// code finds them in the student's module (course/module.hpp), and the heavy paths they call.
///
/// `extern "C"` keeps the kernels' names in the module plain, and makes the compiler reject a
/// definition whose parameters differ from these declarations.

#include "heavy_paths.hpp"

#include <cstddef>

/// out[i] = i % 2 == 0 ? even_path(in[i]) : odd_path(in[i]) for i in [0, n), with no warp running
/// both paths. The host launches blocks of a power of two from 32 to 1024 threads, enough of them
/// for ceil(n / 64) whole pairs of warps: at least n threads, and warps 2k and 2k + 1 always exist
/// together. Threads left without an element write nothing.
extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n);

/// out[i] = in[i] % 2 == 0 ? even_path(in[i]) : odd_path(in[i]) for i in [0, n), with no warp
/// running both heavy paths. The host launches ceil(n / blockDim.x) blocks of a power of two from
/// 32 to 1024 threads: block b owns the elements [b * blockDim.x, min(n, (b + 1) * blockDim.x)).
extern "C" __global__ void value_parity_uniform(const int* in, int* out, std::size_t n);
