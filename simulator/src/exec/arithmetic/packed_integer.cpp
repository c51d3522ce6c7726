// Integer instructions that work on parts of a register: add, sub, min and max on the two 16-bit
// halves of .s16x2/.u16x2, the two-way dot product dp2a, and the byte-wise absolute difference
// vabsdiff4 (the SIMD intrinsics __vadd2, __vmins2, __dp2a_lo, __vabsdiffu4, ...).
#include "exec/arithmetic/packed_integer.hpp"

#include <algorithm>
#include <cstdint>

#include "exec/arithmetic/alu.hpp"
#include "exec/arithmetic/arithmetic.hpp"
#include "exec/scheduling/lanes.hpp"

namespace cudasim {
namespace {

using ptx::Op;
using ptx::Type;

// Part `i` of a register cut into parts of `bits` bits, sign- or zero-extended.
int64_t part(uint64_t v, int i, int bits, bool sign)
{
    const uint64_t raw = (v >> (i * bits)) & alu::width_mask(bits);
    return sign ? alu::sign_extend(raw, bits) : static_cast<int64_t>(raw);
}

void halves(Warp& w, const Instr& in, uint32_t exec, uint64_t clk, const ptx::Kernel& kernel)
{
    const bool sign = in.type == Type::S16x2;
    const bool relu = (in.mode & ptx::MinMaxRelu) != 0;
    if (relu && !sign)
        throw_unsupported(in, kernel, ".relu on unsigned halves");
    int64_t (*combine)(int64_t, int64_t) = nullptr;
    switch (in.op) {
    case Op::Add:
        combine = [](int64_t a, int64_t b) { return a + b; };  // wraps in 16 bits below
        break;
    case Op::Sub:
        combine = [](int64_t a, int64_t b) { return a - b; };
        break;
    case Op::Min:
        combine = [](int64_t a, int64_t b) { return std::min(a, b); };
        break;
    case Op::Max:
        combine = [](int64_t a, int64_t b) { return std::max(a, b); };
        break;
    default:
        throw_unsupported(in, kernel, "packed 16-bit type");
    }
    if (in.sat)
        throw_unsupported(in, kernel, ".sat on packed halves");
    lanewise<2>(w, in, exec, clk, [combine, sign, relu](uint64_t a, uint64_t b) {
        uint64_t r = 0;
        for (int i = 0; i < 2; ++i) {
            int64_t v = combine(part(a, i, 16, sign), part(b, i, 16, sign));
            if (relu)
                v = std::max<int64_t>(v, 0);
            r |= (static_cast<uint64_t>(v) & 0xffffu) << (16 * i);
        }
        return r;
    });
}

// dp2a.lo/hi: c plus the products of a's two 16-bit halves with two bytes of b (bytes 0-1 or 2-3).
void dot_product2(Warp& w, const Instr& in, uint32_t exec, uint64_t clk)
{
    const bool sign_a = ptx::is_signed(in.src_type), sign_b = ptx::is_signed(in.type);
    const int first_byte = in.mode == ptx::Dp2aHi ? 2 : 0;
    lanewise<3>(w, in, exec, clk, [sign_a, sign_b, first_byte](uint64_t a, uint64_t b, uint64_t c) {
        int64_t sum = static_cast<int32_t>(c);
        for (int i = 0; i < 2; ++i)
            sum += part(a, i, 16, sign_a) * part(b, first_byte + i, 8, sign_b);
        return static_cast<uint64_t>(sum) & 0xffffffffu;
    });
}

// vabsdiff4: |a - b| for each of the four byte pairs; the bytes form d (the default merge mask,
// .b3210, takes all four from the result), or with .add their sum is added to c.
void absolute_difference4(Warp& w, const Instr& in, uint32_t exec, uint64_t clk, const ptx::Kernel& kernel)
{
    if (in.sat)
        throw_unsupported(in, kernel, ".sat form");
    const bool sign_a = ptx::is_signed(in.src_type), sign_b = ptx::is_signed(in.type);
    const bool add = in.mode == ptx::VideoAdd;
    lanewise<3>(w, in, exec, clk, [sign_a, sign_b, add](uint64_t a, uint64_t b, uint64_t c) {
        uint64_t bytes = 0, sum = 0;
        for (int i = 0; i < 4; ++i) {
            const int64_t x = part(a, i, 8, sign_a), y = part(b, i, 8, sign_b);
            const uint64_t difference = static_cast<uint64_t>(x > y ? x - y : y - x);
            bytes |= (difference & 0xff) << (8 * i);
            sum += difference;
        }
        return add ? (c + sum) & 0xffffffffu : bytes;
    });
}

}  // namespace

void execute_packed_integer(Warp& w, const Instr& in, uint32_t exec, uint64_t clock, const ptx::Kernel& kernel)
{
    if (in.op == Op::Dp2a)
        dot_product2(w, in, exec, clock);
    else if (in.op == Op::Vabsdiff4)
        absolute_difference4(w, in, exec, clock, kernel);
    else
        halves(w, in, exec, clock, kernel);
}

}  // namespace cudasim
