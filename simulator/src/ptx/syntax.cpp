// PTX spellings: type, opcode and special-register names, numbers, and the
// modifiers that follow an opcode.
#include "ptx/syntax.hpp"

#include <array>
#include <string>

#include <charconv>
#include <cstddef>
#include <system_error>
#include <utility>

namespace cudasim::ptx {
namespace {

const std::unordered_map<std::string_view, uint8_t>& cmp_names()
{
    static const std::unordered_map<std::string_view, uint8_t> names = {
        {".eq", CmpEq},   {".ne", CmpNe},   {".lt", CmpLt},   {".le", CmpLe},   {".gt", CmpGt},   {".ge", CmpGe},
        {".lo", CmpLt},   {".ls", CmpLe},   {".hi", CmpGt},   {".hs", CmpGe},   {".equ", CmpEqu}, {".neu", CmpNeu},
        {".ltu", CmpLtu}, {".leu", CmpLeu}, {".gtu", CmpGtu}, {".geu", CmpGeu}, {".num", CmpNum}, {".nan", CmpNan},
    };
    return names;
}

}  // namespace

const std::unordered_map<std::string_view, Type>& type_names()
{
    static const std::unordered_map<std::string_view, Type> names = {
        {".b8", Type::B8},         {".b16", Type::B16},     {".b32", Type::B32},   {".b64", Type::B64},
        {".u8", Type::U8},         {".u16", Type::U16},     {".u32", Type::U32},   {".u64", Type::U64},
        {".s8", Type::S8},         {".s16", Type::S16},     {".s32", Type::S32},   {".s64", Type::S64},
        {".f16", Type::F16},       {".f32", Type::F32},     {".f64", Type::F64},   {".pred", Type::Pred},
        {".s16x2", Type::S16x2},   {".u16x2", Type::U16x2}, {".bf16", Type::BF16}, {".f16x2", Type::F16x2},
        {".bf16x2", Type::BF16x2},
    };
    return names;
}

const std::unordered_map<std::string_view, Mnemonic>& mnemonics()
{
    // The Spelling column of ptx/opcodes.def: only Parsed mnemonics are instruction names in PTX.
    enum class Spelling { Parsed, Derived, Internal };
    static const std::unordered_map<std::string_view, Mnemonic> names = [] {
        std::unordered_map<std::string_view, Mnemonic> all;
#define CUDASIM_OPCODE(name, mnemonic, spelling, cost, executor) \
    if (Spelling::spelling == Spelling::Parsed)                  \
        all.emplace(mnemonic, Mnemonic{Op::name, false});
#define CUDASIM_OPCODE_ALIAS(mnemonic, name, carry_in) all.emplace(mnemonic, Mnemonic{Op::name, carry_in});
#include "ptx/opcodes.def"
        return all;
    }();
    return names;
}

const std::unordered_map<std::string_view, uint32_t>& special_reg_names()
{
    static const std::unordered_map<std::string_view, uint32_t> names = [] {
        std::unordered_map<std::string_view, uint32_t> known = {
            {"%laneid", SrLaneid},
            {"%warpid", SrWarpid},
            {"%nwarpid", SrNwarpid},
            {"%smid", SrSmid},
            {"%nsmid", SrNsmid},
            {"%gridid", SrGridid},
            {"%lanemask_eq", SrLanemaskEq},
            {"%lanemask_lt", SrLanemaskLt},
            {"%lanemask_le", SrLanemaskLe},
            {"%lanemask_gt", SrLanemaskGt},
            {"%lanemask_ge", SrLanemaskGe},
            {"%dynamic_smem_size", SrDynamicSmemSize},
            {"%total_smem_size", SrTotalSmemSize},
        };
        // Cooperative groups' grid.sync() reads its grid workspace from %envreg1 (high half) and
        // %envreg2 (low half); the other environment registers read as 0.
        static const std::array<std::string, 32> envregs = [] {
            std::array<std::string, 32> all;
            for (std::size_t i = 0; i < all.size(); ++i)
                all[i] = "%envreg" + std::to_string(i);
            return all;
        }();
        for (std::size_t i = 0; i < envregs.size(); ++i)
            known.emplace(envregs[i], i == 1 ? SrEnvreg1 : i == 2 ? SrEnvreg2 : SrEnvreg);
        return known;
    }();
    return names;
}

// Parses 42, 0x2A, 0f3F800000 (f32 bits), 0d3FF0000000000000 (f64 bits).
bool parse_number_bits(std::string_view text, uint64_t& bits, bool& is_float_bits)
{
    is_float_bits = false;
    int base = 10;
    std::string_view digits = text;
    if (digits.size() > 2 && digits[0] == '0' &&
        (digits[1] == 'f' || digits[1] == 'F' || digits[1] == 'd' || digits[1] == 'D' || digits[1] == 'x' ||
         digits[1] == 'X')) {
        is_float_bits = digits[1] != 'x' && digits[1] != 'X';
        digits.remove_prefix(2);
        base = 16;
    }
    if (!digits.empty() && (digits.back() == 'U' || digits.back() == 'u'))
        digits.remove_suffix(1);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits, base);
    return ec == std::errc() && ptr == digits.data() + digits.size();
}

