// Tables and small helpers for the PTX spelling of types, opcodes,
// special registers, numbers and opcode modifiers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptx/ir.hpp"

namespace cudasim::ptx {

const std::unordered_map<std::string_view, Type>& type_names();
// An instruction name the parser accepts, from ptx/opcodes.def: a mnemonic or an alias.
struct Mnemonic {
    Op op;
    bool carry_in;  // addc, subc, madc: Instr::carry_in
};
const std::unordered_map<std::string_view, Mnemonic>& mnemonics();
// Scalar special registers (%laneid, ...); %tid and friends take a .x/.y/.z.
const std::unordered_map<std::string_view, uint32_t>& special_reg_names();

// Parses 42, 0x2A, 0f3F800000 (f32 bits), 0d3FF0000000000000 (f64 bits).
bool parse_number_bits(std::string_view text, uint64_t& bits, bool& is_float_bits);

// Applies one opcode modifier (.u32, .lo, .eq, .down, .cc, ...) to `in`;
// type modifiers are collected in order into `types`. Returns why the
// modifier is not supported, or an empty string.
std::string apply_modifier(Instr& in, std::string_view m, std::vector<Type>& types);

}  // namespace cudasim::ptx
