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

bool isSymbol(uint16_t v)
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
uint16_t offsetBy(uint16_t a, uint16_t b)
{
    if (a == kConflict || b == kConflict || (isSymbol(a) && isSymbol(b)))
        return kConflict;
    if (isSymbol(a))
        return b == kUnset || b == kNotAddress ? a : kConflict;
    if (isSymbol(b))
        return a == kUnset || a == kNotAddress ? b : kConflict;
    return a == kUnset || b == kUnset ? kUnset : kNotAddress;
}

// A product (an index) must not involve an address.
uint16_t index(uint16_t a, uint16_t b)
{
    if (isSymbol(a) || isSymbol(b) || a == kConflict || b == kConflict)
        return kConflict;
    return a == kUnset || b == kUnset ? kUnset : kNotAddress;
}

bool definesFirstOperand(Op op)
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
    explicit Provenance(const Kernel& k) : registers_(k.numRegs, kUnset) {}

    uint16_t of(const Operand& o) const
    {
        if (o.kind == Operand::Kind::Imm)
            return o.sharedSymbol != kNoSharedSymbol ? o.sharedSymbol : kNotAddress;
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
            if (!definesFirstOperand(in.op) || d.kind != Operand::Kind::Reg || d.reg >= registers_.size())
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
                value = offsetBy(of(in.ops[2]), of(in.ops[3]));
                break;
            case Op::Sub:
                value = offsetBy(of(in.ops[2]), index(of(in.ops[3]), kNotAddress));
                break;
            case Op::Mad:
                value = offsetBy(index(of(in.ops[2]), of(in.ops[3])), of(in.ops[4]));
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
        const uint16_t symbol = o.sharedSymbol != kNoSharedSymbol ? o.sharedSymbol : kNotAddress;
        if (o.reg == Operand::kNoReg || o.reg >= registers_.size())
            return symbol;
        return offsetBy(registers_[o.reg], symbol);
    }

private:
    std::vector<uint16_t> registers_;
};

}  // namespace

void attributeSharedAccesses(Kernel& kernel)
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
        in.sharedSymbol = isSymbol(symbol) ? static_cast<uint8_t>(symbol) : kNoSharedSymbol;
    }
}

}  // namespace cudasim::ptx
