// Kernel launches, function attributes and the occupancy calculator.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <cudasim/schedule.hpp>

#include "exec/memory/device_memory.hpp"
#include "exec/observers/sector_footprint.hpp"
#include "exec/observers/warp_trace.hpp"
#include "exec/scheduling/device_model.hpp"
#include "exec/scheduling/launcher.hpp"
#include "runtime/capture.hpp"
#include "runtime/launch.hpp"
#include "runtime/register_count.hpp"
#include "runtime/state.hpp"
#include "runtime/streams.hpp"
#include "support/demangle.hpp"
#include "timing/timing_model.hpp"

namespace cudasim {
namespace {

using namespace device_model;

constexpr uint64_t kDefaultInstructionLimit = 5'000'000'000ull;

// A check that is on unless its variable says 0, off, false or no.
bool check_enabled(const char* variable)
{
    const char* env = std::getenv(variable);
    if (!env)
        return true;
    const std::string value(env);
    return !(value == "0" || value == "off" || value == "false" || value == "no");
}

uint64_t instruction_limit()
{
    if (const char* env = std::getenv("CUDASIM_INSTRUCTION_LIMIT"))
        return std::strtoull(env, nullptr, 10);
    return kDefaultInstructionLimit;
}

void print_counters(const LaunchCounters& c)
{
    const Counts& n = c.counts;
    std::fprintf(
        stderr,
        "cudasim counters: %s grid(%u,%u,%u) block(%u,%u,%u)\n"
        "  warp instructions %llu, thread instructions %llu, warp execution efficiency %.1f%%\n"
        "  branches %llu, divergent %llu, branch efficiency %.1f%%\n"
        "  global loads %llu requests (%llu of 16 bytes per lane) / %llu sectors, stores %llu requests / %llu sectors\n"
        "  shared loads %llu, stores %llu, bank conflicts %llu; barriers %llu; atomics %llu\n"
        "  shuffles %llu, warp reductions %llu\n"
        "  issue slots %llu; atomic updates %llu, %llu on the busiest address; DRAM sectors %llu;\n"
        "  round trips on the blocks' critical paths: %llu from DRAM, %llu from L2, %llu to data already touched\n"
        "  resident %d blocks = %d warps per SM (theoretical occupancy %.1f%%)\n"
        "  modelled time %.6f ms (issue %.6f, latency %.6f, DRAM %.6f, atomics %.6f)\n",
        c.kernel.c_str(), c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2],
        (unsigned long long)n.warp_instructions, (unsigned long long)n.thread_instructions,
        100 * c.warp_execution_efficiency(), (unsigned long long)n.branches, (unsigned long long)n.divergent_branches,
        100 * c.branch_efficiency(), (unsigned long long)n.global_load_requests,
        (unsigned long long)n.global_wide_load_requests, (unsigned long long)n.global_load_sectors,
        (unsigned long long)n.global_store_requests, (unsigned long long)n.global_store_sectors,
        (unsigned long long)n.shared_load_requests, (unsigned long long)n.shared_store_requests,
        (unsigned long long)n.shared_bank_conflicts, (unsigned long long)n.barriers, (unsigned long long)n.atomics,
        (unsigned long long)n.shuffles, (unsigned long long)n.warp_reductions, (unsigned long long)n.issue_slots,
        (unsigned long long)n.atomic_operations, (unsigned long long)c.atomics_on_hottest_address,
        (unsigned long long)n.dram_sectors, (unsigned long long)n.dram_rounds, (unsigned long long)n.l2_rounds,
        (unsigned long long)n.cached_rounds, c.resident_blocks_per_sm, c.resident_warps_per_sm,
        100 * c.theoretical_occupancy, c.modelled_milliseconds, c.issue_milliseconds, c.latency_milliseconds,
        c.dram_milliseconds, c.atomic_milliseconds);
}

cudaError_t validate_configuration(const ptx::Kernel& k, FunctionEntry& f, dim3 grid, dim3 block, size_t dynamic_smem,
                                   std::string& why)
{
    uint64_t threads = uint64_t{block.x} * block.y * block.z;
    if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0) {
        why = "grid and block dimensions must be positive";
        return cudaErrorInvalidConfiguration;
    }
    // CUDA 13's runtime answers an oversized block, and one beyond __launch_bounds__, with
    // cudaErrorInvalidValue (recorded on an H200: tests/corpus/expected/).
    if (threads > kMaxThreadsPerBlock || block.x > 1024 || block.y > 1024 || block.z > 64) {
        why = std::to_string(threads) + " threads per block (at most 1024; block dims at most 1024x1024x64)";
        return cudaErrorInvalidValue;
    }
    if (grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu) {
        why = "grid dimensions exceed 2147483647x65535x65535";
        return cudaErrorInvalidConfiguration;
    }
    if (k.max_threads && threads > k.max_threads) {
        why = std::to_string(threads) + " threads per block, but __launch_bounds__ allows " +
              std::to_string(k.max_threads);
        return cudaErrorInvalidValue;
    }
    // With at most 255 registers per thread, blocks of up to 256 threads
    // always fit; larger ones need the kernel's real register count.
    if (threads > 256) {
        int regs = kernel_registers(f, k);
        uint64_t needed = uint64_t{static_cast<uint32_t>(registers_per_warp(regs))} * ((threads + 31) / 32);
        if (needed > kRegistersPerSm) {
            why = std::to_string(threads) + " threads x " + std::to_string(regs) +
                  " registers exceed the 65536 registers of an SM";
            return cudaErrorLaunchOutOfResources;
        }
    }
    if (dynamic_smem > static_cast<size_t>(max_dynamic_shared_bytes(f, k.static_smem))) {
        why = std::to_string(k.static_smem) + " bytes static + " + std::to_string(dynamic_smem) +
              " bytes dynamic shared memory exceeds the limit (48 KB unless raised with cudaFuncSetAttribute)";
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

}  // namespace

cudaError_t launch_kernel(const void* host_function, dim3 grid, dim3 block, void** args, size_t dynamic_smem,
                          cudaStream_t stream, bool cooperative)
{
    std::lock_guard lock(runtime().mutex);
    Capture* capture = nullptr;
    if (cudaError_t e = open_stream_call("kernel launch", stream, capture))
        return e;
    if (!capture && runtime().pending_fault != cudaSuccess)
        return cudaSuccess;  // the device is already broken
    cudaError_t error = cudaSuccess;
    FunctionEntry* entry = nullptr;
    std::string why;
    const ptx::Kernel* k = kernel_for(host_function, &entry, error, why);
    if (!k)
        return fail_stream_call(capture, "kernel launch", error, why);
    if (cudaError_t e = validate_configuration(*k, *entry, grid, block, dynamic_smem, why))
        return fail_stream_call(capture, ("launch of " + demangle(k->name)).c_str(), e, why);
    if (cooperative) {
        // Every block of a cooperative grid must be resident at once.
        const uint64_t threads = uint64_t{block.x} * block.y * block.z;
        const uint64_t resident = uint64_t(blocks_per_sm(kernel_registers(*entry, *k), static_cast<int>(threads),
                                                         k->static_smem + dynamic_smem)) *
                                  kMultiprocessors;
        const uint64_t blocks = uint64_t{grid.x} * grid.y * grid.z;
        if (blocks > resident)
            return fail_stream_call(capture, ("cooperative launch of " + demangle(k->name)).c_str(),
                                    cudaErrorCooperativeLaunchTooLarge,
                                    std::to_string(blocks) + " blocks, but at most " + std::to_string(resident) +
                                        " of them fit on the device at once");
    }

    // The arguments are copied now, so a graph replays the values they had at capture.
    PreparedLaunch launch{k, entry, grid, block, dynamic_smem, std::vector<uint8_t>(k->param_bytes), cooperative};
    for (size_t i = 0; i < k->params.size(); ++i)
        std::memcpy(launch.params.data() + k->params[i].offset, args[i], k->params[i].size);
    if (capture)
        capture->nodes.push_back([launch] { run_launch(launch); });
    else
        run_launch(launch);
    return cudaSuccess;
}

void run_launch(const PreparedLaunch& prepared)
{
    const ptx::Kernel* k = prepared.kernel;
    const dim3 grid = prepared.grid, block = prepared.block;
    LaunchContext launch;
    launch.kernel = k;
    launch.grid = {grid.x, grid.y, grid.z};
    launch.block = {block.x, block.y, block.z};
    launch.dynamic_smem = static_cast<uint32_t>(prepared.dynamic_smem);
    launch.params = prepared.params.data();
    launch.instruction_limit = instruction_limit();
    launch.epoch = next_launch_epoch();
    const bool syncs_grid = prepared.cooperative || kernel_syncs_grid(*k);
    launch.counting = runtime().counting;
    static const bool race_check = check_enabled("CUDASIM_RACECHECK");
    static const bool init_check = check_enabled("CUDASIM_INITCHECK");
    launch.race_check = race_check;
    launch.init_check = init_check;
    launch.schedule = schedule();
    launch.printf_bytes_left = static_cast<int64_t>(runtime().printf_fifo_bytes);  // the caller holds the lock
    if (!runtime().heap)
        runtime().heap = std::make_unique<DeviceHeap>(runtime().malloc_heap_bytes);
    launch.heap = runtime().heap.get();
    // CUDASIM_TRACE: the first launch of a matching kernel records one warp's active lanes.
    static const std::optional<WarpTraceRequest> trace_request = warp_trace_request();
    static bool traced = false;
    std::optional<WarpTrace> trace;
    if (trace_request && !traced && demangle(k->name).find(trace_request->kernel) != std::string::npos) {
        trace.emplace(*trace_request, demangle(k->name), prepared.entry->binary->ptx);
        launch.trace = &*trace;
        traced = true;
    }
    // The grid workspace of a kernel that syncs its grid, where grid.sync() counts the blocks that
    // arrived: a GPU gives one to every launch, so grid.sync() works in an ordinary launch too,
    // as long as the device holds the whole grid at once.
    void* workspace = nullptr;
    const uint64_t threads = launch.block.count();
    const int resident_per_sm = blocks_per_sm(kernel_registers(*prepared.entry, *k), static_cast<int>(threads),
                                              k->static_smem + prepared.dynamic_smem);
    if (syncs_grid) {
        workspace = DeviceMemory::instance().allocate(kGridWorkspaceBytes);
        DeviceMemory::instance().fill(workspace, 0, kGridWorkspaceBytes);
        launch.grid_workspace = reinterpret_cast<uint64_t>(workspace);
        launch.resident_blocks = uint64_t(resident_per_sm) * kMultiprocessors;
    }
    LaunchResult result = execute_kernel(launch);
    if (workspace)
        DeviceMemory::instance().release(workspace);
    if (trace)
        trace->write();

    if (!result.printf_output.empty()) {
        std::fwrite(result.printf_output.data(), 1, result.printf_output.size(), stdout);
        std::fflush(stdout);
    }
    if (const uint64_t dropped = launch.printf_calls_dropped.load())
        std::fprintf(stderr,
                     "cudasim: %s: %llu device printf calls past the %zu-byte FIFO (cudaLimitPrintfFifoSize) "
                     "dropped, as a GPU drops them\n",
                     demangle(k->name).c_str(), static_cast<unsigned long long>(dropped), runtime().printf_fifo_bytes);
    LaunchCounters& c = runtime().last_launch;
    c = LaunchCounters{};  // nothing of the previous launch's carries over (a launch not counted models nothing)
    c.kernel = demangle(k->name);
    c.grid[0] = grid.x;
    c.grid[1] = grid.y;
    c.grid[2] = grid.z;
    c.block[0] = block.x;
    c.block[1] = block.y;
    c.block[2] = block.z;
    c.counts = result.counts;
    c.atomics_on_hottest_address = result.atomics_on_hottest_address;
    c.counted = launch.counting;
    if (launch.counting)
        model_kernel(c, {launch.grid.count(), static_cast<int>((threads + 31) / 32), resident_per_sm});
    runtime().device_clock_ms += c.modelled_milliseconds;
    ++runtime().launches;
    runtime().recent_launches.push_back(c);
    if (runtime().recent_launches.size() > RuntimeState::kRecentLaunches)
        runtime().recent_launches.pop_front();
    const char* show = std::getenv("CUDASIM_COUNTERS");
    if (show && *show && std::strcmp(show, "0") != 0)
        print_counters(c);

    if (result.error != cudaSuccess) {
        std::fprintf(stderr, "cudasim: %s: %s\n", cudaGetErrorName(result.error), result.message.c_str());
        runtime().pending_fault = result.error;
        runtime().fault_error = result.error;
        runtime().fault_message = result.message;
    }
}

}  // namespace cudasim

using namespace cudasim;

extern "C" {

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                             cudaStream_t stream)
{
    return launch_kernel(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                        cudaStream_t stream)
{
    return launch_kernel(func, gridDim, blockDim, args, sharedMem, stream, true);
}

}  // extern "C"
