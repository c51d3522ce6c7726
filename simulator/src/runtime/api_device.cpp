// Device management and error state. One device: a modelled H100 SXM.
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include <cuda_runtime_api.h>

#include "exec/memory/device_memory.hpp"
#include "exec/scheduling/device_model.hpp"
#include "runtime/capture.hpp"
#include "runtime/state.hpp"

using namespace cudasim;
using namespace cudasim::device_model;

namespace {

cudaDeviceProp make_properties()
{
    cudaDeviceProp p;
    std::memset(&p, 0, sizeof p);
    std::snprintf(p.name, sizeof p.name, "cudasim CPU simulator (a modelled H100 SXM)");
    p.totalGlobalMem = kGlobalMemoryBytes;
    p.sharedMemPerBlock = kDefaultSharedPerBlock;
    p.regsPerBlock = kRegistersPerSm;
    p.warpSize = 32;
    p.memPitch = 2147483647;
    p.maxThreadsPerBlock = kMaxThreadsPerBlock;
    p.maxThreadsDim[0] = 1024;
    p.maxThreadsDim[1] = 1024;
    p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = 2147483647;
    p.maxGridSize[1] = 65535;
    p.maxGridSize[2] = 65535;
    p.totalConstMem = 65536;
    p.major = 9;
    p.minor = 0;
    p.textureAlignment = 512;
    p.texturePitchAlignment = 32;
    p.multiProcessorCount = kMultiprocessors;
    p.concurrentKernels = 1;
    p.asyncEngineCount = 3;
    p.unifiedAddressing = 1;
    p.memoryBusWidth = 5120;
    p.l2CacheSize = static_cast<int>(device_model::kL2Bytes);
    p.persistingL2CacheMaxSize = 0;
    p.maxThreadsPerMultiProcessor = kMaxThreadsPerSm;
    p.streamPrioritiesSupported = 1;
    p.globalL1CacheSupported = 1;
    p.localL1CacheSupported = 1;
    p.sharedMemPerMultiprocessor = kSharedPerSm;
    p.regsPerMultiprocessor = kRegistersPerSm;
    p.managedMemory = 1;
    p.computePreemptionSupported = 1;
    p.cooperativeLaunch = 1;
    p.sharedMemPerBlockOptin = kOptInSharedPerBlock;
    p.maxBlocksPerMultiProcessor = kMaxBlocksPerSm;
    p.reservedSharedMemPerBlock = kSharedReservedPerBlock;
    return p;
}

// A query's answer, through its pointer argument: cudaErrorInvalidValue for a null pointer.
cudaError_t answer(int* out, int value)
{
    if (!out)
        return record_error(cudaErrorInvalidValue);
    *out = value;
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int* count)
{
    return answer(count, 1);
}

cudaError_t cudaGetDevice(int* device)
{
    return answer(device, 0);
}

cudaError_t cudaSetDevice(int device)
{
    if (device != 0)
        return fail_call("cudaSetDevice", cudaErrorInvalidDevice, "only device 0 exists");
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device)
{
    if (!prop)
        return record_error(cudaErrorInvalidValue);
    if (device != 0)
        return fail_call("cudaGetDeviceProperties", cudaErrorInvalidDevice, "only device 0 exists");
    *prop = make_properties();
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device)
{
    if (!value)
        return record_error(cudaErrorInvalidValue);
    if (device != 0)
        return fail_call("cudaDeviceGetAttribute", cudaErrorInvalidDevice, "only device 0 exists");
    static const cudaDeviceProp p = make_properties();
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case cudaDevAttrMaxBlockDimX:
        *value = p.maxThreadsDim[0];
        break;
    case cudaDevAttrMaxBlockDimY:
        *value = p.maxThreadsDim[1];
        break;
    case cudaDevAttrMaxBlockDimZ:
        *value = p.maxThreadsDim[2];
        break;
    case cudaDevAttrMaxGridDimX:
        *value = p.maxGridSize[0];
        break;
    case cudaDevAttrMaxGridDimY:
        *value = p.maxGridSize[1];
        break;
    case cudaDevAttrMaxGridDimZ:
        *value = p.maxGridSize[2];
        break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *value = static_cast<int>(p.sharedMemPerBlock);
        break;
    case cudaDevAttrTotalConstantMemory:
        *value = static_cast<int>(p.totalConstMem);
        break;
    case cudaDevAttrWarpSize:
        *value = p.warpSize;
        break;
    case cudaDevAttrMaxPitch:
        *value = static_cast<int>(p.memPitch);
        break;
    case cudaDevAttrMaxRegistersPerBlock:
        *value = p.regsPerBlock;
        break;
    case cudaDevAttrClockRate:
        *value = 1755000;
        break;  // kHz
    case cudaDevAttrMemoryClockRate:
        *value = 2619000;
        break;
    case cudaDevAttrGlobalMemoryBusWidth:
        *value = p.memoryBusWidth;
        break;
    case cudaDevAttrMultiProcessorCount:
        *value = p.multiProcessorCount;
        break;
    case cudaDevAttrComputeCapabilityMajor:
        *value = p.major;
        break;
    case cudaDevAttrComputeCapabilityMinor:
        *value = p.minor;
        break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
        *value = p.maxThreadsPerMultiProcessor;
        break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = static_cast<int>(p.sharedMemPerMultiprocessor);
        break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
        *value = p.regsPerMultiprocessor;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *value = static_cast<int>(p.sharedMemPerBlockOptin);
        break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
        *value = p.maxBlocksPerMultiProcessor;
        break;
    case cudaDevAttrReservedSharedMemoryPerBlock:
        *value = static_cast<int>(p.reservedSharedMemPerBlock);
        break;
    case cudaDevAttrL2CacheSize:
        *value = p.l2CacheSize;
        break;
    case cudaDevAttrConcurrentKernels:
        *value = 1;
        break;
    case cudaDevAttrUnifiedAddressing:
        *value = 1;
        break;
    case cudaDevAttrManagedMemory:
        *value = 1;
        break;
    case cudaDevAttrAsyncEngineCount:
        *value = p.asyncEngineCount;
        break;
    case cudaDevAttrIntegrated:
        *value = 0;
        break;
    case cudaDevAttrCooperativeLaunch:
        *value = 1;
        break;
    case cudaDevAttrGlobalL1CacheSupported:
        *value = 1;
        break;
    case cudaDevAttrLocalL1CacheSupported:
        *value = 1;
        break;
    default:
        return fail_call("cudaDeviceGetAttribute", cudaErrorInvalidValue,
                         "attribute " + std::to_string(static_cast<int>(attr)) + " is not modelled");
    }
    return cudaSuccess;
}

