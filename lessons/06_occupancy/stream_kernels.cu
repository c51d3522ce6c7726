// Lesson 06: the memory-bound kernels whose speed depends on how many bytes are in flight, launched
// by the lesson with the configuration the student's choose_launch_config answers. See
// lessons/06_occupancy/README.md.
//
//   ./course run 06                 # bandwidth of both kernels across block and shared-memory sizes

#include "occupancy_lesson.hpp"

#include "course/cuda_check.hpp"
#include "course/device_buffer.hpp"

#include <stdexcept>
#include <string>

namespace lesson06 {
namespace {

//! [scaled_add]
__global__ void scaled_add(const int* __restrict__ x, const int* __restrict__ y, int* __restrict__ z, int a,
                           std::size_t n)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    // One element per thread per step: two 4-byte loads in flight per thread, then a store.
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        z[i] = a * x[i] + y[i];
}
//! [scaled_add]

__device__ int4 scaled_add4(int a, int4 x, int4 y)
{
    return make_int4(a * x.x + y.x, a * x.y + y.y, a * x.z + y.z, a * x.w + y.w);
}

//! [scaled_add_wide]
__global__ void scaled_add_wide(const int* __restrict__ x, const int* __restrict__ y, int* __restrict__ z, int a,
                                std::size_t n)
{
    // cudaMalloc'd arrays start 256-byte aligned, so they can be read as int4.
    const auto* x4 = reinterpret_cast<const int4*>(x);
    const auto* y4 = reinterpret_cast<const int4*>(y);
    auto* z4 = reinterpret_cast<int4*>(z);
    const std::size_t vectors = n / 4;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    // Four independent 16-byte loads per array before the first use: 128 bytes in flight per
    // thread instead of 8. Each of the four is still coalesced across the warp.
    for (; i + 3 * stride < vectors; i += 4 * stride) {
        int4 xs[4];
        int4 ys[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            xs[k] = x4[i + k * stride];
            ys[k] = y4[i + k * stride];
        }
#pragma unroll
        for (int k = 0; k < 4; ++k)
            z4[i + k * stride] = scaled_add4(a, xs[k], ys[k]);
    }
    for (; i < vectors; i += stride)
        z4[i] = scaled_add4(a, x4[i], y4[i]);
    // The last n % 4 elements, one thread each.
    const std::size_t tail = 4 * vectors + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (tail < n)
        z[tail] = a * x[tail] + y[tail];
}
//! [scaled_add_wide]

__global__ void differences(const int* a, const int* b, std::size_t n, unsigned long long* count)
{
    unsigned long long mine = 0;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        mine += a[i] != b[i];
    if (mine > 0)
        atomicAdd(count, mine);
}

void check_config(const LaunchConfig& config)
{
    // A zero grid or block is a launch error too, but this names the cause.
    if (config.grid == 0 || config.block == 0)
        throw std::invalid_argument("launch configuration with grid " + std::to_string(config.grid) + " and block " +
                                    std::to_string(config.block));
}

}  // namespace

void launch_scaled_add(const LaunchConfig& config, const int* x, const int* y, int* z, int a, std::size_t n,
                       cudaStream_t stream)
{
    check_config(config);
    scaled_add<<<config.grid, config.block, config.dynamic_shared_bytes, stream>>>(x, y, z, a, n);
}

void launch_scaled_add_wide(const LaunchConfig& config, const int* x, const int* y, int* z, int a, std::size_t n,
                            cudaStream_t stream)
{
    check_config(config);
    scaled_add_wide<<<config.grid, config.block, config.dynamic_shared_bytes, stream>>>(x, y, z, a, n);
}

unsigned long long count_differences(const int* a, const int* b, std::size_t n)
{
    course::DeviceBuffer<unsigned long long> count(1);
    count.fill_bytes(0);
    differences<<<1024, 256>>>(a, b, n, count.data());
    COURSE_CHECK_LAUNCH();
    return count.download()[0];
}

const void* scaled_add_kernel()
{
    return reinterpret_cast<const void*>(&scaled_add);
}
const void* scaled_add_wide_kernel()
{
    return reinterpret_cast<const void*>(&scaled_add_wide);
}

cudaFuncAttributes attributes_of(const void* kernel)
{
    cudaFuncAttributes attributes{};
    COURSE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    return attributes;
}

void allow_large_shared_memory(const cudaDeviceProp& device)
{
    for (const void* kernel : {scaled_add_kernel(), scaled_add_wide_kernel()})
        COURSE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               int(device.sharedMemPerBlockOptin)));
}

}  // namespace lesson06
