// Memory and bookkeeping of one thread block while it runs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/launch_context.hpp"

namespace cudasim {

// One access of a shared word remembered by the race check (exec/race_check.hpp), packed in 8
// bytes (built and read with shifts: bit-fields written one by one stall the store buffer).
class RaceAccess {
public:
    static constexpr uint32_t kEpochs = 1u << 14;  // BlockState::raceEpoch wraps here
    static constexpr uint32_t kSyncs = 1u << 13;   // Warp::syncs wraps here
    static constexpr uint32_t kPcs = 1u << 22;     // instructions beyond are recorded as kPcs - 1

    RaceAccess() = default;
    // epoch: BlockState::raceEpoch when it happened (0: no access); sync: its warp's Warp::syncs
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
    void addBytes(uint32_t bytes) { bits_ |= uint64_t{bytes} << 37; }
    void forget() { bits_ = 0; }

private:
    uint64_t bits_ = 0;
};

struct SharedWordShadow {
    RaceAccess write{};      // the last write
    RaceAccess read{};       // the last read
    RaceAccess otherRead{};  // an earlier read by another thread (of another warp if there was one)
};

// A global word written in the block's current barrier interval (exec/race_check.hpp).
struct GlobalWriteSlot {
    uint64_t word = 0;  // address / 4
    RaceAccess write{};
};

struct BlockState {
    Dim3 ctaid;
    std::vector<uint8_t> shared;  // static + dynamic shared memory
    std::vector<uint8_t> local;   // localBytes per thread, thread-major
    uint32_t localBytes = 0;
    uint64_t clock = 0;        // warp instructions issued by this block
    std::string printfOutput;  // flushed in block order after the launch
    // Race check: one shadow per 4-byte word of `shared` (empty when the check is off), and the
    // number of the current barrier interval, a new one at each block start and each barrier.
    // Entries of earlier intervals and blocks are simply stale, so nothing is cleared per block,
    // only when the number wraps.
    std::vector<SharedWordShadow> sharedShadow;
    // The global words written in the interval, in a table indexed by a hash of the address: a
    // write evicts an older one in its slot (a race with that one goes unnoticed), and loads
    // look only while the interval has written global memory at all.
    std::vector<GlobalWriteSlot> globalWrites;
    bool globalWritten = false;  // the interval has written global memory
    uint32_t raceEpoch = 0;
    void newRaceInterval()
    {
        globalWritten = false;
        if (++raceEpoch < RaceAccess::kEpochs)
            return;
        std::fill(sharedShadow.begin(), sharedShadow.end(), SharedWordShadow{});
        std::fill(globalWrites.begin(), globalWrites.end(), GlobalWriteSlot{});
        raceEpoch = 1;
    }
};

}  // namespace cudasim
