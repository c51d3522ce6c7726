// The counter listener's hooks that are not on every instruction's path: memory requests, their
// sectors and bank conflicts, atomics, and the round trips on each block's critical path.
#include "exec/observers/counter_listener.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "exec/memory/device_memory.hpp"
#include "exec/observers/sector_footprint.hpp"

namespace cudasim {

using ptx::Instr;
using ptx::Operand;

// Between two barriers the block waits for its slowest warp: the memory round trips on the
// block's critical path are the most any of its warps made in that interval.
void CounterListener::on_phase_end(std::span<Warp> warps)
{
    uint32_t most[3] = {};
    for (Warp& w : warps) {
        for (int source = 0; source < 3; ++source) {
            most[source] = std::max(most[source], w.phase_rounds[source]);
            w.phase_rounds[source] = 0;
        }
    }
    counts_.cached_rounds += most[kRoundCached];
    counts_.l2_rounds += most[kRoundL2];
    counts_.dram_rounds += most[kRoundDram];
}

void CounterListener::describe_round_operands(const ptx::Kernel& kernel)
{
    round_words_ = round_words(kernel);
    round_operands_.reserve(kernel.code.size());
    std::vector<uint64_t> read(round_words_), written(round_words_);
    for (const Instr& in : kernel.code) {
        std::fill(read.begin(), read.end(), 0);
        std::fill(written.begin(), written.end(), 0);
        const auto add = [](std::vector<uint64_t>& set, uint32_t r) {
            if (r != Operand::kNoReg && r >= ptx::SrCarry)  // no other special register is ever in flight
                set[round_bit(r) / 64] |= uint64_t{1} << (round_bit(r) % 64);
        };
        const auto add_operand = [&](std::vector<uint64_t>& set, const Operand& op, bool with_address) {
            if (op.kind == Operand::Kind::Reg || (with_address && op.kind == Operand::Kind::Addr))
                add(set, op.reg);
            else if (op.kind == Operand::Kind::Vec)
                for (int v = 0; v < op.count; ++v)
                    add(set, op.vec[v]);
        };
        const Executor executor = executor_of(in.op);
        const bool writes = executor == Executor::Arithmetic || executor == Executor::WarpOperation ||
                            executor == Executor::Load || (executor == Executor::Atomic && in.op != ptx::Op::Red);
        const int destinations = writes ? (in.has_pair_dest ? 2 : 1) : 0;
        add(read, in.guard);
        for (int i = destinations; i < in.num_ops; ++i)
            add_operand(read, in.ops[i], true);
        for (int i = 0; i < destinations; ++i)
            add_operand(written, in.ops[i], false);
        RoundOperands o;
        o.issue_slots = static_cast<uint8_t>(issue_cost(in));
        std::copy_n(read.begin(), kInlineWords, o.read);
        std::copy_n(written.begin(), kInlineWords, o.written);
        o.more = static_cast<uint32_t>(round_masks_.size());
        round_masks_.insert(round_masks_.end(), read.begin() + kInlineWords, read.end());
        round_masks_.insert(round_masks_.end(), written.begin() + kInlineWords, written.end());
        switch (executor) {
        case Executor::Load:
        case Executor::Atomic:
        case Executor::Call:
            o.role = RoundRole::Issue;
            break;
        case Executor::Branch:
        case Executor::Barrier:
        case Executor::Exit:
            o.role = RoundRole::EndOfBlock;
            break;
        case Executor::Arithmetic:
        case Executor::WarpOperation:
            o.role = RoundRole::Compute;
            break;
        default:
            break;
        }
        round_operands_.push_back(o);
    }
}

bool CounterListener::reads_more_in_flight(const Warp& w, const RoundOperands& o) const
{
    uint64_t any = 0;
    for (size_t i = kInlineWords; i < round_words_; ++i)
        any |= round_masks_[o.more + i - kInlineWords] & w.in_flight[i];
    return any != 0;
}

void CounterListener::mark_more_written(Warp& w, const RoundOperands& o, bool in_round) const
{
    const uint64_t* written = round_masks_.data() + o.more + round_words_ - kInlineWords;
    for (size_t i = kInlineWords; i < round_words_; ++i) {
        const uint64_t bits = written[i - kInlineWords];
        w.in_flight[i] = in_round ? w.in_flight[i] | bits : w.in_flight[i] & ~bits;
    }
}

const Allocation* CounterListener::footprint_holding(uint64_t address, uint64_t end)
{
    const Allocation* a = footprint_allocation_;
    if (!a || address < a->base || end > a->base + a->size) {
        a = DeviceMemory::instance().find(address);
        if (!a || !a->footprint)
            return nullptr;
        footprint_allocation_ = a;
    }
    // A sector that starts inside the allocation may reach past its end.
    return end <= a->base + a->size + 31 ? a : nullptr;
}

RunTouches CounterListener::touch_sectors(uint64_t address, uint64_t count)
{
    const uint64_t end = address + count * 32;
    if (const Allocation* a = footprint_holding(address, end))
        return a->footprint->touch_run(address, static_cast<uint32_t>(count), epoch_, one_worker_);
    if (count == 1)
        return {};  // outside every allocation with a footprint
    // A run past its allocation's end (into the next one): each sector by itself.
    RunTouches touched;
    for (uint64_t sector = address; sector < end; sector += 32) {
        touched += touch_sectors(sector, 1);
    }
    return touched;
}

namespace {

// Where a request's farthest sector came from (a RoundSource).
uint8_t round_source(const RunTouches& touched)
{
    return touched.dram > 0 ? kRoundDram : touched.l2 ? kRoundL2 : kRoundCached;
}

// Whether each of a whole warp's sectors follows the one before (a request that reads or writes a
// line of elements less than a sector apart): then they are one run, from the lowest's to the
// highest's. Each access lies in one sector, being aligned to its size.
bool sectors_in_one_run(const MemoryEvent& access)
{
    return access.lanes == 0xffffffffu && access.stride != 0 && access.stride >= -32 && access.stride <= 32;
}

// Whether a warp's 4-byte shared-memory accesses cannot conflict: each lane in a bank of its own,
// or all of them on one word (a broadcast). Most requests are one or the other, and this spares
// them the sort of the general count.
bool conflict_free(const uint64_t* addrs, uint32_t lanes, int64_t stride)
{
    if (lanes == 0 || (lanes == 0xffffffffu && (stride == 4 || stride == -4)))
        return true;  // none, or a whole warp's words side by side: one per bank
    uint32_t banks = 0;
    bool one_word = true;
    const uint64_t first = addrs[std::countr_zero(lanes)] >> 2;
    for (uint32_t m = lanes; m; m &= m - 1) {
        const uint64_t word = addrs[std::countr_zero(m)] >> 2;
        banks |= 1u << (word & 31);
        one_word &= word == first;
    }
    return one_word || std::popcount(banks) == std::popcount(lanes);
}

}  // namespace

bool CounterListener::sectors_in_one_window(const MemoryEvent& access, uint64_t& window, uint64_t& bits)
{
    const uint64_t* addrs = access.addresses;
    const uint32_t lanes = access.lanes;
    if (lanes == 0)
        return false;
    window = (addrs[std::countr_zero(lanes)] >> 5) / kWindowSectors;
    // Each lane's sector from the window's first, one branch-free step per lane: a sector outside
    // the window (below it, wrapping around, or past it) makes an offset from kWindowSectors up.
    uint64_t offsets = 0;
    const auto add = [&](int l) {
        const uint64_t offset = (addrs[l] >> 5) - window * kWindowSectors;
        offsets |= offset;
        bits |= uint64_t{1} << (offset % kWindowSectors);
    };
    if (lanes == 0xffffffffu) {
        for (int l = 0; l < kWarpSize; ++l)
            add(l);
    } else {
        for (uint32_t m = lanes; m; m &= m - 1)
            add(std::countr_zero(m));
    }
    if (offsets < kWindowSectors)
        return true;
    bits = 0;
    return false;
}

uint8_t CounterListener::count_memory(bool write, const MemoryEvent& access)
{
    if (access.where == ResolvedSpace::Global)
        return count_global(write, access);
    if (access.where == ResolvedSpace::Shared)
        count_shared(write, access);
    return kRoundCached;
}

uint8_t CounterListener::count_global(bool write, const MemoryEvent& access)
{
    const uint64_t* addrs = access.addresses;
    // The request's sectors: a run from `first` (the commonest request, a whole warp reading or
    // writing one element each, lane after lane, or a field of each of consecutive small records),
    // or any others; and, when they lie in one window, that window and their bits in it.
    const bool run = sectors_in_one_run(access);
    uint64_t first = 0, distinct = 0, window = 0, bits = 0;
    bool one_window;
    if (run) {
        first = std::min(addrs[0], addrs[kWarpSize - 1]) >> 5;
        distinct = (std::max(addrs[0], addrs[kWarpSize - 1]) >> 5) - first + 1;  // 32 at most
        window = first / kWindowSectors;
        one_window = (first + distinct - 1) / kWindowSectors == window;
        bits = ((uint64_t{1} << distinct) - 1) << (first % kWindowSectors);
    } else {
        one_window = sectors_in_one_window(access, window, bits);
        distinct = static_cast<uint64_t>(std::popcount(bits));  // touch_scattered counts them otherwise
    }
    uint8_t from = kRoundCached;  // where sectors this launch touched already come from
    if (!one_window || !touched_already(window, bits)) {
        const RunTouches touched = run ? touch_sectors(first << 5, distinct) : touch_scattered(access, distinct);
        counts_.dram_sectors += touched.dram;
        from = round_source(touched);
        if (one_window)
            remember_touched(window, bits);
    }
    if (write) {
        ++counts_.global_store_requests;
        counts_.global_store_sectors += distinct;
    } else {
        ++counts_.global_load_requests;
        counts_.global_load_sectors += distinct;
        if (access.bytes == 16)
            ++counts_.global_wide_load_requests;
    }
    return from;
}

RunTouches CounterListener::touch_scattered(const MemoryEvent& access, uint64_t& distinct)
{
    // Accesses are aligned to their size (at most 16 bytes), so each lies in a single sector.
    // Lanes in one sector are mostly neighbours: a sector is kept when it differs from the one
    // before, and those come in ascending order in most requests (then they are the distinct
    // ones); other patterns are sorted.
    const uint64_t* addrs = access.addresses;
    uint64_t sectors[kWarpSize];
    int count = 0;
    bool ascending = true;
    uint64_t last = ~uint64_t{0};  // no sector yet: every lane's differs
    for (uint32_t m = access.lanes; m; m &= m - 1) {
        const uint64_t sector = addrs[std::countr_zero(m)] >> 5;
        if (sector != last) {
            ascending &= count == 0 || sector > last;
            sectors[count++] = sector;
            last = sector;
        }
    }
    if (!ascending) {
        std::sort(sectors, sectors + count);
        count = static_cast<int>(std::unique(sectors, sectors + count) - sectors);
    }
    distinct = static_cast<uint64_t>(count);
    // Sectors in one allocation (most requests' are) are touched a word of its record at a time;
    // others a run of consecutive sectors at a time.
    if (const Allocation* a = count > 0 ? footprint_holding(sectors[0] << 5, (sectors[count - 1] + 1) << 5) : nullptr)
        return a->footprint->touch_sorted(sectors, count, epoch_, one_worker_);
    RunTouches touched;
    for (int i = 0; i < count;) {
        int end = i + 1;
        while (end < count && sectors[end] <= sectors[end - 1] + 1)
            ++end;
        touched += touch_sectors(sectors[i] << 5, sectors[end - 1] - sectors[i] + 1);
        i = end;
    }
    return touched;
}

void CounterListener::count_shared(bool write, const MemoryEvent& access)
{
    const uint64_t* addrs = access.addresses;
    const uint32_t lanes = access.lanes, bytes = access.bytes;
    if (write)
        ++counts_.shared_store_requests;
    else
        ++counts_.shared_load_requests;
    // Each bank serves one 4-byte word per wavefront; distinct words in the
    // same bank serialise. A request of B bytes needs at least B/128 wavefronts.
    if (bytes == 4 && conflict_free(addrs, lanes, access.stride))
        return;
    // Words that come in ascending order, as most requests' do, are distinct and counted as
    // they are gathered; others are sorted and deduplicated first.
    uint64_t words[kWarpSize * 4];
    int count = 0;
    bool ascending = true;
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = std::countr_zero(m);
        for (uint32_t o = 0; o < bytes; o += 4) {
            const uint64_t word = (addrs[l] + o) >> 2;
            ascending &= count == 0 || word > words[count - 1];
            words[count++] = word;
        }
    }
    if (!ascending) {
        std::sort(words, words + count);
        count = static_cast<int>(std::unique(words, words + count) - words);
    }
    uint8_t per_bank[32] = {};
    int worst = 0;
    for (int i = 0; i < count; ++i)
        worst = std::max(worst, int{++per_bank[words[i] & 31]});
    int ideal = static_cast<int>((static_cast<uint64_t>(std::popcount(lanes)) * bytes + 127) / 128);
    if (worst > ideal)
        counts_.shared_bank_conflicts += static_cast<uint64_t>(worst - ideal);
}

