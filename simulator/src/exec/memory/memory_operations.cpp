// Loads, stores and atomics of the interpreter, with the bounds checks of MemoryAccess; each
// reports its access to the listeners (exec/observers/listener.hpp).
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "exec/arithmetic/alu.hpp"
#include "exec/arithmetic/arithmetic.hpp"
#include "exec/arithmetic/half_precision.hpp"
#include "exec/memory/ordering_check.hpp"
#include "exec/memory/race_check.hpp"
#include "exec/memory/shared_race_lines.hpp"
#include "exec/observers/listener.hpp"
#include "exec/scheduling/interpreter.hpp"
#include "exec/scheduling/lanes.hpp"

namespace cudasim {

using ptx::Op;
using ptx::Type;

namespace {
uint64_t read_value(const uint8_t* p, int bytes, Type t)
{
    uint64_t v = 0;
    switch (bytes) {  // fixed sizes let the compiler emit plain moves
    case 1:
        v = *p;
        break;
    case 2: {
        uint16_t x;
        std::memcpy(&x, p, 2);
        v = x;
        break;
    }
    case 4: {
        uint32_t x;
        std::memcpy(&x, p, 4);
        v = x;
        break;
    }
    default:
        std::memcpy(&v, p, 8);
        break;
    }
    // Signed loads sign-extend into wider registers (ld.s32 into a .b64);
    // readers of narrower registers only look at the low bits.
    if (ptx::is_signed(t))
        v = static_cast<uint64_t>(alu::sign_extend(v, bytes * 8));
    return v;
}

void write_value(uint8_t* p, uint64_t v, int bytes)
{
    switch (bytes) {
    case 1:
        *p = static_cast<uint8_t>(v);
        break;
    case 2: {
        uint16_t x = static_cast<uint16_t>(v);
        std::memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = static_cast<uint32_t>(v);
        std::memcpy(p, &x, 4);
        break;
    }
    default:
        std::memcpy(p, &v, 8);
        break;
    }
}
}  // namespace

namespace {

// Per-lane addresses of a memory operand, with the range summary the whole-warp bounds check needs:
// the lowest and highest address, and `bits`, whose low bits are zero where every lane's address is
// aligned to them. `stride`: for a whole warp whose lane l reads first + l * stride (a coalesced
// access, the common case), that stride, found from the lanes' steps before any minimum or
// maximum is taken; 0 otherwise.
// `addr`: the address register itself where the operand adds no offset to it and the instruction
// writes no register before its last use of the addresses (32 copies spared); else `copy`.
struct LaneAddresses {
    LaneAddresses() = default;
    LaneAddresses(const LaneAddresses&) = delete;  // `addr` may point into this object
    LaneAddresses& operator=(const LaneAddresses&) = delete;
    const uint64_t* addr = copy;
    Lanes copy;
    uint64_t lowest = ~0ull, highest = 0, bits = 0;
    int64_t stride = 0;
};

// Strides up to this size in bytes count as a line: 31 of them cannot wrap around the address space.
constexpr int64_t kMaxLineStride = int64_t{1} << 32;

// Whether the destination `d` (a register or a vector of them) includes register `reg`.
bool writes_register(const Operand& d, uint32_t reg)
{
    if (d.kind == Operand::Kind::Vec)
        return std::find(d.vec, d.vec + d.count, reg) != d.vec + d.count;
    return d.kind == Operand::Kind::Reg && d.reg == reg;
}

// `in_place`: the addresses may be read from the register itself (LaneAddresses::addr).
void compute_addresses(Warp& w, const Operand& a, uint32_t exec, LaneAddresses& out, bool in_place)
{
    const uint64_t offset = static_cast<uint64_t>(a.imm);
    if (a.reg == Operand::kNoReg) {  // one address for every lane
        std::fill(out.copy, out.copy + kWarpSize, offset);
        out.lowest = out.highest = out.bits = offset;
        return;
    }
    const uint64_t* base = w.reg(a.reg);
    if (offset == 0 && in_place) {
        out.addr = base;
    } else {
        for (int l = 0; l < kWarpSize; ++l)
            out.copy[l] = base[l] + offset;
    }
    if (exec == 0xffffffffu) {
        // The steps between lanes, from the register rather than from the addresses just written
        // (reading those back at an offset would wait for the stores).
        const uint64_t step = base[1] - base[0];
        uint64_t off_line = 0;
        for (int l = 1; l < kWarpSize; ++l)
            off_line |= (base[l] - base[l - 1]) ^ step;
        const uint64_t first = out.addr[0], last = out.addr[kWarpSize - 1];
        const auto stride = static_cast<int64_t>(step);
        if (off_line == 0 && stride > -kMaxLineStride && stride < kMaxLineStride &&
            (stride > 0 ? last > first : last <= first)) {
            out.lowest = std::min(first, last);
            out.highest = std::max(first, last);
            out.bits = first | step;  // every lane aligned where the first is and the stride keeps it
            out.stride = stride;
            return;
        }
        for (int l = 0; l < kWarpSize; ++l) {  // branch-free, for the compiler
            out.lowest = std::min(out.lowest, out.addr[l]);
            out.highest = std::max(out.highest, out.addr[l]);
            out.bits |= out.addr[l];
        }
        return;
    }
    for (uint32_t m = exec; m; m &= m - 1) {
        uint64_t x = out.addr[std::countr_zero(m)];
        out.lowest = std::min(out.lowest, x);
        out.highest = std::max(out.highest, x);
        out.bits |= x;
    }
}

// A store whose lanes all lie in one allocation (`offset` turns an address into a host pointer), of
// one value per lane: each lane a plain move. `packed`: a whole warp whose lanes write one block of
// memory, lane after lane, written at once.
template <class Word>
void store_lanes(const uint64_t* addrs, int64_t offset, const uint64_t* values, uint32_t exec, bool packed)
{
    if (packed) {
        Word block[kWarpSize];
        for (int l = 0; l < kWarpSize; ++l)
            block[l] = static_cast<Word>(values[l]);
        std::memcpy(reinterpret_cast<void*>(addrs[0] + static_cast<uint64_t>(offset)), block, sizeof block);
        return;
    }
    for (uint32_t m = exec; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        const auto value = static_cast<Word>(values[l]);
        std::memcpy(reinterpret_cast<void*>(addrs[l] + static_cast<uint64_t>(offset)), &value, sizeof(Word));
    }
}

// A shared store of one word per lane, `offset` turning the lanes' addresses into host pointers,
// each lane checked for races before it writes: a store that leaves the word as it was races with
// nothing. A whole warp's 4-byte words side by side (`stride` 4) are checked at once.
template <class Word>
void store_shared_checked(const LaunchContext& launch, BlockState& b, const Warp& w, uint32_t pc, const uint64_t* addrs,
                          int64_t offset, int64_t stride, const uint64_t* values, uint32_t exec)
{
    const uint64_t base = reinterpret_cast<uint64_t>(b.shared.data());
    if (sizeof(Word) == 4 && stride == 4) {
        const uint64_t line = addrs[0] + static_cast<uint64_t>(offset);
        uint32_t before[kWarpSize];
        std::memcpy(before, reinterpret_cast<const void*>(line), sizeof before);
        if (write_shared_line(b, w, pc, (line - base) / 4, before, values)) {
            store_lanes<uint32_t>(addrs, offset, values, exec, true);
            return;
        }
    }
    for (uint32_t m = exec; m; m &= m - 1) {
        int l = std::countr_zero(m);
        uint8_t* p = reinterpret_cast<uint8_t*>(addrs[l] + static_cast<uint64_t>(offset));
        Word before;
        std::memcpy(&before, p, sizeof(Word));
        const auto value = static_cast<Word>(values[l]);
        check_shared_access(launch, b, w, l, pc, reinterpret_cast<uint64_t>(p) - base, sizeof(Word),
                            RaceAccessKind::Write, before == value);
        std::memcpy(p, &value, sizeof(Word));
    }
}

void store_direct(const LaneAddresses& a, int64_t offset, const uint64_t* values, uint32_t exec, int bytes)
{
    const bool packed = exec == 0xffffffffu && a.stride == bytes;
    switch (bytes) {
    case 1:
        return store_lanes<uint8_t>(a.addr, offset, values, exec, packed);
    case 2:
        return store_lanes<uint16_t>(a.addr, offset, values, exec, packed);
    case 4:
        return store_lanes<uint32_t>(a.addr, offset, values, exec, packed);
    default:
        return store_lanes<uint64_t>(a.addr, offset, values, exec, packed);
    }
}

// A load whose lanes all lie in one allocation (`shift` turns an address into a host pointer):
// the element size and signedness fixed, so that each lane is a plain move. `packed`: a whole warp
// whose lanes read one block of memory, lane after lane (each lane's parts side by side), copied
// at once.
template <int Bytes, bool Signed>
void load_lanes(Warp& w, const Operand& d, const uint64_t* addrs, uint64_t shift, uint32_t exec, bool packed)
{
    using Element = std::conditional_t<
        Bytes == 1, uint8_t,
        std::conditional_t<Bytes == 2, uint16_t, std::conditional_t<Bytes == 4, uint32_t, uint64_t>>>;
    using SignedElement = std::make_signed_t<Element>;
    const auto widen = [](Element x) {
        if constexpr (Signed)
            return static_cast<uint64_t>(static_cast<int64_t>(static_cast<SignedElement>(x)));
        else
            return static_cast<uint64_t>(x);
    };
    const int parts = d.kind == Operand::Kind::Vec ? d.count : 1;
    if (packed && d.kind == Operand::Kind::Reg && d.reg != Operand::kNoReg) {
        // One element per lane, side by side: widened straight from memory, a vectorised loop.
        Element block[kWarpSize];
        std::memcpy(block, reinterpret_cast<const void*>(addrs[0] + shift), sizeof block);
        uint64_t* out = w.reg(d.reg);
        for (int l = 0; l < kWarpSize; ++l)
            out[l] = widen(block[l]);
        return;
    }
    if (packed) {
        constexpr int kMaxParts = 4;
        Element block[kWarpSize * kMaxParts];
        std::memcpy(block, reinterpret_cast<const void*>(addrs[0] + shift),
                    static_cast<size_t>(kWarpSize * parts * Bytes));
        for (int i = 0; i < parts; ++i) {
            const uint32_t r = d.kind == Operand::Kind::Vec ? d.vec[i] : d.reg;
            if (r == Operand::kNoReg)
                continue;
            uint64_t* out = w.reg(r);
            for (int l = 0; l < kWarpSize; ++l)
                out[l] = widen(block[l * parts + i]);
        }
        return;
    }
    for (int i = 0; i < parts; ++i) {
        const uint32_t r = d.kind == Operand::Kind::Vec ? d.vec[i] : d.reg;
        if (r == Operand::kNoReg)
            continue;
        uint64_t* out = w.reg(r);
        const uint64_t at = shift + static_cast<uint64_t>(i * Bytes);
        const auto load_lane = [&](int l) {
            Element x;
            std::memcpy(&x, reinterpret_cast<const void*>(addrs[l] + at), Bytes);
            out[l] = widen(x);
        };
        if (exec == 0xffffffffu) {  // a whole warp: a counted loop, without the chain of lane bits
            for (int l = 0; l < kWarpSize; ++l)
                load_lane(l);
            continue;
        }
        for (uint32_t m = exec; m; m &= m - 1)
            load_lane(std::countr_zero(m));
    }
}

void load_direct(Warp& w, const Operand& d, const LaneAddresses& a, uint64_t shift, uint32_t exec, int bytes,
                 bool is_signed)
{
    const int parts = d.kind == Operand::Kind::Vec ? d.count : 1;
    const bool packed = a.stride == static_cast<int64_t>(bytes) * parts && parts <= 4;
    const uint64_t* addrs = a.addr;
    switch (bytes * (is_signed ? -1 : 1)) {
    case 1:
        return load_lanes<1, false>(w, d, addrs, shift, exec, packed);
    case -1:
        return load_lanes<1, true>(w, d, addrs, shift, exec, packed);
    case 2:
        return load_lanes<2, false>(w, d, addrs, shift, exec, packed);
    case -2:
        return load_lanes<2, true>(w, d, addrs, shift, exec, packed);
    case 4:
        return load_lanes<4, false>(w, d, addrs, shift, exec, packed);
    case -4:
        return load_lanes<4, true>(w, d, addrs, shift, exec, packed);
    default:  // 8 bytes: nothing to extend
        return load_lanes<8, false>(w, d, addrs, shift, exec, packed);
    }
}

}  // namespace

template <class Listener>
void Interpreter::load(Warp& w, BlockState& b, const Instr& in, uint32_t exec, Listener& listener)
{
    if (!exec)
        return;
    int bytes = ptx::type_bytes(in.type);
    uint32_t total = static_cast<uint32_t>(bytes * in.vec_width);
    const Operand& d = in.ops[0];
    LaneAddresses a;
    compute_addresses(w, in.ops[2], exec, a, !writes_register(d, in.ops[2].reg));
    ResolvedSpace where = ResolvedSpace::Global;
    int64_t offset = 0;
    bool direct =
        memory_.translate_range(in.space, a.lowest, a.highest, a.bits, total, b, offset, where, in.shared_symbol);
    if (direct && (d.kind == Operand::Kind::Reg || d.kind == Operand::Kind::Vec) && bytes > 0 && bytes <= 8) {
        load_direct(w, d, a, static_cast<uint64_t>(offset), exec, bytes, ptx::is_signed(in.type));
    } else {
        for (uint32_t m = exec; m; m &= m - 1) {
            int l = std::countr_zero(m);
            const uint8_t* p = direct ? reinterpret_cast<const uint8_t*>(a.addr[l] + static_cast<uint64_t>(offset))
                                      : memory_.resolve(in.space, a.addr[l], total, false, site(w, b, l, in), b, where);
            if (d.kind == Operand::Kind::Vec) {
                for (int i = 0; i < d.count; ++i)
                    if (d.vec[i] != Operand::kNoReg)
                        w.reg(d.vec[i])[l] = read_value(p + i * bytes, bytes, in.type);
            } else if (d.kind == Operand::Kind::Reg) {
                w.reg(d.reg)[l] = read_value(p, bytes, in.type);
            }
        }
    }
    listener.on_memory_access(w, in, {MemoryEvent::Kind::Load, where, a.addr, exec, total, a.stride});
    if (race_check_ && where == ResolvedSpace::Shared)
        check_shared_lanes(w, b, in, a.addr, exec, total, a.stride, false);
    else if (race_check_ && where == ResolvedSpace::Global &&
             b.may_have_written(a.lowest / 4, (a.highest + total - 1) / 4))
        check_global_reads(w, b, in, a.addr, exec, total);
    if (init_check_ && where == ResolvedSpace::Global)
        check_reads_written(w, b, in, a.addr, exec, total, a.lowest, a.highest);
    if (ordering_ && where == ResolvedSpace::Global)
        order_loads(w, b, in, a.addr, exec, total, a.lowest, a.highest);
}

// The initcheck: a global read of bytes nothing wrote. A warp whose whole address range was written
// (a coalesced load of written data, the common case) needs one look-up.
void Interpreter::check_reads_written(Warp& w, BlockState& b, const Instr& in, const uint64_t* addrs, uint32_t exec,
                                      uint32_t size, uint64_t lowest, uint64_t highest)
{
    WrittenBytes* record = nullptr;
    uint64_t base = 0;
    if (memory_.written_bytes(lowest, highest + size - lowest, record, base) &&
        (!record || record->first_unwritten(lowest - base, highest + size - lowest) == ~0ull))
        return;
    for (uint32_t m = exec; m; m &= m - 1) {
        int l = std::countr_zero(m);
        if ((addrs[l] & kWindowMask) != 0 || !memory_.written_bytes(addrs[l], size, record, base) || !record)
            continue;
        if (const uint64_t first = record->first_unwritten(addrs[l] - base, size); first != ~0ull)
            throw_uninitialized_read(size, addrs[l], base + first, site(w, b, l, in));
    }
}

// The initcheck: what a kernel stores or updates atomically in global memory is written from now on.
// A warp whose lanes lie in one allocation looks it up once, and one whose lanes cover their range
// without a gap (`gapless`: a coalesced store) marks the range at once.
void Interpreter::mark_written(const uint64_t* addrs, uint32_t exec, uint32_t size, uint64_t lowest, uint64_t highest,
                               bool gapless)
{
    WrittenBytes* record = nullptr;
    uint64_t base = 0;
    if ((lowest & kWindowMask) == 0 && memory_.written_bytes(lowest, highest + size - lowest, record, base)) {
        if (!record || record->complete())
            return;  // not checked, or every byte written already (a buffer the host filled)
        if (gapless) {
            record->mark(lowest - base, highest + size - lowest);
            return;
        }
        for (uint32_t m = exec; m; m &= m - 1)
            record->mark(addrs[std::countr_zero(m)] - base, size);
        return;
    }
    for (uint32_t m = exec; m; m &= m - 1) {
        int l = std::countr_zero(m);
        if ((addrs[l] & kWindowMask) == 0 && memory_.written_bytes(addrs[l], size, record, base) && record)
            record->mark(addrs[l] - base, size);
    }
}

// The ordering check across blocks (exec/memory/ordering_check.hpp): a strong load reads a flag; a plain one
// must be ordered after any other block's write of its words.
void Interpreter::order_loads(const Warp& w, BlockState& b, const Instr& in, const uint64_t* addrs, uint32_t exec,
                              uint32_t size, uint64_t lowest, uint64_t highest)
{
    const uint32_t pc = pc_of(in);
    const bool strong = (in.order & ptx::OrderStrong) != 0;
    // A plain load of words no block wrote (the input of a reduction) needs no lane's look-up.
    if (!strong && (b.ordering.saturated || !ordering_->may_be_written(lowest, highest + size - 1)))
        return;
    for (uint32_t m = exec; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if ((addrs[l] & kWindowMask) != 0)
            continue;
        const uint32_t thread = w.index * kWarpSize + static_cast<uint32_t>(l);
        if (strong) {
            ordering::after_flag_read(*ordering_, b.ordering, thread, addrs[l] / 4, in.order);
            continue;
        }
        for (uint64_t word = addrs[l] / 4; word <= (addrs[l] + size - 1) / 4; ++word)
            ordering::plain_read(launch_, *ordering_, b.ordering, b.linear_index, thread, pc, word);
    }
}

// The ordering check across blocks: a strong store writes a flag (after any release); a plain one
// is remembered with what it is ordered before. Lanes in the shared or local window are skipped.
void Interpreter::order_stores(const Warp& w, BlockState& b, const Instr& in, const uint64_t* addrs, uint32_t exec,
                               uint32_t size)
{
    const uint32_t pc = pc_of(in);
    const bool strong = (in.order & ptx::OrderStrong) != 0;
    for (uint32_t m = exec; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if (in.space == ptx::Space::Generic && (addrs[l] & kWindowMask) != 0)
            continue;
        const uint32_t thread = w.index * kWarpSize + static_cast<uint32_t>(l);
        if (strong) {
            ordering::before_flag_write(*ordering_, b.ordering, b.linear_index, thread, addrs[l] / 4, in.order);
            continue;
        }
        for (uint64_t word = addrs[l] / 4; word <= (addrs[l] + size - 1) / 4; ++word)
            ordering::plain_write(*ordering_, b.ordering, b.linear_index, thread, pc, word);
    }
}

// Global reads after another thread's write in the interval; lanes of a generic load that landed in
// a shared or local window are not global accesses.
void Interpreter::check_global_reads(Warp& w, BlockState& b, const Instr& in, const uint64_t* addrs, uint32_t exec,
                                     uint32_t size)
{
    const uint32_t pc = pc_of(in);
    for (uint32_t m = exec; m; m &= m - 1) {
        int l = std::countr_zero(m);
        if ((addrs[l] & kWindowMask) == 0)
            check_global_access(launch_, b, w, l, pc, addrs[l], size, false);
    }
}

void Interpreter::check_shared_lanes(Warp& w, BlockState& b, const Instr& in, const uint64_t* addrs, uint32_t exec,
                                     uint32_t size, int64_t stride, bool atomic)
{
    const uint32_t pc = pc_of(in);
    if (in.space == ptx::Space::Shared && size == 4 && !atomic) {  // the common case, with constants
        if (stride == 4 && read_shared_line(b, w, pc, addrs[0] / 4))
            return;
        for (uint32_t m = exec; m; m &= m - 1) {
            int l = std::countr_zero(m);
            check_shared_access(launch_, b, w, l, pc, addrs[l], 4, RaceAccessKind::Read);
        }
        return;
    }
    const RaceAccessKind kind = atomic ? RaceAccessKind::Atomic : RaceAccessKind::Read;
    for (uint32_t m = exec; m; m &= m - 1) {
        int l = std::countr_zero(m);
        uint64_t offset = addrs[l];
        if (in.space != ptx::Space::Shared) {  // generic: only the lanes in the shared window
            if ((offset & kWindowMask) != kSharedWindow)
                continue;
            offset -= kSharedWindow;
        }
        check_shared_access(launch_, b, w, l, pc, offset, size, kind);
    }
}

template <class Listener>
void Interpreter::store(Warp& w, BlockState& b, const Instr& in, uint32_t exec, Listener& listener)
{
    if (!exec)
        return;
    const Operand& v = in.ops[2];
    int bytes = ptx::type_bytes(in.type);
    uint32_t total = static_cast<uint32_t>(bytes * in.vec_width);
    LaneAddresses a;
    compute_addresses(w, in.ops[0], exec, a, true);  // a store writes no register
    Lanes scratch;
    const uint64_t* values = v.kind == Operand::Kind::Vec ? nullptr : source(w, v, scratch, b.clock);
    ResolvedSpace where = ResolvedSpace::Global;
    int64_t offset = 0;
    bool direct =
        memory_.translate_range(in.space, a.lowest, a.highest, a.bits, total, b, offset, where, in.shared_symbol);
    const uint32_t pc = pc_of(in);
    if (race_check_ && direct && where == ResolvedSpace::Shared && values && (bytes == 4 || bytes == 8)) {
        // The most common shared stores: an int or float, a long long or double.
        if (bytes == 4)
            store_shared_checked<uint32_t>(launch_, b, w, pc, a.addr, offset, a.stride, values, exec);
        else
            store_shared_checked<uint64_t>(launch_, b, w, pc, a.addr, offset, a.stride, values, exec);
        listener.on_memory_access(w, in, {MemoryEvent::Kind::Store, where, a.addr, exec, total, a.stride});
        return;
    }
    if (ordering_ && (in.space == ptx::Space::Global || in.space == ptx::Space::Generic))
        order_stores(w, b, in, a.addr, exec, total);
    if (direct && values && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8) &&
        !(race_check_ && where == ResolvedSpace::Shared)) {
        // One value per lane, all in one allocation: the race check records the warp's writes at once,
        // and each lane's value is a plain move.
        if (race_check_ && where == ResolvedSpace::Global)
            record_global_stores(b, w, pc, a.addr, exec, total, a.lowest, a.highest);
        store_direct(a, offset, values, exec, bytes);
    } else {
        for (uint32_t m = exec; m; m &= m - 1) {
            int l = std::countr_zero(m);
            uint8_t* p = direct ? reinterpret_cast<uint8_t*>(a.addr[l] + static_cast<uint64_t>(offset))
                                : memory_.resolve(in.space, a.addr[l], total, true, site(w, b, l, in), b, where);
            if (race_check_ && where == ResolvedSpace::Global)
                check_global_access(launch_, b, w, l, pc, a.addr[l], total, true);
            if (race_check_ && where == ResolvedSpace::Shared) {
                // Checked before the store, which may leave the word as it was (then it races with nothing).
                const uint64_t width = bytes == 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
                bool unchanged = true;
                if (values) {
                    unchanged = read_value(p, bytes, Type::None) == (values[l] & width);
                } else {
                    for (int i = 0; i < v.count && unchanged; ++i) {
                        uint64_t x = v.vec[i] == Operand::kNoReg ? 0 : w.reg(v.vec[i])[l];
                        unchanged = read_value(p + i * bytes, bytes, Type::None) == (x & width);
                    }
                }
                check_shared_access(launch_, b, w, l, pc, static_cast<uint64_t>(p - b.shared.data()), total,
                                    RaceAccessKind::Write, unchanged);
            }
            if (values) {
                write_value(p, values[l], bytes);
            } else {
                for (int i = 0; i < v.count; ++i)
                    write_value(p + i * bytes, v.vec[i] == Operand::kNoReg ? 0 : w.reg(v.vec[i])[l], bytes);
            }
        }
    }
    listener.on_memory_access(w, in, {MemoryEvent::Kind::Store, where, a.addr, exec, total, a.stride});
    if (init_check_ && where == ResolvedSpace::Global)
        mark_written(a.addr, exec, total, a.lowest, a.highest, a.stride == total || a.stride == -int64_t{total});
}

