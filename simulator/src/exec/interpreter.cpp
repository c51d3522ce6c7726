// The SIMT interpreter. Each instruction is executed for all 32 lanes in
// an inner loop; results are written back only for the lanes in the
// execution mask (active path and guard predicate).
//
// Divergence uses a reconvergence stack: a divergent branch parks the
// not-taken lanes on the stack and runs the taken lanes until they reach
// the branch's immediate post-dominator, where the paths are merged again.
#include "exec/interpreter.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "exec/alu.hpp"
#include "exec/device_printf.hpp"
#include "support/demangle.hpp"

namespace cudasim {
namespace {

using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Type;
using Lanes = uint64_t[kWarpSize];

constexpr uint64_t kBudgetChunk = 1 << 16;

// Pointer to the 32 lane values of an operand; immediates and clocks are
// expanded into `scratch`.
const uint64_t* source(Warp& w, const Operand& o, uint64_t* scratch, uint64_t clock) {
  switch (o.kind) {
    case Operand::Kind::Reg: return w.reg(o.reg);
    case Operand::Kind::Imm: std::fill(scratch, scratch + kWarpSize, static_cast<uint64_t>(o.imm)); return scratch;
    case Operand::Kind::Clock32: std::fill(scratch, scratch + kWarpSize, clock & 0xffffffffu); return scratch;
    case Operand::Kind::Clock64: std::fill(scratch, scratch + kWarpSize, clock); return scratch;
    case Operand::Kind::GlobalTimer: {
      auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::system_clock::now().time_since_epoch()).count();
      std::fill(scratch, scratch + kWarpSize, static_cast<uint64_t>(ns));
      return scratch;
    }
    default: std::fill(scratch, scratch + kWarpSize, 0); return scratch;
  }
}

void writeBack(Warp& w, const Operand& o, const uint64_t* values, uint32_t mask) {
  if (o.kind != Operand::Kind::Reg) return;  // sink `_`
  uint64_t* d = w.reg(o.reg);
  if (mask == 0xffffffffu) {
    std::copy(values, values + kWarpSize, d);
    return;
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = std::countr_zero(m);
    d[l] = values[l];
  }
}

// Gathers bit 0 of every lane of a predicate register into a lane mask.
uint32_t predicateMask(Warp& w, uint32_t reg) {
  const uint64_t* p = w.reg(reg);
  uint32_t m = 0;
#if defined(__SSE2__)
  // Move bit 0 of two lanes into their sign bits and collect those.
  for (int l = 0; l < kWarpSize; l += 2) {
    __m128i v = _mm_slli_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + l)), 63);
    m |= static_cast<uint32_t>(_mm_movemask_pd(_mm_castsi128_pd(v))) << l;
  }
#else
  for (int l = 0; l < kWarpSize; ++l) m |= static_cast<uint32_t>(p[l] & 1) << l;
#endif
  return m;
}

// Applies f lane-wise to the instruction's sources and writes ops[0].
// With a full mask the results go straight into the destination register
// (each lane reads its sources before writing, so aliasing is harmless);
// an immediate second operand is kept in a register instead of an array.
template <int N, class F>
inline void lanewise(Warp& w, const Instr& in, uint32_t mask, uint64_t clock, F f) {
  Lanes s0, s1, s2, s3, temp;
  const Operand& dest = in.ops[0];
  bool direct = mask == 0xffffffffu && dest.kind == Operand::Kind::Reg;
  uint64_t* d = direct ? w.reg(dest.reg) : temp;
  const uint64_t* a = source(w, in.ops[2], s0, clock);
  if constexpr (N == 2) {
    if (in.ops[3].kind == Operand::Kind::Imm) {
      const uint64_t b = static_cast<uint64_t>(in.ops[3].imm);
      for (int l = 0; l < kWarpSize; ++l) d[l] = f(a[l], b);
      if (!direct) writeBack(w, dest, d, mask);
      return;
    }
  }
  const uint64_t* b = N > 1 ? source(w, in.ops[3], s1, clock) : a;
  const uint64_t* c = N > 2 ? source(w, in.ops[4], s2, clock) : a;
  const uint64_t* e = N > 3 ? source(w, in.ops[5], s3, clock) : a;
  for (int l = 0; l < kWarpSize; ++l) {
    if constexpr (N == 1) d[l] = f(a[l]);
    else if constexpr (N == 2) d[l] = f(a[l], b[l]);
    else if constexpr (N == 3) d[l] = f(a[l], b[l], c[l]);
    else d[l] = f(a[l], b[l], c[l], e[l]);
  }
  if (!direct) writeBack(w, dest, d, mask);
}

[[noreturn]] void unsupported(const Instr& in, const LaunchContext& launch, const char* what) {
  throw DeviceFault(cudaErrorIllegalInstruction,
                    std::string("unsupported ") + what + " for '" + ptx::opName(in.op) +
                        "' in kernel " + demangle(launch.kernel->name) + " at PTX line " + std::to_string(in.line));
}

int bitsOf(Type t) { return ptx::typeBytes(t) * 8; }

// ---- arithmetic families, dispatched on the operation type ----

// Applies a two-operand integer operation on the C++ type T that matches
// the PTX type; the result is stored zero-extended.
template <class T, class F>
void integerLanes(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, F f) {
  using U = std::make_unsigned_t<T>;
  lanewise<2>(w, in, mask, clk, [&](uint64_t a, uint64_t b) {
    return static_cast<uint64_t>(static_cast<U>(f(static_cast<T>(a), static_cast<T>(b))));
  });
}

template <class IntOp, class FloatOp>
void arith2(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, IntOp iop, FloatOp fop) {
  switch (in.type) {
    case Type::F32: {
      bool sat = in.sat;
      lanewise<2>(w, in, mask, clk, [&](uint64_t a, uint64_t b) {
        float r = static_cast<float>(fop(alu::f32(a), alu::f32(b)));
        if (sat) r = std::isnan(r) ? 0.0f : std::clamp(r, 0.0f, 1.0f);
        return alu::bits(r);
      });
      return;
    }
    case Type::F64:
      lanewise<2>(w, in, mask, clk, [&](uint64_t a, uint64_t b) { return alu::bits(static_cast<double>(fop(alu::f64(a), alu::f64(b)))); });
      return;
    case Type::S16: integerLanes<int16_t>(w, in, mask, clk, iop); return;
    case Type::U16: case Type::B16: integerLanes<uint16_t>(w, in, mask, clk, iop); return;
    case Type::S32: integerLanes<int32_t>(w, in, mask, clk, iop); return;
    case Type::U32: case Type::B32: integerLanes<uint32_t>(w, in, mask, clk, iop); return;
    case Type::S64: integerLanes<int64_t>(w, in, mask, clk, iop); return;
    default: integerLanes<uint64_t>(w, in, mask, clk, iop); return;
  }
}

