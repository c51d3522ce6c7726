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
    std::string load_error;  // fat-binary or module-level PTX problem
    std::unique_ptr<ptx::Module> module;
    std::string ptx;
    // Its __managed__ variables: where the host code reads each one's address, and its PTX name.
    // Loading the module points them at the variables' storage, which host and kernels share.
    std::vector<std::pair<void**, std::string>> managed;
};

struct FunctionEntry {
    FatBinary* binary = nullptr;
    std::string name;
    int max_dynamic_shared_bytes = -1;  // cudaFuncAttributeMaxDynamicSharedMemorySize; -1 until set
    int registers = -1;                 // from ptxas, -1 until asked
};

// The dynamic shared memory a launch of the kernel may ask for: what cudaFuncSetAttribute set, or
// by default what is left of the 48 KB per block after the kernel's static shared memory (as the
// runtime reports in cudaFuncAttributes::maxDynamicSharedSizeBytes).
inline int max_dynamic_shared_bytes(const FunctionEntry& function, size_t static_shared_bytes)
{
    if (function.max_dynamic_shared_bytes >= 0)
        return function.max_dynamic_shared_bytes;
    return 48 * 1024 - static_cast<int>(static_shared_bytes);
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
    std::unordered_map<std::string, std::unique_ptr<char>> kernel_handles;  // by kernel name
};

struct RuntimeState {
    std::mutex mutex;
    cudaError_t last_error = cudaSuccess;    // cleared by cudaGetLastError
    cudaError_t sticky_error = cudaSuccess;  // a kernel fault; cleared only by cudaDeviceReset
    // A kernel fault the program has not synchronised with yet. Kernels run
    // at launch, but as on a GPU the fault shows up at the next
    // synchronising call; until then further launches are skipped.
    cudaError_t pending_fault = cudaSuccess;
    std::string fault_message;              // the last fault's description (cudasim::last_device_fault)
    cudaError_t fault_error = cudaSuccess;  // ... and its error, until cudaDeviceReset
    double device_clock_ms = 0;             // simulated device time (timing model)
    bool counting = true;                   // cudasim::set_counting
    LaunchCounters last_launch;
    uint64_t launches = 0;                       // kernel launches so far
    std::deque<LaunchCounters> recent_launches;  // the last kRecentLaunches, for launches_since
    static constexpr size_t kRecentLaunches = 1024;
    std::vector<std::unique_ptr<FatBinary>> binaries;
    std::unordered_map<const void*, FunctionEntry> functions;
    std::unordered_map<const void*, VariableEntry> variables;
    std::vector<std::unique_ptr<Library>> libraries;      // never freed: a graph may still launch them
    std::unordered_set<const void*> managed_allocations;  // bases of cudaMallocManaged's and __managed__ storage
    // cudaDeviceSetLimit's values, with a GPU's defaults: device printf's FIFO per launch, and the
    // device heap that malloc in kernels allocates from.
    size_t printf_fifo_bytes = size_t{1} << 20;
    size_t malloc_heap_bytes = size_t{8} << 20;
    size_t stack_bytes = 1024;         // cudaLimitStackSize: kept and reported; a warp's calls are limited by count
    std::unique_ptr<DeviceHeap> heap;  // made at the first launch; its size is fixed from then on
};

RuntimeState& runtime();

// Records e as the last error (unless success) and returns it.
cudaError_t record_error(cudaError_t e);
// Reports a failing runtime call on stderr and records the error.
cudaError_t fail_call(const char* api, cudaError_t e, const std::string& why);
// The sticky error after a kernel fault, or cudaSuccess.
cudaError_t sticky_error();
// The opening of a call that needs argument `name`: the sticky error, else cudaErrorInvalidValue
// ("<name> is NULL") where it is not `given`, else cudaSuccess. Call with runtime().mutex held.
cudaError_t sticky_error_or_null(const char* api, bool given, const char* name);
// For calls that wait for the device (cudaDeviceSynchronize, cudaMemcpy,
// cudaFree, ...): turns a pending kernel fault into the sticky error and
// returns the sticky error.
cudaError_t synchronize_with_device();

// Parses the binary's PTX on first use. Call with runtime().mutex held.
void ensure_loaded(FatBinary& binary);

// Kernel behind a host stub, or nullptr with `error` set.
// Call with runtime().mutex held.
const ptx::Kernel* kernel_for(const void* host_function, FunctionEntry** entry, cudaError_t& error,
                              std::string& message);

// kernel_for for the runtime call `api`: the kernel and its entry, or a null kernel after the call
// failed with the reason (its error in `error`). Call with runtime().mutex held.
struct KernelOfCall {
    const ptx::Kernel* kernel = nullptr;
    FunctionEntry* entry = nullptr;
    cudaError_t error = cudaSuccess;
};
KernelOfCall kernel_for_call(const char* api, const void* host_function);

// Device storage of a __device__/__constant__ variable, or nullptr with
// the reason in `why` (if given). Call with runtime().mutex held.
uint8_t* symbol_storage(const void* host_variable, size_t* size, std::string* why = nullptr);

}  // namespace cudasim
