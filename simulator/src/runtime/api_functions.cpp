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
    if (cudaError_t e = sticky_error_or_null("cudaFuncGetAttributes", attr != nullptr, "attr"))
        return e;
    const auto [k, entry, error] = kernel_for_call("cudaFuncGetAttributes", func);
    if (!k)
        return error;
    std::memset(attr, 0, sizeof *attr);
    int regs = kernel_registers(*entry, *k);
    // ptxas allocates a kernel's static shared memory in 16-byte units (the H100 reports 1104 bytes
    // for 1092 declared).
    attr->sharedSizeBytes = (k->static_smem + 15) / 16 * 16;
    attr->constSizeBytes = 0;
    attr->localSizeBytes = k->local_bytes;
    attr->maxThreadsPerBlock = std::min(kMaxThreadsPerBlock, warps_by_registers(regs) * 32);
    if (k->max_threads)
        attr->maxThreadsPerBlock = std::min<int>(attr->maxThreadsPerBlock, static_cast<int>(k->max_threads));
    attr->numRegs = regs;
    attr->ptxVersion = entry->binary->module->target_arch;  // what the PTX was generated for, as on a GPU
    attr->binaryVersion = 90;
    attr->maxDynamicSharedSizeBytes = max_dynamic_shared_bytes(*entry, k->static_smem);
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    auto it = runtime().functions.find(func);
    if (it == runtime().functions.end())
        return fail_call("cudaFuncSetAttribute", cudaErrorInvalidDeviceFunction, "unknown kernel");
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || value > kOptInSharedPerBlock)
            return fail_call("cudaFuncSetAttribute", cudaErrorInvalidValue, "more than 227 KB of shared memory");
        it->second.max_dynamic_shared_bytes = value;
        return cudaSuccess;
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return cudaSuccess;  // a hint, see README
    return fail_call("cudaFuncSetAttribute", cudaErrorNotSupported, "attribute " + std::to_string(attr));
}

// Cache configuration calls are hints that a GPU may ignore too; the model
// has no L1/shared split to configure.
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!runtime().functions.count(func))
        return fail_call("cudaFuncSetCacheConfig", cudaErrorInvalidDeviceFunction, "unknown kernel");
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    const auto [k, entry, error] = kernel_for_call("cudaOccupancyMaxActiveBlocksPerMultiprocessor", func);
    if (!k)
        return error;
    if (!numBlocks || blockSize <= 0)
        return fail_call("cudaOccupancyMaxActiveBlocksPerMultiprocessor", cudaErrorInvalidValue, "bad arguments");
    // A configuration that could not launch has no resident blocks.
    if (blockSize > kMaxThreadsPerBlock ||
        dynamicSMemSize > static_cast<size_t>(max_dynamic_shared_bytes(*entry, k->static_smem))) {
        *numBlocks = 0;
        return cudaSuccess;
    }
    *numBlocks = blocks_per_sm(kernel_registers(*entry, *k), blockSize, k->static_smem + dynamicSMemSize);
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

}  // extern "C"