void mulFamily(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, bool addend) {
  if (ptx::isFloat(in.type)) {
    if (in.type == Type::F32)
      lanewise<3>(w, in, mask, clk, [&](uint64_t a, uint64_t b, uint64_t c) {
        float r = addend ? std::fma(alu::f32(a), alu::f32(b), alu::f32(c)) : alu::f32(a) * alu::f32(b);
        if (in.sat) r = std::isnan(r) ? 0.0f : std::clamp(r, 0.0f, 1.0f);
        return alu::bits(r);
      });
    else
      lanewise<3>(w, in, mask, clk, [&](uint64_t a, uint64_t b, uint64_t c) {
        return alu::bits(addend ? std::fma(alu::f64(a), alu::f64(b), alu::f64(c)) : alu::f64(a) * alu::f64(b));
      });
    return;
  }
  Type t = in.type;
  int bits = bitsOf(t);
  bool sign = ptx::isSigned(t);
  uint8_t mode = in.mode;
  if (mode == ptx::MulLo && bits == 32) {  // the common case, kept tight
    lanewise<3>(w, in, mask, clk, [addend](uint64_t a, uint64_t b, uint64_t c) {
      return static_cast<uint64_t>(static_cast<uint32_t>(a * b + (addend ? c : 0)));
    });
    return;
  }
  if (mode == ptx::MulWide && bits == 32) {
    lanewise<3>(w, in, mask, clk, [addend, sign](uint64_t a, uint64_t b, uint64_t c) {
      uint64_t x = sign ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a))) : static_cast<uint32_t>(a);
      uint64_t y = sign ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(b))) : static_cast<uint32_t>(b);
      return x * y + (addend ? c : 0);
    });
    return;
  }
  lanewise<3>(w, in, mask, clk, [&](uint64_t a, uint64_t b, uint64_t c) {
    uint64_t x = alu::normalize(a, t), y = alu::normalize(b, t), r;
    if (mode == ptx::MulWide) {
      r = x * y;  // operands are sign- or zero-extended, so 64-bit product is exact
      if (addend) r += c;
      return bits == 32 ? r : r & alu::widthMask(bits * 2);
    }
    if (mode == ptx::MulHi) {
      if (sign) {
        __int128 p = static_cast<__int128>(static_cast<int64_t>(x)) * static_cast<int64_t>(y);
        r = static_cast<uint64_t>(p >> bits);
      } else {
        unsigned __int128 p = static_cast<unsigned __int128>(x) * y;
        r = static_cast<uint64_t>(p >> bits);
      }
    } else {
      r = x * y;
    }
    if (addend) r += c;
    return r & alu::widthMask(bits);
  });
}

// PTX leaves division by zero undefined; GPUs return all ones for the
// quotient and we keep the dividend as remainder. INT_MIN / -1 wraps.
template <class T>
T intDiv(T a, T b) {
  if (b == 0) return static_cast<T>(~T{0});
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(0) - static_cast<std::make_unsigned_t<T>>(a));
  }
  return static_cast<T>(a / b);
}

template <class T>
T intRem(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
  }
  return static_cast<T>(a % b);
}

template <class F32, class F64>
void floatUnary(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, const LaunchContext& launch, F32 f, F64 g) {
  if (in.type == Type::F32)
    lanewise<1>(w, in, mask, clk, [&](uint64_t a) { return alu::bits(static_cast<float>(f(alu::f32(a)))); });
  else if (in.type == Type::F64)
    lanewise<1>(w, in, mask, clk, [&](uint64_t a) { return alu::bits(static_cast<double>(g(alu::f64(a)))); });
  else
    unsupported(in, launch, "type");
}

void convert(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, const LaunchContext& launch) {
  Type to = in.type, from = in.srcType;
  uint8_t mode = in.mode;
  bool sat = in.sat;
  if (to == Type::F16 || from == Type::F16) unsupported(in, launch, "f16 conversion");
  if (ptx::isFloat(from) && ptx::isFloat(to)) {
    lanewise<1>(w, in, mask, clk, [&](uint64_t a) {
      double v = from == Type::F32 ? alu::f32(a) : alu::f64(a);
      if (mode >= ptx::RoundRni) v = alu::roundIntegral(v, mode);
      if (sat) v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
      return to == Type::F32 ? alu::bits(static_cast<float>(v)) : alu::bits(v);
    });
  } else if (ptx::isFloat(from)) {
    lanewise<1>(w, in, mask, clk, [&](uint64_t a) {
      double v = from == Type::F32 ? alu::f32(a) : alu::f64(a);
      return alu::floatToInt(v, to, mode);
    });
  } else if (ptx::isFloat(to)) {
    lanewise<1>(w, in, mask, clk, [&](uint64_t a) {
      uint64_t x = alu::normalize(a, from);
      if (to == Type::F32) {
        float f = ptx::isSigned(from) ? static_cast<float>(static_cast<int64_t>(x)) : static_cast<float>(x);
        if (sat) f = std::clamp(f, 0.0f, 1.0f);
        return alu::bits(f);
      }
      double d = ptx::isSigned(from) ? static_cast<double>(static_cast<int64_t>(x)) : static_cast<double>(x);
      return alu::bits(d);
    });
  } else {
    lanewise<1>(w, in, mask, clk, [&](uint64_t a) { return alu::intToInt(a, from, to, sat); });
  }
}

uint64_t bitFieldExtract(uint64_t a, uint64_t pos, uint64_t len, Type t) {
  int bits = bitsOf(t);
  pos &= 0xff;
  len &= 0xff;
  uint64_t x = a & alu::widthMask(bits);
  uint64_t r = 0;
  if (len > 0) {
    r = pos >= static_cast<uint64_t>(bits) ? 0 : (x >> pos) & alu::widthMask(static_cast<int>(std::min<uint64_t>(len, 64)));
    if (ptx::isSigned(t)) {
      uint64_t top = std::min<uint64_t>(pos + len - 1, static_cast<uint64_t>(bits - 1));
      bool signBit = (x >> top) & 1;
      uint64_t l = std::min<uint64_t>(len, static_cast<uint64_t>(bits));
      if (signBit) r |= ~alu::widthMask(static_cast<int>(l));
    }
  } else if (ptx::isSigned(t)) {
    r = 0;
  }
  return r & alu::widthMask(bits);
}

uint64_t bitFieldInsert(uint64_t a, uint64_t b, uint64_t pos, uint64_t len, Type t) {
  int bits = bitsOf(t);
  pos &= 0xff;
  len &= 0xff;
  if (len == 0 || pos >= static_cast<uint64_t>(bits)) return b & alu::widthMask(bits);
  uint64_t fieldMask = alu::widthMask(static_cast<int>(std::min<uint64_t>(len, 64))) << pos;
  return ((b & ~fieldMask) | ((a << pos) & fieldMask)) & alu::widthMask(bits);
}

