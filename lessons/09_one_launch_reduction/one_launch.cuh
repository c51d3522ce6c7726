#pragma once
/// @file one_launch.cuh
/// @brief Lesson 09's device interface: the kernel the student writes and the launch choices they
/// state as data, as the lesson's host code finds them in the student's module (course/module.hpp).
///
/// The lesson's reduce_once (student_kernels.cpp) reads reduce_once_launch once, then launches
/// reduce_once ONCE per call, on the caller's stream: the whole sum in one launch.

#include "reduce_once_launch.hpp"

#include <cstddef>

/// The student's launch choices (reduce_once_launch.hpp). Defined, with its values, in the
/// student's file.
extern "C" __constant__ lesson09::ReduceOnceLaunch reduce_once_launch;

/// Writes the sum of data[0, n) to *result, in one launch of grid blocks of
/// reduce_once_launch.block threads (the grid: reduce_once_launch.hpp).
///
/// The workspace belongs to the call: `partials` has room for one 64-bit value per block and holds
/// poison when the call starts; `*ticket` is 0 when the call starts and must be 0 again when the
/// kernel ends, because the next call on this workspace starts from it (the lesson never clears
/// it: that would be a second operation per call). Two calls that run at the same time (on two
/// streams) have two workspaces. `data` is any int pointer (not always 16-byte aligned), n >= 1;
/// *result holds poison when the call starts.
extern "C" __global__ void reduce_once(const int* data, std::size_t n, long long* result, long long* partials,
                                       unsigned int* ticket);
