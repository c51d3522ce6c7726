#pragma once
/// @file interleaved_reduction.cuh
/// @brief Lesson 04's device interface: the two kernels the student writes, as the lesson's host
/// code finds them in the student's modules (course/module.hpp).
///
/// `extern "C"` keeps the kernels' names in the modules plain, and makes the compiler reject a
/// definition whose parameters differ from these declarations.

#include <cstddef>

/// reduceInterleaved: reduces each block's slice of `data` (blockDim.x elements, fewer in the last
/// block) in place, in global memory, and writes the block's sum to `partials[blockIdx.x]`; the
/// stride starts at blockDim.x / 2 and halves, and the threads tid < stride add. The host launches
/// ceil(n / blockDim.x) blocks of a power of two from 32 to 1024 threads.
extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n);

/// The same sums in shared memory with sequential addressing: each thread loads one element (0
/// past the end of `data`, which stays unchanged) into the block's dynamic shared memory, then the
/// threads tid < stride add. The host launches ceil(n / blockDim.x) blocks of a power of two from
/// 32 to 1024 threads, with blockDim.x ints of dynamic shared memory.
extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n);
