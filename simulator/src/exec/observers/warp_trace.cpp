#include "exec/observers/warp_trace.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

namespace cudasim {

std::optional<WarpTraceRequest> warp_trace_request()
{
    const char* env = std::getenv("CUDASIM_TRACE");
    if (!env || !*env)
        return std::nullopt;
    WarpTraceRequest request;
    bool has_out = false;
    std::stringstream fields(env);
    std::string field;
    while (std::getline(fields, field, ',')) {
        const auto eq = field.find('=');
        const std::string key = field.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : field.substr(eq + 1);
        char* end = nullptr;
        if (key == "kernel") {
            request.kernel = value;
        } else if (key == "block" && !value.empty()) {
            request.block = std::strtoull(value.c_str(), &end, 10);
            if (*end)
                break;
        } else if (key == "warp" && !value.empty()) {
            request.warp = static_cast<uint32_t>(std::strtoul(value.c_str(), &end, 10));
            if (*end)
                break;
        } else if (key == "out" && !value.empty()) {
            request.out = value;
            has_out = true;
        } else {
            has_out = false;
            break;
        }
    }
    if (!has_out) {
        static bool reported = false;
        if (!reported)
            std::fprintf(stderr, "cudasim: CUDASIM_TRACE=%s: expected block=B,warp=W,out=FILE[,kernel=NAME]\n", env);
        reported = true;
        return std::nullopt;
    }
    return request;
}

WarpTrace::WarpTrace(WarpTraceRequest request, std::string kernel, const std::string& ptx)
    : request_(std::move(request)), kernel_(std::move(kernel))
{
    std::stringstream lines(ptx);
    for (std::string line; std::getline(lines, line);)
        ptx_lines_.push_back(line);
}

bool WarpTrace::write() const
{
    std::ofstream file(request_.out);
    file << "# kernel " << kernel_ << ", block " << request_.block << ", warp " << request_.warp << "\n"
         << "step\tline\top\tactive\texecuted\tptx\n";
    char masks[32];
    for (size_t i = 0; i < steps_.size(); ++i) {
        const Step& s = steps_[i];
        std::string text = s.line > 0 && static_cast<size_t>(s.line) <= ptx_lines_.size() ? ptx_lines_[s.line - 1] : "";
        const auto first = text.find_first_not_of(" \t");
        text = first == std::string::npos ? "" : text.substr(first);
        std::snprintf(masks, sizeof masks, "%08x\t%08x", s.active, s.exec);
        file << i << '\t' << s.line << '\t' << s.op << '\t' << masks << '\t' << text << '\n';
    }
    if (!file) {
        std::fprintf(stderr, "cudasim: cannot write the warp trace to %s\n", request_.out.c_str());
        return false;
    }
    return true;
}

}  // namespace cudasim
