#include "ptx/shared_provenance.hpp"

#include <cstdint>
#include <vector>

namespace cudasim::ptx {
namespace {

// What a register holds, as far as shared variables go: a variable's symbol (0 to kDynamicSharedSymbol),
// no variable's address, or several (conflicting definitions). kUnset: no definition seen yet.
constexpr uint16_t kUnset = 0xffff;
constexpr uint16_t kNotAddress = 0xfffe;
constexpr uint16_t kConflict = 0xfffd;

bool is_symbol(uint16_t v)
{
    return v <= kDynamicSharedSymbol;
}

uint16_t join(uint16_t a, uint16_t b)
{
    if (a == kUnset)
        return b;
    if (b == kUnset || a == b)
        return a;
    return kConflict;
}

// An address plus an offset: the address's variable, if only one side is an address.
uint16_t offset_by(uint16_t a, uint16_t b)
{
    if (a == kConflict || b == kConflict || (is_symbol(a) && is_symbol(b)))
        return kConflict;
    if (is_symbol(a))
        return b == kUnset || b == kNotAddress ? a : kConflict;
    if (is_symbol(b))
        return a == kUnset || a == kNotAddress ? b : kConflict;
    return a == kUnset || b == kUnset ? kUnset : kNotAddress;
}

// A product (an index) must not involve an address.
uint16_t index(uint16_t a, uint16_t b)
{
    if (is_symbol(a) || is_symbol(b) || a == kConflict || b == kConflict)
        return kConflict;
    return a == kUnset || b == kUnset ? kUnset : kNotAddress;
}

bool defines_first_operand(Op op)
{
    switch (op) {
    case Op::St:
    case Op::Red:
    case Op::Bra:
    case Op::Bar:
    case Op::WarpSync:
    case Op::Membar:
    case Op::Ret:
    case Op::Exit:
    case Op::Trap:
    case Op::Call:
    case Op::Nop:
    case Op::Inline:
        return false;
    default:
        return true;
    }
}

class Provenance {
public:
    explicit Provenance(const Kernel& k) : registers_(k.num_regs, kUnset) {}

    uint16_t of(const Operand& o) const
    {
        if (o.kind == Operand::Kind::Imm)
            return o.shared_symbol != kNoSharedSymbol ? o.shared_symbol : kNotAddress;
        if (o.kind == Operand::Kind::Reg && o.reg < registers_.size())
            return registers_[o.reg];
        return kNotAddress;
    }

    // One pass over the code; returns whether a register's state changed.
    bool visit(const std::vector<Instr>& code)
    {
        bool changed = false;
        for (const Instr& in : code) {
            const Operand& d = in.ops[0];
            if (!defines_first_operand(in.op) || d.kind != Operand::Kind::Reg || d.reg >= registers_.size())
                continue;
            uint16_t value = kNotAddress;
            switch (in.op) {
            case Op::Mov:
            case Op::Cvta:
            case Op::CvtaTo:
            case Op::Cvt:
                value = of(in.ops[2]);
                break;
            case Op::Add:
                value = offset_by(of(in.ops[2]), of(in.ops[3]));
                break;
            case Op::Sub:
                value = offset_by(of(in.ops[2]), index(of(in.ops[3]), kNotAddress));
                break;
            case Op::Mad:
                value = offset_by(index(of(in.ops[2]), of(in.ops[3])), of(in.ops[4]));
                break;
            default:
                break;
            }
            const uint16_t joined = join(registers_[d.reg], value);
            if (joined != registers_[d.reg]) {
                registers_[d.reg] = joined;
                changed = true;
            }
        }
        return changed;
    }

    uint16_t address(const Operand& o) const
    {
        if (o.kind != Operand::Kind::Addr)
            return kNotAddress;
        const uint16_t symbol = o.shared_symbol != kNoSharedSymbol ? o.shared_symbol : kNotAddress;
        if (o.reg == Operand::kNoReg || o.reg >= registers_.size())
            return symbol;
        return offset_by(registers_[o.reg], symbol);
    }

private:
    std::vector<uint16_t> registers_;
};

}  // namespace

void attribute_shared_accesses(Kernel& kernel)
{
    Provenance provenance(kernel);
    // Each pass can only move a register from unset to one symbol or no address, and from there to
    // conflict: a few passes settle the code nvcc writes.
    bool settled = false;
    for (int pass = 0; pass < 64 && !settled; ++pass)
        settled = !provenance.visit(kernel.code);
    if (!settled)  // a chain too long to follow: every access is checked against whichever variable holds it
        return;
    for (Instr& in : kernel.code) {
        const bool memory = in.op == Op::Ld || in.op == Op::St || in.op == Op::Atom || in.op == Op::Red;
        if (!memory || (in.space != Space::Shared && in.space != Space::Generic))
            continue;
        const uint16_t symbol = provenance.address(in.op == Op::St || in.op == Op::Red ? in.ops[0] : in.ops[2]);
        in.shared_symbol = is_symbol(symbol) ? static_cast<uint8_t>(symbol) : kNoSharedSymbol;
    }
}

}  // namespace cudasim::ptx
