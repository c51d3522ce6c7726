// The fast paths of exec/arithmetic/fast_paths.hpp compute what execute_arithmetic computes: every
// form they take, on random registers (their unused high bits too), edge values and shift counts,
// under full, partial and empty lane masks, with the destination apart from the sources and equal
// to one of them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "exec/arithmetic/arithmetic.hpp"
#include "exec/arithmetic/fast_paths.hpp"
#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

using namespace cudasim;
using ptx::Op;
using ptx::Operand;
using ptx::Type;

namespace {

constexpr uint32_t kRegisters = 4;  // the destination, then three sources

// A source operand: a register, or an immediate.
struct Src {
    bool immediate = false;
    int64_t value = 0;
};

ptx::Instr instruction(Op op, Type type, uint8_t mode, std::vector<Src> sources, uint32_t destination = 0,
                       Type src_type = Type::None)
{
    ptx::Instr in;
    in.op = op;
    in.type = type;
    in.src_type = src_type;
    in.mode = mode;
    in.num_ops = static_cast<uint8_t>(2 + sources.size());
    in.ops[0].kind = Operand::Kind::Reg;
    in.ops[0].reg = destination;
    for (size_t i = 0; i < sources.size(); ++i) {
        Operand& o = in.ops[2 + i];
        if (sources[i].immediate) {
            o.kind = Operand::Kind::Imm;
            o.imm = sources[i].value;
        } else {
            o.kind = Operand::Kind::Reg;
            o.reg = static_cast<uint32_t>(1 + i);
        }
    }
    return in;
}

// Register values: random 64-bit words, with edge values and small counts among them.
std::vector<uint64_t> registers(std::mt19937_64& random)
{
    static const uint64_t edges[] = {
        0, 1, 31, 32, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, ~0ull, 1ull << 63, (1ull << 63) - 1};
    std::vector<uint64_t> values(kRegisters * kWarpSize);
    for (uint64_t& v : values) {
        switch (random() % 4) {
        case 0:
            v = edges[random() % std::size(edges)];
            break;
        case 1:
            v = random() % 80;  // a shift count, in range or past it
            break;
        default:
            v = random();
        }
    }
    return values;
}

std::string describe(const ptx::Instr& in)
{
    std::string text = std::string(ptx::op_name(in.op)) + " type " + std::to_string(static_cast<int>(in.type)) +
                       " from " + std::to_string(static_cast<int>(in.src_type)) + " mode " + std::to_string(in.mode) +
                       " dest r" + std::to_string(in.ops[0].reg);
    for (int i = 2; i < in.num_ops; ++i)
        text += in.ops[i].kind == Operand::Kind::Imm ? " imm " + std::to_string(in.ops[i].imm)
                                                     : " r" + std::to_string(in.ops[i].reg);
    return text;
}

// Runs `in` both ways on the same registers under several masks (all lanes, half of them, three,
// one, none), in every build of the fast paths this CPU runs; every register must agree.
// `uniform_register`: a register given one value in every lane (a divisor every lane shares).
void check_same(const ptx::Instr& in, std::mt19937_64& random, int uniform_register = -1)
{
    INFO(describe(in));
    const ptx::Kernel kernel;
    for (const FastPathBuild build : fast_path_builds()) {
        INFO("build " << (build == FastPathBuild::Avx2 ? "AVX2" : "baseline"));
        const FastPath fast = fast_path_of(in, build);
        REQUIRE(static_cast<bool>(fast));
        for (int round = 0; round < 8; ++round) {
            const uint32_t three = (1u << (random() % 32)) | (1u << (random() % 32)) | (1u << (random() % 32));
            const uint32_t masks[] = {0xffffffffu, static_cast<uint32_t>(random()), three, 1u << (random() % 32), 0u};
            for (uint32_t exec : masks) {
                std::vector<uint64_t> general = registers(random);
                if (uniform_register >= 0) {
                    static const uint64_t shared[] = {0, 1, 2, 3, 8, 64, 0x80000000, 0x100000000, 0x8000000000000000};
                    const uint64_t value = round % 2 ? shared[random() % std::size(shared)] : random();
                    std::fill_n(general.begin() + uniform_register * kWarpSize, kWarpSize, value);
                }
                std::vector<uint64_t> quick = general;
                Warp a, b;
                a.regs = general.data();
                b.regs = quick.data();
                execute_arithmetic(a, in, exec, 0, kernel);
                fast(b, in, exec);
                CHECK(general == quick);
            }
        }
    }
}

const Type kWords[] = {Type::B32, Type::U32, Type::S32, Type::B64, Type::U64, Type::S64};
const Type kIntegers[] = {Type::B16, Type::U16, Type::S16, Type::B32, Type::U32,
                          Type::S32, Type::B64, Type::U64, Type::S64};

// Each two-source form with a register and with an immediate second source, and with the
// destination apart and equal to the first source.
void check_binary(Op op, Type type, uint8_t mode, std::mt19937_64& random, const std::vector<int64_t>& immediates)
{
    for (uint32_t destination : {0u, 1u}) {
        check_same(instruction(op, type, mode, {{}, {}}, destination), random);
        for (int64_t value : immediates)
            check_same(instruction(op, type, mode, {{}, {true, value}}, destination), random);
    }
}

}  // namespace

