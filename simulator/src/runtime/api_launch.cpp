// Kernel launches, function attributes and the occupancy calculator.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "exec/launcher.hpp"
#include "runtime/launch.hpp"
#include "runtime/register_count.hpp"
#include "runtime/state.hpp"
#include "runtime/timing_model.hpp"
#include "support/demangle.hpp"

namespace cudasim {
namespace {

// The modelled H100's per-SM resources.
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxWarpsPerSm = 64;
constexpr int kMaxBlocksPerSm = 32;
constexpr int kRegistersPerSm = 65536;
constexpr int kRegisterGranularity = 256;  // per warp
constexpr int kSharedPerSm = 228 * 1024;
constexpr int kSharedReservedPerBlock = 1024;
constexpr int kSharedGranularity = 128;
constexpr int kDefaultSharedPerBlock = 48 * 1024;
constexpr int kOptInSharedPerBlock = 227 * 1024;
constexpr uint64_t kDefaultInstructionLimit = 5'000'000'000ull;

uint64_t instructionLimit() {
  if (const char* env = std::getenv("CUDASIM_INSTRUCTION_LIMIT")) return std::strtoull(env, nullptr, 10);
  return kDefaultInstructionLimit;
}

int roundUp(int v, int g) { return (v + g - 1) / g * g; }

int registersPerWarp(int regs) { return roundUp(std::max(regs, 1) * 32, kRegisterGranularity); }

int blocksPerSm(int regs, int blockSize, size_t sharedBytes) {
  int warps = (blockSize + 31) / 32;
  int byWarps = kMaxWarpsPerSm / warps;
  // Registers are split over the SM's four sub-partitions.
  int warpsByRegs = (kRegistersPerSm / 4 / registersPerWarp(regs)) * 4;
  int byRegs = warpsByRegs / warps;
  int perBlock = roundUp(static_cast<int>(sharedBytes) + kSharedReservedPerBlock, kSharedGranularity);
  int byShared = kSharedPerSm / perBlock;
  return std::min({byWarps, byRegs, byShared, kMaxBlocksPerSm});
}

void printCounters(const LaunchCounters& c) {
  const Counts& n = c.counts;
  std::fprintf(stderr,
               "cudasim counters: %s grid(%u,%u,%u) block(%u,%u,%u)\n"
               "  warp instructions %llu, thread instructions %llu, warp execution efficiency %.1f%%\n"
               "  branches %llu, divergent %llu, branch efficiency %.1f%%\n"
               "  global loads %llu requests / %llu sectors, stores %llu requests / %llu sectors\n"
               "  shared loads %llu, stores %llu, bank conflicts %llu; barriers %llu; atomics %llu\n"
               "  modelled time %.6f ms\n",
               c.kernel.c_str(), c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2],
               (unsigned long long)n.warpInstructions, (unsigned long long)n.threadInstructions,
               100 * c.warpExecutionEfficiency(), (unsigned long long)n.branches,
               (unsigned long long)n.divergentBranches, 100 * c.branchEfficiency(),
               (unsigned long long)n.globalLoadRequests, (unsigned long long)n.globalLoadSectors,
               (unsigned long long)n.globalStoreRequests, (unsigned long long)n.globalStoreSectors,
               (unsigned long long)n.sharedLoadRequests, (unsigned long long)n.sharedStoreRequests,
               (unsigned long long)n.sharedBankConflicts, (unsigned long long)n.barriers,
               (unsigned long long)n.atomics, c.modelledMilliseconds);
}

cudaError_t validateConfiguration(const ptx::Kernel& k, FunctionEntry& f, dim3 grid, dim3 block,
                                  size_t dynamicSmem, std::string& why) {
  uint64_t threads = uint64_t{block.x} * block.y * block.z;
  if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0) {
    why = "grid and block dimensions must be positive";
    return cudaErrorInvalidConfiguration;
  }
  if (threads > kMaxThreadsPerBlock || block.x > 1024 || block.y > 1024 || block.z > 64) {
    why = std::to_string(threads) + " threads per block (at most 1024; block dims at most 1024x1024x64)";
    return cudaErrorInvalidConfiguration;
  }
  if (grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu) {
    why = "grid dimensions exceed 2147483647x65535x65535";
    return cudaErrorInvalidConfiguration;
  }
  if (k.maxThreads && threads > k.maxThreads) {
    why = std::to_string(threads) + " threads per block, but __launch_bounds__ allows " + std::to_string(k.maxThreads);
    return cudaErrorLaunchOutOfResources;
  }
  // With at most 255 registers per thread, blocks of up to 256 threads
  // always fit; larger ones need the kernel's real register count.
  if (threads > 256) {
    int regs = kernelRegisters(f, k);
    uint64_t needed = uint64_t{static_cast<uint32_t>(registersPerWarp(regs))} * ((threads + 31) / 32);
    if (needed > kRegistersPerSm) {
      why = std::to_string(threads) + " threads x " + std::to_string(regs) +
            " registers exceed the 65536 registers of an SM";
      return cudaErrorLaunchOutOfResources;
    }
  }
  if (dynamicSmem > static_cast<size_t>(f.maxDynamicSharedBytes) ||
      k.staticSmem + dynamicSmem > static_cast<size_t>(std::max(kDefaultSharedPerBlock, f.maxDynamicSharedBytes))) {
    why = std::to_string(k.staticSmem) + " bytes static + " + std::to_string(dynamicSmem) +
          " bytes dynamic shared memory exceeds the limit (48 KB unless raised with cudaFuncSetAttribute)";
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

}  // namespace

cudaError_t launchKernel(const void* hostFunction, dim3 grid, dim3 block, void** args, size_t dynamicSmem,
                         cudaStream_t stream) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  if (!isValidStream(stream)) return failCall("kernel launch", cudaErrorInvalidResourceHandle, "unknown stream");
  FunctionEntry* entry = nullptr;
  cudaError_t error = cudaSuccess;
  std::string why;
  const ptx::Kernel* k = kernelFor(hostFunction, &entry, error, why);
  if (!k) return failCall("kernel launch", error, why);
  if (cudaError_t e = validateConfiguration(*k, *entry, grid, block, dynamicSmem, why))
    return failCall(("launch of " + demangle(k->name)).c_str(), e, why);

