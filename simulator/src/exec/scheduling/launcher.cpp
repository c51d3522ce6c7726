#include "exec/scheduling/launcher.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/memory/ordering_check.hpp"
#include "exec/observers/address_tally.hpp"
#include "exec/scheduling/block_runner.hpp"
#include "exec/scheduling/thread_pool.hpp"
#include "support/demangle.hpp"

namespace cudasim {
namespace {

// Why a grid whose every running block waits at grid.sync() can never get past it.
std::string never_past_grid_sync(const LaunchContext& launch, uint64_t exited, uint64_t unstarted)
{
    const std::string kernel =
        "kernel " + demangle(launch.kernel->name) + ": every block running waits at " + "this_grid().sync()";
    if (unstarted > 0)
        return kernel + " for blocks that cannot start until one of them ends: the grid has " +
               std::to_string(launch.grid.count()) + " blocks and the device holds " +
               std::to_string(launch.resident_blocks) +
               " of them at once (cudaLaunchCooperativeKernel refuses such a grid; on a GPU it hangs)";
    return kernel + ", which " + std::to_string(exited) + " of the grid's " + std::to_string(launch.grid.count()) +
           " blocks exited without reaching: the grid can never get past it (on a GPU it hangs)";
}

// A launch of a kernel that syncs its grid (cooperative or not): as many blocks resident at once as
// the device holds, a new one starting where one ends, as on a GPU. The resident blocks take turns
// in rounds, each giving every ready warp a slice of instructions (the blocks of a round on all the
// worker threads); a warp that waits at grid.sync() for blocks that have not arrived yet runs
// nothing meanwhile (Interpreter::waits_at_grid_sync). A round in which no block ran an instruction
// can only be a grid that never gets past grid.sync(): a fault, where a GPU would hang.
LaunchResult execute_grid_synced(LaunchContext& launch)
{
    const uint64_t blocks = launch.grid.count();
    const uint64_t resident = std::max<uint64_t>(1, std::min(blocks, launch.resident_blocks));
    std::vector<Counts> counts(resident);
    std::vector<std::unique_ptr<BlockRunner>> runners;
    std::vector<uint64_t> block_of(resident);
    runners.reserve(resident);
    std::vector<size_t> running;
    for (uint64_t r = 0; r < resident; ++r) {
        runners.push_back(std::make_unique<BlockRunner>(launch, counts[r]));
        runners.back()->begin(r);
        block_of[r] = r;
        running.push_back(r);
    }
    uint64_t next_block = resident;
    LaunchResult result;
    uint64_t fault_block = ~0ull;
    std::mutex result_mutex;
    std::map<uint64_t, std::string> printf_by_block;
    std::vector<uint8_t> finished(resident, 0);
    std::atomic<size_t> next{0};
    auto worker = [&](unsigned) {
        for (size_t i = next.fetch_add(1); i < running.size() && !launch.stop.load(std::memory_order_relaxed);
             i = next.fetch_add(1)) {
            const size_t r = running[i];
            try {
                finished[r] = runners[r]->advance() ? 1 : 0;
            } catch (const DeviceFault& fault) {
                std::lock_guard lock(result_mutex);
                if (fault.error != cudaSuccess && block_of[r] < fault_block) {
                    fault_block = block_of[r];
                    result.error = fault.error;
                    result.message = fault.what();
                }
                launch.stop = true;
            }
        }
    };
    auto instructions = [&runners] {
        uint64_t sum = 0;
        for (const auto& runner : runners)
            sum += runner->interpreter().instructions_run_in_slices();
        return sum;
    };
    uint64_t exited = 0;
    while (!running.empty() && !launch.stop) {
        const uint64_t before = instructions();
        next = 0;
        if (running.size() == 1 || ThreadPool::instance().size() == 1)
            worker(0);
        else
            ThreadPool::instance().run_on_all(worker);
        std::erase_if(running, [&](size_t r) {
            if (!finished[r])
                return false;
            finished[r] = 0;
            ++exited;
            if (!runners[r]->state().printf_output.empty())
                printf_by_block[block_of[r]] += runners[r]->state().printf_output;
            if (next_block == blocks)
                return true;
            block_of[r] = next_block++;  // the next block takes the slot this one left
            runners[r]->begin(block_of[r]);
            return false;
        });
        if (!running.empty() && !launch.stop && instructions() == before) {
            result.error = cudaErrorLaunchTimeout;
            result.message = never_past_grid_sync(launch, exited, blocks - next_block);
            break;
        }
    }
    for (const size_t r : running)
        if (!runners[r]->state().printf_output.empty())
            printf_by_block[block_of[r]] += runners[r]->state().printf_output;
    AddressTally atomic_targets;
    for (uint64_t r = 0; r < resident; ++r) {
        atomic_targets.merge(runners[r]->interpreter().counters().atomic_targets());
        result.counts += counts[r];
    }
    for (auto& [block, text] : printf_by_block)
        result.printf_output += text;
    result.atomics_on_hottest_address = atomic_targets.hottest();
    return result;
}

}  // namespace

bool kernel_syncs_grid(const ptx::Kernel& kernel)
{
    return std::any_of(kernel.code.begin(), kernel.code.end(), [](const ptx::Instr& in) {
        return std::any_of(std::begin(in.ops), std::begin(in.ops) + in.num_ops, [](const ptx::Operand& o) {
            return o.kind == ptx::Operand::Kind::Reg && (o.reg == ptx::SrEnvreg1 || o.reg == ptx::SrEnvreg2);
        });
    });
}

LaunchResult execute_kernel(LaunchContext& launch)
{
    const uint64_t blocks = launch.grid.count();
    std::atomic<uint64_t> next_block{0};
    std::mutex result_mutex;
    LaunchResult result;
    uint64_t fault_block = ~0ull;
    std::map<uint64_t, std::string> printf_by_block;
    AddressTally atomic_targets;
    std::unique_ptr<OrderingCheck> ordering;
    if (launch.race_check && blocks > 1 && kernel_orders_blocks(*launch.kernel)) {
        ordering = std::make_unique<OrderingCheck>(*launch.kernel);
        launch.ordering = ordering.get();
    }
    launch.one_worker = blocks <= 1 || ThreadPool::instance().size() == 1;
    if (launch.grid_workspace != 0)
        return execute_grid_synced(launch);

    auto worker = [&](unsigned) {
        Counts counts;
        BlockRunner runner(launch, counts);
        for (;;) {
            if (launch.stop.load(std::memory_order_relaxed))
                break;
            uint64_t b = next_block.fetch_add(1);
            if (b >= blocks)
                break;
            try {
                runner.run(b);
            } catch (const DeviceFault& fault) {
                std::lock_guard lock(result_mutex);
                if (fault.error != cudaSuccess && b < fault_block) {
                    fault_block = b;
                    result.error = fault.error;
                    result.message = fault.what();
                }
                launch.stop = true;
            }
            if (!runner.state().printf_output.empty()) {
                std::lock_guard lock(result_mutex);
                printf_by_block[b] += runner.state().printf_output;
            }
        }
        std::lock_guard lock(result_mutex);
        result.counts += counts;
        atomic_targets.merge(runner.interpreter().counters().atomic_targets());
    };

    if (blocks <= 1 || ThreadPool::instance().size() == 1)
        worker(0);
    else
        ThreadPool::instance().run_on_all(worker);
    for (auto& [block, text] : printf_by_block)
        result.printf_output += text;
    result.atomics_on_hottest_address = atomic_targets.hottest();
    return result;
}

}  // namespace cudasim
