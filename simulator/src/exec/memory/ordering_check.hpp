// The ordering check across the blocks of a grid: a plain global read of a word that another block
// wrote in the same launch must be ordered after that write by the PTX memory model's
// synchronisation, the message-passing pattern of a last-block reduction or a flag:
//
//   writer block:  st [w]; ... a release (fence.sc/acq_rel or membar at .gpu/.sys scope, or a
//                  .release strong operation); then a strong write or atomic on a flag word x
//   reader block:  a strong read or atomic on x that comes after it; then an acquire (a fence, or
//                  the operation itself .acquire); then ld [w]
//
// A thread's release covers its own earlier writes and, through a barrier (bar.sync is
// cumulative), every write of its block before that barrier; a thread's acquire covers its own
// later reads and, through a barrier, every read of its block after it. A read that no such chain
// orders after the write it sees is reported as an ordering race naming both source lines: on a
// GPU it may read the word as it was before the write (the partials a last block adds may be
// stale), however rarely that shows.
//
// Checked for kernels that use atomics or strong loads and stores (no other kernel can order its
// blocks), with the race check on. What it remembers: the last plain write of each word (block,
// thread, its release count and barrier interval) in a table shared by the workers; each block's
// releases on flag words; each block's acquires. The simulator runs a block's reads after the
// writes that already happened, so a read that runs before another block's write is not seen; a
// reported race is a race.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "exec/scheduling/launch_context.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// A plain global write, as the ordering check remembers it.
struct OrderedWrite {
    uint64_t block = 0;     // linear block index
    uint32_t thread = 0;    // linear thread index in the block
    uint32_t pc = 0;        // the store's instruction
    uint32_t interval = 0;  // the block's barrier interval at the write
    uint32_t releases = 0;  // the thread's releases before the write
};

// A release on a flag word: a strong write or atomic after the thread's last release.
struct Publication {
    uint64_t word = 0;
    uint64_t sequence = 0;  // before the operation on the flag (OrderingCheck::next_sequence)
    uint32_t thread = 0;
    uint32_t releases = 0;          // the thread's releases so far
    uint32_t release_interval = 0;  // the block's barrier interval at its last release
};

// A read of a flag word (strong read or atomic), and where the reading thread acquired it.
struct Observation {
    uint64_t word = 0;
    uint64_t sequence = 0;  // after the operation on the flag
    uint32_t thread = 0;
    uint32_t interval = 0;  // the block's barrier interval at the acquire
    bool valid() const { return sequence != 0; }
};

// Whether `kernel` can order its blocks at all: it has an atomic, or a strong load or store.
bool kernel_orders_blocks(const ptx::Kernel& kernel);

// One launch's shared state; the workers' blocks call it concurrently.
class OrderingCheck {
public:
    explicit OrderingCheck(const ptx::Kernel& kernel);

    // Whether the kernel has a fence that acquires (ordering::fence): without one, a relaxed flag
    // read can never be acquired, and after_flag_read need not remember it.
    bool has_fences() const { return has_fences_; }
    uint64_t next_sequence() { return sequence_.fetch_add(1, std::memory_order_seq_cst) + 1; }

    void record_write(uint64_t word, const OrderedWrite& write);
    // The last plain write of `word` in this launch, if any.
    std::optional<OrderedWrite> last_write(uint64_t word);
    // Whether some block may have written the page of `word`: false is certain (no look-up needed).
    bool may_be_written(uint64_t word) const { return page_written(page_of(word)); }
    // Whether some block may have written a word of the bytes [first, last]: false is certain. One
    // look-up per page instead of one per lane and word (a warp's load spans a page or two).
    bool may_be_written(uint64_t first, uint64_t last) const;

    void publish(uint64_t block, const Publication& publication);
    // Whether a release of `block` on `observed.word` before `observed.sequence` covers `write`.
    bool released(uint64_t block, const Observation& observed, const OrderedWrite& write);

private:
    static constexpr size_t kShards = 64;
    static constexpr size_t kPageSlots = size_t{1} << 16;
    static uint64_t page_of(uint64_t word) { return word >> 10; }  // 4 KB pages
    static size_t slot_of(uint64_t page) { return page & (kPageSlots - 1); }
    bool page_written(uint64_t page) const { return pages_[slot_of(page)].load(std::memory_order_acquire) != 0; }
    static size_t shard_of(uint64_t key) { return (key ^ (key >> 17)) & (kShards - 1); }

