// Lesson 09's host side of the student's reduction: reduce_once and its launch choices
// (reduce_once_launch) found in the student's module, checked once, then launched once per call on
// the caller's stream; the workspace it works in; and the baseline, lesson 05's two-launch
// reference, from the course's reference module.
//
//   ./course grade 09

#include "one_launch.hpp"

#include "reduce_sum_launch.hpp"

#include "course/cuda_check.hpp"
#include "course/failures.hpp"
#include "course/module.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson09 {
namespace {

using ReduceOnce = course::ModuleKernel<const int*, std::size_t, long long*, long long*, unsigned*>;

/// The most blocks one launch may have along x.
constexpr std::size_t kMaxGrid = 0x7fffffff;

struct StudentReduction {
    ReduceOnce kernel;
    ReduceOncePlan plan;
};

[[noreturn]] void bad_configuration(const std::string& field, std::size_t value, const std::string& why)
{
    throw std::invalid_argument(course::failure::bad_configuration.with("reduce_once_launch." + field + " = " +
                                                                        std::to_string(value) + ": " + why));
}

StudentReduction load()
{
    const course::Module& module = course::student_module(kLesson, "reduce_once");
    StudentReduction student{ReduceOnce(module, "reduce_once"), {}};
    ReduceOncePlan& plan = student.plan;
    plan.launch = course::read_module_value<ReduceOnceLaunch>(module, "reduce_once_launch");
    const ReduceOnceLaunch& launch = plan.launch;
    if (launch.block < 32 || launch.block > 1024 || (launch.block & (launch.block - 1)) != 0)
        bad_configuration("block", launch.block, "threads per block must be a power of two from 32 to 1024");
    cudaFuncAttributes attributes{};
    COURSE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, student.kernel.function()));
    if (int(launch.block) > attributes.maxThreadsPerBlock)
        bad_configuration("block", launch.block,
                          "reduce_once runs at most " + std::to_string(attributes.maxThreadsPerBlock) +
                              " threads per block (its __launch_bounds__, or the registers it needs)");
    if (launch.items_per_thread == 0)
        bad_configuration("items_per_thread", 0, "each thread must add at least one element");
    if (launch.max_blocks_per_sm == 0)
        bad_configuration("max_blocks_per_sm", 0, "the grid needs at least one block per SM");
    if (launch.cooperative > 1)
        bad_configuration("cooperative", launch.cooperative, "0 (an ordinary launch) or 1 (a cooperative launch)");

    int device = 0;
    int sms = 0;
    COURSE_CUDA_CHECK(cudaGetDevice(&device));
    COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    plan.sm_count = std::size_t(sms);
    COURSE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&plan.resident_blocks_per_sm,
                                                                    student.kernel.function(), int(launch.block), 0));
    // A cooperative launch fails unless every block of the grid can be resident at once.
    if (launch.cooperative == 1 && launch.max_blocks_per_sm > unsigned(plan.resident_blocks_per_sm))
        bad_configuration(
            "max_blocks_per_sm", launch.max_blocks_per_sm,
            "a cooperative launch must fit on the device at once, and one SM holds " +
                std::to_string(plan.resident_blocks_per_sm) + " blocks of this reduce_once (" +
                std::to_string(launch.block) + " threads each): the grid could have " +
                std::to_string(std::size_t(launch.max_blocks_per_sm) * plan.sm_count) + " blocks, at most " +
                std::to_string(std::size_t(plan.resident_blocks_per_sm) * plan.sm_count) + " may be resident");
    return student;
}

/// Loaded on first use; a module that fails its checks is tried (and refused) again next time.
const StudentReduction& student()
{
    static const StudentReduction loaded = load();
    return loaded;
}

}  // namespace

const ReduceOncePlan& reduce_once_plan()
{
    return student().plan;
}

