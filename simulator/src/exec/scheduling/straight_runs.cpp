#include "exec/scheduling/straight_runs.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "exec/scheduling/opcode_classes.hpp"

namespace cudasim {

bool memory_step(const ptx::Instr& in)
{
    const Executor executor = executor_of(in.op);
    if (executor != Executor::Load && executor != Executor::Store && executor != Executor::Atomic)
        return false;
    for (int i = 0; i < in.num_ops; ++i) {
        const ptx::Operand::Kind kind = in.ops[i].kind;
        if (kind == ptx::Operand::Kind::Clock32 || kind == ptx::Operand::Kind::Clock64 ||
            kind == ptx::Operand::Kind::GlobalTimer)
            return false;
    }
    return true;
}

std::vector<uint32_t> straight_runs_of(const ptx::Kernel& kernel, const std::vector<FastPath>& fast_paths,
                                       bool with_memory)
{
    const std::vector<ptx::Instr>& code = kernel.code;
    // Where a path may end (the interpreter compares the pc with the path's reconvergence point
    // before each instruction): a branch's immediate post-dominator, or a subroutine's return.
    std::vector<bool> join(code.size() + 1, false);
    for (const ptx::Instr& in : code)
        if (executor_of(in.op) == Executor::Branch && in.reconverge >= 0)
            join[static_cast<size_t>(in.reconverge)] = true;
    for (const ptx::Subroutine& sub : kernel.subroutines)
        join[static_cast<size_t>(sub.exit)] = true;
    std::vector<uint32_t> runs(code.size(), 0);
    for (size_t pc = code.size(); pc-- > 0;) {
        const bool fast = fast_paths[pc] && executor_of(code[pc].op) == Executor::Arithmetic;
        if (code[pc].guard != ptx::Operand::kNoReg || !(fast || (with_memory && memory_step(code[pc]))))
            continue;
        const bool continues = pc + 1 < code.size() && !join[pc + 1];
        runs[pc] = 1 + (continues ? runs[pc + 1] : 0);
    }
    return runs;
}

}  // namespace cudasim
