// Small helpers on the IR: opcode names and module look-ups.
#include "ptx/ir.hpp"

namespace cudasim::ptx {

const char* opName(Op op)
{
    static const char* const names[] = {
        "mov",        "ld",    "st",     "cvta", "cvta.to", "cvt",           "add",    "sub", "mul",  "mad",
        "div",        "rem",   "min",    "max",  "abs",     "neg",           "and",    "or",  "xor",  "not",
        "cnot",       "shl",   "shr",    "selp", "setp",    "slct",          "popc",   "clz", "brev", "bfe",
        "bfi",        "prmt",  "bfind",  "shf",  "sad",     "dp4a",          "fma",    "rcp", "sqrt", "rsqrt",
        "ex2",        "lg2",   "sin",    "cos",  "tanh",    "copysign",      "atom",   "red", "shfl", "vote",
        "activemask", "redux", "match",  "bra",  "bar",     "bar.warp.sync", "membar", "ret", "exit", "trap",
        "call",       "nop",   "inline",
    };
    return names[static_cast<int>(op)];
}

std::string sourcePosition(const Kernel& kernel, const Instr& in)
{
    std::string ptxLine = "PTX line " + std::to_string(in.line);
    if (in.sourceLine == 0)
        return ptxLine;
    const std::string* file = in.sourceFile < kernel.sourceFiles.size() ? &kernel.sourceFiles[in.sourceFile] : nullptr;
    std::string name = file && !file->empty() ? *file : "file " + std::to_string(in.sourceFile);
    return name + ":" + std::to_string(in.sourceLine) + " (" + ptxLine + ")";
}

const Kernel* Module::findKernel(const std::string& name) const
{
    for (const Kernel& k : kernels)
        if (k.name == name)
            return &k;
    return nullptr;
}

const Variable* Module::findVariable(const std::string& name) const
{
    for (const Variable& v : variables)
        if (v.name == name)
            return &v;
    return nullptr;
}

}  // namespace cudasim::ptx
