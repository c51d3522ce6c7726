// Process-wide state of the simulated runtime: error state, registered
// fat binaries, kernels and variables, the simulated device clock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cudasim/counters.hpp>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "exec/memory/device_heap.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

struct FatBinary {
    const void* wrapper = nullptr;  // null for a library loaded at run time (cudaLibraryLoadData)
    bool loaded = false;
    std::string loadError;  // fat-binary or module-level PTX problem
    std::unique_ptr<ptx::Module> module;
    std::string ptx;
    // Its __managed__ variables: where the host code reads each one's address, and its PTX name.
    // Loading the module points them at the variables' storage, which host and kernels share.
    std::vector<std::pair<void**, std::string>> managed;
};

struct FunctionEntry {
    FatBinary* binary = nullptr;
    std::string name;
    int maxDynamicSharedBytes = -1;  // cudaFuncAttributeMaxDynamicSharedMemorySize; -1 until set
    int registers = -1;              // from ptxas, -1 until asked
};

// The dynamic shared memory a launch of the kernel may ask for: what cudaFuncSetAttribute set, or
// by default what is left of the 48 KB per block after the kernel's static shared memory (as the
// runtime reports in cudaFuncAttributes::maxDynamicSharedSizeBytes).
inline int maxDynamicSharedBytes(const FunctionEntry& function, size_t staticSharedBytes)
{
    if (function.maxDynamicSharedBytes >= 0)
        return function.maxDynamicSharedBytes;
    return 48 * 1024 - static_cast<int>(staticSharedBytes);
}

struct VariableEntry {
    FatBinary* binary = nullptr;
    std::string name;
    size_t size = 0;
    bool constant = false;
};

// A library loaded with cudaLibraryLoadData. Its kernel handles are keys of
// RuntimeState::functions, like the host stubs of compiled-in kernels.
struct Library {
    FatBinary* binary = nullptr;
    std::unordered_map<std::string, std::unique_ptr<char>> kernelHandles;  // by kernel name
};

struct RuntimeState {
    std::mutex mutex;
    cudaError_t lastError = cudaSuccess;    // cleared by cudaGetLastError
    cudaError_t stickyError = cudaSuccess;  // a kernel fault; cleared only by cudaDeviceReset
    // A kernel fault the program has not synchronised with yet. Kernels run
    // at launch, but as on a GPU the fault shows up at the next
    // synchronising call; until then further launches are skipped.
    cudaError_t pendingFault = cudaSuccess;
    std::string faultMessage;              // the last fault's description (cudasim::lastDeviceFault)
    cudaError_t faultError = cudaSuccess;  // ... and its error, until cudaDeviceReset
    double deviceClockMs = 0;              // simulated device time (timing model)
    LaunchCounters lastLaunch;
    uint64_t launches = 0;                      // kernel launches so far
    std::deque<LaunchCounters> recentLaunches;  // the last kRecentLaunches, for launchesSince
    static constexpr size_t kRecentLaunches = 1024;
    std::vector<std::unique_ptr<FatBinary>> binaries;
    std::unordered_map<const void*, FunctionEntry> functions;
    std::unordered_map<const void*, VariableEntry> variables;
    std::vector<std::unique_ptr<Library>> libraries;     // never freed: a graph may still launch them
    std::unordered_set<const void*> managedAllocations;  // bases of cudaMallocManaged's and __managed__ storage
    // cudaDeviceSetLimit's values, with a GPU's defaults: device printf's FIFO per launch, and the
    // device heap that malloc in kernels allocates from.
    size_t printfFifoBytes = size_t{1} << 20;
    size_t mallocHeapBytes = size_t{8} << 20;
    size_t stackBytes = 1024;          // cudaLimitStackSize: kept and reported; a warp's calls are limited by count
    std::unique_ptr<DeviceHeap> heap;  // made at the first launch; its size is fixed from then on
};

RuntimeState& runtime();

// Records e as the last error (unless success) and returns it.
cudaError_t recordError(cudaError_t e);
// Reports a failing runtime call on stderr and records the error.
cudaError_t failCall(const char* api, cudaError_t e, const std::string& why);
// The sticky error after a kernel fault, or cudaSuccess.
cudaError_t stickyError();
// For calls that wait for the device (cudaDeviceSynchronize, cudaMemcpy,
// cudaFree, ...): turns a pending kernel fault into the sticky error and
// returns the sticky error.
cudaError_t synchronizeWithDevice();

// Parses the binary's PTX on first use. Call with runtime().mutex held.
void ensureLoaded(FatBinary& binary);

// Kernel behind a host stub, or nullptr with `error` set.
// Call with runtime().mutex held.
const ptx::Kernel* kernelFor(const void* hostFunction, FunctionEntry** entry, cudaError_t& error, std::string& message);

// Device storage of a __device__/__constant__ variable, or nullptr with
// the reason in `why` (if given). Call with runtime().mutex held.
uint8_t* symbolStorage(const void* hostVariable, size_t* size, std::string* why = nullptr);

}  // namespace cudasim