  std::vector<uint8_t> params(k->paramBytes);
  for (size_t i = 0; i < k->params.size(); ++i)
    std::memcpy(params.data() + k->params[i].offset, args[i], k->params[i].size);

  LaunchContext launch;
  launch.kernel = k;
  launch.grid = {grid.x, grid.y, grid.z};
  launch.block = {block.x, block.y, block.z};
  launch.dynamicSmem = static_cast<uint32_t>(dynamicSmem);
  launch.params = params.data();
  launch.instructionLimit = instructionLimit();
  LaunchResult result = executeKernel(launch);

  if (!result.printfOutput.empty()) {
    std::fwrite(result.printfOutput.data(), 1, result.printfOutput.size(), stdout);
    std::fflush(stdout);
  }
  LaunchCounters& c = runtime().lastLaunch;
  c.kernel = demangle(k->name);
  c.grid[0] = grid.x; c.grid[1] = grid.y; c.grid[2] = grid.z;
  c.block[0] = block.x; c.block[1] = block.y; c.block[2] = block.z;
  c.counts = result.counts;
  c.modelledMilliseconds = modelKernelMilliseconds(result.counts, launch.grid.count());
  runtime().deviceClockMs += c.modelledMilliseconds;
  const char* show = std::getenv("CUDASIM_COUNTERS");
  if (show && *show && std::strcmp(show, "0") != 0) printCounters(c);

  if (result.error != cudaSuccess) {
    std::fprintf(stderr, "cudasim: %s: %s\n", cudaGetErrorName(result.error), result.message.c_str());
    runtime().stickyError = result.error;
    recordError(result.error);
  }
  return cudaSuccess;
}

}  // namespace cudasim

using namespace cudasim;

extern "C" {

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                             cudaStream_t stream) {
  return launchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  if (!attr) return failCall("cudaFuncGetAttributes", cudaErrorInvalidValue, "attr is NULL");
  FunctionEntry* entry = nullptr;
  cudaError_t error = cudaSuccess;
  std::string why;
  const ptx::Kernel* k = kernelFor(func, &entry, error, why);
  if (!k) return failCall("cudaFuncGetAttributes", error, why);
  std::memset(attr, 0, sizeof *attr);
  int regs = kernelRegisters(*entry, *k);
  attr->sharedSizeBytes = k->staticSmem;
  attr->constSizeBytes = 0;
  attr->localSizeBytes = k->localBytes;
  int warpsByRegs = (kRegistersPerSm / 4 / registersPerWarp(regs)) * 4;
  attr->maxThreadsPerBlock = std::min(kMaxThreadsPerBlock, warpsByRegs * 32);
  if (k->maxThreads) attr->maxThreadsPerBlock = std::min<int>(attr->maxThreadsPerBlock, static_cast<int>(k->maxThreads));
  attr->numRegs = regs;
  attr->ptxVersion = 75;
  attr->binaryVersion = 90;
  attr->maxDynamicSharedSizeBytes = entry->maxDynamicSharedBytes;
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  auto it = runtime().functions.find(func);
  if (it == runtime().functions.end())
    return failCall("cudaFuncSetAttribute", cudaErrorInvalidDeviceFunction, "unknown kernel");
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > kOptInSharedPerBlock)
      return failCall("cudaFuncSetAttribute", cudaErrorInvalidValue, "more than 227 KB of shared memory");
    it->second.maxDynamicSharedBytes = value;
    return cudaSuccess;
  }
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;  // a hint, see README
  return failCall("cudaFuncSetAttribute", cudaErrorNotSupported, "attribute " + std::to_string(attr));
}

// Cache configuration calls are hints that a GPU may ignore too; the model
// has no L1/shared split to configure.
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  if (!runtime().functions.count(func))
    return failCall("cudaFuncSetCacheConfig", cudaErrorInvalidDeviceFunction, "unknown kernel");
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  FunctionEntry* entry = nullptr;
  cudaError_t error = cudaSuccess;
  std::string why;
  const ptx::Kernel* k = kernelFor(func, &entry, error, why);
  if (!k) return failCall("cudaOccupancyMaxActiveBlocksPerMultiprocessor", error, why);
  if (!numBlocks || blockSize <= 0)
    return failCall("cudaOccupancyMaxActiveBlocksPerMultiprocessor", cudaErrorInvalidValue, "bad arguments");
  if (blockSize > kMaxThreadsPerBlock) {
    *numBlocks = 0;
    return cudaSuccess;
  }
  *numBlocks = blocksPerSm(kernelRegisters(*entry, *k), blockSize, k->staticSmem + dynamicSMemSize);
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

}  // extern "C"
