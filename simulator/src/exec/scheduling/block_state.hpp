// Memory and bookkeeping of one thread block while it runs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/memory/ordering_check.hpp"
#include "exec/scheduling/launch_context.hpp"

namespace cudasim {

// One access of a shared word remembered by the race check (exec/memory/race_check.hpp), packed in 8
// bytes (built and read with shifts: bit-fields written one by one stall the store buffer).
class RaceAccess {
public:
    static constexpr uint32_t kEpochs = 1u << 14;  // BlockState::race_epoch wraps here
    static constexpr uint32_t kSyncs = 1u << 13;   // Warp::syncs wraps here
    static constexpr uint32_t kPcs = 1u << 22;     // instructions beyond are recorded as kPcs - 1

    RaceAccess() = default;
    // epoch: BlockState::race_epoch when it happened (0: no access); sync: its warp's Warp::syncs
    // then; thread: linear index in the block; bytes: which bytes of the word (bit mask);
    // pc: the instruction (index into Kernel::code).
    RaceAccess(uint32_t epoch, uint32_t sync, uint32_t thread, uint32_t bytes, bool atomic, uint32_t pc)
        : bits_(uint64_t{epoch} | uint64_t{sync} << 14 | uint64_t{thread} << 27 | uint64_t{bytes} << 37 |
                uint64_t{atomic} << 41 | uint64_t{pc < kPcs ? pc : kPcs - 1} << 42)
    {
    }

    uint32_t epoch() const { return static_cast<uint32_t>(bits_ & 0x3fff); }
    uint32_t sync() const { return static_cast<uint32_t>(bits_ >> 14 & 0x1fff); }
    uint32_t thread() const { return static_cast<uint32_t>(bits_ >> 27 & 0x3ff); }
    uint32_t bytes() const { return static_cast<uint32_t>(bits_ >> 37 & 0xf); }
    bool atomic() const { return (bits_ >> 41 & 1) != 0; }
    uint32_t pc() const { return static_cast<uint32_t>(bits_ >> 42); }
    void add_bytes(uint32_t bytes) { bits_ |= uint64_t{bytes} << 37; }
    void forget() { bits_ = 0; }

    // The packed fields, for the checks of a warp's words at once (exec/memory/shared_race_lines.cpp).
    static constexpr uint64_t kEpochField = 0x3fff;
    static constexpr int kThreadShift = 27;
    static constexpr uint64_t kThreadField = uint64_t{0x3ff} << kThreadShift;
    static constexpr uint64_t kAtomicBit = uint64_t{1} << 41;
    uint64_t bits() const { return bits_; }
    static RaceAccess from_bits(uint64_t bits)
    {
        RaceAccess a;
        a.bits_ = bits;
        return a;
    }

private:
    uint64_t bits_ = 0;
};

// What the race check remembers of each 4-byte word of a block's shared memory: the last write, the
// last read, and an earlier read by another thread (of another warp if there was one), and the
// barrier interval of the last of them (0: none), which tells at a glance whether any is of the
// current interval. Arrays indexed by the word, so that a warp's accesses of consecutive words are
// checked a vector of words at a time.
struct SharedShadow {
    std::vector<RaceAccess> write, read, other_read;
    std::vector<uint16_t> interval;  // a RaceAccess::epoch()

