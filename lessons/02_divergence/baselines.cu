// Lesson 02 baselines: branches that split every warp, with tiny and with heavy bodies. See
// lessons/02_divergence/README.md.
//
//   ./course run 02 --kernel tiny-by-thread
//   ./course run 02 --kernel index-divergent

#include "divergence.hpp"

#include "course/reduction.hpp"

namespace lesson02 {
namespace {

//! [tiny_kernels]
__global__ void tiny_by_thread(float* out, std::size_t n)
{
    const std::size_t tid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    float a = 0.0f;
    float b = 0.0f;
    // One assignment per side: the compiler predicates it (both sides issued for every lane,
    // each lane keeping its own result), so there is no branch left to diverge.
    if (tid % 2 == 0)
        a = 100.0f;
    else
        b = 200.0f;
    out[tid] = a + b;
}

__global__ void tiny_by_warp(float* out, std::size_t n)
{
    const std::size_t tid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    float a = 0.0f;
    float b = 0.0f;
    if ((tid / warpSize) % 2 == 0)
        a = 100.0f;
    else
        b = 200.0f;
    out[tid] = a + b;
}
//! [tiny_kernels]

//! [index_parity_divergent]
__global__ void index_parity_divergent(const int* in, int* out, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    // Neighbouring lanes take different paths: the warp runs even_path with the odd lanes
    // masked off, then odd_path with the even lanes masked off.
    if (i % 2 == 0)
        out[i] = static_cast<int>(even_path(x));
    else
        out[i] = static_cast<int>(odd_path(x));
}
//! [index_parity_divergent]

//! [value_parity_divergent]
__global__ void value_parity_divergent(const int* in, int* out, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const int value = in[i];
    const auto x = static_cast<std::uint32_t>(value);
    // The path depends on the data: with random values nearly every warp needs both.
    if (value % 2 == 0)
        out[i] = static_cast<int>(even_path(x));
    else
        out[i] = static_cast<int>(odd_path(x));
}
//! [value_parity_divergent]

__global__ void warp_parity(const int* in, int* out, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    // Whole warps take one path (blocks are multiples of 32 threads): no divergence, but the
    // output is a different function of i than index_parity_divergent's.
    if ((i / warpSize) % 2 == 0)
        out[i] = static_cast<int>(even_path(x));
    else
        out[i] = static_cast<int>(odd_path(x));
}

}  // namespace

void launch_tiny_by_thread(float* out, std::size_t n, unsigned block, cudaStream_t stream)
{
    tiny_by_thread<<<course::blocks_for(n, block), block, 0, stream>>>(out, n);
}

void launch_tiny_by_warp(float* out, std::size_t n, unsigned block, cudaStream_t stream)
{
    tiny_by_warp<<<course::blocks_for(n, block), block, 0, stream>>>(out, n);
}

void launch_index_parity_divergent(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream)
{
    index_parity_divergent<<<course::blocks_for(n, block), block, 0, stream>>>(in, out, n);
}

void launch_value_parity_divergent(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream)
{
    value_parity_divergent<<<course::blocks_for(n, block), block, 0, stream>>>(in, out, n);
}

void launch_warp_parity(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream)
{
    warp_parity<<<course::blocks_for(n, block), block, 0, stream>>>(in, out, n);
}

}  // namespace lesson02
