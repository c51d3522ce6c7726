// Lesson 07's host side of the student's kernels: reduce_unrolled_32 ... reduce_unrolled_1024 and
// reduce_unrolled_data_blocks, found in the student's module, checked once, and launched on
// ceil(n / (data blocks x block)) blocks; and the baseline, lesson 04's reference kernel, from the
// course's reference module.
//
//   ./course grade 07

#include "unrolling.hpp"

#include "course/cuda_check.hpp"
#include "course/failures.hpp"
#include "course/module.hpp"

#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson07 {
namespace {

using ReduceKernel = course::ModuleKernel<const int*, int*, std::size_t>;

/// The block sizes the lesson launches, smallest first: one kernel of the student's each.
constexpr unsigned kBlocks[] = {32, 64, 128, 256, 512, 1024};

/// What the lesson needs from the student's module.
struct StudentKernels {
    unsigned data_blocks = 0;
    std::vector<ReduceKernel> by_block;  // in kBlocks' order
};

[[noreturn]] void bad_configuration(const std::string& what)
{
    throw std::invalid_argument(course::failure::bad_configuration.with(what));
}

StudentKernels load()
{
    const course::Module& module = course::student_module(kLesson, "reduce_unrolled");
    StudentKernels student;
    student.data_blocks = course::read_module_value<unsigned>(module, "reduce_unrolled_data_blocks");
    if (student.data_blocks < 1 || student.data_blocks > kMaxDataBlocks)
        bad_configuration("reduce_unrolled_data_blocks = " + std::to_string(student.data_blocks) +
                          ": each block must sum from 1 to " + std::to_string(kMaxDataBlocks) + " data blocks");
    for (const unsigned block : kBlocks) {
        const std::string name = "reduce_unrolled_" + std::to_string(block);
        student.by_block.emplace_back(module, name);
        // A __launch_bounds__ below the kernel's own block size would make every launch fail.
        cudaFuncAttributes attributes{};
        COURSE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, student.by_block.back().function()));
        if (int(block) > attributes.maxThreadsPerBlock)
            bad_configuration(name + " runs at most " + std::to_string(attributes.maxThreadsPerBlock) +
                              " threads per block (its __launch_bounds__, or the registers it needs), but the "
                              "lesson launches it with " +
                              std::to_string(block));
    }
    return student;
}

/// Loaded on first use; a module that fails its checks is tried (and refused) again next time.
const StudentKernels& student()
{
    static const StudentKernels loaded = load();
    return loaded;
}

const ReduceKernel& kernel_for(const StudentKernels& kernels, unsigned block)
{
    for (std::size_t i = 0; i < std::size(kBlocks); ++i)
        if (kBlocks[i] == block)
            return kernels.by_block[i];
    throw std::invalid_argument("reduce_unrolled: block " + std::to_string(block) +
                                " is not a power of two from 32 to 1024");
}

}  // namespace

unsigned reduce_unrolled_data_blocks()
{
    return student().data_blocks;
}

void launch_reduce_unrolled(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    const StudentKernels& kernels = student();
    kernel_for(kernels, block)
        .launch(course::blocks_for(n, kernels.data_blocks * block), block, block * sizeof(int), stream, data, partials,
                n);
}

void launch_reduce_shared_interleaved(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    static const ReduceKernel kernel(course::reference_module("04_interleaved_reduction", "reduce_shared_interleaved"),
                                     "reduce_shared_interleaved");
    kernel.launch(course::blocks_for(n, block), block, block * sizeof(int), stream, data, partials, n);
}

}  // namespace lesson07
