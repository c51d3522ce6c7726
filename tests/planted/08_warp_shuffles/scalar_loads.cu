// Planted bug for lesson 08's grader: right sums, warp shuffles and one slot per warp, but 4-byte
// loads: too few bytes in flight to reach the copy's bandwidth.
// The grader must reject this kernel (tests/planted/08_warp_shuffles/CMakeLists.txt says with which
// message).

#include "warp_shuffles.cuh"

namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ long long warp_sum(long long value)
{
    for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(kFullMask, value, offset);
    return value;
}

__device__ long long block_sum(long long value)
{
    __shared__ long long slots[1024 / kWarpSize];
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warp = threadIdx.x / kWarpSize;
    value = warp_sum(value);
    if (lane == 0)
        slots[warp] = value;
    __syncthreads();
    if (warp == 0) {
        value = lane < blockDim.x / kWarpSize ? slots[lane] : 0;
        value = warp_sum(value);
    }
    return value;
}

}  // namespace

extern "C" __global__ void shuffle_sum(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    long long sum = 0;
    for (std::size_t i = thread; i < n; i += threads)
        sum += data[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