namespace {

// The memory-model modifiers of membar/fence, ld, st, atom and red; "no" where `m` is none of them.
std::string apply_order_modifier(Instr& in, std::string_view m)
{
    const bool ordered =
        in.op == Op::Membar || in.op == Op::Ld || in.op == Op::St || in.op == Op::Atom || in.op == Op::Red;
    if (!ordered)
        return "no";
    if (m == ".cta" || m == ".cluster") {
        in.order |= OrderBlockScope;
    } else if (m == ".gl" || m == ".gpu" || m == ".sys") {
        in.order &= static_cast<uint8_t>(~OrderBlockScope);
    } else if (in.op == Op::Membar && (m == ".proxy" || m == ".mbarrier_init")) {
        in.order |= OrderProxy;
    } else if (in.op == Op::Membar && (m == ".sc" || m == ".acq_rel")) {
        in.order |= OrderAcquire | OrderRelease;
    } else if (in.op != Op::Membar && (m == ".relaxed" || m == ".volatile")) {
        in.order |= OrderStrong;
    } else if (in.op != Op::Membar && (m == ".acquire" || m == ".release" || m == ".acq_rel")) {
        in.order |= OrderStrong | (m == ".release" ? 0 : OrderAcquire) | (m == ".acquire" ? 0 : OrderRelease);
    } else {
        return "no";
    }
    return {};
}

}  // namespace