uint64_t permute(uint64_t a, uint64_t b, uint64_t selector) {
  uint64_t bytes = (a & 0xffffffffu) | ((b & 0xffffffffu) << 32);
  uint64_t r = 0;
  for (int i = 0; i < 4; ++i) {
    uint64_t sel = (selector >> (4 * i)) & 0xf;
    uint64_t byte = (bytes >> ((sel & 7) * 8)) & 0xff;
    if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;  // replicate the sign bit
    r |= byte << (8 * i);
  }
  return r;
}

// Compares all lanes with the mode chosen once, outside the lane loop.
template <class T, class Cmp>
void compareLanes(const uint64_t* a, const uint64_t* b, uint64_t* r, Cmp cmp) {
  for (int l = 0; l < kWarpSize; ++l) {
    T x, y;
    if constexpr (std::is_same_v<T, float>) {
      x = alu::f32(a[l]);
      y = alu::f32(b[l]);
    } else if constexpr (std::is_same_v<T, double>) {
      x = alu::f64(a[l]);
      y = alu::f64(b[l]);
    } else {
      x = static_cast<T>(a[l]);
      y = static_cast<T>(b[l]);
    }
    r[l] = cmp(x, y) ? 1 : 0;
  }
}

template <class T>
void compareTyped(const uint64_t* a, const uint64_t* b, uint64_t* r, uint8_t mode) {
  switch (mode) {
    case ptx::CmpEq: compareLanes<T>(a, b, r, [](T x, T y) { return x == y; }); return;
    case ptx::CmpNe: compareLanes<T>(a, b, r, [](T x, T y) { return x != y && x == x && y == y; }); return;
    case ptx::CmpLt: compareLanes<T>(a, b, r, [](T x, T y) { return x < y; }); return;
    case ptx::CmpLe: compareLanes<T>(a, b, r, [](T x, T y) { return x <= y; }); return;
    case ptx::CmpGt: compareLanes<T>(a, b, r, [](T x, T y) { return x > y; }); return;
    case ptx::CmpGe: compareLanes<T>(a, b, r, [](T x, T y) { return x >= y; }); return;
    default: compareLanes<T>(a, b, r, [mode](T x, T y) { return alu::compareFloat(x, y, mode); }); return;
  }
}

void setp(Warp& w, const Instr& in, uint32_t exec, uint64_t clk) {
  Lanes s0, s1, s2, d, q;
  const uint64_t* a = source(w, in.ops[2], s0, clk);
  const uint64_t* b = source(w, in.ops[3], s1, clk);
  switch (in.type) {
    case Type::F32: compareTyped<float>(a, b, d, in.mode); break;
    case Type::F64: compareTyped<double>(a, b, d, in.mode); break;
    case Type::S16: compareTyped<int16_t>(a, b, d, in.mode); break;
    case Type::U16: case Type::B16: compareTyped<uint16_t>(a, b, d, in.mode); break;
    case Type::S32: compareTyped<int32_t>(a, b, d, in.mode); break;
    case Type::U32: case Type::B32: compareTyped<uint32_t>(a, b, d, in.mode); break;
    case Type::S64: compareTyped<int64_t>(a, b, d, in.mode); break;
    default: compareTyped<uint64_t>(a, b, d, in.mode); break;
  }
  const uint64_t* c = in.boolMode != ptx::BoolNone ? source(w, in.ops[4], s2, clk) : nullptr;
  for (int l = 0; l < kWarpSize; ++l) {
    uint64_t r = d[l], nr = r ^ 1;
    if (c) {
      uint64_t cv = c[l] & 1;
      switch (in.boolMode) {
        case ptx::BoolAnd: r &= cv; nr &= cv; break;
        case ptx::BoolOr: r |= cv; nr |= cv; break;
        default: r ^= cv; nr ^= cv; break;
      }
    }
    d[l] = r;
    q[l] = nr;
  }
  writeBack(w, in.ops[0], d, exec);
  if (in.hasPairDest) writeBack(w, in.ops[1], q, exec);
}

// Extended-precision integer arithmetic through the per-lane carry flag.
void carryArithmetic(Warp& w, const Instr& in, uint32_t exec, uint64_t clk) {
  Lanes s0, s1, s2, d, carry;
  const uint64_t* a = source(w, in.ops[2], s0, clk);
  const uint64_t* b = source(w, in.ops[3], s1, clk);
  const uint64_t* c = in.op == Op::Mad ? source(w, in.ops[4], s2, clk) : a;
  const uint64_t* cf = w.reg(ptx::SrCarry);
  int bits = bitsOf(in.type);
  uint64_t wm = alu::widthMask(bits);
  for (int l = 0; l < kWarpSize; ++l) {
    unsigned __int128 carryIn = in.carryIn ? (cf[l] & 1) : 0;
    unsigned __int128 x = a[l] & wm, y = b[l] & wm, r;
    if (in.op == Op::Sub) {
      unsigned __int128 subtrahend = y + carryIn;
      d[l] = static_cast<uint64_t>(x - subtrahend) & wm;
      carry[l] = x < subtrahend ? 1 : 0;
      continue;
    }
    if (in.op == Op::Mad) {
      __int128 product = ptx::isSigned(in.type)
                             ? static_cast<__int128>(alu::signExtend(a[l], bits)) * alu::signExtend(b[l], bits)
                             : static_cast<__int128>(x * y);
      unsigned __int128 part = static_cast<unsigned __int128>(product);
      part = in.mode == ptx::MulHi ? (part >> bits) & wm : part & wm;
      r = part + (c[l] & wm) + carryIn;
    } else {
      r = x + y + carryIn;
    }
    d[l] = static_cast<uint64_t>(r) & wm;
    carry[l] = static_cast<uint64_t>(r >> bits) & 1;
  }
  writeBack(w, in.ops[0], d, exec);
  if (in.carryOut) {
    Operand flag;
    flag.kind = Operand::Kind::Reg;
    flag.reg = ptx::SrCarry;
    writeBack(w, flag, carry, exec);
  }
}

}  // namespace

// ---- control flow ----

void Interpreter::popPath(Warp& w) {
  while (!w.stack.empty()) {
    SimtEntry e = w.stack.back();
    w.stack.pop_back();
    uint32_t lanes = e.mask & ~w.exited;
    if (lanes) {
      w.pc = e.pc;
      w.rpc = e.rpc;
      w.active = lanes;
      return;
    }
  }
  w.active = 0;
  w.status = Warp::Status::Done;
}

