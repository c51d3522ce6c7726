// plants: one block of one warp per SM ("every SM gets work"), so each SM has a single warp and
//   eight bytes per thread in flight. The launch is valid and its results are exact; the grader
//   must reject it as too slow.
// replaces: launch_config.cpp
// expect: too slow: choose_launch_config( runs [0-9.]+x over starving_config|, occupancy)

#include "occupancy.hpp"

namespace lesson06 {

LaunchConfig choose_launch_config(const DeviceProperties& device, const KernelAttributes& scaled_add, std::size_t n)
{
    (void)scaled_add;
    (void)n;
    return {unsigned(device.multiProcessorCount), 32, 0};
}

}  // namespace lesson06
