// Gaming attempt: counts on the host in a function with the old launcher's name, so that a grader
// calling it would get the right count from a kernel that does nothing. A module holds no host
// code: the lesson launches the kernel, which counts nothing.
//
// replaces: count_per_warp.cu
// expect: ^fail: wrong result: count_per_warp

#include "warp_basics.cuh"

#include <cuda_runtime_api.h>

#include <vector>

extern "C" __global__ void count_per_warp(const int*, std::size_t, int, unsigned long long*)
{}

namespace lesson01 {

void launch_count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count, unsigned,
                           cudaStream_t stream)
{
    std::vector<int> values(n);
    cudaMemcpy(values.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost);
    unsigned long long below = 0;
    for (const int value : values)
        below += value < threshold ? 1 : 0;
    cudaMemcpyAsync(count, &below, sizeof below, cudaMemcpyHostToDevice, stream);
}

}  // namespace lesson01