// Lanes parked at a reconvergence point that is an unconditional ret/exit
// have nothing left to do; they count as exited, so that the common
// `if (i >= n) return; ... __syncthreads();` does not wait for them.
void Interpreter::retireLanesWaitingAtExit(Warp& w, const Instr* code) {
  uint32_t above = w.active;
  for (size_t i = w.stack.size(); i-- > 0;) {
    const SimtEntry& e = w.stack[i];
    uint32_t waitingHere = e.mask & ~above & ~w.exited;
    const Instr& next = code[e.pc];
    if (waitingHere && (next.op == Op::Ret || next.op == Op::Exit) && next.guard == Operand::kNoReg)
      w.exited |= waitingHere;
    above |= e.mask;
  }
}

void Interpreter::exitLanes(Warp& w, uint32_t lanes) {
  w.exited |= lanes;
  w.active &= ~lanes;
  if (w.active == 0) popPath(w);
}

void Interpreter::branch(Warp& w, const Instr& in, uint32_t taken) {
  if (in.guard == Operand::kNoReg) {
    w.pc = in.target;
    return;
  }
  ++counts_.branches;
  uint32_t notTaken = w.active & ~taken;
  if (notTaken == 0) {
    w.pc = in.target;
  } else if (taken == 0) {
    ++w.pc;
  } else {
    ++counts_.divergentBranches;
    int32_t join = in.reconverge;
    if (join != w.rpc) w.stack.push_back({join, w.rpc, w.active});
    w.stack.push_back({w.pc + 1, join, notTaken});
    w.active = taken;
    w.rpc = join;
    w.pc = in.target;
  }
}

// ---- the main loop ----