namespace {

// The value an atomic of `mode` leaves where `old` was.
template <class T>
T atomic_result(uint8_t mode, T old, T operand, T compare)
{
    switch (mode) {
    case ptx::AtomAdd:
        return static_cast<T>(old + operand);
    case ptx::AtomMin:
        return operand < old ? operand : old;
    case ptx::AtomMax:
        return operand > old ? operand : old;
    case ptx::AtomExch:
        return operand;
    case ptx::AtomCas:
        return old == compare ? operand : old;
    default:
        break;
    }
    if constexpr (std::is_integral_v<T>) {
        switch (mode) {
        case ptx::AtomAnd:
            return old & operand;
        case ptx::AtomOr:
            return old | operand;
        case ptx::AtomXor:
            return old ^ operand;
        case ptx::AtomInc:
            return old >= operand ? 0 : static_cast<T>(old + 1);
        default:  // dec
            return (old == 0 || old > operand) ? operand : static_cast<T>(old - 1);
        }
    }
    return old;
}

// Applies an atomic of `mode` at `p`; returns the old value. `alone`: no other thread of the
// process runs this launch (one worker), so a plain read and write is the whole update; otherwise
// a locked instruction where the CPU has one, else a compare-and-swap loop.
template <class T>
[[gnu::always_inline]] inline T atomic_apply(T* p, uint8_t mode, T operand, T compare, bool alone)
{
    if (alone) {
        const T old = *p;
        *p = atomic_result(mode, old, operand, compare);
        return old;
    }
    std::atomic_ref<T> ref(*p);
    if constexpr (std::is_integral_v<T>) {
        switch (mode) {
        case ptx::AtomAdd:
            return ref.fetch_add(operand);
        case ptx::AtomAnd:
            return ref.fetch_and(operand);
        case ptx::AtomOr:
            return ref.fetch_or(operand);
        case ptx::AtomXor:
            return ref.fetch_xor(operand);
        case ptx::AtomExch:
            return ref.exchange(operand);
        default:
            break;
        }
    }
    T old = ref.load();
    while (!ref.compare_exchange_weak(old, atomic_result(mode, old, operand, compare))) {
    }
    return old;
}

template <class T>
[[gnu::always_inline]] inline uint64_t atomic_on_bits(uint8_t* p, uint8_t mode, uint64_t operand, uint64_t compare,
                                                      bool alone)
{
    T x, c;
    std::memcpy(&x, &operand, sizeof(T));
    std::memcpy(&c, &compare, sizeof(T));
    T old = atomic_apply(reinterpret_cast<T*>(p), mode, x, c, alone);
    uint64_t r = 0;
    std::memcpy(&r, &old, sizeof(T));
    return r;
}

// An atomic of `mode` on a word of type T, as Interpreter::atomic applies it to each lane.
template <class T>
auto update_as(uint8_t mode)
{
    return [mode](uint8_t* p, uint64_t operand, uint64_t compare, bool alone) {
        return atomic_on_bits<T>(p, mode, operand, compare, alone);
    };
}

// atom.add, the commonest atomic, on a word of type T: the operation known when compiled.
template <class T>
auto add_as()
{
    return [](uint8_t* p, uint64_t operand, uint64_t, bool alone) {
        return atomic_on_bits<T>(p, ptx::AtomAdd, operand, 0, alone);
    };
}

// atom.add on .f16, .bf16 and their pairs: a compare-and-swap loop on the bits, each half rounded
// to nearest on its own.
template <class Bits>
uint64_t atomic_add_half(uint8_t* p, uint64_t operand, Type t)
{
    std::atomic_ref<Bits> ref(*reinterpret_cast<Bits*>(p));
    Bits old = ref.load();
    while (!ref.compare_exchange_weak(old, static_cast<Bits>(add_half_precision(old, operand, t)))) {
    }
    return old;
}

// atom.add of a whole warp on a line of words of type T at `line`, one word each
// (`atomicAdd(&out[i], x)`) and no other thread of the process running the launch: no two lanes
// share a word, so lane order is moot, and the sums are a loop the compiler vectorises (the line
// is device memory, the values and results the lanes' own: none overlaps another).
template <class T>
void add_line(uint8_t* __restrict line, const uint64_t* __restrict values, uint64_t* __restrict result)
{
    for (int l = 0; l < kWarpSize; ++l) {
        T word, operand;
        std::memcpy(&word, line + l * sizeof(T), sizeof(T));
        std::memcpy(&operand, &values[l], sizeof(T));  // the value's low bytes
        result[l] = std::bit_cast<std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>(word);
        word += operand;
        std::memcpy(line + l * sizeof(T), &word, sizeof(T));
    }
}

}  // namespace