    void resize(size_t words)
    {
        write.resize(words);
        read.resize(words);
        other_read.resize(words);
        interval.resize(words);
    }
    void clear()
    {
        std::fill(write.begin(), write.end(), RaceAccess{});
        std::fill(read.begin(), read.end(), RaceAccess{});
        std::fill(other_read.begin(), other_read.end(), RaceAccess{});
        std::fill(interval.begin(), interval.end(), uint16_t{0});
    }
};

// A global word written in the block's current barrier interval (exec/memory/race_check.hpp).
struct GlobalWriteSlot {
    uint64_t word = 0;  // address / 4
    RaceAccess write{};
};

// The bytes of one shared variable (static, or the dynamic array) in the block's shared memory.
struct SharedExtent {
    uint32_t begin = 0;
    uint32_t end = 0;
    const std::string* name = nullptr;  // the PTX name; null for the dynamic (extern) array
};

struct BlockState {
    Dim3 ctaid;
    uint64_t linear_index = 0;
    std::vector<uint8_t> shared;  // static + dynamic shared memory
    // Its variables: the static ones by their index in the kernel (ptx::Kernel::shared_variables), then
    // the dynamic array. An access must stay within the variable its address comes from, where the
    // kernel's arithmetic tells (ptx/shared_provenance.hpp), else within some variable: out of one
    // array and into the next, or into the padding between them, is out of bounds on a GPU too.
    std::vector<SharedExtent> shared_extents;
    mutable size_t last_extent = 0;  // where the last look-up found its variable
    const SharedExtent* shared_variable(uint8_t symbol) const
    {
        if (symbol == ptx::kDynamicSharedSymbol)
            return shared_extents.empty() || shared_extents.back().name ? nullptr : &shared_extents.back();
        return symbol < shared_extents.size() && shared_extents[symbol].name ? &shared_extents[symbol] : nullptr;
    }
    // Whether [begin, end) is inside the variable `symbol` names, or inside some variable when it
    // names none.
    bool shared_access_in_bounds(uint8_t symbol, uint64_t begin, uint64_t end) const
    {
        if (const SharedExtent* e = shared_variable(symbol))
            return begin >= e->begin && end <= e->end;
        return shared_variable_holding(begin, end) != nullptr;
    }
    // The variable that holds all of [begin, end), or null.
    const SharedExtent* shared_variable_holding(uint64_t begin, uint64_t end) const
    {
        if (last_extent < shared_extents.size()) {
            const SharedExtent& e = shared_extents[last_extent];
            if (begin >= e.begin && end <= e.end)
                return &e;
        }
        for (size_t i = 0; i < shared_extents.size(); ++i) {
            const SharedExtent& e = shared_extents[i];
            if (begin >= e.begin && end <= e.end) {
                last_extent = i;
                return &e;
            }
        }
        return nullptr;
    }
    std::vector<uint8_t> local;  // local_bytes per thread, thread-major
    uint32_t local_bytes = 0;
    uint64_t clock = 0;         // warp instructions issued by this block
    std::string printf_output;  // flushed in block order after the launch
    // Race check: one shadow per 4-byte word of `shared` (empty when the check is off), and the
    // number of the current barrier interval, a new one at each block start and each barrier.
    // Entries of earlier intervals and blocks are simply stale, so nothing is cleared per block,
    // only when the number wraps.
    SharedShadow shared_shadow;
    // The global words written in the interval, in a table indexed by a hash of the address: a
    // write evicts an older one in its slot (a race with that one goes unnoticed), and loads
    // look only where the interval has written global memory: while it has written any, and where
    // their words overlap the lowest to the highest word it wrote.
    std::vector<GlobalWriteSlot> global_writes;
    uint64_t global_write_mask = 0;  // global_writes.size() - 1 (a power of two)
    bool global_written = false;     // the interval has written global memory
    uint64_t lowest_word_written = ~uint64_t{0}, highest_word_written = 0;
    uint32_t race_epoch = 0;
    // Whether the interval may have written a global word of [first, last]: false is certain.
    bool may_have_written(uint64_t first, uint64_t last) const
    {
        return global_written && first <= highest_word_written && last >= lowest_word_written;
    }
    BlockOrdering ordering;  // the ordering check across blocks, where the launch has one
    void new_race_interval()
    {
        global_written = false;
        lowest_word_written = ~uint64_t{0};
        highest_word_written = 0;
        if (++race_epoch < RaceAccess::kEpochs)
            return;
        shared_shadow.clear();
        std::fill(global_writes.begin(), global_writes.end(), GlobalWriteSlot{});
        race_epoch = 1;
    }
};

}  // namespace cudasim
