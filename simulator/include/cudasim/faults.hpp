// The kernel fault behind the error a program sees, in the simulator's words.
//
//   #include <cudasim/faults.hpp>
//   if (cudaDeviceSynchronize() != cudaSuccess)
//     std::puts(cudasim::last_device_fault().message.c_str());
//
// A fault (an out-of-bounds or misaligned access, a shared-memory race, a barrier not every
// thread reaches, ...) stops its kernel; the runtime reports it with the CUDA error a GPU gives
// (cudaErrorIllegalAddress, cudaErrorLaunchFailure, ...), whose text says little. The simulator
// prints its description on stderr, and keeps it here for a program that wants to show it beside
// the error.
#pragma once

#include <string>

namespace cudasim {

struct DeviceFaultReport {
    int error = 0;        // the cudaError_t the fault gives; 0 (cudaSuccess): none
    std::string message;  // kernel, block, thread, source position and what went wrong
};

// The last kernel fault, from its launch until cudaDeviceReset().
DeviceFaultReport last_device_fault();

}  // namespace cudasim
