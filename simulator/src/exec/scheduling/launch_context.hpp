// What every worker needs to know about one kernel launch, plus the fault
// type that stops it.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

#include "ptx/ir.hpp"

namespace cudasim {

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    uint64_t count() const { return uint64_t{x} * y * z; }
};

// Shared and local memory appear in generic addresses as windows far above
// any host pointer (x86-64 user space ends below 2^47).
constexpr uint64_t kWindowMask = 0xF000'0000'0000'0000ull;
constexpr uint64_t kSharedWindow = 0xA000'0000'0000'0000ull;
constexpr uint64_t kLocalWindow = 0xB000'0000'0000'0000ull;

class WarpTrace;   // exec/observers/warp_trace.hpp
class DeviceHeap;  // exec/memory/device_heap.hpp

class OrderingCheck;

inline constexpr uint64_t kGridWorkspaceBytes = 8;

struct LaunchContext {
    const ptx::Kernel* kernel = nullptr;
    Dim3 grid, block;
    uint32_t dynamic_smem = 0;
    const uint8_t* params = nullptr;
    uint64_t instruction_limit = 0;  // warp instructions per launch
    // Written by every worker thread: a cache line of their own, away from the fields above that
    // every instruction reads.
    alignas(64) std::atomic<uint64_t> instructions_used{0};
    std::atomic<bool> stop{false};
    alignas(64) WarpTrace* trace = nullptr;  // CUDASIM_TRACE: one warp's active lanes, or none
    uint64_t epoch = 0;                      // this launch's number, for the sectors it touches (timing model)
    bool counting = true;                    // the counters and the timing model follow it (cudasim::set_counting)
    bool race_check = true;                  // the shared-memory race check (CUDASIM_RACECHECK=0 turns it off)
    bool init_check = true;                  // reads of global memory never written (CUDASIM_INITCHECK=0 turns it off)
    bool one_worker = false;  // one worker thread runs every block: no other thread touches device memory meanwhile
    uint64_t schedule = 0;    // 0: warps run in order; else the seed of a shuffled order (exec/scheduling/schedule.hpp)
    // Device printf's FIFO (cudaLimitPrintfFifoSize): bytes this launch may still print; output
    // past it is dropped, as a GPU drops it, so a printf in every thread cannot fill the host.
    std::atomic<int64_t> printf_bytes_left{int64_t{1} << 20};
    std::atomic<uint64_t> printf_calls_dropped{0};
    DeviceHeap* heap = nullptr;         // malloc and free in kernels (cudaLimitMallocHeapSize)
    OrderingCheck* ordering = nullptr;  // the ordering check across blocks (exec/memory/ordering_check.hpp), or none
    // A kernel that syncs its grid (cooperative groups' grid.sync()): its grid workspace (8 zeroed
    // bytes of device memory, 0 for other kernels), where grid.sync() counts the blocks that
    // arrived, and the blocks the device holds at once, which take turns a slice at a time so that
    // they may wait for each other (all of the grid in a cooperative launch).
    uint64_t grid_workspace = 0;
    uint64_t resident_blocks = 0;
    std::atomic<uint64_t> grid_arrivals{0};  // atomics on the workspace so far: blocks' arrivals at grid.sync()
};

// Thrown by the interpreter when a thread does something a GPU would
// trap on; the launch stops and the program sees `error`.
struct DeviceFault : std::runtime_error {
    cudaError_t error;
    DeviceFault(cudaError_t e, const std::string& message) : std::runtime_error(message), error(e) {}
};

}  // namespace cudasim