// Many lanes adding to one counter (atom.add or red.add of an integer type, every lane at one
// address): the sum added in one update, each lane given the value it would have seen had the
// lanes added in lane order, one after another (as a GPU's warp-aggregated atomic does). The
// lanes' flag operations for the ordering check come before and after it, as each lane's would.
bool Interpreter::add_to_one_address(Warp& w, BlockState& b, const Instr& in, uint32_t exec, const uint64_t* addrs,
                                     const uint64_t* values, uint64_t* result, ResolvedSpace& where)
{
    const bool integer =
        !ptx::is_float(in.type) && !ptx::is_half_precision(in.type) && !ptx::is_packed_integer(in.type);
    const int bits = 8 * ptx::type_bytes(in.type);
    if (in.mode != ptx::AtomAdd || !integer || (bits != 32 && bits != 64) || std::has_single_bit(exec))
        return false;
    const int first = std::countr_zero(exec);
    for (uint32_t m = exec; m; m &= m - 1)
        if (addrs[std::countr_zero(m)] != addrs[first])
            return false;
    uint8_t* p =
        memory_.resolve(in.space, addrs[first], static_cast<uint32_t>(bits / 8), true, site(w, b, first, in), b, where);
    const bool global = where == ResolvedSpace::Global;
    const bool publishes = ordering_ && global && ordering::may_publish(b.ordering, in.order);
    const bool observes = ordering_ && global && ordering::may_observe(*ordering_, in.order);
    const bool alone = launch_.one_worker || !global;
    const auto thread = [&](int lane) { return w.index * kWarpSize + static_cast<uint32_t>(lane); };
    uint64_t sum = 0;
    for (uint32_t m = exec; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if (publishes)
            ordering::before_flag_write(*ordering_, b.ordering, b.linear_index, thread(l), addrs[l] / 4, in.order);
        sum += values[l];
    }
    const uint64_t keep = alu::width_mask(bits);
    uint64_t seen = bits == 32 ? atomic_on_bits<uint32_t>(p, ptx::AtomAdd, sum & keep, 0, alone)
                               : atomic_on_bits<uint64_t>(p, ptx::AtomAdd, sum, 0, alone);
    for (uint32_t m = exec; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        result[l] = seen & keep;
        seen += values[l];
        if (observes)
            ordering::after_flag_read(*ordering_, b.ordering, thread(l), addrs[l] / 4, in.order);
    }
    return true;
}

