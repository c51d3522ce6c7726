// Gaming attempt: one block of 1024 threads, which fills the SM it runs on to 50% while the other
// SMs of the device stay idle. Occupancy counts over the whole device, and the modelled time (a
// GPU's clock) must show the speedup.
//
// replaces: launch_config.cpp
// expect: ^fail: too slow: choose_launch_config

#include "occupancy.hpp"

namespace lesson06 {

LaunchConfig choose_launch_config(const DeviceProperties&, const KernelAttributes&, std::size_t)
{
    return {1, 1024, 0};
}

}  // namespace lesson06
