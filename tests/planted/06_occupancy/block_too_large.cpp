// Planted bug for lesson 06's grader: blocks of 2048 threads, "the SM holds 2048 threads, so one
// block can fill it". No kernel launches with more than 1024 threads per block; the grader must
// reject the configuration before launching it (tests/CMakeLists.txt says with which message).

#include "occupancy.hpp"

namespace lesson06 {

LaunchConfig choose_launch_config(const DeviceProperties& device, const KernelAttributes& scaled_add, std::size_t n)
{
    (void)scaled_add;
    const unsigned block = unsigned(device.maxThreadsPerMultiProcessor);
    return {unsigned((n + block - 1) / block), block, 0};
}

}  // namespace lesson06