    struct WriteShard {
        std::mutex mutex;
        std::unordered_map<uint64_t, OrderedWrite> words;
    };
    struct PublicationShard {
        std::mutex mutex;
        std::unordered_map<uint64_t, std::vector<Publication>> by_block;
    };
    std::array<WriteShard, kShards> writes_;
    std::array<PublicationShard, kShards> publications_;
    std::array<std::atomic<uint32_t>, kPageSlots> pages_{};
    std::atomic<uint64_t> sequence_{0};
    bool has_fences_;
};

// What a block's threads did towards ordering, reset at each block's start. A block that acquires
// more than kMaxAcquired times stops checking its reads (none is reported rather than a wrong one).
struct BlockOrdering {
    static constexpr size_t kMaxAcquired = 256;
    uint32_t interval = 0;                   // barrier intervals so far in this block
    std::vector<uint32_t> releases;          // per thread: its releases so far
    std::vector<uint32_t> release_interval;  // per thread: the interval of its last release
    std::vector<Observation> pending;        // per thread: its last flag read, not yet acquired
    std::vector<Observation> acquired;       // the block's acquired flag reads
    bool released = false;                   // some thread has released (a release count above 0)
    bool saturated = false;

    void resize(size_t threads)
    {
        releases.resize(threads);
        release_interval.resize(threads);
        pending.resize(threads);
    }
    void start_block()
    {
        interval = 0;
        std::fill(releases.begin(), releases.end(), 0u);
        std::fill(pending.begin(), pending.end(), Observation{});
        acquired.clear();
        released = false;
        saturated = false;
    }
};

// The interpreter's calls, for one lane (`thread`) of block `block` (its linear index).
namespace ordering {

// A fence (membar, fence.sc, fence.acq_rel): a release and an acquire where its scope is .gpu or .sys.
void fence(BlockOrdering& o, uint32_t thread, uint8_t order);
// The parts of before_flag_write and after_flag_read past their tests, out of line.
void publish_flag_write(OrderingCheck& check, BlockOrdering& o, uint64_t block, uint32_t thread, uint64_t word,
                        uint8_t order);
void observe_flag_read(OrderingCheck& check, BlockOrdering& o, uint32_t thread, uint64_t word, uint8_t order);

// Whether before_flag_write may publish anything for some thread of the block, and whether
// after_flag_read may remember anything: a warp's atomic that can do neither (a relaxed atomic in a
// block that never released, in a kernel without an acquiring fence) skips its lanes' calls.
inline bool may_publish(const BlockOrdering& o, uint8_t order)
{
    return !(order & ptx::OrderBlockScope) && ((order & ptx::OrderRelease) || o.released);
}
inline bool may_observe(const OrderingCheck& check, uint8_t order)
{
    return !(order & ptx::OrderBlockScope) && ((order & ptx::OrderAcquire) || check.has_fences());
}

// Before a strong write or an atomic on `word`: a release, or a write after one, is published.
// Inline, as most calls have nothing to do (a relaxed atomic of a thread that never released).
inline void before_flag_write(OrderingCheck& check, BlockOrdering& o, uint64_t block, uint32_t thread, uint64_t word,
                              uint8_t order)
{
    if ((order & ptx::OrderBlockScope) || (!(order & ptx::OrderRelease) && o.releases[thread] == 0))
        return;
    publish_flag_write(check, o, block, thread, word, order);
}
// After a strong read or an atomic on `word`: remembered where a fence or the read itself may
// acquire it.
inline void after_flag_read(OrderingCheck& check, BlockOrdering& o, uint32_t thread, uint64_t word, uint8_t order)
{
    if (!may_observe(check, order))
        return;
    observe_flag_read(check, o, thread, word, order);
}
// A plain write of `word` by instruction `pc`.
void plain_write(OrderingCheck& check, const BlockOrdering& o, uint64_t block, uint32_t thread, uint32_t pc,
                 uint64_t word);
// A plain read of `word` by instruction `pc`: throws DeviceFault (cudaErrorLaunchFailure) naming
// both source lines when another block wrote the word and nothing orders that write before it.
void plain_read(const LaunchContext& launch, OrderingCheck& check, const BlockOrdering& o, uint64_t block,
                uint32_t thread, uint32_t pc, uint64_t word);

}  // namespace ordering

}  // namespace cudasim
