// Lesson 05: cub::DeviceReduce::Sum, the library's reduction, as the demo's reference row. The only
// file of the course that includes CUB (it is slow to compile).
//
//   ./course run 05

#include "global_reduction.hpp"

#include "course/cuda_check.hpp"

#include <cub/device/device_reduce.cuh>

#include <cstdint>

namespace lesson05 {

CubSum::CubSum(std::size_t max_n)
{
    std::size_t bytes = 0;
    // With null storage, CUB only reports how much temporary storage a sum of max_n ints needs.
    COURSE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const int*>(nullptr),
                                             static_cast<long long*>(nullptr), std::int64_t(max_n)));
    temp_ = course::DeviceBuffer<unsigned char>(bytes);
}

void CubSum::run(const int* data, std::size_t n, long long* result, cudaStream_t stream)
{
    std::size_t bytes = temp_.bytes();
    // The output is long long: CUB then adds in 64 bits, like reduce_sum.
    COURSE_CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), bytes, data, result, std::int64_t(n), stream));
}

}  // namespace lesson05
