// Splits PTX text into tokens, dropping comments and remembering lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudasim::ptx {

struct Token {
    enum class Kind { Ident, Directive, Number, String, Punct, End };
    Kind kind = Kind::End;
    std::string_view text;
    int line = 0;
};

std::vector<Token> tokenize(std::string_view source);

}  // namespace cudasim::ptx
