// Gaming attempt: remembers the partials of the last call per input pointer and replays them when
// called again on the same array, so that the timed runs cost almost nothing. The grader re-checks
// after timing with new contents at the same address: the replayed sums are wrong.
//
// The judge reads the compiled module before running it and refuses it: its __device__ variables
// would keep state from one call to the next.
//
// replaces: reduce_neighbored_less.cu
// expect: ^fail: bad module: [a-z_]+\.fatbin defines module-scope global memory

#include "neighbored_reduction.cuh"

namespace {

constexpr unsigned kMaxBlocks = 1u << 20;
__device__ const int* g_last_data = nullptr;
__device__ std::size_t g_last_n = 0;
__device__ int g_saved[kMaxBlocks];

}  // namespace

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const unsigned blocks = unsigned((n + blockDim.x - 1) / blockDim.x);
    if (g_last_data == data && g_last_n == n && blocks <= kMaxBlocks) {
        if (tid == 0)
            partials[blockIdx.x] = g_saved[blockIdx.x];
        return;
    }
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index + stride < count)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    if (tid == 0) {
        partials[blockIdx.x] = block_data[0];
        if (blockIdx.x < kMaxBlocks)
            g_saved[blockIdx.x] = block_data[0];
        // Every block has saved its sum once the last one gets here; good enough for the attempt.
        if (blockIdx.x == gridDim.x - 1) {
            g_last_data = data;
            g_last_n = n;
        }
    }
}