TEST_CASE("fast paths: add, sub, mul.lo, mul.wide, mad of 32- and 64-bit integers")
{
    std::mt19937_64 random(1);
    for (Type t : kWords) {
        check_binary(Op::Add, t, 0, random, {0, 1, -1, 0x7fffffff, int64_t{1} << 40});
        check_binary(Op::Sub, t, 0, random, {1, -7});
    }
    for (Type t : {Type::U32, Type::S32}) {
        for (uint8_t mode : {uint8_t{ptx::MulLo}, uint8_t{ptx::MulWide}}) {
            check_binary(Op::Mul, t, mode, random, {3, -3, 0x12345678, 1, 4, 8, 0x40000000, 0x80000000, -4});
            for (uint32_t destination : {0u, 3u})
                for (bool b_immediate : {false, true})
                    for (bool c_immediate : {false, true})
                        check_same(
                            instruction(Op::Mad, t, mode, {{}, {b_immediate, 5}, {c_immediate, -9}}, destination),
                            random);
        }
    }
}

TEST_CASE("fast paths: unsigned div and rem, by a divisor every lane shares and by any other")
{
    std::mt19937_64 random(4);
    for (Op op : {Op::Div, Op::Rem})
        for (Type t : {Type::U32, Type::U64}) {
            check_binary(op, t, 0, random, {0, 1, 2, 7, 16, 0x80000000, int64_t{1} << 33, -1});
            for (uint32_t destination : {0u, 2u})
                check_same(instruction(op, t, 0, {{}, {}}, destination), random, 2);
        }
}

TEST_CASE("fast paths: and, or, xor, shifts and funnel shifts")
{
    std::mt19937_64 random(2);
    for (Op op : {Op::And, Op::Or, Op::Xor})
        for (Type t : {Type::B16, Type::B32, Type::B64, Type::Pred})
            check_binary(op, t, 0, random, {0, -1, 0x0f0f});
    for (Op op : {Op::Shl, Op::Shr})
        for (Type t : kIntegers)
            check_binary(op, t, 0, random, {0, 1, 5, 15, 16, 31, 32, 63, 64, 70, int64_t{1} << 32 | 3});
    for (uint8_t mode = 0; mode < 4; ++mode)
        for (uint32_t destination : {0u, 2u})
            for (bool c_immediate : {false, true})
                for (int64_t count : {0, 7, 31, 32, 40})
                    check_same(instruction(Op::Shf, Type::B32, mode, {{}, {}, {c_immediate, count}}, destination),
                               random);
}

TEST_CASE("fast paths: mov, integer cvt and setp")
{
    std::mt19937_64 random(3);
    for (Type t : {Type::B16, Type::U32, Type::S64, Type::B64, Type::Pred, Type::None, Type::F32, Type::F16x2}) {
        check_same(instruction(Op::Mov, t, 0, {{}}), random);
        check_same(instruction(Op::Mov, t, 0, {{true, -5}}), random);
    }
    for (Type to : kIntegers)
        for (Type from : kIntegers)
            for (uint32_t destination : {0u, 1u})
                check_same(instruction(Op::Cvt, to, 0, {{}}, destination, from), random);
    for (Type t : kWords)
        for (uint8_t mode = ptx::CmpEq; mode <= ptx::CmpGe; ++mode)
            check_binary(Op::Setp, t, mode, random, {0, 1, -1, 0x80000000});
}

TEST_CASE("fast paths: the forms they leave to execute_arithmetic")
{
    ptx::Instr saturated = instruction(Op::Add, Type::S32, 0, {{}, {}});
    saturated.sat = true;
    ptx::Instr carry = instruction(Op::Add, Type::U32, 0, {{}, {}});
    carry.carry_out = true;
    ptx::Instr combined = instruction(Op::Setp, Type::S32, ptx::CmpLt, {{}, {}, {}});
    combined.bool_mode = ptx::BoolAnd;
    ptx::Instr sink = instruction(Op::Add, Type::U32, 0, {{}, {}});
    sink.ops[0].kind = Operand::Kind::Sink;
    for (const ptx::Instr& in :
         {saturated, carry, combined, sink, instruction(Op::Add, Type::F32, 0, {{}, {}}),
          instruction(Op::Add, Type::S16, 0, {{}, {}}), instruction(Op::Mul, Type::U64, ptx::MulLo, {{}, {}}),
          instruction(Op::Mul, Type::S32, ptx::MulHi, {{}, {}}), instruction(Op::Setp, Type::F32, ptx::CmpLt, {{}, {}}),
          instruction(Op::Setp, Type::S32, ptx::CmpLtu, {{}, {}}),
          instruction(Op::Cvt, Type::F32, 0, {{}}, 0, Type::S32), instruction(Op::Add, Type::S32, 0, {{true, 1}, {}}),
          instruction(Op::Div, Type::S32, 0, {{}, {}}), instruction(Op::Rem, Type::S64, 0, {{}, {}}),
          instruction(Op::Bra, Type::None, 0, {})}) {
        INFO(describe(in));
        for (const FastPathBuild build : fast_path_builds())
            CHECK_FALSE(static_cast<bool>(fast_path_of(in, build)));
    }
}

TEST_CASE("fast paths: the baseline build, and the AVX2 build where the CPU has AVX2")
{
    const std::vector<FastPathBuild>& builds = fast_path_builds();
    REQUIRE_FALSE(builds.empty());
    CHECK(builds.front() == FastPathBuild::Baseline);
#if defined(__x86_64__)
    CHECK((builds.back() == FastPathBuild::Avx2) == static_cast<bool>(__builtin_cpu_supports("avx2")));
#else
    CHECK(builds.size() == 1);
#endif
}
