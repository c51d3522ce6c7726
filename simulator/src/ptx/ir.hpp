// The decoded form of a PTX kernel: a flat array of instructions whose
// operands are already resolved to register indices, immediates and
// addresses, so the interpreter never looks at text again.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cudasim::ptx {

// S16x2 and U16x2: two 16-bit integers in one 32-bit register (add, sub, min and max on each half);
// BF16 the top half of a float; F16x2 and BF16x2 two 16-bit floats in one register.
enum class Type : uint8_t {
    None,
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F32,
    F64,
    Pred,
    S16x2,
    U16x2,
    BF16,
    F16x2,
    BF16x2
};

// Width in bytes of each Type, in enum order (the interpreter calls these
// per lane, so they are inline table look-ups).
inline constexpr uint8_t kTypeBytes[] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 1, 4, 4, 2, 4, 4};
constexpr int type_bytes(Type t)
{
    return kTypeBytes[static_cast<int>(t)];
}
constexpr bool is_signed(Type t)
{
    return t >= Type::S8 && t <= Type::S64;
}
constexpr bool is_float(Type t)  // a scalar floating-point type
{
    return (t >= Type::F16 && t <= Type::F64) || t == Type::BF16;
}
constexpr bool is_packed_float(Type t)
{
    return t == Type::F16x2 || t == Type::BF16x2;
}
// The 16-bit floats, alone or in pairs: their arithmetic is exec/arithmetic/half_precision.cpp's.
constexpr bool is_half_precision(Type t)
{
    return t == Type::F16 || t == Type::BF16 || is_packed_float(t);
}
constexpr bool is_packed_integer(Type t)
{
    return t == Type::S16x2 || t == Type::U16x2;
}

enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };

// One enumerator per row of ptx/opcodes.def, in its order.
enum class Op : uint8_t {
#define CUDASIM_OPCODE(name, mnemonic, spelling, cost, executor) name,
#include "ptx/opcodes.def"
};

// The opcode's mnemonic in ptx/opcodes.def ("cvta.to", "bar.warp.sync", ...).
const char* op_name(Op op);

// Sub-operation carried in Instr::mode; its meaning depends on the opcode.
enum MulMode : uint8_t { MulLo, MulHi, MulWide };
enum CmpMode : uint8_t {
    CmpEq,
    CmpNe,
    CmpLt,
    CmpLe,
    CmpGt,
    CmpGe,
    CmpEqu,
    CmpNeu,
    CmpLtu,
    CmpLeu,
    CmpGtu,
    CmpGeu,
    CmpNum,
    CmpNan
};
enum RoundMode : uint8_t { RoundNone, RoundRn, RoundRz, RoundRm, RoundRp, RoundRni, RoundRzi, RoundRmi, RoundRpi };
enum ShflMode : uint8_t { ShflUp, ShflDown, ShflBfly, ShflIdx };
enum VoteMode : uint8_t { VoteAll, VoteAny, VoteUni, VoteBallot };
enum MatchMode : uint8_t { MatchAny, MatchAll };
enum AtomMode : uint8_t { AtomAdd, AtomMin, AtomMax, AtomInc, AtomDec, AtomAnd, AtomOr, AtomXor, AtomExch, AtomCas };

