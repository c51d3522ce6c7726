// The race check, like compute-sanitizer's racecheck, lanes of one warp included (independent
// thread scheduling): two accesses to the same word from different threads of a block, at least
// one of them a write, race unless something orders them. Shared memory is checked fully; global
// memory, which compute-sanitizer does not check at all, for reads after another thread's write
// (read-after-write). Two writes of one global word are left to the grader's check of the values.
//
// Ordering, kept simple (CUDA's happens-before for one block):
//   * a block barrier (bar.sync, barrier.sync, bar.red) orders everything before it in the block
//     before everything after it: accesses are tagged with the block's barrier interval;
//   * bar.warp.sync (__syncwarp) orders the accesses of the lanes that took part in it: each warp
//     counts its bar.warp.syncs, and each lane remembers the count at the last one it took part
//     in. Two lanes of one warp are ordered if both took part in a bar.warp.sync after the
//     earlier access;
//   * nothing else orders two threads: not being in the same warp (independent thread
//     scheduling), not membar/fence, not a shuffle or vote;
//   * atomics do not race with atomics, nor with plain reads: the read of a compare-and-swap loop
//     (`old = *p; do { ... } while (atomicCAS(p, old, ...) != old)`) only seeds its guess. A plain
//     write and an atomic do race (shared memory; global atomics are not checked);
//   * a store that leaves the word as it was races with nothing (many threads setting the same
//     flag), though it still counts as a write for later readers.
//
// Shadow state: per 4-byte word of the block's shared memory, 26 bytes (SharedShadow): the last
// write and the last two reads by different threads (one from another warp where there was one),
// and the interval of the last of them. Reads from threads other than these two are forgotten, so
// the check can miss a race; what it reports is a race. A warp's line of 32 words is checked at
// once where it can (exec/memory/shared_race_lines.hpp).
// Global memory: the words written in the current interval, in a table of kGlobalWriteSlots
// entries per worker indexed by the address's low bits; a write evicts an older one that shares its
// slot, and reads are not remembered (a write after another thread's read goes unnoticed).
//
// The simulator runs the warps of a block one at a time between barriers, so the access that
// runs second here need not be the second on a GPU: the hazard's kind (read-after-write, ...)
// names the order the simulator ran them in.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/launch_context.hpp"
#include "exec/scheduling/warp.hpp"

