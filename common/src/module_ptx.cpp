#include "course/module_ptx.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace course {
namespace {

bool is_name_character(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

// The blank-separated words of a PTX line.
std::vector<std::string_view> words_of(std::string_view line)
{
    std::vector<std::string_view> words;
    for (std::size_t start = line.find_first_not_of(" \t"); start != std::string_view::npos;) {
        const std::size_t end = std::min(line.find_first_of(" \t", start), line.size());
        words.push_back(line.substr(start, end - start));
        start = line.find_first_not_of(" \t", end);
    }
    return words;
}

// The identifier a word starts with ("g_last_n" of "g_last_n;"), or empty.
std::string_view leading_name(std::string_view word)
{
    const auto end = std::find_if_not(word.begin(), word.end(), is_name_character);
    return word.substr(0, static_cast<std::size_t>(end - word.begin()));
}

// A directive of a dot and word characters: ".global", ".u64", ".v2".
bool is_directive(std::string_view word)
{
    return word.size() > 1 && word[0] == '.' && std::all_of(word.begin() + 1, word.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
           });
}

// The index of the first word that is not one of `linkages`.
std::size_t past_linkages(const std::vector<std::string_view>& words, std::initializer_list<std::string_view> linkages)
{
    std::size_t at = 0;
    while (at < words.size() && std::find(linkages.begin(), linkages.end(), words[at]) != linkages.end())
        ++at;
    return at;
}

// A kernel: ".visible .entry reduce_sum(", ".entry _Z3fooPi(". Its name, or empty.
std::string_view entry_name(std::string_view line)
{
    if (line.find(".entry") == std::string_view::npos)
        return {};  // most lines: not split into words at all
    const auto words = words_of(line);
    const std::size_t at = past_linkages(words, {".visible", ".weak", ".extern"});
    return at + 1 < words.size() && words[at] == ".entry" ? leading_name(words[at + 1]) : std::string_view{};
}

// A module-scope variable in the global state space, with its optional linkage, attributes and
// alignment, then its type (after a vector width where there is one) and name:
// ".visible .global .align 8 .u64 g_last_n;", ".global .attribute(.managed) .b8 x[4];". Its name,
// or empty.
std::string_view global_variable_name(std::string_view line)
{
    if (line.find(".global") == std::string_view::npos)
        return {};
    const auto words = words_of(line);
    std::size_t at = past_linkages(words, {".visible", ".weak", ".extern", ".common"});
    if (at >= words.size() || words[at++] != ".global")
        return {};
    if (at < words.size() && words[at].starts_with(".attribute(")) {
        while (at < words.size() && words[at].find(')') == std::string_view::npos)
            ++at;  // an attribute list with blanks in it
        ++at;
    }
    if (at + 1 < words.size() && words[at] == ".align" &&
        std::all_of(words[at + 1].begin(), words[at + 1].end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }))
        at += 2;
    const std::size_t type = at;
    while (at < words.size() && is_directive(words[at]))
        ++at;
    return at > type && at < words.size() ? leading_name(words[at]) : std::string_view{};
}

void add_once(std::vector<std::string>& names, std::string name)
{
    if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(std::move(name));
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
            if (const std::string_view kernel = entry_name(text); !kernel.empty())
                add_once(result.kernels, std::string(kernel));
            else if (const std::string_view variable = global_variable_name(text);
                     !variable.empty() && !variable.starts_with("$str"))  // printf's format strings
                ++declarations[std::string(variable)];
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
