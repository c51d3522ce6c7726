#include "ptx/cfg.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace cudasim::ptx {
namespace {

bool ends_flow(const Instr& in)
{
    return in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap || in.op == Op::SubReturn;
}

bool is_unconditional_branch(const Instr& in)
{
    return in.op == Op::Bra && in.guard == Operand::kNoReg;
}

// A dense bit set over basic blocks.
struct BlockSet {
    std::vector<uint64_t> words;
    explicit BlockSet(size_t n, bool full) : words((n + 63) / 64, full ? ~0ull : 0ull) {}
    void set(size_t i) { words[i / 64] |= 1ull << (i % 64); }
    bool test(size_t i) const { return (words[i / 64] >> (i % 64)) & 1; }
    void intersect(const BlockSet& o)
    {
        for (size_t i = 0; i < words.size(); ++i)
            words[i] &= o.words[i];
    }
    size_t count() const
    {
        size_t c = 0;
        for (uint64_t w : words)
            c += static_cast<size_t>(__builtin_popcountll(w));
        return c;
    }
    bool operator==(const BlockSet& o) const { return words == o.words; }
};

}  // namespace

void compute_reconvergence_points(std::vector<Instr>& code)
{
    const size_t n = code.size();
    // Leaders start basic blocks.
    std::vector<bool> leader(n + 1, false);
    leader[0] = true;
    for (size_t i = 0; i < n; ++i) {
        if (code[i].op == Op::Bra) {
            leader[static_cast<size_t>(code[i].target)] = true;
            leader[i + 1] = true;
        } else if (ends_flow(code[i])) {
            leader[i + 1] = true;
        }
    }
    std::vector<size_t> block_of(n + 1, 0), block_start;
    for (size_t i = 0; i < n; ++i) {
        if (leader[i])
            block_start.push_back(i);
        block_of[i] = block_start.size() - 1;
    }
    const size_t blocks = block_start.size();
    const size_t exit_block = blocks;  // virtual node after every ret/exit
    block_start.push_back(n);
    std::vector<std::vector<size_t>> succ(blocks + 1);
    for (size_t b = 0; b < blocks; ++b) {
        size_t last = (b + 1 < blocks ? block_start[b + 1] : n) - 1;
        const Instr& in = code[last];
        if (ends_flow(in)) {
            succ[b].push_back(exit_block);
            continue;
        }
        if (in.op == Op::Bra)
            succ[b].push_back(block_of[static_cast<size_t>(in.target)]);
        if (!is_unconditional_branch(in))
            succ[b].push_back(last + 1 < n ? block_of[last + 1] : exit_block);
    }
    // Iterative post-dominator sets: pdom(b) = {b} + intersection over successors.
    std::vector<BlockSet> pdom(blocks + 1, BlockSet(blocks + 1, true));
    pdom[exit_block] = BlockSet(blocks + 1, false);
    pdom[exit_block].set(exit_block);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t b = blocks; b-- > 0;) {
            BlockSet s(blocks + 1, true);
            for (size_t t : succ[b])
                s.intersect(pdom[t]);
            s.set(b);
            if (!(s == pdom[b])) {
                pdom[b] = std::move(s);
                changed = true;
            }
        }
    }
    for (size_t i = 0; i < n; ++i) {
        Instr& in = code[i];
        if (in.op != Op::Bra || is_unconditional_branch(in))
            continue;
        size_t b = block_of[i];
        size_t want = pdom[b].count() - 1;
        in.reconverge = static_cast<int32_t>(n);
        for (size_t p = 0; p < blocks; ++p) {
            if (p != b && pdom[b].test(p) && pdom[p].count() == want) {
                in.reconverge = static_cast<int32_t>(block_start[p]);
                break;
            }
        }
    }
}

}  // namespace cudasim::ptx
