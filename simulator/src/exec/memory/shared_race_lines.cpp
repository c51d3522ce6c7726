// Each check is written as one loop over the 32 lanes without a branch, which the compiler turns
// into vector instructions. It is compiled for any x86-64 CPU and, where the simulator has the fast
// paths' AVX2 build, for AVX2 too, whose 64-bit comparisons let it vectorise; the CPU runs the build
// the fast paths run (fast_path_builds).
#include "exec/memory/shared_race_lines.hpp"

#include <cstdint>
#include <vector>

#include "exec/arithmetic/fast_paths.hpp"
#include "exec/scheduling/warp.hpp"

namespace cudasim {
namespace {

constexpr uint64_t kEpoch = RaceAccess::kEpochField;
constexpr uint64_t kThread = RaceAccess::kThreadField;

// Whether an earlier access `earlier` (packed) cannot race with `now`: it is from an earlier
// interval (or none), or by the same thread. 1 or 0.
inline uint64_t cannot_race(uint64_t earlier, uint64_t now)
{
    const uint64_t differ = earlier ^ now;
    return static_cast<uint64_t>((differ & kEpoch) != 0) | static_cast<uint64_t>((differ & kThread) == 0);
}

// `yes` where `choose` (1 or 0) is 1, else `no`: arithmetic, so that every lane's record is stored
// (a conditional store would become a masked one, slow on some CPUs).
inline uint64_t select(uint64_t choose, uint64_t yes, uint64_t no)
{
    const uint64_t all = 0 - choose;
    return (yes & all) | (no & ~all);
}

// Runs `update(lane, now, write, read, other_read)` for each lane, `now` its access and the others
// its word's records (packed), which it may change (the last write only where `kWrites`); returns
// whether it returned 1 for every lane.
template <bool kWrites, class Update>
[[gnu::always_inline]] inline bool update_line(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0,
                                               Update update)
{
    RaceAccess* const __restrict writes = shadow.write.data() + first_word;
    RaceAccess* const __restrict reads = shadow.read.data() + first_word;
    RaceAccess* const __restrict other_reads = shadow.other_read.data() + first_word;
    uint16_t* const __restrict intervals = shadow.interval.data() + first_word;
    const auto epoch = static_cast<uint16_t>(lane0.epoch());
    uint32_t recent = 0;
    for (int l = 0; l < kWarpSize; ++l)
        recent |= static_cast<uint32_t>(intervals[l] == epoch);
    if (recent == 0) {
        // No word has a record of this interval: none can race, and the older records need no
        // change but the one this access replaces (an older read or write is as good as none).
        RaceAccess* const __restrict replaced = kWrites ? writes : reads;
        for (int l = 0; l < kWarpSize; ++l) {
            replaced[l] = RaceAccess::from_bits(lane0.bits() + (uint64_t(l) << RaceAccess::kThreadShift));
            intervals[l] = epoch;
        }
        return true;
    }
    uint64_t failed = 0;
    for (int l = 0; l < kWarpSize; ++l) {
        const uint64_t now = lane0.bits() + (uint64_t(l) << RaceAccess::kThreadShift);
        intervals[l] = epoch;  // a lane that fails gets the same from the full check
        uint64_t write = writes[l].bits(), read = reads[l].bits(), other = other_reads[l].bits();
        failed |= update(l, now, write, read, other) ^ 1;
        if constexpr (kWrites)
            writes[l] = RaceAccess::from_bits(write);
        reads[l] = RaceAccess::from_bits(read);
        other_reads[l] = RaceAccess::from_bits(other);
    }
    return failed == 0;
}

[[gnu::always_inline]] inline bool read_line(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0)
{
    // A read races with a plain write of another thread in this interval; the last read is
    // replaced (the thread's own), or starts this interval's reads (the other one forgotten).
    const auto read_lane = [](int, uint64_t now, uint64_t& write, uint64_t& read, uint64_t& other) {
        const uint64_t write_ok =
            cannot_race(write, now) | static_cast<uint64_t>((write & RaceAccess::kAtomicBit) != 0);
        const uint64_t read_stale = static_cast<uint64_t>(((read ^ now) & kEpoch) != 0);
        const uint64_t passes = write_ok & cannot_race(read, now);
        other = select(passes & read_stale, 0, other);
        read = select(passes, now, read);
        return passes;
    };
    return update_line<false>(shadow, first_word, lane0, read_lane);
}

[[gnu::always_inline]] inline bool write_line(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0,
                                              const uint32_t* before, const uint64_t* values)
{
    // A store that changes its word races with any access of another thread in this interval, and
    // the reads before it are forgotten; one that does not is only recorded.
    const auto write_lane = [&](int l, uint64_t now, uint64_t& write, uint64_t& read, uint64_t& other) {
        const uint64_t changes = static_cast<uint64_t>(before[l] != (values[l] & 0xffffffffu));
        const uint64_t passes =
            (changes ^ 1) | (cannot_race(write, now) & cannot_race(read, now) & cannot_race(other, now));
        write = select(passes, now, write);
        read = select(passes & changes, 0, read);
        other = select(passes & changes, 0, other);
        return passes;
    };
    return update_line<true>(shadow, first_word, lane0, write_lane);
}

bool read_line_baseline(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0)
{
    return read_line(shadow, first_word, lane0);
}

bool write_line_baseline(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0, const uint32_t* before,
                         const uint64_t* values)
{
    return write_line(shadow, first_word, lane0, before, values);
}

#if CUDASIM_FAST_PATHS_AVX2
[[gnu::target("avx2")]] bool read_line_avx2(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0)
{
    return read_line(shadow, first_word, lane0);
}

[[gnu::target("avx2")]] bool write_line_avx2(SharedShadow& shadow, uint64_t first_word, RaceAccess lane0,
                                             const uint32_t* before, const uint64_t* values)
{
    return write_line(shadow, first_word, lane0, before, values);
}
#endif

bool use_avx2()
{
    static const bool avx2 = fast_path_builds().back() == FastPathBuild::Avx2;
    return avx2;
}

// Lane 0's access of a line by `w` at `pc`, a 4-byte plain one: lane l's is the same by thread
// lane0.thread() + l.
RaceAccess lane0_access(const BlockState& b, const Warp& w, uint32_t pc)
{
    return RaceAccess(b.race_epoch, w.syncs, w.index * kWarpSize, 0xf, false, pc);
}

}  // namespace

bool read_shared_line(BlockState& b, const Warp& w, uint32_t pc, uint64_t first_word)
{
    const RaceAccess lane0 = lane0_access(b, w, pc);
#if CUDASIM_FAST_PATHS_AVX2
    if (use_avx2())
        return read_line_avx2(b.shared_shadow, first_word, lane0);
#endif
    return read_line_baseline(b.shared_shadow, first_word, lane0);
}

bool write_shared_line(BlockState& b, const Warp& w, uint32_t pc, uint64_t first_word, const uint32_t* before,
                       const uint64_t* values)
{
    const RaceAccess lane0 = lane0_access(b, w, pc);
#if CUDASIM_FAST_PATHS_AVX2
    if (use_avx2())
        return write_line_avx2(b.shared_shadow, first_word, lane0, before, values);
#endif
    return write_line_baseline(b.shared_shadow, first_word, lane0, before, values);
}

}  // namespace cudasim
