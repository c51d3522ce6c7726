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

// A PTX declaration read word by word: directives (".visible", ".global", ".u64") and, where the
// grammar expects one, the identifier that follows them.
class Declaration {
public:
    explicit Declaration(std::string_view line) : rest_(line) { skip_blanks(); }

    // Consumes `directive` and the blanks after it when the next word is exactly that directive.
    bool take(std::string_view directive)
    {
        if (!rest_.starts_with(directive) || rest_.size() == directive.size() ||
            (rest_[directive.size()] != ' ' && rest_[directive.size()] != '\t'))
            return false;
        rest_.remove_prefix(directive.size());
        return skip_blanks();
    }

    // Consumes any number of the linkage directives in `linkages`.
    void take_any_of(std::initializer_list<std::string_view> linkages)
    {
        for (bool taken = true; taken;) {
            taken = false;
            for (const std::string_view linkage : linkages)
                taken = taken || take(linkage);
        }
    }

    // Consumes `.attribute(...)` and the blanks after it, if it comes next.
    void take_attribute()
    {
        const std::size_t close = rest_.find(')');
        if (rest_.starts_with(".attribute(") && close != std::string_view::npos) {
            rest_.remove_prefix(close + 1);
            skip_blanks();
        }
    }

    // Consumes `.align N` if it comes next.
    void take_alignment()
    {
        if (!rest_.starts_with(".align") || rest_.size() < 7 || (rest_[6] != ' ' && rest_[6] != '\t'))
            return;
        const std::string_view saved = rest_;
        rest_.remove_prefix(6);
        skip_blanks();
        const std::size_t digits = count_while([](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
        rest_.remove_prefix(digits);
        if (digits == 0 || !skip_blanks())
            rest_ = saved;
    }

    // Consumes a directive made of a dot and word characters (a type, ".v2"), with the blanks after it.
    bool take_word_directive()
    {
        if (!rest_.starts_with('.'))
            return false;
        const std::string_view saved = rest_;
        rest_.remove_prefix(1);
        const std::size_t length =
            count_while([](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
        rest_.remove_prefix(length);
        if (length > 0 && skip_blanks())
            return true;
        rest_ = saved;
        return false;
    }

    // The identifier that comes next (empty if none).
    std::string_view name() const { return rest_.substr(0, count_while(is_name_character)); }

private:
    template <class Predicate>
    std::size_t count_while(Predicate keep) const
    {
        std::size_t length = 0;
        while (length < rest_.size() && keep(rest_[length]))
            ++length;
        return length;
    }

    // Skips spaces and tabs; whether there were any.
    bool skip_blanks()
    {
        const std::size_t blanks = count_while([](char c) { return c == ' ' || c == '\t'; });
        rest_.remove_prefix(blanks);
        return blanks > 0;
    }

    std::string_view rest_;
};

// A kernel: ".visible .entry reduce_sum(", ".entry _Z3fooPi(". Its name, or empty.
std::string_view entry_name(std::string_view line)
{
    Declaration d(line);
    d.take_any_of({".visible", ".weak", ".extern"});
    return d.take(".entry") ? d.name() : std::string_view{};
}

// A module-scope variable in the global state space, with its optional linkage, attributes and
// alignment: ".visible .global .align 8 .u64 g_last_n;", ".global .attribute(.managed) .b8 x[4];".
// Its name, or empty.
std::string_view global_variable_name(std::string_view line)
{
    Declaration d(line);
    d.take_any_of({".visible", ".weak", ".extern", ".common"});
    if (!d.take(".global"))
        return {};
    d.take_attribute();
    d.take_alignment();
    bool typed = false;  // a type, after a vector width such as .v2 where there is one
    while (d.take_word_directive())
        typed = true;
    return typed ? d.name() : std::string_view{};
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