namespace cudasim {

enum class RaceAccessKind : uint8_t { Read, Write, Atomic };

inline constexpr size_t kGlobalWriteSlots = size_t{1} << 16;
// A kernel that syncs its grid holds every resident block at once: a smaller table each.
inline constexpr size_t kCooperativeGlobalWriteSlots = size_t{1} << 12;

// Throws the DeviceFault of a race at `address` (a shared-memory offset, or a global address).
[[noreturn]] void report_race(const LaunchContext& launch, const BlockState& b, const RaceAccess& earlier,
                              RaceAccessKind earlier_kind, const RaceAccess& later, RaceAccessKind later_kind,
                              uint64_t address, bool same_warp, bool global);

namespace race_detail {

// Whether `a` (an earlier access of the same word) and an access now by lane `lane` of `w`, thread
// `thread`, touching the bytes `bytes`, are unordered.
inline bool unordered(const RaceAccess& a, uint32_t epoch, const Warp& w, int lane, uint32_t thread, uint32_t bytes)
{
    if (a.epoch() != epoch || a.thread() == thread || (a.bytes() & bytes) == 0)
        return false;
    if (a.thread() / kWarpSize != w.index)
        return true;
    return !(w.lane_sync[lane] > a.sync() && w.lane_sync[a.thread() % kWarpSize] > a.sync());
}

inline RaceAccessKind write_kind(const RaceAccess& a)
{
    return a.atomic() ? RaceAccessKind::Atomic : RaceAccessKind::Write;
}

[[noreturn, gnu::cold, gnu::noinline]] inline void race(const LaunchContext& launch, const BlockState& b, const Warp& w,
                                                        const RaceAccess& earlier, RaceAccessKind earlier_kind,
                                                        const RaceAccess& now, RaceAccessKind kind, uint64_t word)
{
    report_race(launch, b, earlier, earlier_kind, now, kind,
                word * 4 + static_cast<uint64_t>(std::countr_zero(now.bytes())),
                earlier.thread() / kWarpSize == w.index, false);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void global_race(const LaunchContext& launch, const BlockState& b,
                                                               const Warp& w, const RaceAccess& earlier,
                                                               const RaceAccess& now, RaceAccessKind kind,
                                                               uint64_t word)
{
    report_race(launch, b, earlier, write_kind(earlier), now, kind,
                word * 4 + static_cast<uint64_t>(std::countr_zero(now.bytes())),
                earlier.thread() / kWarpSize == w.index, true);
}

// Direct-mapped by the word's low bits: the lanes of a coalesced access use neighbouring slots
// (a few cache lines, where a hash would touch a line per lane).
inline GlobalWriteSlot& global_slot(BlockState& b, uint64_t word)
{
    return b.global_writes[word & b.global_write_mask];
}
static_assert(std::has_single_bit(kGlobalWriteSlots) && std::has_single_bit(kCooperativeGlobalWriteSlots));

// One word of a global access (see check_global_access).
inline void check_global_word(const LaunchContext& launch, BlockState& b, const Warp& w, int lane, uint32_t thread,
                              uint32_t pc, uint64_t word, uint32_t bytes, bool write)
{
    const uint32_t epoch = b.race_epoch;
    GlobalWriteSlot& slot = global_slot(b, word);
    const RaceAccess now(epoch, w.syncs, thread, bytes, false, pc);
    if (!write) {
        if (slot.word == word && unordered(slot.write, epoch, w, lane, thread, bytes))
            global_race(launch, b, w, slot.write, now, RaceAccessKind::Read, word);
        return;
    }
    slot.word = word;
    slot.write = now;
    b.global_written = true;
    b.lowest_word_written = std::min(b.lowest_word_written, word);
    b.highest_word_written = std::max(b.highest_word_written, word);
}

// One word of an access (see check_shared_access).
[[gnu::always_inline]] inline void check_shared_word(const LaunchContext& launch, BlockState& b, const Warp& w,
                                                     int lane, uint32_t thread, uint32_t pc, uint64_t word,
                                                     uint32_t bytes, RaceAccessKind kind, bool unchanged)
{
    const uint32_t epoch = b.race_epoch;
    RaceAccess& last_write = b.shared_shadow.write[word];
    RaceAccess& last_read = b.shared_shadow.read[word];
    RaceAccess& other_read = b.shared_shadow.other_read[word];
    const RaceAccess now(epoch, w.syncs, thread, bytes, kind == RaceAccessKind::Atomic, pc);
    b.shared_shadow.interval[word] = static_cast<uint16_t>(epoch);
    if (kind == RaceAccessKind::Read) {
        if (!last_write.atomic() && unordered(last_write, epoch, w, lane, thread, bytes))
            race(launch, b, w, last_write, write_kind(last_write), now, kind, word);
        if (last_read.epoch() != epoch) {
            last_read = now;
            other_read.forget();
        } else if (last_read.thread() == thread) {
            const uint32_t before = last_read.bytes();
            last_read = now;
            last_read.add_bytes(before);
        } else {
            // Keep a reader of another warp if there was one: any of them races with a write here.
            const uint32_t warp = w.index;
            const bool keep_other = other_read.epoch() == epoch && other_read.thread() / kWarpSize != warp &&
                                    last_read.thread() / kWarpSize == warp;
            if (!keep_other)
                other_read = last_read;
            last_read = now;
        }
        return;
    }
    const bool atomic = kind == RaceAccessKind::Atomic;
    if (!unchanged) {
        if (!(atomic && last_write.atomic()) && unordered(last_write, epoch, w, lane, thread, bytes))
            race(launch, b, w, last_write, write_kind(last_write), now, kind, word);
        if (!atomic && unordered(last_read, epoch, w, lane, thread, bytes))
            race(launch, b, w, last_read, RaceAccessKind::Read, now, kind, word);
        if (!atomic && unordered(other_read, epoch, w, lane, thread, bytes))
            race(launch, b, w, other_read, RaceAccessKind::Read, now, kind, word);
        // The reads so far all come before this write (else it raced): later accesses need only be
        // checked against the write. An atomic keeps them: a later atomic does not race with it.
        if (!atomic && bytes == 0xf) {
            last_read.forget();
            other_read.forget();
        }
    }
    last_write = now;
}

}  // namespace race_detail

// One lane's plain load or store of `size` bytes (1 to 16, aligned) at global `address`: a load is
// checked against the interval's writes, a store is recorded.
inline void check_global_access(const LaunchContext& launch, BlockState& b, const Warp& w, int lane, uint32_t pc,
                                uint64_t address, uint32_t size, bool write)
{
    const uint32_t thread = w.index * kWarpSize + static_cast<uint32_t>(lane);
    if (size < 4) {
        const uint32_t bytes = ((1u << size) - 1) << (address & 3);
        race_detail::check_global_word(launch, b, w, lane, thread, pc, address / 4, bytes, write);
        return;
    }
    for (uint64_t word = address / 4; word < (address + size) / 4; ++word)
        race_detail::check_global_word(launch, b, w, lane, thread, pc, word, 0xf, write);
}

// A warp's plain global stores of `size` bytes (1 to 16, aligned) at `addrs`, the lanes of `exec`,
// all in one allocation: recorded as the interval's writes, what check_global_access does for each
// lane's store, with the table and the interval's state read once. `lowest` and `highest`: the
// lowest and highest of the lanes' addresses.
inline void record_global_stores(BlockState& b, const Warp& w, uint32_t pc, const uint64_t* addrs, uint32_t exec,
                                 uint32_t size, uint64_t lowest, uint64_t highest)
{
    if (exec == 0)
        return;
    GlobalWriteSlot* const slots = b.global_writes.data();
    const uint64_t mask = b.global_write_mask;
    const uint32_t epoch = b.race_epoch, syncs = w.syncs, first_thread = w.index * kWarpSize;
    for (uint32_t m = exec; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        const uint32_t thread = first_thread + static_cast<uint32_t>(l);
        const uint64_t address = addrs[l];
        if (size < 4) {
            const uint32_t bytes = ((1u << size) - 1) << (address & 3);
            slots[address / 4 & mask] = {address / 4, RaceAccess(epoch, syncs, thread, bytes, false, pc)};
            continue;
        }
        for (uint64_t word = address / 4; word < (address + size) / 4; ++word)
            slots[word & mask] = {word, RaceAccess(epoch, syncs, thread, 0xf, false, pc)};
    }
    b.global_written = true;
    b.lowest_word_written = std::min(b.lowest_word_written, lowest / 4);
    b.highest_word_written = std::max(b.highest_word_written, (highest + size - 1) / 4);
}

// One lane's access of `size` bytes (1 to 16, aligned) at byte `offset` of the block's shared
// memory, by instruction `pc`. `unchanged`: a store of the bytes already there. Throws
// DeviceFault (cudaErrorLaunchFailure) on a race. Always inlined: it runs in each caller's loop
// over the lanes, where a call per lane costs more than the check.
[[gnu::always_inline]] inline void check_shared_access(const LaunchContext& launch, BlockState& b, const Warp& w,
                                                       int lane, uint32_t pc, uint64_t offset, uint32_t size,
                                                       RaceAccessKind kind, bool unchanged = false)
{
    const uint32_t thread = w.index * kWarpSize + static_cast<uint32_t>(lane);
    if (size <= 4) {  // one word
        const uint32_t bytes = size == 4 ? 0xfu : ((1u << size) - 1) << (offset & 3);
        race_detail::check_shared_word(launch, b, w, lane, thread, pc, offset / 4, bytes, kind, unchanged);
        return;
    }
    for (uint64_t word = offset / 4; word < (offset + size) / 4; ++word)
        race_detail::check_shared_word(launch, b, w, lane, thread, pc, word, 0xf, kind, unchanged);
}

}  // namespace cudasim
