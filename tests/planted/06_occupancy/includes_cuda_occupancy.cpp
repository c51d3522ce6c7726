// plants: a calculator that answers with NVIDIA's header-only calculator, cuda_occupancy.h, the
//   very reference the grader compares with (reachable from the default include path where the
//   toolkit is linked into /usr/local/include). It must not even build: a student program may not
//   include the CUDA toolkit.
// replaces: occupancy_calculator.cpp
// refused by the build
// expect: refused: .*occupancy_calculator.cpp includes .*/cuda_occupancy.h|cuda_occupancy.h: No such file

#include "occupancy.hpp"

#include <cuda_occupancy.h>

namespace lesson06 {

OccupancyResult theoretical_occupancy(const DeviceProperties& device, const KernelAttributes& kernel, int block_size,
                                      std::size_t dynamic_shared_bytes)
{
    // The header's types convert from anything with cudaDeviceProp's and cudaFuncAttributes' field
    // names, as the grader's nvidia_calculator converts the real ones.
    const cudaOccDeviceProp properties(device);
    const cudaOccFuncAttributes attributes(kernel);
    cudaOccDeviceState state;
    state.carveoutConfig = kernel.preferredShmemCarveout;
    cudaOccResult answer{};
    cudaOccMaxActiveBlocksPerMultiprocessor(&answer, &properties, &attributes, &state, block_size,
                                            dynamic_shared_bytes);

    OccupancyResult result;
    result.blocks_per_sm = answer.activeBlocksPerMultiprocessor;
    result.warps_per_sm = answer.activeBlocksPerMultiprocessor * ((block_size + device.warpSize - 1) / device.warpSize);
    result.occupancy = double(result.warps_per_sm) / (device.maxThreadsPerMultiProcessor / device.warpSize);
    result.limiter = (answer.limitingFactors & OCC_LIMIT_REGISTERS)       ? Limiter::registers
                     : (answer.limitingFactors & OCC_LIMIT_SHARED_MEMORY) ? Limiter::shared_memory
                     : (answer.limitingFactors & OCC_LIMIT_BLOCKS)        ? Limiter::block_slots
                                                                          : Limiter::warp_slots;
    return result;
}

}  // namespace lesson06