// A hint that a GPU may ignore too; the model has no L1/shared split.
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache)
{
    std::lock_guard lock(runtime().mutex);
    return sticky_error();
}

cudaError_t cudaDeviceSynchronize(void)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (cudaError_t e = check_device_synchronize("cudaDeviceSynchronize"))
        return e;
    return synchronize_with_device();
}

cudaError_t cudaThreadSynchronize(void)
{
    return cudaDeviceSynchronize();
}

cudaError_t cudaDeviceReset(void)
{
    std::lock_guard lock(runtime().mutex);
    runtime().heap.reset();  // the device heap goes with the rest of device memory
    DeviceMemory::instance().release_all();
    discard_all_captures();
    runtime().sticky_error = cudaSuccess;
    runtime().pending_fault = cudaSuccess;
    runtime().last_error = cudaSuccess;
    runtime().fault_error = cudaSuccess;
    runtime().fault_message.clear();
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    std::lock_guard lock(runtime().mutex);
    cudaError_t e = runtime().last_error;
    runtime().last_error = runtime().sticky_error;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    std::lock_guard lock(runtime().mutex);
    return runtime().last_error;
}

cudaError_t cudaRuntimeGetVersion(int* version)
{
    return answer(version, CUDART_VERSION);
}

cudaError_t cudaDriverGetVersion(int* version)
{
    return answer(version, CUDART_VERSION);
}

}  // extern "C"

// The limits a kernel's output and heap have, as on a GPU; the others are not modelled.
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    switch (limit) {
    case cudaLimitPrintfFifoSize:
        runtime().printf_fifo_bytes = value;
        return cudaSuccess;
    case cudaLimitMallocHeapSize:
        // As on a GPU: the heap is laid out when the first kernel runs.
        if (runtime().heap)
            return fail_call("cudaDeviceSetLimit", cudaErrorInvalidValue,
                             "the device heap's size cannot change once a kernel has run");
        runtime().malloc_heap_bytes = value;
        return cudaSuccess;
    case cudaLimitStackSize:
        // Kept for cudaDeviceGetLimit; a recursion is limited to 1024 nested calls, whatever the size.
        runtime().stack_bytes = value;
        return cudaSuccess;
    default:
        return fail_call("cudaDeviceSetLimit", cudaErrorNotSupported,
                         "only cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize and cudaLimitStackSize are modelled");
    }
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit)
{
    std::lock_guard lock(runtime().mutex);
    if (!value)
        return fail_call("cudaDeviceGetLimit", cudaErrorInvalidValue, "value is NULL");
    switch (limit) {
    case cudaLimitPrintfFifoSize:
        *value = runtime().printf_fifo_bytes;
        return cudaSuccess;
    case cudaLimitMallocHeapSize:
        *value = runtime().malloc_heap_bytes;
        return cudaSuccess;
    case cudaLimitStackSize:
        *value = runtime().stack_bytes;
        return cudaSuccess;
    default:
        return fail_call("cudaDeviceGetLimit", cudaErrorNotSupported,
                         "only cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize and cudaLimitStackSize are modelled");
    }
}