// Memory-model semantics of a fence, an atomic or a load or store (Instr::order, a bit set). A
// fence (membar, fence.sc, fence.acq_rel) is OrderAcquire | OrderRelease; ld/st/atom/red are
// OrderStrong when .relaxed, .volatile, .acquire, .release or .acq_rel (an atomic always is).
// OrderBlockScope: .cta or .cluster scope, which orders nothing between the blocks of a grid;
// without it the scope is .gpu or .sys (an atomic's default). OrderProxy: a proxy fence, which
// orders no generic accesses.
enum MemoryOrder : uint8_t {
    OrderAcquire = 1,
    OrderRelease = 2,
    OrderStrong = 4,
    OrderBlockScope = 8,
    OrderProxy = 16,
};
enum BoolMode : uint8_t { BoolNone, BoolAnd, BoolOr, BoolXor };
enum CallTarget : uint8_t { CallVprintf, CallAssertFail, CallMalloc, CallFree };
enum ShfMode : uint8_t { ShfRight = 0, ShfLeft = 1, ShfClamp = 2 };  // bit flags
enum BfindMode : uint8_t { BfindIndex, BfindShiftAmount };
enum BarMode : uint8_t { BarSync, BarRedPopc, BarRedAnd, BarRedOr };  // __syncthreads_count/_and/_or
enum Dp2aMode : uint8_t { Dp2aLo, Dp2aHi };                           // which two bytes of b meet the two halves of a
enum VideoMode : uint8_t { VideoMerge, VideoAdd };                    // vabsdiff4: bytes into d, or their sum plus c
enum MinMaxMode : uint8_t { MinMaxPlain = 0, MinMaxNaN = 1, MinMaxRelu = 2 };  // bit flags

// Register slots 0..kNumSpecialRegs-1 hold the special registers; the
// block runner fills them when a warp starts.
enum SpecialReg : uint32_t {
    SrTidX,
    SrTidY,
    SrTidZ,
    SrNtidX,
    SrNtidY,
    SrNtidZ,
    SrCtaidX,
    SrCtaidY,
    SrCtaidZ,
    SrNctaidX,
    SrNctaidY,
    SrNctaidZ,
    SrLaneid,
    SrWarpid,
    SrNwarpid,
    SrSmid,
    SrNsmid,
    SrGridid,
    SrLanemaskEq,
    SrLanemaskLt,
    SrLanemaskLe,
    SrLanemaskGt,
    SrLanemaskGe,
    SrDynamicSmemSize,
    SrTotalSmemSize,
    SrEnvreg,  // %envreg0 and %envreg3..31, which the driver sets for a launch: 0 here
    // %envreg1 and %envreg2: the high and low halves of a cooperative launch's grid workspace, where
    // this_grid().sync() counts the blocks that arrived (0 for an ordinary launch: grid.sync() traps)
    SrEnvreg1,
    SrEnvreg2,
    SrCarry,  // CC.CF of add.cc/addc/sub.cc/subc/mad.cc/madc, one bit per lane
    kNumSpecialRegs
};

// A __shared__ variable named by an operand or an access (ptx/shared_provenance.hpp): its index in
// Kernel::shared_variables, the dynamic (extern) array, or none known.
inline constexpr uint8_t kDynamicSharedSymbol = 0xfe;
inline constexpr uint8_t kNoSharedSymbol = 0xff;

struct Operand {
    enum class Kind : uint8_t { None, Reg, Imm, Vec, Addr, Clock32, Clock64, GlobalTimer, Sink };
    static constexpr uint32_t kNoReg = 0xffffffffu;
    Kind kind = Kind::None;
    uint8_t count = 0;                        // Vec: number of registers
    bool adds_dynamic_smem_base = false;      // patched after decoding (extern .shared)
    uint8_t shared_symbol = kNoSharedSymbol;  // Imm or Addr: the shared variable whose address it is
    uint32_t reg = kNoReg;                    // Reg, or base register of Addr
    int64_t imm = 0;                          // Imm bits, or byte offset of Addr
    uint32_t vec[4] = {0, 0, 0, 0};
};

