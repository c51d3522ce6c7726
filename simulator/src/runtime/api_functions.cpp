// Per-kernel queries and settings: attributes, cache hints and the
// occupancy calculator.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include <cuda_runtime_api.h>

#include "exec/scheduling/device_model.hpp"
#include "runtime/register_count.hpp"
#include "runtime/state.hpp"

using namespace cudasim;
using namespace cudasim::device_model;

extern "C" {

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = stickyError())
        return e;
    if (!attr)
        return failCall("cudaFuncGetAttributes", cudaErrorInvalidValue, "attr is NULL");
    FunctionEntry* entry = nullptr;
    cudaError_t error = cudaSuccess;
    std::string why;
    const ptx::Kernel* k = kernelFor(func, &entry, error, why);
    if (!k)
        return failCall("cudaFuncGetAttributes", error, why);
    std::memset(attr, 0, sizeof *attr);
    int regs = kernelRegisters(*entry, *k);
    // ptxas allocates a kernel's static shared memory in 16-byte units (the H100 reports 1104 bytes
    // for 1092 declared).
    attr->sharedSizeBytes = (k->staticSmem + 15) / 16 * 16;
    attr->constSizeBytes = 0;
    attr->localSizeBytes = k->localBytes;
    attr->maxThreadsPerBlock = std::min(kMaxThreadsPerBlock, warpsByRegisters(regs) * 32);
    if (k->maxThreads)
        attr->maxThreadsPerBlock = std::min<int>(attr->maxThreadsPerBlock, static_cast<int>(k->maxThreads));
    attr->numRegs = regs;
    attr->ptxVersion = entry->binary->module->targetArch;  // what the PTX was generated for, as on a GPU
    attr->binaryVersion = 90;
    attr->maxDynamicSharedSizeBytes = maxDynamicSharedBytes(*entry, k->staticSmem);
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = stickyError())
        return e;
    auto it = runtime().functions.find(func);
    if (it == runtime().functions.end())
        return failCall("cudaFuncSetAttribute", cudaErrorInvalidDeviceFunction, "unknown kernel");
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || value > kOptInSharedPerBlock)
            return failCall("cudaFuncSetAttribute", cudaErrorInvalidValue, "more than 227 KB of shared memory");
        it->second.maxDynamicSharedBytes = value;
        return cudaSuccess;
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return cudaSuccess;  // a hint, see README
    return failCall("cudaFuncSetAttribute", cudaErrorNotSupported, "attribute " + std::to_string(attr));
}

// Cache configuration calls are hints that a GPU may ignore too; the model
// has no L1/shared split to configure.
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = stickyError())
        return e;
    if (!runtime().functions.count(func))
        return failCall("cudaFuncSetCacheConfig", cudaErrorInvalidDeviceFunction, "unknown kernel");
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = stickyError())
        return e;
    FunctionEntry* entry = nullptr;
    cudaError_t error = cudaSuccess;
    std::string why;
    const ptx::Kernel* k = kernelFor(func, &entry, error, why);
    if (!k)
        return failCall("cudaOccupancyMaxActiveBlocksPerMultiprocessor", error, why);
    if (!numBlocks || blockSize <= 0)
        return failCall("cudaOccupancyMaxActiveBlocksPerMultiprocessor", cudaErrorInvalidValue, "bad arguments");
    // A configuration that could not launch has no resident blocks.
    if (blockSize > kMaxThreadsPerBlock ||
        dynamicSMemSize > static_cast<size_t>(maxDynamicSharedBytes(*entry, k->staticSmem))) {
        *numBlocks = 0;
        return cudaSuccess;
    }
    *numBlocks = blocksPerSm(kernelRegisters(*entry, *k), blockSize, k->staticSmem + dynamicSMemSize);
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

}  // extern "C"