std::string apply_modifier(Instr& in, std::string_view m, std::vector<Type>& types)
{
    if (auto t = type_names().find(m); t != type_names().end()) {
        types.push_back(t->second);
        return {};
    }
    if (m == ".e4m3x2" || m == ".e5m2x2" || m == ".e2m1x2" || m == ".e2m3x2" || m == ".e3m2x2" || m == ".ue8m0x2" ||
        m == ".tf32")
        return "type " + std::string(m) + " is not supported";
    if (m == ".global") {
        in.space = Space::Global;
        return {};
    }
    if (m == ".shared") {
        in.space = Space::Shared;
        return {};
    }
    if (m == ".local") {
        in.space = Space::Local;
        return {};
    }
    if (m == ".param") {
        in.space = Space::Param;
        return {};
    }
    if (m == ".const") {
        in.space = Space::Const;
        return {};
    }
    if (m == ".v2") {
        in.vec_width = 2;
        return {};
    }
    if (m == ".v4") {
        in.vec_width = 4;
        return {};
    }
    if (m == ".sat") {
        in.sat = true;
        return {};
    }
    if (m == ".ftz") {
        in.ftz = true;
        return {};
    }
    if (m == ".cc") {
        in.carry_out = true;
        return {};
    }
    if (std::string problem = apply_order_modifier(in, m); problem != "no")
        return problem;
    switch (in.op) {
    case Op::Tex:
        // tex1Dfetch on a texture object over linear memory; arrays, other geometries, levels and
        // gradients are not modelled.
        if (m == ".1d")
            return {};
        return "texture fetch " + std::string(m) + " is not supported (only tex.1d: tex1Dfetch on linear memory)";
    case Op::Mul:
    case Op::Mad:
        if (m == ".lo")
            in.mode = MulLo;
        else if (m == ".hi")
            in.mode = MulHi;
        else if (m == ".wide")
            in.mode = MulWide;
        else
            break;  // a floating-point multiply's rounding, below
        return {};
    case Op::Setp:
    case Op::Set:
    case Op::Slct:
        if (auto c = cmp_names().find(m); c != cmp_names().end())
            in.mode = c->second;
        else if (m == ".and")
            in.bool_mode = BoolAnd;
        else if (m == ".or")
            in.bool_mode = BoolOr;
        else if (m == ".xor")
            in.bool_mode = BoolXor;
        return {};
    case Op::Shfl:
        if (m == ".up")
            in.mode = ShflUp;
        else if (m == ".down")
            in.mode = ShflDown;
        else if (m == ".bfly")
            in.mode = ShflBfly;
        else if (m == ".idx")
            in.mode = ShflIdx;
        return {};
    case Op::Vote:
        if (m == ".all")
            in.mode = VoteAll;
        else if (m == ".any")
            in.mode = VoteAny;
        else if (m == ".uni")
            in.mode = VoteUni;
        else if (m == ".ballot")
            in.mode = VoteBallot;
        return {};
    case Op::Atom:
    case Op::Red:
    case Op::Redux:
        if (m == ".add")
            in.mode = AtomAdd;
        else if (m == ".min")
            in.mode = AtomMin;
        else if (m == ".max")
            in.mode = AtomMax;
        else if (m == ".inc")
            in.mode = AtomInc;
        else if (m == ".dec")
            in.mode = AtomDec;
        else if (m == ".and")
            in.mode = AtomAnd;
        else if (m == ".or")
            in.mode = AtomOr;
        else if (m == ".xor")
            in.mode = AtomXor;
        else if (m == ".exch")
            in.mode = AtomExch;
        else if (m == ".cas")
            in.mode = AtomCas;
        return {};
    case Op::Shf:
        if (m == ".l")
            in.mode |= ShfLeft;
        else if (m == ".clamp")
            in.mode |= ShfClamp;
        return {};
    case Op::Bfind:
        if (m == ".shiftamt")
            in.mode = BfindShiftAmount;
        return {};
    case Op::Prmt:
        if (m != ".b32")
            return "prmt mode " + std::string(m) + " is not supported";
        return {};
    case Op::Match:
        if (m == ".all")
            in.mode = MatchAll;
        return {};
    case Op::Dp2a:
        if (m == ".lo" || m == ".hi") {
            in.mode = m == ".hi" ? Dp2aHi : Dp2aLo;
            return {};
        }
        break;
    case Op::Vabsdiff4:
        if (m == ".add") {
            in.mode = VideoAdd;
            return {};
        }
        return "vabsdiff4 mode " + std::string(m) + " is not supported";
    case Op::Min:
    case Op::Max:
        if (m == ".NaN") {
            in.mode |= MinMaxNaN;
            return {};
        }
        if (m == ".relu") {
            in.mode |= MinMaxRelu;
            return {};
        }
        if (m == ".xorsign")
            return std::string(op_name(in.op)) + std::string(m) + " is not supported";
        break;
    default:
        break;
    }
    if (m == ".relu" || m == ".satfinite" || m == ".oob")  // they change results: never ignored
        return std::string(op_name(in.op)) + std::string(m) + " is not supported";
    static const std::unordered_map<std::string_view, uint8_t> rounding = {
        {".rn", RoundRn},   {".rz", RoundRz},   {".rm", RoundRm},   {".rp", RoundRp},
        {".rni", RoundRni}, {".rzi", RoundRzi}, {".rmi", RoundRmi}, {".rpi", RoundRpi},
    };
    if (auto r = rounding.find(m); r != rounding.end())
        in.mode = r->second;
    if (in.op == Op::Mul && m == ".wide")
        in.mode = MulWide;
    return {};
}

}  // namespace cudasim::ptx