struct Instr {
    Op op = Op::Nop;
    Type type = Type::None;      // operation type (destination type for cvt)
    Type src_type = Type::None;  // cvt source, mul.wide/mad.wide operand type
    Space space = Space::Generic;
    uint8_t mode = 0;
    uint8_t bool_mode = BoolNone;
    uint8_t vec_width = 1;
    uint8_t order = 0;                        // MemoryOrder bits
    uint8_t shared_symbol = kNoSharedSymbol;  // ld/st/atom/red: the shared variable its address comes from
    bool sat = false;
    bool ftz = false;  // .ftz: an f32 subnormal input or result is a zero of the same sign
    bool guard_neg = false;
    bool carry_in = false;       // addc, subc, madc
    bool carry_out = false;      // .cc
    bool has_pair_dest = false;  // `d|p` destination (setp, shfl)
    uint8_t num_ops = 0;
    uint32_t guard = Operand::kNoReg;  // predicate register, or kNoReg
    int32_t target = -1;               // bra: target instruction index
    int32_t reconverge = -1;           // bra: immediate post-dominator
    uint32_t line = 0;                 // PTX line for diagnostics
    uint32_t source_line = 0;          // the .loc line before it (nvcc -lineinfo or -G), 0 if none
    uint32_t source_file = 0;          // ... and its .file number (Kernel::source_files)
    // ops[0] is the first operand (destination, or address for st/red),
    // ops[1] its `|p` partner if any, ops[2..] the remaining operands.
    Operand ops[6];
};

struct Param {
    std::string name;
    uint32_t offset = 0;
    uint32_t size = 0;
};

// A static __shared__ variable of a kernel: its bytes [offset, offset + size) of the block's shared
// memory. The dynamic (extern) array starts at static_smem rounded up to 16 bytes.
struct SharedVariable {
    std::string name;
    uint32_t offset = 0;
    uint32_t size = 0;
};

// A recursive device function, which cannot be inlined: its body once, after the kernel's, called
// by CallSub and left through the SubReturn at its end. Its registers and local memory are one
// range each, saved on a call and restored on the return (every activation has its own).
struct Subroutine {
    std::string name;
    int32_t entry = 0;  // the first instruction of the body
    int32_t exit = 0;   // its SubReturn
    uint32_t first_register = 0, end_register = 0;
    uint32_t first_local = 0, end_local = 0;  // bytes of each thread's local memory
};

// One CallSub (its Instr::target): the subroutine, the caller's registers copied into its
// parameters' before the call, and its return value's copied back into the caller's after it.
struct SubroutineCall {
    uint32_t subroutine = 0;
    std::vector<std::pair<uint32_t, uint32_t>> arguments;  // caller's register -> the subroutine's
    std::vector<std::pair<uint32_t, uint32_t>> results;    // the subroutine's register -> caller's
};

struct Kernel {
    std::string name;
    std::vector<Param> params;
    uint32_t param_bytes = 0;
    std::vector<Instr> code;
    uint32_t num_regs = kNumSpecialRegs;
    uint32_t static_smem = 0;
    std::vector<SharedVariable> shared_variables;  // by offset
    uint32_t local_bytes = 0;
    uint32_t max_threads = 0;               // .maxntid / .reqntid product, 0 if absent
    std::vector<std::string> source_files;  // the module's .file names (without folders), by number
    std::vector<Subroutine> subroutines;
    std::vector<SubroutineCall> subroutine_calls;
    std::string error;  // decode failure; the kernel cannot launch
};

// Where an instruction came from, for diagnostics: "reduce.cu:20 (PTX line 131)" when the PTX
// has .loc directives (nvcc -lineinfo or -G), else "PTX line 131".
std::string source_position(const Kernel& kernel, const Instr& in);

struct Variable {
    std::string name;
    Space space = Space::Global;
    uint64_t size = 0;
    uint32_t align = 1;
    uint8_t* storage = nullptr;  // global/const: host memory registered as device memory
};

struct Module {
    std::vector<Kernel> kernels;
    std::vector<Variable> variables;
    int target_arch = 0;  // .target sm_XX: XX (cudaFuncAttributes::ptxVersion); 0 if absent
    const Kernel* find_kernel(const std::string& name) const;
    const Variable* find_variable(const std::string& name) const;
};

}  // namespace cudasim::ptx
