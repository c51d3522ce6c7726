// plants: a calculator that answers with the grader's own reference, lesson06::nvidia_calculator,
//   declared in the lesson's trusted header. It must not even build: that header needs the CUDA
//   runtime's headers, which a student program may not include, and the reference's definition is
//   never linked into the student program.
// replaces: occupancy_calculator.cpp
// refused by the build
// expect: refused: .*occupancy_calculator.cpp includes .*/cuda_runtime_api.h|cuda_runtime_api.h: No such file

#include "occupancy_lesson.hpp"

namespace lesson06 {

OccupancyResult theoretical_occupancy(const DeviceProperties& device, const KernelAttributes& kernel, int block_size,
                                      std::size_t dynamic_shared_bytes)
{
    cudaDeviceProp properties{};
    properties.major = device.major;
    properties.minor = device.minor;
    properties.warpSize = device.warpSize;
    properties.maxThreadsPerBlock = device.maxThreadsPerBlock;
    properties.maxThreadsPerMultiProcessor = device.maxThreadsPerMultiProcessor;
    properties.maxBlocksPerMultiProcessor = device.maxBlocksPerMultiProcessor;
    properties.regsPerBlock = device.regsPerBlock;
    properties.regsPerMultiprocessor = device.regsPerMultiprocessor;
    properties.sharedMemPerBlock = device.sharedMemPerBlock;
    properties.sharedMemPerBlockOptin = device.sharedMemPerBlockOptin;
    properties.sharedMemPerMultiprocessor = device.sharedMemPerMultiprocessor;
    properties.reservedSharedMemPerBlock = device.reservedSharedMemPerBlock;
    cudaFuncAttributes attributes{};
    attributes.numRegs = kernel.numRegs;
    attributes.sharedSizeBytes = kernel.sharedSizeBytes;
    attributes.maxThreadsPerBlock = kernel.maxThreadsPerBlock;
    attributes.maxDynamicSharedSizeBytes = kernel.maxDynamicSharedSizeBytes;
    attributes.preferredShmemCarveout = kernel.preferredShmemCarveout;
    const CalculatorAnswer answer = nvidia_calculator(properties, attributes, block_size, dynamic_shared_bytes);

    OccupancyResult result;
    result.blocks_per_sm = answer.blocks_per_sm;
    result.warps_per_sm = answer.blocks_per_sm * ((block_size + device.warpSize - 1) / device.warpSize);
    result.occupancy = double(result.warps_per_sm) / (device.maxThreadsPerMultiProcessor / device.warpSize);
    result.limiter = answer.limiters.empty() ? Limiter::warp_slots : answer.limiters.front();
    return result;
}

}  // namespace lesson06
