// The active lanes of one chosen warp, instruction by instruction: what divergence and
// reconvergence look like, which no GPU tool shows.
//
//   CUDASIM_TRACE=block=<linear block id>,warp=<warp in the block>,out=<file>[,kernel=<name part>]
//
// traces the first launch whose demangled kernel name contains <name part> (any kernel if none is
// given) and writes one line per instruction the warp issued: the step, the PTX line, the opcode,
// the lanes of the path being executed and the lanes whose guard predicate let them run (both as
// 32-bit hex masks), and the PTX line's text.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exec/observers/listener.hpp"
#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

struct WarpTraceRequest {
    std::string kernel;  // a part of the demangled name; empty: any
    uint64_t block = 0;  // linear block id: x + y * gridDim.x + z * gridDim.x * gridDim.y
    uint32_t warp = 0;
    std::string out;
};

// The request in CUDASIM_TRACE, or nothing; a malformed value is reported once on stderr.
std::optional<WarpTraceRequest> warp_trace_request();

// An execution listener (exec/observers/listener.hpp) of the one warp it follows.
class WarpTrace : public ExecutionListener {
public:
    WarpTrace(WarpTraceRequest request, std::string kernel, const std::string& ptx);
    // Whether the trace follows warp `warp` of the block with linear id `block`.
    bool follows(uint64_t block, uint32_t warp) const { return block == request_.block && warp == request_.warp; }
    void on_issue(Warp&, const BlockState&, const ptx::Instr& in, uint32_t active, uint32_t exec)
    {
        steps_.push_back({static_cast<int32_t>(in.line), ptx::op_name(in.op), active, exec});
    }
    // Writes the file; returns false (and says why on stderr) if it cannot.
    bool write() const;

private:
    struct Step {
        int32_t line;
        const char* op;
        uint32_t active, exec;
    };
    WarpTraceRequest request_;
    std::string kernel_;
    std::vector<std::string> ptx_lines_;
    std::vector<Step> steps_;
};

}  // namespace cudasim