template <class Listener>
void Interpreter::atomic(Warp& w, BlockState& b, const Instr& in, uint32_t exec, Listener& listener)
{
    if (!exec)
        return;
    listener.on_atomic(w, in, exec);
    bool is_red = in.op == Op::Red;
    const Operand& a = is_red ? in.ops[0] : in.ops[2];
    const Operand& v_op = is_red ? in.ops[2] : in.ops[3];
    const Operand* c_op = (!is_red && in.mode == ptx::AtomCas) ? &in.ops[4] : nullptr;
    Lanes s1, s2, result;
    const uint64_t* v = source(w, v_op, s1, b.clock);
    const uint64_t* c = c_op ? source(w, *c_op, s2, b.clock) : nullptr;
    int bytes = ptx::type_bytes(in.type);
    ResolvedSpace where = ResolvedSpace::Global;
    LaneAddresses lanes;
    compute_addresses(w, a, exec, lanes, true);  // the old values are written back after the last use
    const uint64_t* addrs = lanes.addr;
    if (!add_to_one_address(w, b, in, exec, addrs, v, result, where)) {
        // Every lane in one allocation (or in shared memory): one check for the warp.
        int64_t offset = 0;
        const bool direct = memory_.translate_range(in.space, lanes.lowest, lanes.highest, lanes.bits,
                                                    static_cast<uint32_t>(bytes), b, offset, where, in.shared_symbol);
        // The ordering check's calls, decided for the warp: most atomics have none to make.
        const bool publishes = ordering_ && ordering::may_publish(b.ordering, in.order);
        const bool observes = ordering_ && ordering::may_observe(*ordering_, in.order);
        // The common case: each lane's word in the one allocation, its update alone (shared and local
        // memory belong to one block, which one worker runs at a time).
        const bool plain = direct && !publishes && !observes;
        const bool alone = launch_.one_worker || where != ResolvedSpace::Global;
        // The lanes one after another, `update` (one per type, so that the compiler inlines it)
        // applying each lane's operation.
        const auto each_lane = [&](auto update) {
            if (plain) {
                const auto apply = [&](int l, bool one_thread) __attribute__((always_inline))
                {
                    uint8_t* p = reinterpret_cast<uint8_t*>(addrs[l] + static_cast<uint64_t>(offset));
                    // CAS: the PTX operands are (compare, new).
                    result[l] = c ? update(p, c[l], v[l], one_thread) : update(p, v[l], 0, one_thread);
                };
                for (uint32_t m = alone ? exec : 0; m; m &= m - 1)  // `alone` a constant in each loop
                    apply(std::countr_zero(m), true);
                for (uint32_t m = alone ? 0 : exec; m; m &= m - 1)
                    apply(std::countr_zero(m), false);
                return;
            }
            for (uint32_t m = exec; m; m &= m - 1) {
                const int l = std::countr_zero(m);
                uint8_t* p = direct ? reinterpret_cast<uint8_t*>(addrs[l] + static_cast<uint64_t>(offset))
                                    : memory_.resolve(in.space, addrs[l], static_cast<uint32_t>(bytes), true,
                                                      site(w, b, l, in), b, where);
                const bool global = where == ResolvedSpace::Global;
                // Shared and local memory belong to one block, which one worker runs at a time.
                const bool alone = launch_.one_worker || !global;
                const uint32_t thread = w.index * kWarpSize + static_cast<uint32_t>(l);
                if (publishes && global)
                    ordering::before_flag_write(*ordering_, b.ordering, b.linear_index, thread, addrs[l] / 4, in.order);
                // CAS: the PTX operands are (compare, new).
                const uint64_t operand = c ? c[l] : v[l];
                const uint64_t compare = c ? v[l] : 0;
                result[l] = update(p, operand, compare, alone);
                if (observes && global)
                    ordering::after_flag_read(*ordering_, b.ordering, thread, addrs[l] / 4, in.order);
            }
        };
        // A whole warp adding to a line of words, one each, its updates alone in the process.
        const bool line_alone = plain && alone && exec == 0xffffffffu && lanes.stride == bytes;
        // A word of type T: atom.add's operation inlined (on a line, all lanes at once), any other
        // chosen by mode.
        const auto each_lane_as = [&]<class T>(T) {
            if (in.mode == ptx::AtomAdd && line_alone)
                add_line<T>(reinterpret_cast<uint8_t*>(addrs[0] + static_cast<uint64_t>(offset)), v, result);
            else if (in.mode == ptx::AtomAdd)
                each_lane(add_as<T>());
            else
                each_lane(update_as<T>(in.mode));
        };
        switch (in.type) {
        case Type::F32:
            each_lane_as(float{});
            break;
        case Type::F64:
            each_lane(update_as<double>(in.mode));
            break;
        case Type::S32:
            each_lane_as(int32_t{});
            break;
        case Type::S64:
            each_lane_as(int64_t{});
            break;
        case Type::U64:
        case Type::B64:
            each_lane_as(uint64_t{});
            break;
        case Type::U32:
        case Type::B32:
            each_lane_as(uint32_t{});
            break;
        case Type::F16:
        case Type::BF16:
        case Type::F16x2:
        case Type::BF16x2:
            each_lane([&](uint8_t* p, uint64_t operand, uint64_t, bool) {
                if (in.mode != ptx::AtomAdd)
                    throw_unsupported(in, *launch_.kernel, "atomic operation on a 16-bit float type");
                return bytes == 2 ? atomic_add_half<uint16_t>(p, operand, in.type)
                                  : atomic_add_half<uint32_t>(p, operand, in.type);
            });
            break;
        default:
            each_lane([&](uint8_t*, uint64_t, uint64_t, bool) -> uint64_t {
                throw_unsupported(in, *launch_.kernel, "atomic type");
            });
        }
    }
    if (sliced_ && addrs[std::countr_zero(exec)] - launch_.grid_workspace < kGridWorkspaceBytes) {
        launch_.grid_arrivals += static_cast<uint64_t>(std::popcount(exec));  // grid.sync(): this block arrives
        ++w.grid_arrivals;
    }
    listener.on_memory_access(
        w, in, {MemoryEvent::Kind::Atomic, where, addrs, exec, static_cast<uint32_t>(bytes), lanes.stride});
    if (race_check_ && where == ResolvedSpace::Shared)
        check_shared_lanes(w, b, in, addrs, exec, static_cast<uint32_t>(bytes), lanes.stride, true);
    if (init_check_ && where == ResolvedSpace::Global)
        mark_written(addrs, exec, static_cast<uint32_t>(bytes), lanes.lowest, lanes.highest,
                     lanes.stride == bytes || lanes.stride == -bytes);
    if (!is_red)
        write_back(w, in.ops[0], result, exec);
}

// The listeners Interpreter::run chooses between.
template void Interpreter::load(Warp&, BlockState&, const Instr&, uint32_t, CounterListener&);
template void Interpreter::load(Warp&, BlockState&, const Instr&, uint32_t, TracedListeners&);
template void Interpreter::store(Warp&, BlockState&, const Instr&, uint32_t, CounterListener&);
template void Interpreter::store(Warp&, BlockState&, const Instr&, uint32_t, TracedListeners&);
template void Interpreter::atomic(Warp&, BlockState&, const Instr&, uint32_t, CounterListener&);
template void Interpreter::atomic(Warp&, BlockState&, const Instr&, uint32_t, TracedListeners&);
template void Interpreter::load(Warp&, BlockState&, const Instr&, uint32_t, ExecutionListener&);
template void Interpreter::store(Warp&, BlockState&, const Instr&, uint32_t, ExecutionListener&);
template void Interpreter::atomic(Warp&, BlockState&, const Instr&, uint32_t, ExecutionListener&);

}  // namespace cudasim
