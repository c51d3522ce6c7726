// Lesson 06: kernels that need different numbers of registers and amounts of static shared memory,
// with different carve-out preferences: the grader asks theoretical_occupancy and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor about each of them. They are never launched.
//
//   build/gpu/lessons/lesson06_grader --modules=build/gpu/modules/solution --test-case='*cudaOccupancy*'

#include "occupancy_lesson.hpp"

#include "course/cuda_check.hpp"

namespace lesson06 {
namespace {

/// K accumulators that all stay live until the end: the compiler needs about K registers for them
/// (or spills, when a cap forbids it). StaticInts > 0 adds a static shared-memory tile.
template <int K, int StaticInts>
__device__ void pressure_body(const int* in, int* out, int rounds)
{
    int acc[K];
#pragma unroll
    for (int k = 0; k < K; ++k)
        acc[k] = in[threadIdx.x + k];
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int k = 0; k < K; ++k)
            acc[k] = acc[k] * acc[(k + 1) % K] + r;
    }
    if constexpr (StaticInts > 0) {
        __shared__ int tile[StaticInts];
        tile[threadIdx.x % StaticInts] = acc[0];
        __syncthreads();
        acc[0] += tile[(threadIdx.x + 1) % StaticInts];
    }
    int sum = 0;
#pragma unroll
    for (int k = 0; k < K; ++k)
        sum ^= acc[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Variant only makes distinct kernels, so that each can carry its own carve-out preference.
template <int K, int StaticInts, int Variant>
__global__ void pressure(const int* in, int* out, int rounds)
{
    pressure_body<K, StaticInts>(in, out, rounds);
}

template <int K, int Cap>
__global__ void __maxnreg__(Cap) pressure_capped(const int* in, int* out, int rounds)
{
    pressure_body<K, 0>(in, out, rounds);
}

template <int K, int Threads, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks) pressure_bounded(const int* in, int* out, int rounds)
{
    pressure_body<K, 0>(in, out, rounds);
}

struct Entry {
    const char* name;
    const void* function;
    int carveout;  // percent, or -1 for no preference
};

template <class Kernel>
const void* address(Kernel* kernel)
{
    return reinterpret_cast<const void*>(kernel);
}

}  // namespace

std::vector<SweepKernel> sweep_kernels(const cudaDeviceProp& device)
{
    const Entry entries[] = {
        {"pressure<1>", address(&pressure<1, 0, 0>), -1},
        {"pressure<16>", address(&pressure<16, 0, 0>), -1},
        {"pressure<32>", address(&pressure<32, 0, 0>), -1},
        {"pressure<48>", address(&pressure<48, 0, 0>), -1},
        {"pressure<64>", address(&pressure<64, 0, 0>), -1},
        {"pressure<96>", address(&pressure<96, 0, 0>), -1},
        {"pressure<128>", address(&pressure<128, 0, 0>), -1},
        {"pressure<200>", address(&pressure<200, 0, 0>), -1},
        {"pressure<200> __maxnreg__(72)", address(&pressure_capped<200, 72>), -1},
        {"pressure<200> __maxnreg__(128)", address(&pressure_capped<200, 128>), -1},
        {"pressure<64> __maxnreg__(40)", address(&pressure_capped<64, 40>), -1},
        {"pressure<96> __launch_bounds__(1024, 1)", address(&pressure_bounded<96, 1024, 1>), -1},
        {"pressure<96> __launch_bounds__(256, 3)", address(&pressure_bounded<96, 256, 3>), -1},
        {"pressure<16> + 2 KiB static shared", address(&pressure<16, 512, 0>), -1},
        {"pressure<16> + 12000 B static shared", address(&pressure<16, 3000, 0>), -1},
        {"pressure<16> + 40 KiB static shared", address(&pressure<16, 10240, 0>), -1},
        {"pressure<16>, carve-out 0%", address(&pressure<16, 0, 1>), 0},
        {"pressure<16>, carve-out 25%", address(&pressure<16, 0, 2>), 25},
        {"pressure<16>, carve-out 50%", address(&pressure<16, 0, 3>), 50},
        {"pressure<16> + 2 KiB static shared, carve-out 50%", address(&pressure<16, 512, 4>), 50},
        {"pressure<64>, carve-out 100%", address(&pressure<64, 0, 5>), 100},
    };
    std::vector<SweepKernel> kernels;
    for (const auto& entry : entries) {
        SweepKernel kernel{entry.name, entry.function, attributes_of(entry.function)};
        // Let the kernel take every byte of dynamic shared memory a block may have.
        COURSE_CUDA_CHECK(cudaFuncSetAttribute(entry.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               int(device.sharedMemPerBlockOptin - kernel.attributes.sharedSizeBytes)));
        if (entry.carveout >= 0)
            COURSE_CUDA_CHECK(
                cudaFuncSetAttribute(entry.function, cudaFuncAttributePreferredSharedMemoryCarveout, entry.carveout));
        kernel.attributes = attributes_of(entry.function);
        kernels.push_back(kernel);
    }
    return kernels;
}

}  // namespace lesson06
