#include "course/module_ptx.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace course {
namespace {

// A module-scope variable in the global state space, with its optional linkage, attributes and
// alignment: ".visible .global .align 8 .u64 g_last_n;", ".global .attribute(.managed) .b8 x[4];".
const std::regex
    kGlobalVariable(R"(^[ \t]*(?:\.(?:visible|weak|extern|common)[ \t]+)*\.global[ \t]+(?:\.attribute\([^)]*\)[ \t]+)?)"
                    R"((?:\.align[ \t]+\d+[ \t]+)?(?:\.v\d[ \t]+)?\.\w+[ \t]+([\w$]+))");
// A kernel: ".visible .entry reduce_sum(", ".entry _Z3fooPi(".
const std::regex kEntry(R"(^[ \t]*(?:\.(?:visible|weak|extern)[ \t]+)*\.entry[ \t]+([\w$]+))");

void add_once(std::vector<std::string>& names, std::string name)
{
    if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(std::move(name));
}

bool is_name_character(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

// How often `name` appears in `line` as a whole PTX identifier.
std::size_t occurrences(std::string_view line, std::string_view name)
{
    std::size_t count = 0;
    for (std::size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + name.size())) {
        const bool starts = at == 0 || !is_name_character(line[at - 1]);
        const std::size_t after = at + name.size();
        count += starts && (after == line.size() || !is_name_character(line[after]));
    }
    return count;
}

// Whether a line of `chunk` starts with `start`.
bool has_line(std::string_view chunk, std::string_view start)
{
    for (std::size_t at = chunk.find(start); at != std::string_view::npos; at = chunk.find(start, at + 1))
        if (at == 0 || chunk[at - 1] == '\n')
            return true;
    return false;
}

// The pieces of `text` between `separator`s (a NUL between the parts of an image, a newline
// between the lines of a PTX).
std::vector<std::string_view> split(std::string_view text, char separator)
{
    std::vector<std::string_view> pieces;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find(separator, start), text.size());
        pieces.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return pieces;
}

// Whether `chunk` (text between NULs) is a PTX module: it has a .version and a .target line.
bool is_ptx(std::string_view chunk)
{
    return has_line(chunk, ".version ") && has_line(chunk, ".target ");
}

}  // namespace

ModulePtx read_module_ptx(std::string_view image)
{
    ModulePtx result;
    // A PTX module is text without a NUL; the binary parts of a fat binary around it (an ELF's
    // string table names the same variables) are never read as PTX.
    std::vector<std::string_view> lines;
    std::map<std::string, std::size_t, std::less<>> declarations;  // global variable -> declaring lines
    for (const std::string_view chunk : split(image, '\0')) {
        if (!is_ptx(chunk))
            continue;
        result.found = true;
        for (const std::string_view text : split(chunk, '\n')) {
            lines.push_back(text);
            const std::string line(text);
            std::smatch match;
            if (line.find(".entry") != std::string::npos && std::regex_search(line, match, kEntry))
                add_once(result.kernels, match[1]);
            else if (line.find(".global") != std::string::npos && std::regex_search(line, match, kGlobalVariable) &&
                     match[1].str().rfind("$str", 0) != 0)  // printf's format strings
                ++declarations[match[1]];
        }
    }
    // A variable is state only where code uses it: one that nothing reads, writes or takes the
    // address of (the libraries' empty function objects, such as cuda::std::ranges::swap) is not.
    for (const auto& [name, declared] : declarations) {
        std::size_t seen = 0;
        for (const auto line : lines)
            seen += occurrences(line, name);
        if (seen > declared)
            add_once(result.global_state, name);
    }
    return result;
}

std::string demangled(const std::string& name)
{
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                           &std::free);
    return status == 0 && text ? std::string(text.get()) : name;
}

}  // namespace course
