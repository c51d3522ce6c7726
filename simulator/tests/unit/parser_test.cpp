#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "exec/scheduling/opcode_classes.hpp"
#include "ptx/lexer.hpp"
#include "ptx/syntax.hpp"
#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::ptx;
using cudasim::test::parse_ptx;

TEST_CASE("lexer keeps opcode modifiers, registers and float immediates apart")
{
    auto tokens = tokenize("@%p1 shfl.sync.down.b32 %r26|%p6, 0f3F800000; // comment\n");
    std::vector<std::string> text;
    for (const Token& t : tokens)
        text.emplace_back(t.text);
    CHECK(text == std::vector<std::string>{"@", "%p1", "shfl", ".sync", ".down", ".b32", "%r26", "|", "%p6", ",",
                                           "0f3F800000", ";", ""});
}

TEST_CASE("the opcode table gives names, the parser's mnemonics, issue costs and executors")
{
    CHECK(std::strcmp(op_name(Op::Mov), "mov") == 0);
    CHECK(std::strcmp(op_name(Op::CvtaTo), "cvta.to") == 0);
    CHECK(std::strcmp(op_name(Op::WarpSync), "bar.warp.sync") == 0);
    CHECK(std::strcmp(op_name(Op::Inline), "inline") == 0);
    // Every opcode the parser reads under its own name maps back to it; the derived and internal
    // ones are not instruction names.
    for (int i = 0; i <= static_cast<int>(Op::Inline); ++i) {
        const Op op = static_cast<Op>(i);
        const auto m = mnemonics().find(op_name(op));
        const bool parsed = op != Op::CvtaTo && op != Op::WarpSync && op != Op::Nop && op != Op::Inline;
        CHECK_MESSAGE((m != mnemonics().end()) == parsed, op_name(op));
        if (parsed && m != mnemonics().end())
            CHECK(m->second.op == op);
    }
    CHECK(mnemonics().size() == 75);  // 66 opcodes and 9 aliases
    CHECK(mnemonics().at("ldu").op == Op::Ld);
    CHECK(mnemonics().at("madc").carry_in);
    CHECK_FALSE(mnemonics().at("mad").carry_in);

    Instr in;
    in.op = Op::Rem;
    in.type = Type::U64;
    CHECK(issue_cost(in) == 64);
    in.type = Type::S32;
    CHECK(issue_cost(in) == 18);
    in.op = Op::Div;
    in.type = Type::F32;
    CHECK(issue_cost(in) == 8);
    in.op = Op::Tanh;
    CHECK(issue_cost(in) == 4);
    in.op = Op::Fma;
    CHECK(issue_cost(in) == 1);
    CHECK(executor_of(Op::Red) == Executor::Atomic);
    CHECK(executor_of(Op::Ret) == Executor::Exit);
    CHECK(executor_of(Op::Activemask) == Executor::WarpOperation);
    CHECK(executor_of(Op::Inline) == Executor::NoEffect);
    CHECK(executor_of(Op::CvtaTo) == Executor::Arithmetic);
}

TEST_CASE("parser decodes declarations, operands and addresses")
{
    Module m = parse_ptx(R"(
.global .align 4 .b8 table[8] = {1, 0, 0, 0, 2, 0, 0, 0};
.const .align 4 .f32 scale = 0f40000000;
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 fixed[64];
  ld.param.u64 %rd1, [k_param_0];
  ld.param.u32 %r1, [k_param_1];
  mov.f32 %f1, 0f3F800000;
  mov.u32 %r2, dyn;
  mov.u32 %r3, fixed;
  ld.global.v2.u32 {%r1, %r4}, [%rd1+-8];
  @!%p1 bra $L__BB0_2;
$L__BB0_2:
  ret;
}
)");
    REQUIRE(m.kernels.size() == 1);
    const Kernel& k = m.kernels[0];
    REQUIRE(k.error.empty());
    CHECK(k.params.size() == 2);
    CHECK(k.params[1].offset == 8);
    CHECK(k.param_bytes == 12);
    CHECK(k.static_smem == 64);
    const Variable* table = m.find_variable("table");
    REQUIRE(table != nullptr);
    CHECK(table->size == 8);
    CHECK(table->storage[4] == 2);
    const Variable* scale = m.find_variable("scale");
    REQUIRE(scale != nullptr);
    float s;
    std::memcpy(&s, scale->storage, 4);
    CHECK(s == 2.0f);

    CHECK(k.code[0].op == Op::Ld);
    CHECK(k.code[0].space == Space::Param);
    CHECK(k.code[1].ops[2].imm == 8);           // second parameter's offset
    CHECK(k.code[2].ops[2].imm == 0x3F800000);  // f32 bits
    CHECK(k.code[3].ops[2].imm == 64);          // dynamic smem after static
    CHECK(k.code[4].ops[2].imm == 0);
    const Instr& ld = k.code[5];
    CHECK(ld.vec_width == 2);
    CHECK(ld.ops[0].kind == Operand::Kind::Vec);
    CHECK(ld.ops[0].count == 2);
    CHECK(ld.ops[2].kind == Operand::Kind::Addr);
    CHECK(ld.ops[2].imm == -8);
    const Instr& bra = k.code[6];
    CHECK(bra.op == Op::Bra);
    CHECK(bra.guard_neg);
    CHECK(bra.target == 7);
    CHECK(bra.line == 21);
}

