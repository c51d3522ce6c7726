#include "ptx/lexer.hpp"

#include <cctype>
#include <cstddef>

namespace cudasim::ptx {
namespace {

bool is_ident_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}

}  // namespace

std::vector<Token> tokenize(std::string_view s)
{
    std::vector<Token> out;
    int line = 1;
    size_t i = 0;
    auto emit = [&](Token::Kind kind, size_t begin, size_t end) {
        out.push_back({kind, s.substr(begin, end - begin), line});
    };
    while (i < s.size()) {
        char c = s[i];
        if (c == '\n') {
            ++line;
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c)) || c == '\0') {
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n')
                ++i;
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
                if (s[i] == '\n')
                    ++line;
                ++i;
            }
            i += 2;
            continue;
        }
        size_t begin = i;
        if (c == '"') {
            ++i;
            while (i < s.size() && s[i] != '"')
                ++i;
            ++i;
            emit(Token::Kind::String, begin, i);
        } else if (c == '.' && i + 1 < s.size() && is_ident_char(s[i + 1])) {
            ++i;
            while (i < s.size() && is_ident_char(s[i]))
                ++i;
            emit(Token::Kind::Directive, begin, i);
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            // Covers 42, 0x1F, 0f3F800000, 0d3FF0000000000000 and 1.5e3.
            while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.'))
                ++i;
            emit(Token::Kind::Number, begin, i);
        } else if (is_ident_char(c)) {
            while (i < s.size() && is_ident_char(s[i]))
                ++i;
            emit(Token::Kind::Ident, begin, i);
        } else {
            ++i;
            emit(Token::Kind::Punct, begin, i);
        }
    }
    out.push_back({Token::Kind::End, {}, line});
    return out;
}

}  // namespace cudasim::ptx