// ptxas turns an atomic that adds the same constant to one address from every lane into one
// update per warp; any other atomic updates memory once per lane.
void CounterListener::count_atomic(const Instr& in, const Operand& value, const MemoryEvent& access)
{
    const uint64_t* addrs = access.addresses;
    const uint32_t exec = access.lanes;
    uint64_t first = addrs[std::countr_zero(exec)];
    bool one_address = access.stride == 0;  // a warp whose lanes step along a line has 32 addresses
    for (uint32_t m = one_address ? exec : 0; m; m &= m - 1)
        one_address &= addrs[std::countr_zero(m)] == first;
    bool aggregated =
        one_address && value.kind == Operand::Kind::Imm &&
        (in.mode == ptx::AtomAdd || in.mode == ptx::AtomInc || in.mode == ptx::AtomDec || in.mode == ptx::AtomAnd ||
         in.mode == ptx::AtomOr || in.mode == ptx::AtomMin || in.mode == ptx::AtomMax);
    if (aggregated) {
        ++counts_.atomic_operations;
        atomic_targets_.add(first);
        return;
    }
    counts_.atomic_operations += static_cast<uint64_t>(std::popcount(exec));
    if (exec == 0xffffffffu && access.stride == 4)
        atomic_targets_.add_line_of_words(addrs);
    else
        atomic_targets_.add_lanes(addrs, exec);
}

}  // namespace cudasim
