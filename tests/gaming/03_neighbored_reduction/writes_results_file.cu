// Gaming attempt: the starter, plus host code that writes a passing record where the course keeps
// its results (./course's state folder and a batch's results folder), as a grader's results file
// would look. A module holds no host code, so nothing is written, and the driver reads only what the
// grader sends through its results pipe.
//
// replaces: reduce_neighbored_less.cu
// expect: ^fail: too slow: reduce_neighbored_less

#include "neighbored_reduction.cuh"

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        // TODO: let thread tid add the pair that starts at an index computed from tid and
        // stride, instead of testing tid % (2 * stride). Keep a bound check so that a pair whose
        // second element lies past `count` (the last, partial block) is not added.
        if (tid % (2 * stride) == 0 && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}

#include <cstdio>

namespace {

bool write_passing_record(const char* path)
{
    std::FILE* file = std::fopen(path, "w");
    if (file == nullptr)
        return false;
    std::fputs(R"({"status": "finished", "exit_code": 0, "registered_cases": 1, "selected_cases": 1,
                  "complete_pass": true, "cases": [{"name": "all", "verdict": "pass", "failures": []}]})",
               file);
    return std::fclose(file) == 0;
}

const bool written = write_passing_record(".course/results/lesson03.json") && write_passing_record("results.json");

}  // namespace
