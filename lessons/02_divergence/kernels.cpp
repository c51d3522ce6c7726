// Lesson 02's host side: the outputs the divergent kernels define, computed with the very same
// integer functions, and the registries of kernels that the demo and the grader share. See
// lessons/02_divergence/README.md.
//
//   ./course grade 02

#include "divergence.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lesson02 {

int expected_element(Output output, std::size_t i, int value)
{
    bool even = i / 32 % 2 == 0;  // Output::warp_parity
    if (output == Output::index_parity)
        even = i % 2 == 0;
    else if (output == Output::value_parity)
        even = value % 2 == 0;
    const auto x = static_cast<std::uint32_t>(value);
    return static_cast<int>(even ? even_path(x) : odd_path(x));
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
    std::vector<int> out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
        out[i] = expected_element(output, i, in[i]);
    return out;
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
