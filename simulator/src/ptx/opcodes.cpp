// Small helpers on the IR: type properties, opcode names, module look-ups.
#include "ptx/ir.hpp"

namespace cudasim::ptx {

int typeBytes(Type t) {
  switch (t) {
    case Type::B8: case Type::U8: case Type::S8: return 1;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: return 2;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: return 4;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 8;
    case Type::Pred: return 1;
    case Type::None: return 0;
  }
  return 0;
}

bool isSigned(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}

bool isFloat(Type t) { return t == Type::F16 || t == Type::F32 || t == Type::F64; }

const char* opName(Op op) {
  static const char* const names[] = {
    "mov", "ld", "st", "cvta", "cvta.to", "cvt",
    "add", "sub", "mul", "mad", "div", "rem", "min", "max", "abs", "neg",
    "and", "or", "xor", "not", "cnot", "shl", "shr",
    "selp", "setp", "slct",
    "popc", "clz", "brev", "bfe", "bfi", "prmt", "bfind", "shf",
    "fma", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "copysign",
    "atom", "red",
    "shfl", "vote", "activemask", "redux", "match",
    "bra", "bar", "membar", "ret", "exit", "trap", "call", "nop", "unsupported",
  };
  return names[static_cast<int>(op)];
}

const Kernel* Module::findKernel(const std::string& name) const {
  for (const Kernel& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const Variable* Module::findVariable(const std::string& name) const {
  for (const Variable& v : variables)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace cudasim::ptx