void Interpreter::run(Warp& w, BlockState& b) {
  const Instr* code = launch_.kernel->code.data();
  w.status = Warp::Status::Ready;
  for (;;) {
    if (w.pc == w.rpc) {
      popPath(w);
      if (w.status == Warp::Status::Done) return;
      if (w.active & w.arrived) {  // resumed a path parked past a barrier
        w.status = Warp::Status::AtBarrier;
        return;
      }
      continue;
    }
    const Instr& in = code[w.pc];
    uint32_t exec = w.active;
    if (in.guard != Operand::kNoReg) {
      uint32_t p = predicateMask(w, in.guard);
      exec &= in.guardNeg ? ~p : p;
    }
    ++counts_.warpInstructions;
    counts_.threadInstructions += static_cast<uint64_t>(std::popcount(exec));
    uint64_t clk = ++b.clock;
    if (budgetLeft_-- == 0) {
      uint64_t used = launch_.instructionsUsed.fetch_add(kBudgetChunk);
      if (used >= launch_.instructionLimit)
        throw DeviceFault(cudaErrorLaunchTimeout,
                          "kernel " + demangle(launch_.kernel->name) + " exceeded the instruction budget of " +
                              std::to_string(launch_.instructionLimit) +
                              " warp instructions (CUDASIM_INSTRUCTION_LIMIT); block (" +
                              std::to_string(b.ctaid.x) + "," + std::to_string(b.ctaid.y) + "," +
                              std::to_string(b.ctaid.z) + "), warp " + std::to_string(w.index) +
                              ", PTX line " + std::to_string(in.line));
      if (launch_.stop.load(std::memory_order_relaxed))
        throw DeviceFault(cudaSuccess, "stopped");
      budgetLeft_ = kBudgetChunk - 1;
    }
    const Type t = in.type;
    if ((in.carryIn || in.carryOut) && !ptx::isFloat(t)) {
      carryArithmetic(w, in, exec, clk);
      ++w.pc;
      continue;
    }
    switch (in.op) {
      case Op::Mov: {
        const Operand& d = in.ops[0];
        const Operand& s = in.ops[2];
        if (s.kind == Operand::Kind::Vec) {  // pack {a, b} into one register
          int part = bitsOf(t) / s.count;
          Lanes r{};
          for (int i = 0; i < s.count; ++i) {
            const uint64_t* v = w.reg(s.vec[i]);
            for (int l = 0; l < kWarpSize; ++l) r[l] |= (v[l] & alu::widthMask(part)) << (part * i);
          }
          writeBack(w, d, r, exec);
        } else if (d.kind == Operand::Kind::Vec) {  // unpack one register into {a, b}
          int part = bitsOf(t) / d.count;
          Lanes scratch, r;
          const uint64_t* v = source(w, s, scratch, clk);
          for (int i = 0; i < d.count; ++i) {
            if (d.vec[i] == Operand::kNoReg) continue;
            for (int l = 0; l < kWarpSize; ++l) r[l] = (v[l] >> (part * i)) & alu::widthMask(part);
            Operand one;
            one.kind = Operand::Kind::Reg;
            one.reg = d.vec[i];
            writeBack(w, one, r, exec);
          }
        } else {
          uint64_t wm = t == Type::None ? ~0ull : alu::widthMask(t == Type::Pred ? 1 : bitsOf(t));
          lanewise<1>(w, in, exec, clk, [wm](uint64_t a) { return a & wm; });
        }
        break;
      }
      case Op::Ld: load(w, b, in, exec); break;
      case Op::St: store(w, b, in, exec); break;
      case Op::Cvta: {
        uint64_t window = in.space == ptx::Space::Shared ? kSharedWindow
                          : in.space == ptx::Space::Local ? kLocalWindow : 0;
        lanewise<1>(w, in, exec, clk, [window](uint64_t a) { return a + window; });
        break;
      }
      case Op::CvtaTo: {
        bool strip = in.space == ptx::Space::Shared || in.space == ptx::Space::Local;
        uint64_t wm = alu::widthMask(bitsOf(t));
        lanewise<1>(w, in, exec, clk, [strip, wm](uint64_t a) { return (strip ? a & ~kWindowMask : a) & wm; });
        break;
      }
      case Op::Cvt: convert(w, in, exec, clk, launch_); break;
      case Op::Add:
        arith2(w, in, exec, clk, [](auto a, auto b) { return a + b; }, [](auto a, auto b) { return a + b; });
        break;
      case Op::Sub:
        arith2(w, in, exec, clk, [](auto a, auto b) { return a - b; }, [](auto a, auto b) { return a - b; });
        break;
      case Op::Mul: mulFamily(w, in, exec, clk, false); break;
      case Op::Mad: case Op::Fma: mulFamily(w, in, exec, clk, true); break;
      case Op::Div:
        arith2(w, in, exec, clk, [](auto a, auto b) { return intDiv(a, b); }, [](auto a, auto b) { return a / b; });
        break;
      case Op::Rem:
        arith2(w, in, exec, clk, [](auto a, auto b) { return intRem(a, b); }, [](auto a, auto) { return a; });
        break;
      case Op::Min:
        arith2(w, in, exec, clk, [](auto a, auto b) { return a < b ? a : b; }, [](auto a, auto b) { return std::fmin(a, b); });
        break;
      case Op::Max:
        arith2(w, in, exec, clk, [](auto a, auto b) { return a > b ? a : b; }, [](auto a, auto b) { return std::fmax(a, b); });
        break;
      case Op::Abs: case Op::Neg: {
        bool neg = in.op == Op::Neg;
        if (t == Type::F32)
          lanewise<1>(w, in, exec, clk, [neg](uint64_t a) { return alu::bits(neg ? -alu::f32(a) : std::fabs(alu::f32(a))); });
        else if (t == Type::F64)
          lanewise<1>(w, in, exec, clk, [neg](uint64_t a) { return alu::bits(neg ? -alu::f64(a) : std::fabs(alu::f64(a))); });
        else {
          uint64_t wm = alu::widthMask(bitsOf(t));
          lanewise<1>(w, in, exec, clk, [neg, wm, t](uint64_t a) {
            int64_t v = static_cast<int64_t>(alu::normalize(a, t));
            return static_cast<uint64_t>(neg ? -v : (v < 0 ? -v : v)) & wm;
          });
        }
        break;
      }
      case Op::And: lanewise<2>(w, in, exec, clk, [](uint64_t a, uint64_t b) { return a & b; }); break;
      case Op::Or: lanewise<2>(w, in, exec, clk, [](uint64_t a, uint64_t b) { return a | b; }); break;
      case Op::Xor: lanewise<2>(w, in, exec, clk, [](uint64_t a, uint64_t b) { return a ^ b; }); break;
      case Op::Not: {
        uint64_t wm = t == Type::Pred ? 1 : alu::widthMask(bitsOf(t));
        lanewise<1>(w, in, exec, clk, [wm](uint64_t a) { return ~a & wm; });
        break;
      }
      case Op::Cnot: {
        uint64_t wm = alu::widthMask(bitsOf(t));
        lanewise<1>(w, in, exec, clk, [wm](uint64_t a) { return (a & wm) == 0 ? 1ull : 0ull; });
        break;
      }
      case Op::Shl: {
        int bits = bitsOf(t);
        lanewise<2>(w, in, exec, clk, [bits](uint64_t a, uint64_t b) {
          uint64_t s = b & 0xffffffffu;
          return s >= static_cast<uint64_t>(bits) ? 0 : (a << s) & alu::widthMask(bits);
        });
        break;
      }
      case Op::Shr: {
        int bits = bitsOf(t);
        bool sign = ptx::isSigned(t);
        lanewise<2>(w, in, exec, clk, [bits, sign, t](uint64_t a, uint64_t b) {
          uint64_t s = std::min<uint64_t>(b & 0xffffffffu, static_cast<uint64_t>(bits));
          if (sign) {
            int64_t v = static_cast<int64_t>(alu::normalize(a, t));
            return static_cast<uint64_t>(v >> std::min<uint64_t>(s, 63)) & alu::widthMask(bits);
          }
          return s >= static_cast<uint64_t>(bits) ? 0 : (a & alu::widthMask(bits)) >> s;
        });
        break;
      }
      case Op::Selp:
        lanewise<3>(w, in, exec, clk, [](uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? a : b; });
        break;
      case Op::Setp: setp(w, in, exec, clk); break;
      case Op::Slct: {
        Type ct = in.srcType == Type::None ? Type::S32 : in.srcType;
        lanewise<3>(w, in, exec, clk, [ct](uint64_t a, uint64_t b, uint64_t c) {
          bool ge = ct == Type::F32 ? alu::f32(c) >= 0.0f : static_cast<int32_t>(c) >= 0;
          return ge ? a : b;
        });
        break;
      }
      case Op::Popc: {
        uint64_t wm = alu::widthMask(bitsOf(t));
        lanewise<1>(w, in, exec, clk, [wm](uint64_t a) { return alu::popcount(a & wm); });
        break;
      }
      case Op::Clz: {
        int bits = bitsOf(t);
        lanewise<1>(w, in, exec, clk, [bits](uint64_t a) {
          uint64_t v = a & alu::widthMask(bits);
          return static_cast<uint64_t>(std::countl_zero(v) - (64 - bits));
        });
        break;
      }
      case Op::Brev: {
        int bits = bitsOf(t);
        lanewise<1>(w, in, exec, clk, [bits](uint64_t a) {
          uint64_t r = 0;
          for (int i = 0; i < bits; ++i) r |= ((a >> i) & 1) << (bits - 1 - i);
          return r;
        });
        break;
      }
      case Op::Bfind: {
        int bits = bitsOf(t);
        bool shiftAmount = in.mode == ptx::BfindShiftAmount;
        lanewise<1>(w, in, exec, clk, [bits, t, shiftAmount](uint64_t a) {
          uint64_t v = a & alu::widthMask(bits);
          if (ptx::isSigned(t) && ((v >> (bits - 1)) & 1)) v = ~v & alu::widthMask(bits);
          if (v == 0) return uint64_t{0xffffffffu};
          uint64_t index = static_cast<uint64_t>(63 - std::countl_zero(v));
          return shiftAmount ? static_cast<uint64_t>(bits - 1) - index : index;
        });
        break;
      }
      case Op::Shf: {
        // Funnel shift of the 64-bit value b:a.
        bool left = in.mode & ptx::ShfLeft, clamp = in.mode & ptx::ShfClamp;
        lanewise<3>(w, in, exec, clk, [left, clamp](uint64_t a, uint64_t b, uint64_t c) {
          uint64_t n = clamp ? std::min<uint64_t>(c & 0xffffffffu, 32) : (c & 31);
          uint64_t joined = ((b & 0xffffffffu) << 32) | (a & 0xffffffffu);
          return left ? ((joined << n) >> 32) & 0xffffffffu : (joined >> n) & 0xffffffffu;
        });
        break;
      }
      case Op::Bfe:
        lanewise<3>(w, in, exec, clk, [t](uint64_t a, uint64_t b, uint64_t c) { return bitFieldExtract(a, b, c, t); });
        break;
      case Op::Bfi:
        lanewise<4>(w, in, exec, clk, [t](uint64_t a, uint64_t b, uint64_t c, uint64_t d) { return bitFieldInsert(a, b, c, d, t); });
        break;
      case Op::Prmt:
        lanewise<3>(w, in, exec, clk, permute);
        break;
      case Op::Rcp: floatUnary(w, in, exec, clk, launch_, [](float a) { return 1.0f / a; }, [](double a) { return 1.0 / a; }); break;
      case Op::Sqrt: floatUnary(w, in, exec, clk, launch_, [](float a) { return std::sqrt(a); }, [](double a) { return std::sqrt(a); }); break;
      case Op::Rsqrt: floatUnary(w, in, exec, clk, launch_, [](float a) { return 1.0f / std::sqrt(a); }, [](double a) { return 1.0 / std::sqrt(a); }); break;
      case Op::Ex2: floatUnary(w, in, exec, clk, launch_, [](float a) { return std::exp2(a); }, [](double a) { return std::exp2(a); }); break;
      case Op::Lg2: floatUnary(w, in, exec, clk, launch_, [](float a) { return std::log2(a); }, [](double a) { return std::log2(a); }); break;
      case Op::Sin: floatUnary(w, in, exec, clk, launch_, [](float a) { return std::sin(a); }, [](double a) { return std::sin(a); }); break;
      case Op::Cos: floatUnary(w, in, exec, clk, launch_, [](float a) { return std::cos(a); }, [](double a) { return std::cos(a); }); break;
      case Op::Tanh: floatUnary(w, in, exec, clk, launch_, [](float a) { return std::tanh(a); }, [](double a) { return std::tanh(a); }); break;
      case Op::Copysign:
        arith2(w, in, exec, clk, [](auto a, auto) { return a; }, [](auto a, auto b) { return std::copysign(b, a); });
        break;
      case Op::Atom: case Op::Red: atomic(w, b, in, exec); break;
      case Op::Shfl: {
        Lanes s0, s1, s2, d, p;
        const uint64_t* a = source(w, in.ops[2], s0, clk);
        const uint64_t* bv = source(w, in.ops[3], s1, clk);
        const uint64_t* cv = source(w, in.ops[4], s2, clk);
        for (int lane = 0; lane < kWarpSize; ++lane) {
          int32_t bval = static_cast<int32_t>(bv[lane] & 0x1f);
          int32_t cval = static_cast<int32_t>(cv[lane] & 0x1f);
          int32_t segmask = static_cast<int32_t>((cv[lane] >> 8) & 0x1f);
          int32_t maxLane = (lane & segmask) | (cval & ~segmask);
          int32_t minLane = lane & segmask;
          int32_t j = lane;
          bool valid;
          switch (in.mode) {
            case ptx::ShflUp: j = lane - bval; valid = j >= maxLane; break;
            case ptx::ShflDown: j = lane + bval; valid = j <= maxLane; break;
            case ptx::ShflBfly: j = lane ^ bval; valid = j <= maxLane; break;
            default: j = minLane | (bval & ~segmask); valid = j <= maxLane; break;
          }
          if (!valid) j = lane;
          d[lane] = a[j];
          p[lane] = valid ? 1 : 0;
        }
        writeBack(w, in.ops[0], d, exec);
        if (in.hasPairDest) writeBack(w, in.ops[1], p, exec);
        break;
      }
      case Op::Vote: {
        Lanes d;
        uint32_t ballot = in.ops[2].kind == Operand::Kind::Imm
                              ? (in.ops[2].imm ? exec : 0)
                              : exec & predicateMask(w, in.ops[2].reg);
        uint64_t r = 0;
        switch (in.mode) {
          case ptx::VoteBallot: r = ballot; break;
          case ptx::VoteAll: r = ballot == exec; break;
          case ptx::VoteAny: r = ballot != 0; break;
          default: r = ballot == 0 || ballot == exec; break;
        }
        std::fill(d, d + kWarpSize, r);
        writeBack(w, in.ops[0], d, exec);
        break;
      }
      case Op::Activemask: {
        Lanes d;
        std::fill(d, d + kWarpSize, uint64_t{exec});
        writeBack(w, in.ops[0], d, exec);
        break;
      }
      case Op::Redux: {
        Lanes s0, d;
        const uint64_t* a = source(w, in.ops[2], s0, clk);
        bool sign = ptx::isSigned(t);
        uint64_t r = in.mode == ptx::AtomAnd ? 0xffffffffu : 0;
        bool first = true;
        for (uint32_t m = exec; m; m &= m - 1) {
          int l = std::countr_zero(m);
          uint64_t v = alu::normalize(a[l], t);
          switch (in.mode) {
            case ptx::AtomAdd: r += v; break;
            case ptx::AtomAnd: r &= v; break;
            case ptx::AtomOr: r |= v; break;
            case ptx::AtomXor: r ^= v; break;
            case ptx::AtomMin: r = first ? v : sign ? (static_cast<int64_t>(v) < static_cast<int64_t>(r) ? v : r) : std::min(r, v); break;
            case ptx::AtomMax: r = first ? v : sign ? (static_cast<int64_t>(v) > static_cast<int64_t>(r) ? v : r) : std::max(r, v); break;
            default: unsupported(in, launch_, "redux operation");
          }
          first = false;
        }
        std::fill(d, d + kWarpSize, r & 0xffffffffu);
        writeBack(w, in.ops[0], d, exec);
        break;
      }
      case Op::Match: {
        Lanes s0, d;
        const uint64_t* a = source(w, in.ops[2], s0, clk);
        uint64_t wm = alu::widthMask(bitsOf(t));
        for (int l = 0; l < kWarpSize; ++l) {
          uint32_t same = 0;
          for (uint32_t m = exec; m; m &= m - 1) {
            int o = std::countr_zero(m);
            if ((a[o] & wm) == (a[l] & wm)) same |= 1u << o;
          }
          d[l] = same;
        }
        writeBack(w, in.ops[0], d, exec);
        break;
      }
      case Op::Bra:
        branch(w, in, exec);
        continue;
      case Op::Bar:
        ++counts_.barriers;
        w.arrived |= exec;
        w.barrierMode = in.mode;
        if (in.mode != ptx::BarSync) {
          // bar.red d, barrier, [count,] p: the predicate is the last operand.
          const Operand& p = in.ops[in.numOps - 1];
          w.votes |= exec & (p.kind == Operand::Kind::Imm ? (p.imm ? ~0u : 0u) : predicateMask(w, p.reg));
          w.barrierDest = in.ops[0].reg;
        }
        retireLanesWaitingAtExit(w, code);
        w.barrierLine = static_cast<int32_t>(in.line);
        ++w.pc;
        if (!w.allLiveArrived() && !w.stack.empty() && w.stack.back().rpc == w.rpc) {
          // Other lanes of this warp are on a sibling path: let them run to
          // their barrier (or exit) first; this path resumes after the barrier.
          SimtEntry sibling = w.stack.back();
          w.stack.back() = {w.pc, w.rpc, w.active};
          w.stack.push_back(sibling);
          popPath(w);
          continue;
        }
        w.status = Warp::Status::AtBarrier;
        return;
      case Op::Ret: case Op::Exit:
        ++w.pc;
        exitLanes(w, exec);
        if (w.status == Warp::Status::Done) return;
        if (w.active & w.arrived) {  // resumed a path parked past a barrier
          w.status = Warp::Status::AtBarrier;
          return;
        }
        continue;
      case Op::Trap:
        if (exec) {
          AccessSite s = site(w, b, std::countr_zero(exec), in);
          throw DeviceFault(cudaErrorLaunchFailure, "trap executed in " + describeThread(s));
        }
        break;
      case Op::Call: call(w, b, in, exec); break;

      case Op::Membar: case Op::Nop: case Op::Inline: break;
    }
    ++w.pc;
  }
}

