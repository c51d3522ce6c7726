// tex.1d.v4.<f32|s32|u32>.s32 {x, y, z, w}, [texture, {i}]: tex1Dfetch on a texture object over
// linear memory (exec/memory/textures.hpp). Element i of the texture, each channel widened to 32 bits
// (8- and 16-bit integers to [0, 1] or [-1, 1] floats under cudaReadModeNormalizedFloat, halves
// to floats); an element outside [0, elements) reads as zeros, as on a GPU, and so do the channels
// the texture does not have.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "exec/memory/device_memory.hpp"
#include "exec/memory/textures.hpp"
#include "exec/observers/listener.hpp"
#include "exec/scheduling/interpreter.hpp"
#include "exec/scheduling/lanes.hpp"
#include "support/half.hpp"

namespace cudasim {
namespace {

using ptx::Instr;
using ptx::Operand;

template <class T>
T read_as(const uint8_t* p)
{
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

// One channel of an element, as the 32 bits the fetch returns.
uint64_t channel_bits(const uint8_t* p, const LinearTexture& t)
{
    using Kind = LinearTexture::Kind;
    if (t.kind == Kind::Float)
        return t.channel_bytes == 2 ? std::bit_cast<uint32_t>(half::to_float(read_as<uint16_t>(p)))
                                    : read_as<uint32_t>(p);
    const bool is_signed = t.kind == Kind::Signed;
    int64_t value = 0;
    switch (t.channel_bytes) {
    case 1:
        value = is_signed ? int64_t{read_as<int8_t>(p)} : int64_t{read_as<uint8_t>(p)};
        break;
    case 2:
        value = is_signed ? int64_t{read_as<int16_t>(p)} : int64_t{read_as<uint16_t>(p)};
        break;
    default:
        value = is_signed ? int64_t{read_as<int32_t>(p)} : int64_t{read_as<uint32_t>(p)};
        break;
    }
    if (!t.normalized)
        return static_cast<uint32_t>(value);
    const int bits = t.channel_bytes * 8;
    const float scaled = is_signed
                             ? std::max(static_cast<float>(value) / static_cast<float>((1 << (bits - 1)) - 1), -1.0f)
                             : static_cast<float>(value) / static_cast<float>((1 << bits) - 1);
    return std::bit_cast<uint32_t>(scaled);
}

[[noreturn, gnu::cold]] void bad_texture(uint64_t handle, const char* why)
{
    throw DeviceFault(cudaErrorIllegalAddress, "tex1Dfetch on texture object " + std::to_string(handle) + ", " + why);
}

}  // namespace

template <class Listener>
void Interpreter::fetch_texture(Warp& w, BlockState&, const Instr& in, uint32_t exec, Listener& listener)
{
    if (!exec)
        return;
    const Operand& object = in.ops[2];
    const Operand& coordinates = in.ops[3];
    Lanes values[4] = {};
    Lanes addresses = {};
    uint32_t read = 0;
    std::optional<LinearTexture> texture;
    uint64_t handle = 0;
    for (uint32_t m = exec; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        const uint64_t h = object.kind == Operand::Kind::Reg ? w.reg(object.reg)[l] : static_cast<uint64_t>(object.imm);
        if (!texture || h != handle) {
            handle = h;
            texture = TextureTable::instance().find(h);
            if (!texture)
                bad_texture(h, "which is not a live texture object (never created, or destroyed)");
            const Allocation* memory = DeviceMemory::instance().find(texture->address);
            if (!memory ||
                texture->address + texture->elements * texture->element_bytes() > memory->base + memory->size)
                bad_texture(h, "whose device memory has been freed");
        }
        const auto i = static_cast<int32_t>(w.reg(coordinates.vec[0])[l]);
        if (i < 0 || static_cast<uint64_t>(i) >= texture->elements)
            continue;  // zeros
        addresses[l] = texture->address + static_cast<uint64_t>(i) * texture->element_bytes();
        const auto* element = reinterpret_cast<const uint8_t*>(addresses[l]);
        for (int c = 0; c < texture->channels; ++c)
            values[c][l] = channel_bits(element + c * texture->channel_bytes, *texture);
        read |= 1u << l;
    }
    const Operand& d = in.ops[0];
    for (int c = 0; c < d.count && c < 4; ++c) {
        if (d.vec[c] == Operand::kNoReg)
            continue;
        Operand one;
        one.kind = Operand::Kind::Reg;
        one.reg = d.vec[c];
        write_back(w, one, values[c], exec);
    }
    if (read)
        listener.on_memory_access(
            w, in,
            {MemoryEvent::Kind::Load, ResolvedSpace::Global, addresses, read, texture ? texture->element_bytes() : 4});
}

// The listeners Interpreter::run chooses between.
template void Interpreter::fetch_texture(Warp&, BlockState&, const Instr&, uint32_t, CounterListener&);
template void Interpreter::fetch_texture(Warp&, BlockState&, const Instr&, uint32_t, TracedListeners&);
template void Interpreter::fetch_texture(Warp&, BlockState&, const Instr&, uint32_t, ExecutionListener&);

}  // namespace cudasim
