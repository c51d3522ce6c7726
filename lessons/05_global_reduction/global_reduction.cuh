#pragma once
/// @file global_reduction.cuh
/// @brief Lesson 05's device interface: the two kernels the student writes and the launch choices
/// they state as data, as the lesson's host code finds them in the student's module
/// (course/module.hpp).
///
/// `extern "C"` keeps the names in the module plain, and makes the compiler reject a definition
/// whose parameters differ from these declarations. The lesson's reduce_sum (student_kernels.cpp)
/// reads reduce_sum_launch once, then launches phase_one and phase_two one after the other on the
/// caller's stream.

#include "reduce_sum_launch.hpp"

#include <cstddef>

/// The student's launch choices: threads per block of each phase, and how many phase-1 blocks one
/// SM may get (reduce_sum_launch.hpp). Defined, with its values, in the student's file.
extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch;

/// Phase 1: adds data[0, n) in per-block shares and writes block b's share to partials[b]. The host
/// launches min(ceil(n / phase_one_block), max_blocks_per_sm x SMs) blocks of phase_one_block
/// threads: with a smaller grid than ceil(n / phase_one_block), each thread must add many elements.
/// `data` is any int pointer (not always 16-byte aligned), n >= 1, and every partial holds poison
/// until phase 1 writes it.
extern "C" __global__ void phase_one(const int* data, std::size_t n, long long* partials);

/// Phase 2: writes the sum of partials[0, count) to *result. The host launches it on the same
/// stream right after phase 1 (so every partial is written when it starts), as one block of
/// phase_two_block threads, with count = phase 1's grid.
extern "C" __global__ void phase_two(const long long* partials, std::size_t count, long long* result);
