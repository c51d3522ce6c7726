// Gaming attempt: counts with one atomic per warp once, then remembers the count per input
// pointer, size and threshold and replays it, so that repeated runs on one array cost one atomic.
// The grader counts again on new contents written into the same array: the replayed count is
// wrong.
//
// The judge reads the compiled module before running it and refuses it: its __device__ variables
// would keep state from one call to the next.
//
// replaces: count_per_warp.cu
// expect: ^fail: bad module: [a-z_]+\.fatbin defines module-scope global memory

#include "warp_basics.cuh"

namespace {
__device__ const int* g_data = nullptr;
__device__ std::size_t g_n = 0;
__device__ int g_threshold = 0;
__device__ unsigned long long g_count = 0;
__device__ unsigned long long g_done = 0;
}  // namespace

extern "C" __global__ void count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const unsigned blocks = gridDim.x;
    if (g_data == data && g_n == n && g_threshold == threshold) {
        if (blockIdx.x == 0 && threadIdx.x == 0)
            atomicAdd(count, g_count);
        return;
    }
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool below = i < n && data[i] < threshold;
    const unsigned votes = __ballot_sync(0xffffffffu, below);
    if (threadIdx.x % warpSize == 0 && votes != 0) {
        atomicAdd(count, static_cast<unsigned long long>(__popc(votes)));
        atomicAdd(&g_count, static_cast<unsigned long long>(__popc(votes)));
    }
    __syncthreads();
    // The last block to finish records what the count was for.
    if (threadIdx.x == 0 && atomicAdd(&g_done, 1ull) % blocks == blocks - 1) {
        g_data = data;
        g_n = n;
        g_threshold = threshold;
    }
}
