#include "exec/memory/ordering_check.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "ptx/ir.hpp"
#include "support/demangle.hpp"

namespace cudasim {

namespace {

constexpr size_t kMaxPublications = 256;  // per block; past it, its writes count as released

bool block_scope(uint8_t order)
{
    return (order & ptx::OrderBlockScope) != 0;
}

// Whether a fence (membar, fence.sc, fence.acq_rel) of this order releases and acquires across blocks:
// one of .gpu or .sys scope, not a proxy fence.
bool fence_orders_blocks(uint8_t order)
{
    return !block_scope(order) && !(order & ptx::OrderProxy);
}

std::string thread_name(const LaunchContext& launch, uint64_t block, uint32_t thread)
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
    return pc < k.code.size() ? ptx::source_position(k, k.code[pc]) : "an unknown PTX line";
}

}  // namespace

bool kernel_orders_blocks(const ptx::Kernel& kernel)
{
    return std::any_of(kernel.code.begin(), kernel.code.end(), [](const ptx::Instr& in) {
        const bool memory =
            in.op == ptx::Op::Atom || in.op == ptx::Op::Red || in.op == ptx::Op::Ld || in.op == ptx::Op::St;
        return memory && (in.order & ptx::OrderStrong) && in.space != ptx::Space::Shared && !block_scope(in.order);
    });
}

OrderingCheck::OrderingCheck(const ptx::Kernel& kernel)
    : has_fences_(std::any_of(kernel.code.begin(), kernel.code.end(), [](const ptx::Instr& in) {
          return in.op == ptx::Op::Membar && fence_orders_blocks(in.order);
      }))
{
}

void OrderingCheck::record_write(uint64_t word, const OrderedWrite& write)
{
    WriteShard& shard = writes_[shard_of(word)];
    {
        std::lock_guard lock(shard.mutex);
        shard.words[word] = write;
    }
    pages_[slot_of(page_of(word))].store(1, std::memory_order_release);
}

bool OrderingCheck::may_be_written(uint64_t first, uint64_t last) const
{
    constexpr uint64_t kMaxPages = 8;  // beyond a few pages, the lanes' own look-ups cost no more
    const uint64_t first_page = page_of(first / 4), last_page = page_of(last / 4);
    if (last < first || last_page - first_page >= kMaxPages)
        return true;
    for (uint64_t page = first_page; page <= last_page; ++page)
        if (page_written(page))
            return true;
    return false;
}

std::optional<OrderedWrite> OrderingCheck::last_write(uint64_t word)
{
    WriteShard& shard = writes_[shard_of(word)];
    std::lock_guard lock(shard.mutex);
    const auto found = shard.words.find(word);
    if (found == shard.words.end())
        return std::nullopt;
    return found->second;
}

void OrderingCheck::publish(uint64_t block, const Publication& publication)
{
    PublicationShard& shard = publications_[shard_of(block)];
    std::lock_guard lock(shard.mutex);
    std::vector<Publication>& list = shard.by_block[block];
    if (list.size() <= kMaxPublications)
        list.push_back(publication);
}

bool OrderingCheck::released(uint64_t block, const Observation& observed, const OrderedWrite& write)
{
    PublicationShard& shard = publications_[shard_of(block)];
    std::lock_guard lock(shard.mutex);
    const auto found = shard.by_block.find(block);
    if (found == shard.by_block.end())
        return false;
    if (found->second.size() > kMaxPublications)
        return true;
    return std::any_of(found->second.begin(), found->second.end(), [&](const Publication& p) {
        // The write comes before the release: in the releasing thread's own order, or before a
        // barrier that comes before the release.
        const bool covered =
            (write.thread == p.thread && write.releases < p.releases) || write.interval < p.release_interval;
        return p.word == observed.word && p.sequence < observed.sequence && covered;
    });
}

namespace ordering {

void fence(BlockOrdering& o, uint32_t thread, uint8_t order)
{
    if (!fence_orders_blocks(order))
        return;
    ++o.releases[thread];
    o.released = true;
    o.release_interval[thread] = o.interval;
    if (Observation observed = o.pending[thread]; observed.valid()) {
        observed.interval = o.interval;
        if (o.acquired.size() < BlockOrdering::kMaxAcquired)
            o.acquired.push_back(observed);
        else
            o.saturated = true;
        o.pending[thread] = {};
    }
}

void publish_flag_write(OrderingCheck& check, BlockOrdering& o, uint64_t block, uint32_t thread, uint64_t word,
                        uint8_t order)
{
    if (order & ptx::OrderRelease) {
        ++o.releases[thread];
        o.released = true;
        o.release_interval[thread] = o.interval;
    }
    check.publish(block, {word, check.next_sequence(), thread, o.releases[thread], o.release_interval[thread]});
}

void observe_flag_read(OrderingCheck& check, BlockOrdering& o, uint32_t thread, uint64_t word, uint8_t order)
{
    const Observation observed{word, check.next_sequence(), thread, o.interval};
    if (!(order & ptx::OrderAcquire)) {
        o.pending[thread] = observed;
        return;
    }
    if (o.acquired.size() < BlockOrdering::kMaxAcquired)
        o.acquired.push_back(observed);
    else
        o.saturated = true;
}

void plain_write(OrderingCheck& check, const BlockOrdering& o, uint64_t block, uint32_t thread, uint32_t pc,
                 uint64_t word)
{
    check.record_write(word, {block, thread, pc, o.interval, o.releases[thread]});
}

void plain_read(const LaunchContext& launch, OrderingCheck& check, const BlockOrdering& o, uint64_t block,
                uint32_t thread, uint32_t pc, uint64_t word)
{
    if (o.saturated || !check.may_be_written(word))
        return;
    const std::optional<OrderedWrite> write = check.last_write(word);
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
            demangle(launch.kernel->name) + ": " + thread_name(launch, write->block, write->thread) + " writes at " +
            position(launch, write->pc) + ", " + thread_name(launch, block, thread) + " reads at " +
            position(launch, pc) +
            ", and nothing orders the write before the read: the writer needs a release between the write and "
            "its atomic (__threadfence(), or a release atomic), the reader an acquire between its atomic and the "
            "read (__threadfence(), or an acquire atomic)");
}

}  // namespace ordering

}  // namespace cudasim
