// Small helpers on the IR: opcode names and module look-ups.
#include "ptx/ir.hpp"

namespace cudasim::ptx {

const char* op_name(Op op)
{
    static constexpr const char* kNames[] = {
#define CUDASIM_OPCODE(name, mnemonic, spelling, cost, executor) mnemonic,
#include "ptx/opcodes.def"
    };
    return kNames[static_cast<int>(op)];
}

std::string source_position(const Kernel& kernel, const Instr& in)
{
    std::string ptx_line = "PTX line " + std::to_string(in.line);
    if (in.source_line == 0)
        return ptx_line;
    const std::string* file =
        in.source_file < kernel.source_files.size() ? &kernel.source_files[in.source_file] : nullptr;
    std::string name = file && !file->empty() ? *file : "file " + std::to_string(in.source_file);
    return name + ":" + std::to_string(in.source_line) + " (" + ptx_line + ")";
}

const Kernel* Module::find_kernel(const std::string& name) const
{
    for (const Kernel& k : kernels)
        if (k.name == name)
            return &k;
    return nullptr;
}

const Variable* Module::find_variable(const std::string& name) const
{
    for (const Variable& v : variables)
        if (v.name == name)
            return &v;
    return nullptr;
}

}  // namespace cudasim::ptx
