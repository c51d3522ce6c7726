// Updates per global address, for the timing model's hottest address (updates of one address
// serialise). A histogram's warp updates 32 addresses at every atomic, and a node-based map's
// allocation and pointer chase per lookup cost more than the update itself: the words of one
// window (that of the first address, 8 KiB, where a histogram's bins lie) are counted in an array,
// and other addresses in an open-addressing table.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cudasim {

class AddressTally {
public:
    void add(uint64_t address, uint64_t updates = 1)
    {
        if (window_.empty())
            open_window(address);
        if (const uint64_t word = (address - window_base_) / 4; word < kWindowWords && address % 4 == 0) {
            window_[word] += updates;
            return;
        }
        add_to_table(address, updates);
    }

    // One update of each lane's address, for the lanes of `lanes` (a warp's atomic): the window's
    // base and counts read once, not again after each update (they might alias the counts).
    void add_lanes(const uint64_t* addresses, uint32_t lanes)
    {
        if (lanes == 0)
            return;
        if (window_.empty())
            open_window(addresses[std::countr_zero(lanes)]);
        uint64_t* const counts = window_.data();
        const uint64_t base = window_base_;
        for (uint32_t m = lanes; m; m &= m - 1) {
            const uint64_t address = addresses[std::countr_zero(m)];
            if (const uint64_t offset = address - base; offset < kWindowWords * 4 && offset % 4 == 0)
                ++counts[offset / 4];
            else
                add_to_table(address, 1);
        }
    }

    // One update of each of a whole warp's 32 addresses that step 4 bytes from addresses[0] (an
    // atomic on a line of words, `atomicAdd(&out[i], x)`): in the window, a loop without a test.
    void add_line_of_words(const uint64_t* addresses)
    {
        constexpr uint32_t kLanes = 32;
        if (window_.empty())
            open_window(addresses[0]);
        if (const uint64_t offset = addresses[0] - window_base_;
            offset % 4 == 0 && offset / 4 + kLanes <= kWindowWords) {
            uint64_t* const counts = window_.data() + offset / 4;
            for (uint32_t l = 0; l < kLanes; ++l)
                ++counts[l];
            return;
        }
        add_lanes(addresses, ~0u);
    }

    // Adds another tally's updates to this one's.
    void merge(const AddressTally& other)
    {
        for (size_t word = 0; word < other.window_.size(); ++word)
            if (other.window_[word] != 0)
                add(other.window_base_ + 4 * word, other.window_[word]);
        for (const Slot& s : other.slots_)
            if (s.updates != 0)
                add(s.address, s.updates);
    }

    // The most updates any one address had (0 for none).
    uint64_t hottest() const
    {
        uint64_t most = 0;
        for (const uint64_t updates : window_)
            most = std::max(most, updates);
        for (const Slot& s : slots_)
            most = std::max(most, s.updates);
        return most;
    }

private:
    static constexpr uint64_t kWindowWords = 2048;

    void open_window(uint64_t address)
    {
        window_.assign(kWindowWords, 0);
        window_base_ = address & ~(kWindowWords * 4 - 1);
    }

    void add_to_table(uint64_t address, uint64_t updates)
    {
        if (2 * (used_ + 1) > slots_.size())
            grow();
        Slot& s = find(address);
        if (s.updates == 0) {
            s.address = address;
            ++used_;
        }
        s.updates += updates;
    }

    struct Slot {
        uint64_t address = 0;
        uint64_t updates = 0;  // 0: an empty slot
    };

    Slot& find(uint64_t address)
    {
        const size_t mask = slots_.size() - 1;
        // Fibonacci hashing: neighbouring words (a histogram's bins) land far apart.
        for (size_t i = (address * 0x9E3779B97F4A7C15ull) >> 32 & mask;; i = (i + 1) & mask)
            if (slots_[i].updates == 0 || slots_[i].address == address)
                return slots_[i];
    }

    void grow()
    {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(std::max<size_t>(64, 2 * old.size()), Slot{});
        used_ = 0;
        for (const Slot& s : old)
            if (s.updates != 0)
                add_to_table(s.address, s.updates);
    }

    std::vector<uint64_t> window_;  // updates per word from window_base_; empty before the first
    uint64_t window_base_ = 0;
    std::vector<Slot> slots_;
    size_t used_ = 0;
};

}  // namespace cudasim
