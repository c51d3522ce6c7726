#pragma once
/// @file module.hpp
/// @brief The student's device code, loaded at run time: a file nvcc compiled from the student's
/// `.cu` (`nvcc -fatbin`), never linked into the program that loads it.
///
/// A student file holds kernels, `__device__` helpers and launch choices stated as data (a
/// `__constant__` value); it holds no host code. The lesson's own host code, which the student
/// does not edit, finds the kernels in the module by name, checks their parameters against the
/// lesson's interface and launches them. So nothing the student writes runs on the host of a
/// grader or a demo: no static initialiser, no `main`-time code, no replaced library function.
///
/// Kernels looked up by name are declared `extern "C"` in the lesson's `*.cuh` interface header,
/// which the student's file includes: the compiler then rejects a definition whose parameters
/// differ from the declaration, and the name in the module is the plain kernel name.
///
/// Two sets of modules exist in a build tree (see cmake/Course.cmake): the student's (by default
/// `build/<preset>/modules/exercise`, or the folders given with `--modules=DIR[:DIR...]`, searched in
/// order) and the course's references (`build/<preset>/modules/solution`), which a later lesson uses
/// as its baselines whatever the student's earlier lessons hold.

#include "course/cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace course {

/// The student's module is not what the lesson loads: a kernel missing or with other parameters,
/// or module-scope state that would outlive a call. The message starts with "bad module:" and
/// says what the file must hold instead; a grader reports it as the student's, not as its own.
class StudentModuleError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A loaded module (a CUDA library): unloaded when destroyed.
class Module {
public:
    /// Reads and loads `file`; throws std::runtime_error naming the file when it is missing or
    /// unreadable or carries no PTX to check, StudentModuleError when it defines module-scope
    /// global-memory variables (`__device__`, `__managed__`: state that outlives a call, which no
    /// lesson's interface declares), and course::CudaError when the runtime refuses its contents.
    explicit Module(std::filesystem::path file);
    ~Module();
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    [[nodiscard]] const std::filesystem::path& file() const { return file_; }

    /// The kernel `name`, after checking that it takes exactly the parameters whose sizes are
    /// `parameter_sizes`; throws StudentModuleError saying what is missing or different.
    [[nodiscard]] cudaKernel_t kernel(const std::string& name, const std::vector<std::size_t>& parameter_sizes) const;

    /// The bytes of the `__constant__` or `__device__` variable `name`, which must be `size`
    /// bytes long; throws StudentModuleError when it is missing or of another size.
    void read_variable(const std::string& name, void* into, std::size_t size) const;

private:
    std::filesystem::path file_;
    cudaLibrary_t library_ = nullptr;
    std::vector<std::string> kernels_;  ///< the kernels the module's PTX defines, for messages
};

/// The student's module for `lesson` ("03_neighbored_reduction") and `stem` (the exercise file's
/// name without `.cu`), loaded once per process from the student module path.
[[nodiscard]] const Module& student_module(std::string_view lesson, std::string_view stem);
/// The course's reference module for the same: a later lesson's baselines.
[[nodiscard]] const Module& reference_module(std::string_view lesson, std::string_view stem);

/// Folders searched for the student's modules, in order, each holding `NN_name/<stem>.fatbin`
/// (set by a grader's or demo's --modules option before any module is loaded).
void set_student_module_path(std::string_view colon_separated_folders);
[[nodiscard]] std::string student_module_path();
/// The first folder of `colon_separated_folders` that is not a folder, if any: what a --modules
/// option is checked with before set_student_module_path().
[[nodiscard]] std::optional<std::string> missing_module_folder(std::string_view colon_separated_folders);
/// `<folder>/<lesson>/<name>` in the first student module folder that has it as a file, if any.
[[nodiscard]] std::optional<std::filesystem::path> find_student_file(std::string_view lesson, std::string_view name);
/// Where the student's kernels of `lesson` come from, for a demo's table: "exercises/NN_name", "starters/NN_name",
/// "solutions/NN_name", or the first module folder given with --modules.
[[nodiscard]] std::string student_code_label(std::string_view lesson);

/// A kernel of a module, typed by its parameters: launched by the lesson's host code.
template <class... Parameters>
class ModuleKernel {
public:
    ModuleKernel(const Module& module, const std::string& name)
        : kernel_(module.kernel(name, {sizeof(Parameters)...})), name_(name)
    {
    }

    /// Launches on `stream` and checks the launch (a fault surfaces at the next synchronisation).
    void launch(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, Parameters... arguments) const
    {
        std::array<void*, sizeof...(Parameters)> pointers{static_cast<void*>(&arguments)...};
        COURSE_CUDA_CHECK(cudaLaunchKernel(function(), grid, block, pointers.data(), shared_bytes, stream));
    }

    /// For the runtime's per-kernel queries (cudaFuncGetAttributes, the occupancy calculator).
    [[nodiscard]] const void* function() const { return reinterpret_cast<const void*>(kernel_); }
    [[nodiscard]] const std::string& name() const { return name_; }

private:
    cudaKernel_t kernel_;
    std::string name_;
};

/// A value the student states as data in their module (a block size, say): read once.
template <class T>
[[nodiscard]] T read_module_value(const Module& module, const std::string& name)
{
    T value{};
    module.read_variable(name, &value, sizeof value);
    return value;
}

}  // namespace course
