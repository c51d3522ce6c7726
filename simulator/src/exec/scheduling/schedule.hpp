// The order the warps of a block run in. In order (the default): each warp runs until it waits at
// a barrier or exits, warp 0 first. A seeded schedule shuffles that order for a checking run:
// warps run in slices of 1 to 64 instructions, each slice given to a ready warp drawn at random,
// and a divergent branch runs its taken or its not-taken lanes first at random. A program whose
// result changes with the schedule has a race. The same seed gives the same order, block by
// block, however many CPU threads run the blocks.
#pragma once

#include <cstdint>

namespace cudasim {

class ScheduleRandom {
public:
    // The random stream of block `block` of the launch numbered `epoch` under schedule `seed`.
    ScheduleRandom(uint64_t seed, uint64_t epoch, uint64_t block) : state_(seed)
    {
        state_ = next() ^ epoch;
        state_ = next() ^ block;
    }

    // splitmix64: cheap, and good enough to mix seeds that differ in one bit.
    uint64_t next()
    {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // A number in [0, n).
    uint32_t below(uint32_t n) { return static_cast<uint32_t>((next() >> 32) * n >> 32); }

private:
    uint64_t state_;
};

}  // namespace cudasim
