#pragma once
/// @file unrolling.cuh
/// @brief Lesson 07's device interface: the unrolled block reduction the student writes, one
/// kernel per block size, and how many data blocks each block sums, as the lesson's host code
/// finds them in the student's module (course/module.hpp).
///
/// `extern "C"` keeps the names in the module plain, and makes the compiler reject a definition
/// whose parameters differ from these declarations. The six kernels are usually one template,
/// `template <unsigned kBlock> __device__ void ...`, instantiated once per block size: the block
/// size is then a compile-time constant inside each of them.

#include <cstddef>

/// How many data blocks of B consecutive elements each block of reduce_unrolled_B sums into one
/// partial, from 1 to 16. Defined, with its value, in the student's file; the lesson reads it once
/// and refuses any other value with "bad configuration:".
extern "C" __constant__ unsigned reduce_unrolled_data_blocks;

/// reduce_unrolled_B, for blocks of exactly B threads: with d = reduce_unrolled_data_blocks, block
/// b sums elements [b * d * B, min(n, (b + 1) * d * B)) of `data` (which stays unchanged) and
/// writes the sum to partials[b]. The host launches ceil(n / (d * B)) blocks of B threads, with B
/// ints of dynamic shared memory (an `extern __shared__ int cache[]`; a kernel may use a static
/// `__shared__ int cache[B]` instead and leave it unused). n may be anything from 1 up.
extern "C" __global__ void reduce_unrolled_32(const int* data, int* partials, std::size_t n);
extern "C" __global__ void reduce_unrolled_64(const int* data, int* partials, std::size_t n);
extern "C" __global__ void reduce_unrolled_128(const int* data, int* partials, std::size_t n);
extern "C" __global__ void reduce_unrolled_256(const int* data, int* partials, std::size_t n);
extern "C" __global__ void reduce_unrolled_512(const int* data, int* partials, std::size_t n);
extern "C" __global__ void reduce_unrolled_1024(const int* data, int* partials, std::size_t n);
