#include "course/device.hpp"

#include "course/backend.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include <sstream>

namespace course {
namespace {

std::string version_text(int version)
{
    return std::to_string(version / 1000) + '.' + std::to_string(version % 1000 / 10);
}

std::string why_no_device(cudaError_t status)
{
    switch (status) {
    case cudaSuccess:
    case cudaErrorNoDevice:
        return "the NVIDIA driver sees no GPU";
    case cudaErrorInsufficientDriver:
        return "no NVIDIA driver is loaded, or it is older than this CUDA " + version_text(CUDART_VERSION) +
               " runtime needs";
    default:
        return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
    }
}

}  // namespace

DeviceProbe probe_device(int id)
{
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        // Clear the error so that it does not surface later as someone else's failure.
        cudaGetLastError();
        return {std::nullopt, "no CUDA device is available (" + why_no_device(status) + ")"};
    }
    if (id < 0 || id >= count)
        return {std::nullopt,
                "device " + std::to_string(id) + " does not exist; this machine has " + std::to_string(count)};

    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, id) != cudaSuccess || cudaSetDevice(id) != cudaSuccess) {
        const cudaError_t error = cudaGetLastError();
        return {std::nullopt,
                std::string("device ") + std::to_string(id) + " cannot be used: " + cudaGetErrorString(error)};
    }
    DeviceInfo info;
    info.id = id;
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.multiprocessors = prop.multiProcessorCount;
    info.l2_bytes = prop.l2CacheSize;
    info.global_bytes = prop.totalGlobalMem;
    info.max_threads_per_block = prop.maxThreadsPerBlock;
    std::size_t total = 0;
    if (cudaMemGetInfo(&info.free_bytes, &total) != cudaSuccess) {
        const cudaError_t error = cudaGetLastError();
        return {std::nullopt,
                std::string("device ") + std::to_string(id) + " cannot be used: " + cudaGetErrorString(error)};
    }
    cudaDriverGetVersion(&info.driver_version);
    cudaRuntimeGetVersion(&info.runtime_version);
    return {info, {}};
}

std::string banner(const DeviceInfo& device)
{
    std::ostringstream text;
    text.setf(std::ios::fixed);
    text.precision(1);
    text << device.name << " (sm_" << device.cc_major << device.cc_minor << ", " << device.multiprocessors << " SMs, "
         << device.l2_bytes / (1024 * 1024) << " MB L2, " << double(device.global_bytes) / double(1ull << 30)
         << " GiB, driver " << version_text(device.driver_version) << ", runtime "
         << version_text(device.runtime_version) << ')';
    if (kOnSimulator)
        text << "; MODELLED times: the simulator's timing model (simulator/README.md), not a measurement";
    return text.str();
}

}  // namespace course
