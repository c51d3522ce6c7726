// Lesson 08's host side of the student's kernels: each found by name in its module (the student's,
// or the course's reference with --modules) and launched with the grid the caller chose; the
// lesson's grids; and lesson 04's reference kernel, loaded from the course's reference module.
//
//   ./course grade 08

#include "warp_shuffles.hpp"

#include "course/cuda_check.hpp"
#include "course/failures.hpp"
#include "course/module.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson08 {
namespace {

using IntKernel = course::ModuleKernel<const int*, std::size_t, long long*>;
using FloatKernel = course::ModuleKernel<const float*, std::size_t, float*>;

const IntKernel& shuffle_sum_kernel()
{
    static const IntKernel kernel(course::student_module(kLesson, "shuffle_sum"), "shuffle_sum");
    return kernel;
}

const FloatKernel& shuffle_sum_float_kernel()
{
    static const FloatKernel kernel(course::student_module(kLesson, "shuffle_sum_float"), "shuffle_sum_float");
    return kernel;
}

/// The most blocks one launch may have along x.
constexpr std::size_t kMaxGrid = 0x7fffffff;

std::size_t ceil_div(std::size_t a, std::size_t b)
{
    return (a + b - 1) / b;
}

struct Wave {
    int sms = 0;
    int blocks_per_sm = 0;
};

Wave wave_of(const void* kernel, unsigned block)
{
    Wave wave;
    int device = 0;
    COURSE_CUDA_CHECK(cudaGetDevice(&device));
    COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&wave.sms, cudaDevAttrMultiProcessorCount, device));
    COURSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&wave.blocks_per_sm, kernel, int(block), 0));
    if (wave.blocks_per_sm < 1)
        throw std::invalid_argument(course::failure::bad_configuration.with(
            "the kernel cannot run blocks of " + std::to_string(block) +
            " threads (its __launch_bounds__, or the registers it needs); the lesson launches every multiple of 32 "
            "from 32 to 1024"));
    return wave;
}

}  // namespace

std::vector<unsigned> allowed_blocks()
{
    std::vector<unsigned> blocks;
    for (unsigned block = 32; block <= 1024; block += 32)
        blocks.push_back(block);
    return blocks;
}

unsigned grid_for(GridChoice choice, const void* kernel, std::size_t n, unsigned block)
{
    std::size_t grid = 0;
    switch (choice) {
    case GridChoice::one_element_per_thread:
        grid = ceil_div(n, block);
        break;
    case GridChoice::one_vector_per_thread:
        grid = ceil_div(n, std::size_t{kPerVector} * block);
        break;
    case GridChoice::one_wave: {
        const Wave wave = wave_of(kernel, block);
        grid = std::min(ceil_div(n, std::size_t{kPerVector} * block), std::size_t(wave.sms) * wave.blocks_per_sm);
        break;
    }
    }
    if (grid > kMaxGrid)
        throw std::invalid_argument("lesson08: " + std::to_string(grid) + " blocks for n = " + std::to_string(n) +
                                    ", more than one launch may have");
    return unsigned(std::max<std::size_t>(grid, 1));
}

std::string describe_grid(GridChoice choice, const void* kernel, std::size_t n, unsigned block)
{
    const unsigned grid = grid_for(choice, kernel, n, block);
    switch (choice) {
    case GridChoice::one_element_per_thread:
        return std::to_string(grid) + " blocks (one element per thread)";
    case GridChoice::one_vector_per_thread:
        return std::to_string(grid) + " blocks (one 16-byte vector per thread)";
    case GridChoice::one_wave:
        break;
    }
    const Wave wave = wave_of(kernel, block);
    const std::size_t full = std::size_t(wave.sms) * wave.blocks_per_sm;
    if (grid < full)
        return std::to_string(grid) + " blocks (one 16-byte vector per thread: less than a wave of " +
               std::to_string(full) + ")";
    return std::to_string(grid) + " blocks (one wave: " + std::to_string(wave.sms) + " SMs x " +
           std::to_string(wave.blocks_per_sm) + " blocks of " + std::to_string(block) + " threads)";
}

void launch_shuffle_sum(const int* data, std::size_t n, long long* partials, unsigned grid, unsigned block,
                        cudaStream_t stream)
{
    shuffle_sum_kernel().launch(grid, block, 0, stream, data, n, partials);
}

void launch_shuffle_sum_float(const float* data, std::size_t n, float* partials, unsigned grid, unsigned block,
                              cudaStream_t stream)
{
    shuffle_sum_float_kernel().launch(grid, block, 0, stream, data, n, partials);
}

const void* shuffle_sum_function()
{
    return shuffle_sum_kernel().function();
}
const void* shuffle_sum_float_function()
{
    return shuffle_sum_float_kernel().function();
}

void launch_lesson04_shared_tree(const int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    static const course::ModuleKernel<const int*, int*, std::size_t> kernel(
        course::reference_module("04_interleaved_reduction", "reduce_shared_interleaved"), "reduce_shared_interleaved");
    // One int of shared memory per thread: the kernel's `extern __shared__` array.
    kernel.launch(unsigned(ceil_div(n, block)), block, block * sizeof(int), stream, data, partials, n);
}

}  // namespace lesson08
