// Lesson 05's host side of the student's reduction: phase_one, phase_two and their launch choices
// (reduce_sum_launch) found in the student's module, checked once, then launched one after the
// other on the caller's stream. Nothing here waits for the device, so a whole reduce_sum can be
// captured in a CUDA graph; the module is loaded when the first Workspace is made, before any
// capture (loading it copies reduce_sum_launch to the host).
//
//   ./course grade 05

#include "global_reduction.hpp"

#include "course/cuda_check.hpp"
#include "course/failures.hpp"
#include "course/module.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace lesson05 {
namespace {

using PhaseOne = course::ModuleKernel<const int*, std::size_t, long long*>;
using PhaseTwo = course::ModuleKernel<const long long*, std::size_t, long long*>;

/// The most blocks one launch may have along x.
constexpr std::size_t kMaxGrid = 0x7fffffff;

/// What reduce_sum needs from the student's module.
struct StudentReduction {
    PhaseOne phase_one;
    PhaseTwo phase_two;
    ReduceSumPlan plan;
};

[[noreturn]] void bad_configuration(const std::string& field, std::size_t value, const std::string& why)
{
    throw std::invalid_argument(course::failure::bad_configuration.with("reduce_sum_launch." + field + " = " +
                                                                        std::to_string(value) + ": " + why));
}

/// A block size the kernel can run with: the interface's powers of two, within what the compiled
/// kernel allows (its __launch_bounds__ and registers), which a launch would otherwise refuse with
/// a bare CUDA error.
template <class Kernel>
void check_block(const std::string& field, std::uint32_t block, const Kernel& kernel)
{
    if (block < 32 || block > 1024 || (block & (block - 1)) != 0)
        bad_configuration(field, block, "threads per block must be a power of two from 32 to 1024");
    cudaFuncAttributes attributes{};
    COURSE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel.function()));
    if (int(block) > attributes.maxThreadsPerBlock)
        bad_configuration(field, block,
                          kernel.name() + " runs at most " + std::to_string(attributes.maxThreadsPerBlock) +
                              " threads per block (its __launch_bounds__, or the registers it needs)");
}

StudentReduction load()
{
    const course::Module& module = course::student_module(kLesson, "reduce_sum");
    StudentReduction student{PhaseOne(module, "phase_one"), PhaseTwo(module, "phase_two"), {}};
    ReduceSumPlan& plan = student.plan;
    plan.launch = course::read_module_value<ReduceSumLaunch>(module, "reduce_sum_launch");
    check_block("phase_one_block", plan.launch.phase_one_block, student.phase_one);
    if (plan.launch.max_blocks_per_sm == 0)
        bad_configuration("max_blocks_per_sm", 0, "phase 1 needs at least one block per SM");
    check_block("phase_two_block", plan.launch.phase_two_block, student.phase_two);

    int device = 0;
    int sms = 0;
    COURSE_CUDA_CHECK(cudaGetDevice(&device));
    COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    plan.sm_count = std::size_t(sms);
    COURSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &plan.resident_blocks_per_sm, student.phase_one.function(), int(plan.launch.phase_one_block), 0));
    return student;
}

/// Loaded on first use; a module that fails its checks is tried (and refused) again next time.
const StudentReduction& student()
{
    static const StudentReduction loaded = load();
    return loaded;
}

}  // namespace

const ReduceSumPlan& reduce_sum_plan()
{
    return student().plan;
}

std::size_t partials_needed(std::size_t n)
{
    const ReduceSumPlan& plan = reduce_sum_plan();
    const std::size_t block = plan.launch.phase_one_block;
    const std::size_t grid = std::min((n + block - 1) / block, plan.launch.max_blocks_per_sm * plan.sm_count);
    if (grid > kMaxGrid)
        bad_configuration("max_blocks_per_sm", plan.launch.max_blocks_per_sm,
                          "phase 1 would have " + std::to_string(grid) + " blocks for n = " + std::to_string(n) +
                              ", more than one launch may have (2^31 - 1)");
    return grid;
}

void reduce_sum(const int* data, std::size_t n, long long* result, Workspace& workspace, cudaStream_t stream)
{
    if (n == 0)
        throw std::invalid_argument("reduce_sum: the array must hold at least one element");
    const StudentReduction& kernels = student();
    const std::size_t blocks = partials_needed(n);
    long long* partials = workspace.partials_for(n);
    kernels.phase_one.launch(unsigned(blocks), kernels.plan.launch.phase_one_block, 0, stream, data, n, partials);
    // Same stream: phase 2 starts only once every block of phase 1 has written its partial. The
    // boundary between two launches is the grid-wide barrier no block can wait for inside one.
    kernels.phase_two.launch(1, kernels.plan.launch.phase_two_block, 0, stream, partials, blocks, result);
}

}  // namespace lesson05