// ---- memory ----

void Interpreter::countMemory(const Instr& in, ResolvedSpace where, bool write, const uint64_t* addrs,
                              uint32_t lanes, uint32_t bytes) {
  (void)in;
  int n = std::popcount(lanes);
  if (where == ResolvedSpace::Global) {
    // Distinct 32-byte sectors touched by the warp's request.
    // Accesses are aligned to their size (at most 16 bytes), so each lies
    // in a single sector. Coalesced warps visit sectors in ascending order,
    // which is counted in one pass; other patterns are sorted.
    uint64_t sectors[kWarpSize];
    int count = 0;
    uint64_t distinct = 0;
    bool ascending = true;
    for (uint32_t m = lanes; m; m &= m - 1) {
      uint64_t sector = addrs[std::countr_zero(m)] >> 5;
      if (count > 0 && sector != sectors[count - 1]) {
        ascending &= sector > sectors[count - 1];
        ++distinct;
      }
      sectors[count++] = sector;
    }
    distinct += count > 0 ? 1 : 0;
    if (!ascending) {
      std::sort(sectors, sectors + count);
      distinct = static_cast<uint64_t>(std::unique(sectors, sectors + count) - sectors);
    }
    if (write) { ++counts_.globalStoreRequests; counts_.globalStoreSectors += distinct; }
    else { ++counts_.globalLoadRequests; counts_.globalLoadSectors += distinct; }
  } else if (where == ResolvedSpace::Shared) {
    if (write) ++counts_.sharedStoreRequests;
    else ++counts_.sharedLoadRequests;
    // Each bank serves one 4-byte word per wavefront; distinct words in the
    // same bank serialise. A request of B bytes needs at least B/128 wavefronts.
    uint64_t words[kWarpSize * 4];
    int count = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
      int l = std::countr_zero(m);
      for (uint32_t o = 0; o < bytes; o += 4) words[count++] = (addrs[l] + o) >> 2;
    }
    if (!std::is_sorted(words, words + count)) std::sort(words, words + count);
    count = static_cast<int>(std::unique(words, words + count) - words);
    int perBank[32] = {};
    int worst = 0;
    for (int i = 0; i < count; ++i) worst = std::max(worst, ++perBank[words[i] & 31]);
    int ideal = static_cast<int>((static_cast<uint64_t>(n) * bytes + 127) / 128);
    if (worst > ideal) counts_.sharedBankConflicts += static_cast<uint64_t>(worst - ideal);
  }
}

