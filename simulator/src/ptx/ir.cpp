// Small helpers on the IR: opcode names and module look-ups.
#include "ptx/ir.hpp"

namespace cudasim::ptx {

const char* opName(Op op)
{
    static constexpr const char* kNames[] = {
#define CUDASIM_OPCODE(name, mnemonic, spelling, cost, executor) mnemonic,
#include "ptx/opcodes.def"
    };
    return kNames[static_cast<int>(op)];
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
