// plants: blocks of 2048 threads, "the SM holds 2048 threads, so one block can fill it". No kernel
//   launches with more than 1024 threads per block; the lesson refuses it before launching
//   anything.
// replaces: launch_config.cpp
// expect: bad configuration: choose_launch_config\(n = 1\) gave \{grid 1, block 2048

#include "occupancy.hpp"

namespace lesson06 {

LaunchConfig choose_launch_config(const DeviceProperties& device, const KernelAttributes& scaled_add, std::size_t n)
{
    (void)scaled_add;
    const unsigned block = unsigned(device.maxThreadsPerMultiProcessor);
    return {unsigned((n + block - 1) / block), block, 0};
}

}  // namespace lesson06