namespace {
uint64_t readValue(const uint8_t* p, int bytes, Type t) {
  uint64_t v = 0;
  switch (bytes) {  // fixed sizes let the compiler emit plain moves
    case 1: v = *p; break;
    case 2: { uint16_t x; std::memcpy(&x, p, 2); v = x; break; }
    case 4: { uint32_t x; std::memcpy(&x, p, 4); v = x; break; }
    default: std::memcpy(&v, p, 8); break;
  }
  // Signed loads sign-extend into wider registers (ld.s32 into a .b64);
  // readers of narrower registers only look at the low bits.
  if (ptx::isSigned(t)) v = static_cast<uint64_t>(alu::signExtend(v, bytes * 8));
  return v;
}

void writeValue(uint8_t* p, uint64_t v, int bytes) {
  switch (bytes) {
    case 1: *p = static_cast<uint8_t>(v); break;
    case 2: { uint16_t x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); break; }
    default: std::memcpy(p, &v, 8); break;
  }
}
}  // namespace

namespace {

// Per-lane addresses of a memory operand, with the range summary the
// whole-warp bounds check needs.
struct LaneAddresses {
  Lanes addr;
  uint64_t lowest = ~0ull, highest = 0, bits = 0;
};

void computeAddresses(Warp& w, const Operand& a, uint32_t exec, LaneAddresses& out) {
  const uint64_t* base = a.reg == Operand::kNoReg ? nullptr : w.reg(a.reg);
  uint64_t offset = static_cast<uint64_t>(a.imm);
  for (int l = 0; l < kWarpSize; ++l) out.addr[l] = (base ? base[l] : 0) + offset;
  if (exec == 0xffffffffu) {  // branch-free form the compiler can vectorise
    for (int l = 0; l < kWarpSize; ++l) {
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

}  // namespace

void Interpreter::load(Warp& w, BlockState& b, const Instr& in, uint32_t exec) {
  if (!exec) return;
  int bytes = ptx::typeBytes(in.type);
  uint32_t total = static_cast<uint32_t>(bytes * in.vecWidth);
  LaneAddresses a;
  computeAddresses(w, in.ops[2], exec, a);
  const Operand& d = in.ops[0];
  ResolvedSpace where = ResolvedSpace::Global;
  int64_t offset = 0;
  bool direct = memory_.translateRange(in.space, a.lowest, a.highest, a.bits, total, b, offset, where);
  if (direct && d.kind == Operand::Kind::Reg && bytes == 4 && !ptx::isSigned(in.type)) {
    // The most common load, without per-lane size dispatch.
    uint64_t* out = w.reg(d.reg);
    for (uint32_t m = exec; m; m &= m - 1) {
      int l = std::countr_zero(m);
      uint32_t x;
      std::memcpy(&x, reinterpret_cast<const void*>(a.addr[l] + static_cast<uint64_t>(offset)), 4);
      out[l] = x;
    }
    countMemory(in, where, false, a.addr, exec, total);
    return;
  }
  for (uint32_t m = exec; m; m &= m - 1) {
    int l = std::countr_zero(m);
    const uint8_t* p = direct ? reinterpret_cast<const uint8_t*>(a.addr[l] + static_cast<uint64_t>(offset))
                              : memory_.resolve(in.space, a.addr[l], total, false, site(w, b, l, in), b, where);
    if (d.kind == Operand::Kind::Vec) {
      for (int i = 0; i < d.count; ++i)
        if (d.vec[i] != Operand::kNoReg) w.reg(d.vec[i])[l] = readValue(p + i * bytes, bytes, in.type);
    } else if (d.kind == Operand::Kind::Reg) {
      w.reg(d.reg)[l] = readValue(p, bytes, in.type);
    }
  }
  countMemory(in, where, false, a.addr, exec, total);
}

void Interpreter::store(Warp& w, BlockState& b, const Instr& in, uint32_t exec) {
  if (!exec) return;
  const Operand& v = in.ops[2];
  int bytes = ptx::typeBytes(in.type);
  uint32_t total = static_cast<uint32_t>(bytes * in.vecWidth);
  LaneAddresses a;
  computeAddresses(w, in.ops[0], exec, a);
  Lanes scratch;
  const uint64_t* values = v.kind == Operand::Kind::Vec ? nullptr : source(w, v, scratch, b.clock);
  ResolvedSpace where = ResolvedSpace::Global;
  int64_t offset = 0;
  bool direct = memory_.translateRange(in.space, a.lowest, a.highest, a.bits, total, b, offset, where);
  for (uint32_t m = exec; m; m &= m - 1) {
    int l = std::countr_zero(m);
    uint8_t* p = direct ? reinterpret_cast<uint8_t*>(a.addr[l] + static_cast<uint64_t>(offset))
                        : memory_.resolve(in.space, a.addr[l], total, true, site(w, b, l, in), b, where);
    if (values) {
      writeValue(p, values[l], bytes);
    } else {
      for (int i = 0; i < v.count; ++i)
        writeValue(p + i * bytes, v.vec[i] == Operand::kNoReg ? 0 : w.reg(v.vec[i])[l], bytes);
    }
  }
  countMemory(in, where, true, a.addr, exec, total);
}

namespace {

template <class T>
T atomicApply(T* p, uint8_t mode, T operand, T compare) {
  std::atomic_ref<T> ref(*p);
  T old = ref.load();
  for (;;) {
    T next;
    switch (mode) {
      case ptx::AtomAdd: next = static_cast<T>(old + operand); break;
      case ptx::AtomMin: next = operand < old ? operand : old; break;
      case ptx::AtomMax: next = operand > old ? operand : old; break;
      case ptx::AtomExch: next = operand; break;
      case ptx::AtomCas: next = old == compare ? operand : old; break;
      default:
        if constexpr (std::is_integral_v<T>) {
          switch (mode) {
            case ptx::AtomAnd: next = old & operand; break;
            case ptx::AtomOr: next = old | operand; break;
            case ptx::AtomXor: next = old ^ operand; break;
            case ptx::AtomInc: next = old >= operand ? 0 : static_cast<T>(old + 1); break;
            default: next = (old == 0 || old > operand) ? operand : static_cast<T>(old - 1); break;  // dec
          }
        } else {
          next = old;
        }
    }
    if (ref.compare_exchange_weak(old, next)) return old;
  }
}

template <class T>
uint64_t atomicOnBits(uint8_t* p, uint8_t mode, uint64_t operand, uint64_t compare) {
  T x, c;
  std::memcpy(&x, &operand, sizeof(T));
  std::memcpy(&c, &compare, sizeof(T));
  T old = atomicApply(reinterpret_cast<T*>(p), mode, x, c);
  uint64_t r = 0;
  std::memcpy(&r, &old, sizeof(T));
  return r;
}

}  // namespace

void Interpreter::atomic(Warp& w, BlockState& b, const Instr& in, uint32_t exec) {
  if (!exec) return;
  ++counts_.atomics;
  bool isRed = in.op == Op::Red;
  const Operand& a = isRed ? in.ops[0] : in.ops[2];
  const Operand& vOp = isRed ? in.ops[2] : in.ops[3];
  const Operand* cOp = (!isRed && in.mode == ptx::AtomCas) ? &in.ops[4] : nullptr;
  Lanes s1, s2, result, addrs;
  const uint64_t* v = source(w, vOp, s1, b.clock);
  const uint64_t* c = cOp ? source(w, *cOp, s2, b.clock) : nullptr;
  const uint64_t* bp = a.reg == Operand::kNoReg ? nullptr : w.reg(a.reg);
  int bytes = ptx::typeBytes(in.type);
  ResolvedSpace where = ResolvedSpace::Global;
  for (uint32_t m = exec; m; m &= m - 1) {
    int l = std::countr_zero(m);
    addrs[l] = (bp ? bp[l] : 0) + static_cast<uint64_t>(a.imm);
    uint8_t* p = memory_.resolve(in.space, addrs[l], static_cast<uint32_t>(bytes), true, site(w, b, l, in), b, where);
    uint64_t operand = v[l];
    // CAS: the PTX operands are (compare, new).
    uint64_t compare = c ? v[l] : 0;
    if (c) operand = c[l];
    uint64_t old;
    switch (in.type) {
      case Type::F32: old = atomicOnBits<float>(p, in.mode, operand, compare); break;
      case Type::F64: old = atomicOnBits<double>(p, in.mode, operand, compare); break;
      case Type::S32: old = atomicOnBits<int32_t>(p, in.mode, operand, compare); break;
      case Type::S64: old = atomicOnBits<int64_t>(p, in.mode, operand, compare); break;
      case Type::U64: case Type::B64: old = atomicOnBits<uint64_t>(p, in.mode, operand, compare); break;
      case Type::U32: case Type::B32: old = atomicOnBits<uint32_t>(p, in.mode, operand, compare); break;
      default: unsupported(in, launch_, "atomic type");
    }
    result[l] = old;
  }
  if (!isRed) writeBack(w, in.ops[0], result, exec);
}

void Interpreter::call(Warp& w, BlockState& b, const Instr& in, uint32_t exec) {
  Lanes ret{};
  for (uint32_t m = exec; m; m &= m - 1) {
    int l = std::countr_zero(m);
    AccessSite s = site(w, b, l, in);
    auto reader = [&](uint64_t addr, uint32_t size) -> const uint8_t* {
      ResolvedSpace where;
      return memory_.resolve(ptx::Space::Generic, addr, size, false, s, b, where);
    };
    uint64_t p0 = w.reg(in.ops[2].reg)[l];
    uint64_t p1 = in.numOps > 3 ? w.reg(in.ops[3].reg)[l] : 0;
    if (in.mode == ptx::CallVprintf) {
      ret[l] = static_cast<uint64_t>(formatDevicePrintf(p0, p1, reader, b.printfOutput));
    } else {
      uint64_t line = in.numOps > 4 ? w.reg(in.ops[4].reg)[l] : 0;
      uint64_t func = in.numOps > 5 ? w.reg(in.ops[5].reg)[l] : 0;
      throw DeviceFault(cudaErrorAssert, describeAssertion(p0, p1, line, func, reader) + " in " + describeThread(s));
    }
  }
  if (in.ops[0].kind == Operand::Kind::Reg) writeBack(w, in.ops[0], ret, exec);
}

}  // namespace cudasim
