#include "exec/memory/ordering_check.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "ptx/ir.hpp"
#include "support/demangle.hpp"

namespace cudasim {

namespace {

constexpr size_t kMaxPublications = 256;  // per block; past it, its writes count as released

bool blockScope(uint8_t order)
{
    return (order & ptx::OrderBlockScope) != 0;
}

std::string threadName(const LaunchContext& launch, uint64_t block, uint32_t thread)
{
    const Dim3& g = launch.grid;
    const Dim3& b = launch.block;
    auto triple = [](uint64_t x, uint64_t y, uint64_t z) {
        return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
    };
    return "block " + triple(block % g.x, block / g.x % g.y, block / (uint64_t{g.x} * g.y)) + " thread " +
           triple(thread % b.x, thread / b.x % b.y, thread / (uint64_t{b.x} * b.y));
}

std::string position(const LaunchContext& launch, uint32_t pc)
{
    const ptx::Kernel& k = *launch.kernel;
    return pc < k.code.size() ? ptx::sourcePosition(k, k.code[pc]) : "an unknown PTX line";
}

}  // namespace

bool kernelOrdersBlocks(const ptx::Kernel& kernel)
{
    return std::any_of(kernel.code.begin(), kernel.code.end(), [](const ptx::Instr& in) {
        const bool memory =
            in.op == ptx::Op::Atom || in.op == ptx::Op::Red || in.op == ptx::Op::Ld || in.op == ptx::Op::St;
        return memory && (in.order & ptx::OrderStrong) && in.space != ptx::Space::Shared && !blockScope(in.order);
    });
}

void OrderingCheck::recordWrite(uint64_t word, const OrderedWrite& write)
{
    WriteShard& shard = writes_[shardOf(word)];
    {
        std::lock_guard lock(shard.mutex);
        shard.words[word] = write;
    }
    pages_[pageSlot(word)].store(1, std::memory_order_release);
}

std::optional<OrderedWrite> OrderingCheck::lastWrite(uint64_t word)
{
    WriteShard& shard = writes_[shardOf(word)];
    std::lock_guard lock(shard.mutex);
    const auto found = shard.words.find(word);
    if (found == shard.words.end())
        return std::nullopt;
    return found->second;
}

void OrderingCheck::publish(uint64_t block, const Publication& publication)
{
    PublicationShard& shard = publications_[shardOf(block)];
    std::lock_guard lock(shard.mutex);
    std::vector<Publication>& list = shard.byBlock[block];
    if (list.size() <= kMaxPublications)
        list.push_back(publication);
}

bool OrderingCheck::released(uint64_t block, const Observation& observed, const OrderedWrite& write)
{
    PublicationShard& shard = publications_[shardOf(block)];
    std::lock_guard lock(shard.mutex);
    const auto found = shard.byBlock.find(block);
    if (found == shard.byBlock.end())
        return false;
    if (found->second.size() > kMaxPublications)
        return true;
    return std::any_of(found->second.begin(), found->second.end(), [&](const Publication& p) {
        // The write comes before the release: in the releasing thread's own order, or before a
        // barrier that comes before the release.
        const bool covered =
            (write.thread == p.thread && write.releases < p.releases) || write.interval < p.releaseInterval;
        return p.word == observed.word && p.sequence < observed.sequence && covered;
    });
}

namespace ordering {

void fence(BlockOrdering& o, uint32_t thread, uint8_t order)
{
    if (blockScope(order) || (order & ptx::OrderProxy))
        return;
    ++o.releases[thread];
    o.releaseInterval[thread] = o.interval;
    if (Observation observed = o.pending[thread]; observed.valid()) {
        observed.interval = o.interval;
        if (o.acquired.size() < BlockOrdering::kMaxAcquired)
            o.acquired.push_back(observed);
        else
            o.saturated = true;
        o.pending[thread] = {};
    }
}

void beforeFlagWrite(OrderingCheck& check, BlockOrdering& o, uint64_t block, uint32_t thread, uint64_t word,
                     uint8_t order)
{
    if (blockScope(order))
        return;
    if (order & ptx::OrderRelease) {
        ++o.releases[thread];
        o.releaseInterval[thread] = o.interval;
    }
    if (o.releases[thread] != 0)
        check.publish(block, {word, check.nextSequence(), thread, o.releases[thread], o.releaseInterval[thread]});
}

void afterFlagRead(OrderingCheck& check, BlockOrdering& o, uint32_t thread, uint64_t word, uint8_t order)
{
    if (blockScope(order))
        return;
    const Observation observed{word, check.nextSequence(), thread, o.interval};
    if (!(order & ptx::OrderAcquire)) {
        o.pending[thread] = observed;
        return;
    }
    if (o.acquired.size() < BlockOrdering::kMaxAcquired)
        o.acquired.push_back(observed);
    else
        o.saturated = true;
}

void plainWrite(OrderingCheck& check, const BlockOrdering& o, uint64_t block, uint32_t thread, uint32_t pc,
                uint64_t word)
{
    check.recordWrite(word, {block, thread, pc, o.interval, o.releases[thread]});
}

void plainRead(const LaunchContext& launch, OrderingCheck& check, const BlockOrdering& o, uint64_t block,
               uint32_t thread, uint32_t pc, uint64_t word)
{
    if (o.saturated || !check.mayBeWritten(word))
        return;
    const std::optional<OrderedWrite> write = check.lastWrite(word);
    if (!write || write->block == block)
        return;
    for (const Observation& observed : o.acquired) {
        // The acquire comes before the read: in the reading thread's own order, or before a
        // barrier that comes before the read.
        const bool before = observed.thread == thread || observed.interval < o.interval;
        if (before && check.released(write->block, observed, *write))
            return;
    }
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(word * 4));
    throw DeviceFault(
        cudaErrorLaunchFailure,
        std::string("global-memory ordering race at global address ") + hex + " in kernel " +
            demangle(launch.kernel->name) + ": " + threadName(launch, write->block, write->thread) + " writes at " +
            position(launch, write->pc) + ", " + threadName(launch, block, thread) + " reads at " +
            position(launch, pc) +
            ", and nothing orders the write before the read: the writer needs a release between the write and "
            "its atomic (__threadfence(), or a release atomic), the reader an acquire between its atomic and the "
            "read (__threadfence(), or an acquire atomic)");
}

}  // namespace ordering

}  // namespace cudasim
