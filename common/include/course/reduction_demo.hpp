#pragma once
/// @file reduction_demo.hpp
/// @brief The demo program of the block-reduction lessons, in the spirit of the reduceInteger
/// program of Professional CUDA C Programming (ch. 3): device, array, CPU reduction, then one timed
/// row per kernel.

#include "course/reduction.hpp"

#include <string>
#include <vector>

namespace course {

/// What a block-reduction lesson's demo shows.
struct BlockReductionDemo {
    std::string lesson;                      ///< e.g. "03_neighbored_reduction"
    std::string program;                     ///< e.g. "lesson03_demo"
    std::string title;                       ///< one line for --help and the header
    std::vector<BlockReduceKernel> kernels;  ///< kernels[0] is the baseline of the speedup column
};

/// Parses argv, runs the kernels and prints the table. Returns the process exit code: 0, 1 if a
/// kernel gave a wrong sum or a CUDA error occurred, 2 for a bad command line.
int run_block_reduction_demo(const BlockReductionDemo& demo, int argc, const char* const* argv);

}  // namespace course
