#include "course/module.hpp"

#include "course/failures.hpp"
#include "course/module_ptx.hpp"

#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#ifndef COURSE_MODULES_ROOT
#error "COURSE_MODULES_ROOT must name the build tree's modules folder (common/CMakeLists.txt sets it)"
#endif

namespace course {
namespace {

std::string read_file(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read the module " + file.string());
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes.push_back('\0');  // PTX text must end with a NUL; a fat binary ignores what follows it
    return bytes;
}

std::vector<std::filesystem::path> split_path(std::string_view folders)
{
    std::vector<std::filesystem::path> result;
    while (!folders.empty()) {
        const auto colon = folders.find(':');
        if (const auto folder = folders.substr(0, colon); !folder.empty())
            result.emplace_back(folder);
        folders = colon == std::string_view::npos ? std::string_view{} : folders.substr(colon + 1);
    }
    return result;
}

struct ModuleCache {
    std::mutex mutex;
    std::string student_path = COURSE_MODULES_ROOT "/exercise";
    std::map<std::tuple<bool, std::string, std::string>, std::unique_ptr<Module>, std::less<>> loaded;
};

ModuleCache& cache()
{
    static ModuleCache instance;
    return instance;
}

const Module& find_module(bool reference, std::string_view lesson, std::string_view stem)
{
    auto& modules = cache();
    std::lock_guard lock(modules.mutex);
    auto key = std::make_tuple(reference, std::string(lesson), std::string(stem));
    if (const auto it = modules.loaded.find(key); it != modules.loaded.end())
        return *it->second;
    const std::string folders = reference ? COURSE_MODULES_ROOT "/solution" : modules.student_path;
    const auto relative = std::filesystem::path(lesson) / (std::string(stem) + ".fatbin");
    for (const auto& folder : split_path(folders)) {
        if (std::filesystem::exists(folder / relative)) {
            // Loaded before it is cached: a module refused once is refused again at the next use.
            auto module = std::make_unique<Module>(folder / relative);
            return *(modules.loaded[key] = std::move(module));
        }
    }
    const std::string file = std::string(lesson) + "/" + std::string(stem);
    if (reference)
        throw std::runtime_error("the course's reference module " + file + ".fatbin is not in " + folders +
                                 ": this lesson's baselines are built from solutions/");
    throw std::runtime_error("no module built from exercises/" + file + ".cu in " + folders +
                             ": build it first (./course grade and ./course run do)");
}

}  // namespace

Module::Module(std::filesystem::path file) : file_(std::move(file))
{
    const std::string image = read_file(file_);
    // Before anything of it runs: what the compiled code declares.
    const ModulePtx ptx = read_module_ptx(image);
    if (!ptx.found)
        throw std::runtime_error(file_.string() + " carries no PTX, so what it declares cannot be checked: the course "
                                                  "builds its modules with PTX (cmake/CourseModules.cmake)");
    if (!ptx.global_state.empty()) {
        std::string names;
        for (const auto& name : ptx.global_state)
            names += (names.empty() ? "" : ", ") + demangled(name);
        throw StudentModuleError(failure::bad_module.with(
            file_.filename().string() + " defines module-scope global memory (" + names +
            "): a __device__ or __managed__ variable keeps its value from one call to the next, and a graded kernel "
            "may hold no state between calls (an answer remembered from an earlier call is not an answer). Keep "
            "per-call state in registers, shared memory or the buffers the lesson passes, read-only tables in "
            "__constant__ memory"));
    }
    kernels_ = ptx.kernels;
    const cudaError_t status = cudaLibraryLoadData(&library_, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (status != cudaSuccess)
        throw CudaError(status, ("cudaLibraryLoadData(" + file_.string() + ")").c_str(), __FILE__, __LINE__);
}

Module::~Module()
{
    if (library_ == nullptr)
        return;
    const cudaError_t status = cudaLibraryUnload(library_);
    // The module cache outlives main: when the runtime has shut down first, the driver has already
    // released the library with the context, and saying so would read as a failed run.
    if (status != cudaSuccess && status != cudaErrorCudartUnloading)
        detail::report_cuda_error(status, "cudaLibraryUnload(library_)", __FILE__, __LINE__);
}

cudaKernel_t Module::kernel(const std::string& name, const std::vector<std::size_t>& parameter_sizes) const
{
    cudaKernel_t kernel = nullptr;
    if (cudaLibraryGetKernel(&kernel, library_, name.c_str()) != cudaSuccess) {
        (void)cudaGetLastError();  // a missing kernel is the student's mistake, not a sticky error
        std::string defined;
        for (const auto& kernel_name : kernels_)
            defined += (defined.empty() ? "" : ", ") + demangled(kernel_name);
        throw StudentModuleError(failure::bad_module.with(
            "no kernel named " + name + " in " + file_.filename().string() + " (it defines " +
            (defined.empty() ? std::string("no kernel") : defined) +
            "): a student file holds device code only (kernels, __device__ functions, __constant__ launch choices; no "
            "host code that launches them), and the lesson launches extern \"C\" __global__ " +
            name + " as its interface header declares it"));
    }
    const void* function = reinterpret_cast<const void*>(kernel);
    for (std::size_t i = 0; i <= parameter_sizes.size(); ++i) {
        std::size_t offset = 0;
        std::size_t size = 0;
        const bool exists = cudaFuncGetParamInfo(function, i, &offset, &size) == cudaSuccess;
        if (!exists)
            (void)cudaGetLastError();
        const bool expected = i < parameter_sizes.size();
        if (exists != expected || (exists && size != parameter_sizes[i])) {
            std::ostringstream text;
            text << "kernel " << name << " in " << file_.string() << " does not take the parameters the lesson's "
                 << "interface header declares (parameter " << i + 1 << ": "
                 << (exists ? std::to_string(size) + " bytes" : std::string("missing")) << ", expected "
                 << (expected ? std::to_string(parameter_sizes[i]) + " bytes" : std::string("none")) << ")";
            throw StudentModuleError(failure::bad_module.with(text.str()));
        }
    }
    return kernel;
}

void Module::read_variable(const std::string& name, void* into, std::size_t size) const
{
    void* address = nullptr;
    std::size_t bytes = 0;
    if (cudaLibraryGetGlobal(&address, &bytes, library_, name.c_str()) != cudaSuccess) {
        (void)cudaGetLastError();
        throw StudentModuleError(
            failure::bad_module.with("no __constant__ variable named " + name + " in " + file_.filename().string() +
                                     ": define it extern \"C\", as the lesson's interface header declares it"));
    }
    if (bytes != size)
        throw StudentModuleError(failure::bad_module.with(
            "the variable " + name + " in " + file_.filename().string() + " is " + std::to_string(bytes) +
            " bytes, the lesson's interface expects " + std::to_string(size)));
    COURSE_CUDA_CHECK(cudaMemcpy(into, address, size, cudaMemcpyDeviceToHost));
}

const Module& student_module(std::string_view lesson, std::string_view stem)
{
    return find_module(false, lesson, stem);
}

const Module& reference_module(std::string_view lesson, std::string_view stem)
{
    return find_module(true, lesson, stem);
}

void set_student_module_path(std::string_view colon_separated_folders)
{
    auto& modules = cache();
    std::lock_guard lock(modules.mutex);
    modules.student_path = std::string(colon_separated_folders);
}

std::string student_module_path()
{
    auto& modules = cache();
    std::lock_guard lock(modules.mutex);
    return modules.student_path;
}

std::string student_code_label(std::string_view lesson)
{
    const auto folders = split_path(student_module_path());
    if (folders.empty())
        return std::string(lesson);
    const auto set = folders.front().filename().string();
    if (set == "exercise" || set == "starter" || set == "solution")
        return set + "s/" + std::string(lesson);
    return (folders.front() / lesson).string();
}

std::optional<std::string> missing_module_folder(std::string_view colon_separated_folders)
{
    for (const auto& folder : split_path(colon_separated_folders))
        if (!std::filesystem::is_directory(folder))
            return folder.string();
    return std::nullopt;
}

std::optional<std::filesystem::path> find_student_file(std::string_view lesson, std::string_view name)
{
    for (const auto& folder : split_path(student_module_path()))
        if (const auto candidate = folder / lesson / name; std::filesystem::is_regular_file(candidate))
            return candidate;
    return std::nullopt;
}

}  // namespace course
