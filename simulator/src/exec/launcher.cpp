#include "exec/launcher.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/block_runner.hpp"
#include "exec/ordering_check.hpp"
#include "exec/thread_pool.hpp"
#include "support/demangle.hpp"

namespace cudasim {
namespace {

// Every block still running waits at grid.sync(), and the others have exited without reaching it.
std::string neverPastGridSync(const LaunchContext& launch, uint64_t exited)
{
    return "kernel " + demangle(launch.kernel->name) +
           ": every block still running waits at this_grid().sync(), which " + std::to_string(exited) +
           " of the grid's " + std::to_string(launch.grid.count()) +
           " blocks exited without reaching: the grid can never get past it (on a GPU it hangs)";
}

// A cooperative launch: every block resident at once, as the GPU guarantees. The blocks take turns
// in rounds, each giving every ready warp a slice of instructions (the blocks of a round on all
// the worker threads), until all have exited; a warp that waits at grid.sync() for blocks that
// have not arrived yet runs nothing meanwhile (Interpreter::waitsAtGridSync). A round in which no
// block ran an instruction can only be a grid that never gets past grid.sync(): a fault, where a
// GPU would hang.
LaunchResult executeCooperative(LaunchContext& launch)
{
    const uint64_t blocks = launch.grid.count();
    std::vector<Counts> counts(blocks);
    std::vector<std::unique_ptr<BlockRunner>> runners;
    runners.reserve(blocks);
    std::vector<uint64_t> running;
    for (uint64_t b = 0; b < blocks; ++b) {
        runners.push_back(std::make_unique<BlockRunner>(launch, counts[b]));
        runners.back()->begin(b);
        running.push_back(b);
    }
    LaunchResult result;
    uint64_t faultBlock = ~0ull;
    std::mutex resultMutex;
    std::vector<uint8_t> finished(blocks, 0);
    std::atomic<size_t> next{0};
    auto worker = [&](unsigned) {
        for (size_t i = next.fetch_add(1); i < running.size() && !launch.stop.load(std::memory_order_relaxed);
             i = next.fetch_add(1)) {
            const uint64_t b = running[i];
            try {
                finished[b] = runners[b]->advance() ? 1 : 0;
            } catch (const DeviceFault& fault) {
                std::lock_guard lock(resultMutex);
                if (fault.error != cudaSuccess && b < faultBlock) {
                    faultBlock = b;
                    result.error = fault.error;
                    result.message = fault.what();
                }
                launch.stop = true;
            }
        }
    };
    auto instructions = [&counts] {
        uint64_t sum = 0;
        for (const Counts& c : counts)
            sum += c.warpInstructions;
        return sum;
    };
    while (!running.empty() && !launch.stop) {
        const uint64_t before = instructions();
        next = 0;
        if (running.size() == 1 || ThreadPool::instance().size() == 1)
            worker(0);
        else
            ThreadPool::instance().runOnAll(worker);
        std::erase_if(running, [&](uint64_t b) { return finished[b] != 0; });
        if (!running.empty() && !launch.stop && instructions() == before) {
            result.error = cudaErrorLaunchTimeout;
            result.message = neverPastGridSync(launch, blocks - running.size());
        }
        if (result.error != cudaSuccess)
            break;
    }
    std::unordered_map<uint64_t, uint64_t> atomicTargets;
    for (uint64_t b = 0; b < blocks; ++b) {
        result.printfOutput += runners[b]->state().printfOutput;
        for (auto& [address, updates] : runners[b]->interpreter().counters().atomicTargets())
            atomicTargets[address] += updates;
        result.counts += counts[b];
    }
    for (auto& [address, updates] : atomicTargets)
        result.atomicsOnHottestAddress = std::max(result.atomicsOnHottestAddress, updates);
    return result;
}

}  // namespace

LaunchResult executeKernel(LaunchContext& launch)
{
    const uint64_t blocks = launch.grid.count();
    std::atomic<uint64_t> nextBlock{0};
    std::mutex resultMutex;
    LaunchResult result;
    uint64_t faultBlock = ~0ull;
    std::map<uint64_t, std::string> printfByBlock;
    std::unordered_map<uint64_t, uint64_t> atomicTargets;
    std::unique_ptr<OrderingCheck> ordering;
    if (launch.raceCheck && blocks > 1 && kernelOrdersBlocks(*launch.kernel)) {
        ordering = std::make_unique<OrderingCheck>();
        launch.ordering = ordering.get();
    }
    if (launch.cooperative)
        return executeCooperative(launch);

    auto worker = [&](unsigned) {
        Counts counts;
        BlockRunner runner(launch, counts);
        for (;;) {
            if (launch.stop.load(std::memory_order_relaxed))
                break;
            uint64_t b = nextBlock.fetch_add(1);
            if (b >= blocks)
                break;
            try {
                runner.run(b);
            } catch (const DeviceFault& fault) {
                std::lock_guard lock(resultMutex);
                if (fault.error != cudaSuccess && b < faultBlock) {
                    faultBlock = b;
                    result.error = fault.error;
                    result.message = fault.what();
                }
                launch.stop = true;
            }
            if (!runner.state().printfOutput.empty()) {
                std::lock_guard lock(resultMutex);
                printfByBlock[b] += runner.state().printfOutput;
            }
        }
        std::lock_guard lock(resultMutex);
        result.counts += counts;
        for (auto& [address, updates] : runner.interpreter().counters().atomicTargets())
            atomicTargets[address] += updates;
    };

    if (blocks <= 1 || ThreadPool::instance().size() == 1)
        worker(0);
    else
        ThreadPool::instance().runOnAll(worker);
    for (auto& [block, text] : printfByBlock)
        result.printfOutput += text;
    for (auto& [address, updates] : atomicTargets)
        result.atomicsOnHottestAddress = std::max(result.atomicsOnHottestAddress, updates);
    return result;
}

}  // namespace cudasim
