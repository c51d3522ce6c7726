// The hooks nvcc's host stubs call: static constructors register each
// translation unit's fat binary, kernels and variables; kernel stubs push
// and pop the <<<...>>> configuration and then launch.
#include <cuda_runtime_api.h>

#include "runtime/launch.hpp"
#include "runtime/state.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

using namespace cudasim;

namespace {
struct CallConfiguration {
    dim3 grid, block;
    size_t shared_mem;
    cudaStream_t stream;
};
thread_local std::vector<CallConfiguration> configurations;
}  // namespace

extern "C" {

void** __cudaRegisterFatBinary(void* fatCubin)
{
    std::lock_guard lock(runtime().mutex);
    auto binary = std::make_unique<FatBinary>();
    binary->wrapper = fatCubin;
    runtime().binaries.push_back(std::move(binary));
    return reinterpret_cast<void**>(runtime().binaries.back().get());
}

void __cudaRegisterFatBinaryEnd(void**)
{
}

void __cudaUnregisterFatBinary(void**)
{
    // Kernels stay registered: other static destructors may still launch.
}

// Called before the host first reads a __managed__ variable of the translation unit: the module
// is loaded, which points the host's addresses of its managed variables at their storage.
char __cudaInitModule(void** handle)
{
    std::lock_guard lock(runtime().mutex);
    FatBinary& binary = *reinterpret_cast<FatBinary*>(handle);
    ensure_loaded(binary);
    if (!binary.module) {
        fail_call("__cudaInitModule", cudaErrorInvalidPtx,
                  "the module of a __managed__ variable could not be loaded: " + binary.load_error);
        return 0;
    }
    return 1;
}

void __cudaRegisterFunction(void** handle, const char* hostFun, char*, const char* deviceName, int, uint3*, uint3*,
                            dim3*, dim3*, int*)
{
    std::lock_guard lock(runtime().mutex);
    FunctionEntry entry;
    entry.binary = reinterpret_cast<FatBinary*>(handle);
    entry.name = deviceName;
    runtime().functions[hostFun] = entry;
}

void __cudaRegisterVar(void** handle, char* hostVar, char*, const char* deviceName, int, size_t size, int constant, int)
{
    std::lock_guard lock(runtime().mutex);
    runtime().variables[hostVar] = VariableEntry{reinterpret_cast<FatBinary*>(handle), deviceName, size, constant != 0};
}

void __cudaRegisterManagedVar(void** handle, void** hostVarPtrAddress, char*, const char* deviceName, int, size_t, int,
                              int)
{
    std::lock_guard lock(runtime().mutex);
    reinterpret_cast<FatBinary*>(handle)->managed.emplace_back(hostVarPtrAddress, deviceName);
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream)
{
    configurations.push_back({gridDim, blockDim, sharedMem, stream});
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream)
{
    if (configurations.empty())
        return cudaErrorInvalidConfiguration;
    CallConfiguration c = configurations.back();
    configurations.pop_back();
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared_mem;
    *static_cast<cudaStream_t*>(stream) = c.stream;
    return cudaSuccess;
}

// The kernel handle is the host stub's address itself.
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* host_function)
{
    *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(host_function));
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                               cudaStream_t stream)
{
    return launch_kernel(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem, stream);
}

// With --default-stream per-thread, stream 0 is the calling thread's default stream.
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                    cudaStream_t stream)
{
    return launch_kernel(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem,
                         stream ? stream : cudaStreamPerThread);
}

}  // extern "C"
