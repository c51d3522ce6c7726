// Which build of the fast paths runs (fast_paths.hpp): the AVX2 one where the CPU has AVX2, else
// the baseline, asked of the CPU once.
#include <algorithm>
#include <vector>

#include "exec/arithmetic/fast_paths.hpp"

namespace cudasim {

namespace fast_paths_baseline {
FastPath fast_path_of(const ptx::Instr& in);
}
#if CUDASIM_FAST_PATHS_AVX2
namespace fast_paths_avx2 {
FastPath fast_path_of(const ptx::Instr& in);
}
#endif

const std::vector<FastPathBuild>& fast_path_builds()
{
    static const std::vector<FastPathBuild> builds = [] {
        std::vector<FastPathBuild> found{FastPathBuild::Baseline};
#if CUDASIM_FAST_PATHS_AVX2
        if (__builtin_cpu_supports("avx2"))
            found.push_back(FastPathBuild::Avx2);
#endif
        return found;
    }();
    return builds;
}

FastPath fast_path_of(const ptx::Instr& in, [[maybe_unused]] FastPathBuild build)
{
#if CUDASIM_FAST_PATHS_AVX2
    if (build == FastPathBuild::Avx2)
        return fast_paths_avx2::fast_path_of(in);
#endif
    return fast_paths_baseline::fast_path_of(in);
}

std::vector<FastPath> fast_paths_of(const std::vector<ptx::Instr>& code)
{
    const FastPathBuild build = fast_path_builds().back();
    std::vector<FastPath> paths(code.size());
    std::transform(code.begin(), code.end(), paths.begin(),
                   [build](const ptx::Instr& in) { return fast_path_of(in, build); });
    return paths;
}

}  // namespace cudasim
