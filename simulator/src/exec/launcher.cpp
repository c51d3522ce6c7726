#include "exec/launcher.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "exec/block_runner.hpp"
#include "exec/ordering_check.hpp"
#include "exec/thread_pool.hpp"

namespace cudasim {

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
