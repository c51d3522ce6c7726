// Gaming attempt: remembers the partials of the last call per input pointer, size and grid and
// replays them when called again on the same array, so that the timed runs read nothing. The grader
// puts new contents at the same address (the 64-bit test, and after timing or profiling): the
// replayed sums are wrong.
//
// The judge reads the compiled module before running it and refuses it: its __device__ variables
// would keep state from one call to the next.
//
// replaces: shuffle_sum.cu
// expect: ^fail: bad module: [a-z_]+\.fatbin defines module-scope global memory

#include "warp_shuffles.cuh"

namespace {

constexpr unsigned kMaxBlocks = 1u << 20;
constexpr unsigned kFullMask = 0xffffffffu;
__device__ const int* g_last_data = nullptr;
__device__ std::size_t g_last_n = 0;
__device__ unsigned g_last_grid = 0;
__device__ unsigned g_blocks_done = 0;
__device__ long long g_saved[kMaxBlocks];

__device__ long long warp_sum(long long value)
{
    for (unsigned offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(kFullMask, value, offset);
    return value;
}

}  // namespace

extern "C" __global__ void shuffle_sum(const int* data, std::size_t n, long long* partials)
{
    if (g_last_data == data && g_last_n == n && g_last_grid == gridDim.x && gridDim.x <= kMaxBlocks) {
        if (threadIdx.x == 0)
            partials[blockIdx.x] = g_saved[blockIdx.x];
        return;
    }
    __shared__ long long slots[32];
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    long long sum = 0;
    for (std::size_t i = thread; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        sum += data[i];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0)
        slots[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = warp_sum(threadIdx.x < blockDim.x / 32 ? slots[threadIdx.x] : 0);
        if (threadIdx.x == 0) {
            partials[blockIdx.x] = sum;
            if (blockIdx.x < kMaxBlocks)
                g_saved[blockIdx.x] = sum;
            // The block that finishes last marks the array as remembered: every block of this
            // launch has looked at the mark by then.
            __threadfence();
            if (atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1) {
                g_blocks_done = 0;
                g_last_data = data;
                g_last_n = n;
                g_last_grid = gridDim.x;
            }
        }
    }
}
