#pragma once
/// @file module_ptx.hpp
/// @brief What a module's PTX declares: its kernels and its module-scope global-memory variables.
///
/// The course's modules carry their PTX uncompressed (cmake/CourseModules.cmake), so the judge can
/// read, before it runs anything, what the student's compiled code defines: a kernel defined
/// without `extern "C"`, or a `__device__` variable that would keep state from one call to the next.

#include <string>
#include <string_view>
#include <vector>

namespace course {

/// The declarations of the PTX in a module image.
struct ModulePtx {
    bool found = false;                     ///< the image holds PTX text (".version", ".target")
    std::vector<std::string> kernels;       ///< the `.entry` names, as in the PTX (mangled or not)
    std::vector<std::string> global_state;  ///< module-scope `.global` variables (`__device__`,
                                            ///< `__managed__`) that code uses; the compiler's string
                                            ///< literals and variables nothing uses left out
};

/// Reads every PTX text in `image` (a fat binary or a PTX file); a name found twice (one PTX per
/// architecture) is listed once.
[[nodiscard]] ModulePtx read_module_ptx(std::string_view image);

/// `name` demangled where it is a C++ name ("(anonymous namespace)::g_last_n"), else as it is.
[[nodiscard]] std::string demangled(const std::string& name);

}  // namespace course
