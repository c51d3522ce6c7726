#pragma once
/// @file warp_basics.cuh
/// @brief Lesson 01's device interface: the two kernels the student writes, as the lesson's host
/// code finds them in the student's modules (course/module.hpp).
///
/// `extern "C"` keeps the kernels' names in the modules plain, and makes the compiler reject a
/// definition whose parameters differ from these declarations.

#include "thread_layout.hpp"

#include <cstddef>

/// Exercise 1 (thread_layout.cu): every thread of the grid writes its lesson01::ThreadLayout to
/// out[global], where global is the linear block id times the threads per block plus the thread's
/// linear id in its block (x fastest, then y, then z). The host launches grids and blocks of any
/// 3-D shape, fewer than 2^32 threads in all, and `out` holds one entry per thread.
extern "C" __global__ void record_layout(lesson01::ThreadLayout* out);

/// Exercise 2 (count_per_warp.cu): adds to *count the number of data[i] < threshold for i in
/// [0, n), with one atomic per warp. The host sets *count to 0 and launches ceil(n / blockDim.x)
/// blocks of a power of two from 32 to 1024 threads: every warp is whole, some of its lanes past n.
extern "C" __global__ void count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count);