TEST_CASE("an unknown instruction names the opcode, the kernel and the PTX line")
{
    Module m = parse_ptx(R"(
.visible .entry good() { ret; }
.visible .entry bad()
{
  .reg .b32 %r<2>;
  frobnicate.b32 %r1, %r1;
  ret;
}
)");
    REQUIRE(m.kernels.size() == 2);
    CHECK(m.kernels[0].error.empty());
    CHECK(m.kernels[1].error.find("frobnicate") != std::string::npos);
    CHECK(m.kernels[1].error.find("kernel bad") != std::string::npos);
    CHECK(m.kernels[1].error.find("PTX line 9") != std::string::npos);
}

TEST_CASE("tex.1d decodes its texture object and coordinate; other texture geometries are refused by name")
{
    Module m = parse_ptx(R"(
.visible .entry fetch(.param .u64 t)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [t];
  tex.1d.v4.f32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];
  ret;
}
.visible .entry fetch2d(.param .u64 t)
{
  .reg .b32 %r<7>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [t];
  tex.2d.v4.f32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r6}];
  ret;
}
)");
    REQUIRE(m.kernels.size() == 2);
    REQUIRE(m.kernels[0].error.empty());
    const Instr& in = m.kernels[0].code[1];
    CHECK(in.op == Op::Tex);
    CHECK(in.type == Type::F32);
    CHECK(in.src_type == Type::S32);
    CHECK(in.ops[0].kind == Operand::Kind::Vec);
    CHECK(in.ops[0].count == 4);
    CHECK(in.ops[2].kind == Operand::Kind::Reg);
    CHECK(in.ops[3].kind == Operand::Kind::Vec);
    CHECK(in.ops[3].count == 1);
    CHECK(m.kernels[1].error.find("texture fetch .2d is not supported") != std::string::npos);
}

TEST_CASE("an unknown register or label is reported with its line")
{
    Module m = parse_ptx(".visible .entry k() {\n mov.u32 %r9, 1;\n ret;\n}\n");
    CHECK(m.kernels[0].error.find("unknown register '%r9'") != std::string::npos);
}

TEST_CASE("registers declared in a nested block shadow outer ones only inside it")
{
    Module m = parse_ptx(R"(
.visible .entry k()
{
  .reg .b32 %r<4>;
  mov.u32 %r3, 1;
  {
  .reg .b32 %r3;
  mov.u32 %r3, 2;
  }
  mov.u32 %r3, 3;
  ret;
}
)");
    const Kernel& k = m.kernels[0];
    REQUIRE(k.error.empty());
    CHECK(k.code[0].ops[0].reg == k.code[2].ops[0].reg);
    CHECK(k.code[1].ops[0].reg != k.code[0].ops[0].reg);
}

TEST_CASE("a called .func is inlined with its parameters and return value")
{
    Module m = parse_ptx(R"(
.func (.param .b32 func_retval0) twice(.param .b32 twice_param_0);
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 21;
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), twice, (param0);
  ld.param.b32 %r2, [retval0+0];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
.func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [twice_param_0];
  shl.b32 %r2, %r1, 1;
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
)");
    const Kernel& k = m.kernels[0];
    REQUIRE(k.error.empty());
    cudasim::test::DeviceBuffer out(4);
    cudasim::LaunchResult r = cudasim::test::run_kernel(k, {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    CHECK(*out.as<uint32_t>() == 42);
}
