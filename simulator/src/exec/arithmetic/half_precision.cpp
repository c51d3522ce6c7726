// Arithmetic on the 16-bit floats: .f16 (IEEE half) and .bf16 (bfloat16), alone or as the pairs
// .f16x2 and .bf16x2, each half of a pair on its own. A result is computed in double and rounded
// once to 16 bits: the sum or product of two 16-bit floats is exact in double, and so is a sum whose
// addends are too far apart to be exact, as far as its rounding to 16 bits goes. fma rounds to odd in
// double, which keeps the one rounding to 16 bits exact.
#include "exec/arithmetic/half_precision.hpp"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

#include "exec/arithmetic/alu.hpp"
#include "exec/scheduling/lanes.hpp"

namespace cudasim {
namespace {

using ptx::Op;
using ptx::Type;

// What an H100 gives for a NaN that an f16 or bf16 operation computes.
constexpr uint64_t kCanonicalNaN = 0x7fff;

// x * y + z rounded toward zero, with the last bit set where that dropped something: rounding this
// to 16 bits gives what rounding the exact value would.
double fma_rounded_to_odd(double x, double y, double z)
{
    const int saved = std::fegetround();
    std::fesetround(FE_TOWARDZERO);
    std::feclearexcept(FE_INEXACT);
    double r = std::fma(x, y, z);
    const bool inexact = std::fetestexcept(FE_INEXACT) != 0;
    std::fesetround(saved);
    return inexact ? std::bit_cast<double>(std::bit_cast<uint64_t>(r) | 1) : r;
}

bool is_na_n(uint64_t h, Type t)
{
    return std::isnan(alu::narrow_float(h, t));
}

// min/max: the operand chosen, bit for bit. With one NaN operand the other (with .NaN, the
// canonical NaN); -0 is less than +0; .relu makes a negative result +0.
uint64_t min_max(bool is_max, uint8_t mode, Type t, uint64_t a, uint64_t b)
{
    const bool nan_a = is_na_n(a, t), nan_b = is_na_n(b, t);
    if (nan_a || nan_b) {
        if ((mode & ptx::MinMaxNaN) || (nan_a && nan_b))
            return kCanonicalNaN;
        return (mode & ptx::MinMaxRelu) && ((nan_a ? b : a) & 0x8000) ? 0 : nan_a ? b : a;
    }
    const float x = alu::narrow_float(a, t), y = alu::narrow_float(b, t);
    uint64_t r;
    if (x == y)  // equal values, or zeros of either sign: -0 is the smaller
        r = ((a & 0x8000) != 0) == is_max ? b : a;
    else
        r = (x < y) == is_max ? b : a;
    return (mode & ptx::MinMaxRelu) && (r & 0x8000) ? 0 : r;
}

// One 16-bit result of `in` for element type t.
uint64_t apply(const Instr& in, Type t, uint64_t a, uint64_t b, uint64_t c)
{
    switch (in.op) {
    case Op::Neg:  // arithmetic, not a bit operation: a NaN comes out canonical (as on an H100)
        return is_na_n(a, t) ? kCanonicalNaN : a ^ 0x8000;
    case Op::Abs:
        return is_na_n(a, t) ? kCanonicalNaN : a & 0x7fff;
    case Op::Min:
    case Op::Max:
        return min_max(in.op == Op::Max, in.mode, t, a, b);
    default:
        break;
    }
    const double x = alu::narrow_float(a, t), y = alu::narrow_float(b, t);
    double r;
    switch (in.op) {
    case Op::Add:
        r = x + y;
        break;
    case Op::Sub:
        r = x - y;
        break;
    case Op::Mul:
        r = x * y;
        break;
    default:  // fma, mad
        r = fma_rounded_to_odd(x, y, alu::narrow_float(c, t));
        break;
    }
    if (in.sat)  // NaN becomes +0
        r = std::isnan(r) ? 0.0 : std::clamp(r, 0.0, 1.0);
    if (std::isnan(r))
        return kCanonicalNaN;
    return alu::narrow_bits(r, t);
}

}  // namespace

bool is_half_precision_operation(Op op)
{
    switch (op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Mad:
    case Op::Fma:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
        return true;
    default:
        return false;
    }
}

namespace {

// `in` on a 16-bit float of type t, or on each half of a pair.
uint64_t apply_to_halves(const Instr& in, Type t, uint64_t a, uint64_t b, uint64_t c)
{
    const Type element = t == Type::BF16 || t == Type::BF16x2 ? Type::BF16 : Type::F16;
    const uint64_t low = apply(in, element, a & 0xffff, b & 0xffff, c & 0xffff) & 0xffff;
    if (!ptx::is_packed_float(t))
        return low;
    const uint64_t high = apply(in, element, (a >> 16) & 0xffff, (b >> 16) & 0xffff, (c >> 16) & 0xffff);
    return low | (high & 0xffff) << 16;
}

}  // namespace

void execute_half_precision(Warp& w, const Instr& in, uint32_t exec, uint64_t clk)
{
    auto both = [&in](uint64_t a, uint64_t b, uint64_t c) { return apply_to_halves(in, in.type, a, b, c); };
    switch (in.op) {
    case Op::Neg:
    case Op::Abs:
        lanewise<1>(w, in, exec, clk, [&both](uint64_t a) { return both(a, 0, 0); });
        break;
    case Op::Mad:
    case Op::Fma:
        lanewise<3>(w, in, exec, clk, both);
        break;
    default:
        lanewise<2>(w, in, exec, clk, [&both](uint64_t a, uint64_t b) { return both(a, b, 0); });
        break;
    }
}

uint64_t add_half_precision(uint64_t a, uint64_t b, Type t)
{
    Instr add;
    add.op = Op::Add;
    return apply_to_halves(add, t, a, b, 0);
}

}  // namespace cudasim
