#pragma once
/// @file occupancy_protocol.hpp
/// @brief Lesson 06: the questions the judge asks the student program and the answers it expects,
/// as lines of text (course/student_program.hpp describes the protocol). Shared by the program's
/// `main` (student_program.cpp) and the judge's client (student_client.cpp), so that both read and
/// write the same fields in the same order.
///
/// @verbatim
///   theoretical_occupancy DEVICE KERNEL block_size dynamic_shared_bytes
///       -> blocks_per_sm warps_per_sm occupancy limiter
///   choose_launch_config DEVICE KERNEL n
///       -> grid block dynamic_shared_bytes
/// @endverbatim
/// DEVICE is the 16 numbers of a DeviceProperties and KERNEL the 5 of a KernelAttributes, in the
/// order for_each_device_field() and for_each_kernel_field() visit them; the limiter is the
/// Limiter's number (0 warp slots, 1 block slots, 2 registers, 3 shared memory).

#include "occupancy.hpp"

#include <cstddef>
#include <string_view>

namespace lesson06::protocol {

inline constexpr std::string_view kOccupancyQuestion = "theoretical_occupancy";
inline constexpr std::string_view kLaunchQuestion = "choose_launch_config";
inline constexpr std::size_t kOccupancyAnswerFields = 4;
inline constexpr std::size_t kLaunchAnswerFields = 3;

/// Calls visit(field) on every field of a DeviceProperties, const or not, in the wire's order.
template <class Device, class Visit>
void for_each_device_field(Device& device, Visit&& visit)
{
    visit(device.major);
    visit(device.minor);
    visit(device.multiProcessorCount);
    visit(device.warpSize);
    visit(device.maxThreadsPerBlock);
    visit(device.maxThreadsPerMultiProcessor);
    visit(device.maxBlocksPerMultiProcessor);
    visit(device.regsPerBlock);
    visit(device.regsPerMultiprocessor);
    visit(device.sharedMemPerBlock);
    visit(device.sharedMemPerBlockOptin);
    visit(device.sharedMemPerMultiprocessor);
    visit(device.reservedSharedMemPerBlock);
    for (auto& size : device.maxGridSize)
        visit(size);
}

/// The same for a KernelAttributes.
template <class Kernel, class Visit>
void for_each_kernel_field(Kernel& kernel, Visit&& visit)
{
    visit(kernel.numRegs);
    visit(kernel.sharedSizeBytes);
    visit(kernel.maxThreadsPerBlock);
    visit(kernel.maxDynamicSharedSizeBytes);
    visit(kernel.preferredShmemCarveout);
}

}  // namespace lesson06::protocol
