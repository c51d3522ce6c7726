#pragma once
/// @file neighbored_reduction.cuh
/// @brief Lesson 03's device interface: the kernel the student writes, as the lesson's host code
/// finds it in the student's module (course/module.hpp).
///
/// `extern "C"` keeps the kernel's name in the module plain, and makes the compiler reject a
/// definition whose parameters differ from this declaration.

#include <cstddef>

/// reduceNeighboredLess: reduces each block's slice of `data` (blockDim.x elements, fewer in the
/// last block) in place and writes the block's sum to `partials[blockIdx.x]`; the working threads
/// at each step are tid = 0, 1, 2, ... The host launches ceil(n / blockDim.x) blocks of a power of
/// two from 32 to 1024 threads.
extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n);