std::size_t grid_for(std::size_t n)
{
    const ReduceOncePlan& plan = reduce_once_plan();
    const std::size_t per_block = std::size_t(plan.launch.block) * plan.launch.items_per_thread;
    const std::size_t cap = std::size_t(plan.launch.max_blocks_per_sm) * plan.sm_count;
    const std::size_t grid = std::max<std::size_t>(1, std::min((n + per_block - 1) / per_block, cap));
    if (grid > kMaxGrid)
        bad_configuration("max_blocks_per_sm", plan.launch.max_blocks_per_sm,
                          "the grid would have " + std::to_string(grid) + " blocks for n = " + std::to_string(n) +
                              ", more than one launch may have (2^31 - 1)");
    return grid;
}

Workspace::Workspace(std::size_t max_n) : PartialSums(grid_for(max_n), max_n, "lesson09::Workspace"), ticket_(1)
{
    ticket_.fill_bytes(0);
    COURSE_CUDA_CHECK(cudaDeviceSynchronize());
}

unsigned Workspace::read_ticket(cudaStream_t stream) const
{
    COURSE_CUDA_CHECK(cudaStreamSynchronize(stream));
    return ticket_.download()[0];
}

void reduce_once(const int* data, std::size_t n, long long* result, Workspace& workspace, cudaStream_t stream)
{
    if (n == 0)
        throw std::invalid_argument("reduce_once: the array must hold at least one element");
    const StudentReduction& loaded = student();
    const unsigned grid = unsigned(grid_for(n));
    long long* partials = workspace.partials_for(n);
    unsigned* ticket = workspace.ticket();
    if (loaded.plan.launch.cooperative == 0) {
        loaded.kernel.launch(grid, loaded.plan.launch.block, 0, stream, data, n, result, partials, ticket);
        return;
    }
    std::array<void*, 5> arguments{&data, &n, &result, &partials, &ticket};
    COURSE_CUDA_CHECK(cudaLaunchCooperativeKernel(loaded.kernel.function(), dim3(grid), dim3(loaded.plan.launch.block),
                                                  arguments.data(), 0, stream));
}

// ---- lesson 05's reference, two launches ----

namespace {

using PhaseOne = course::ModuleKernel<const int*, std::size_t, long long*>;
using PhaseTwo = course::ModuleKernel<const long long*, std::size_t, long long*>;

struct Lesson05Reference {
    PhaseOne phase_one;
    PhaseTwo phase_two;
    lesson05::ReduceSumLaunch launch;
    std::size_t cap;
};

const Lesson05Reference& lesson05_reference()
{
    static const Lesson05Reference loaded = [] {
        const course::Module& module = course::reference_module("05_global_reduction", "reduce_sum");
        const auto launch = course::read_module_value<lesson05::ReduceSumLaunch>(module, "reduce_sum_launch");
        int device = 0;
        int sms = 0;
        COURSE_CUDA_CHECK(cudaGetDevice(&device));
        COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return Lesson05Reference{PhaseOne(module, "phase_one"), PhaseTwo(module, "phase_two"), launch,
                                 std::size_t(launch.max_blocks_per_sm) * std::size_t(sms)};
    }();
    return loaded;
}

}  // namespace

TwoLaunchReference::TwoLaunchReference(std::size_t max_n) : partials_(grid(max_n))
{
}

std::size_t TwoLaunchReference::grid(std::size_t n) const
{
    const Lesson05Reference& reference = lesson05_reference();
    const std::size_t block = reference.launch.phase_one_block;
    return std::max<std::size_t>(1, std::min((n + block - 1) / block, reference.cap));
}

void TwoLaunchReference::run(const int* data, std::size_t n, long long* result, cudaStream_t stream)
{
    const Lesson05Reference& reference = lesson05_reference();
    const std::size_t blocks = grid(n);
    reference.phase_one.launch(unsigned(blocks), reference.launch.phase_one_block, 0, stream, data, n,
                               partials_.data());
    reference.phase_two.launch(1, reference.launch.phase_two_block, 0, stream, partials_.data(), blocks, result);
}

}  // namespace lesson09
