// Which bytes of a device allocation something has written (the initcheck): a copy or memset from
// the host, or a kernel's store or atomic. A kernel that reads a byte nothing wrote reads what
// happened to be in the GPU's memory, which on a GPU is often zero: its sums can come out right
// there and wrong elsewhere.
//
// One bit per byte. Kernels set bits from several CPU threads at once (an atomic OR, only where a
// bit is not set yet) and test them without locking. Once a copy or memset from the host covers
// the whole allocation, `complete` is set and loads need no look-up at all.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>

namespace cudasim {

class WrittenBytes {
public:
    explicit WrittenBytes(uint64_t bytes) : size_(bytes), bits_(new std::atomic<uint64_t>[(bytes + 63) / 64]()) {}

    bool complete() const { return complete_.load(std::memory_order_relaxed); }

    // Bytes [offset, offset + count) are written now.
    void mark(uint64_t offset, uint64_t count)
    {
        if (complete())
            return;
        if (offset == 0 && count >= size_) {
            complete_.store(true, std::memory_order_relaxed);
            return;
        }
        for_each_word(offset, count, [](std::atomic<uint64_t>& word, uint64_t mask, uint64_t) {
            if ((word.load(std::memory_order_relaxed) & mask) != mask)
                word.fetch_or(mask, std::memory_order_relaxed);
            return true;
        });
    }

    // The offset of the first byte of [offset, offset + count) never written, or ~0 if every one was.
    uint64_t first_unwritten(uint64_t offset, uint64_t count) const
    {
        if (complete())
            return ~0ull;
        uint64_t found = ~0ull;
        for_each_word(offset, count, [&](std::atomic<uint64_t>& word, uint64_t mask, uint64_t index) {
            const uint64_t missing = ~word.load(std::memory_order_relaxed) & mask;
            if (missing)
                found = index * 64 + static_cast<uint64_t>(std::countr_zero(missing));
            return missing == 0;
        });
        return found;
    }

private:
    // Calls f(word, mask of the range's bits in it, word's index) for each word of bits that
    // [offset, offset + count) touches, in order, while f returns true.
    template <class F>
    void for_each_word(uint64_t offset, uint64_t count, F&& f) const
    {
        uint64_t end = offset + count < size_ ? offset + count : size_;
        while (offset < end) {
            const uint64_t bit = offset % 64;
            const uint64_t span = end - offset < 64 - bit ? end - offset : 64 - bit;
            const uint64_t mask = (span == 64 ? ~0ull : ((1ull << span) - 1)) << bit;
            if (!f(bits_[offset / 64], mask, offset / 64))
                return;
            offset += span;
        }
    }

    uint64_t size_;
    std::unique_ptr<std::atomic<uint64_t>[]> bits_;
    std::atomic<bool> complete_{false};
};

}  // namespace cudasim
