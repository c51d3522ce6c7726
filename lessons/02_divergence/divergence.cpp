// Lesson 02's host references: the outputs the divergent kernels define, computed with the very
// same integer functions. See lessons/02_divergence/README.md.
//
//   ./course grade 02

#include "divergence.hpp"

#include <cstdint>

namespace lesson02 {
namespace {

template <class Choose>
std::vector<int> map_with(std::span<const int> in, Choose even_for)
{
    std::vector<int> out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const auto x = static_cast<std::uint32_t>(in[i]);
        out[i] = static_cast<int>(even_for(i, in[i]) ? even_path(x) : odd_path(x));
    }
    return out;
}

}  // namespace

std::vector<int> expected_index_parity(std::span<const int> in)
{
    return map_with(in, [](std::size_t i, int) { return i % 2 == 0; });
}

std::vector<int> expected_value_parity(std::span<const int> in)
{
    return map_with(in, [](std::size_t, int value) { return value % 2 == 0; });
}

std::vector<int> expected_warp_parity(std::span<const int> in)
{
    return map_with(in, [](std::size_t i, int) { return i / 32 % 2 == 0; });
}

std::vector<float> expected_tiny(std::size_t n, bool by_warp)
{
    std::vector<float> out(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = (by_warp ? i / 32 % 2 : i % 2) == 0 ? 100.0f : 200.0f;
    return out;
}

std::vector<int> expected_output(Output output, std::span<const int> in)
{
    switch (output) {
    case Output::index_parity:
        return expected_index_parity(in);
    case Output::value_parity:
        return expected_value_parity(in);
    case Output::warp_parity:
        break;
    }
    return expected_warp_parity(in);
}

const std::vector<TinyKernel>& tiny_kernels()
{
    static const std::vector<TinyKernel> registry = {
        {"tiny-by-thread", "mathKernel1: if (tid % 2 == 0) a = 100 else b = 200", &launch_tiny_by_thread, false, ""},
        {"tiny-by-warp", "mathKernel2: the same branch on (tid / warpSize) % 2", &launch_tiny_by_warp, true,
         "tiny-by-thread"},
    };
    return registry;
}

const std::vector<MapKernel>& map_kernels()
{
    static const std::vector<MapKernel> registry = {
        {"index-divergent", "i % 2 picks the path: both paths in every warp", &launch_index_parity_divergent,
         Output::index_parity, false, ""},
        {"warp-parity", "(i / warpSize) % 2 picks the path: one path per warp, another output", &launch_warp_parity,
         Output::warp_parity, false, "index-divergent"},
        {"index-uniform", "the index-divergent output, each warp on one parity", &launch_index_parity_uniform,
         Output::index_parity, true, "index-divergent"},
        {"value-divergent", "in[i] % 2 picks the path: random data, both paths in every warp",
         &launch_value_parity_divergent, Output::value_parity, false, ""},
        {"value-uniform", "the value-divergent output, elements sorted by path within each block",
         &launch_value_parity_uniform, Output::value_parity, true, "value-divergent"},
    };
    return registry;
}

}  // namespace lesson02
