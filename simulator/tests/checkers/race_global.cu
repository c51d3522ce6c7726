// Planted races in global memory, which compute-sanitizer's racecheck does not watch. An in-place
// tree reduction over global memory, as lesson 03's kernels are, whose last five steps, where only
// warp 0 adds, have no barrier: a lane reads the word another lane of its warp wrote one step
// before (read-after-write, lanes of one warp). A GPU usually gives the right sums. Then the
// same tree with a barrier after every step, which must pass, and one that publishes a value from
// warp 0 to warp 1 with no barrier (read-after-write between warps).
#include "common.cuh"

constexpr unsigned kBlock = 256;

template <bool kBarrierEveryStep>
__global__ void reduceInPlace(int* data, int* sums)
{
    int* block = data + blockIdx.x * kBlock;
    const unsigned tid = threadIdx.x;
    for (unsigned stride = 1; stride < kBlock; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < kBlock)
            block[index] += block[index + stride];
        // After a step in which only warp 0 added, the next step is warp 0's alone too.
        if (kBarrierEveryStep || 2 * stride * 32 < kBlock)
            __syncthreads();
    }
    if (tid == 0)
        sums[blockIdx.x] = block[0];
}

__global__ void publishWithoutBarrier(int* cell, int* seen)
{
    if (threadIdx.x == 0)
        *cell = 42;
    if (threadIdx.x == 32)
        *seen = *cell;
}

int main()
{
    int host[2 * kBlock];
    for (unsigned i = 0; i < 2 * kBlock; ++i)
        host[i] = static_cast<int>(i % 5) + 1;
    for (bool everyStep : {false, true}) {
        int *data, *sums;
        cudaMalloc(&data, sizeof host);
        cudaMalloc(&sums, 2 * sizeof(int));
        cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);
        if (everyStep)
            reduceInPlace<true><<<2, kBlock>>>(data, sums);
        else
            reduceInPlace<false><<<2, kBlock>>>(data, sums);
        report(everyStep ? "a barrier after every step" : "no barrier in warp 0's steps", cudaDeviceSynchronize());
        cudaDeviceReset();
    }
    int *cell, *seen;
    cudaMalloc(&cell, sizeof(int));
    cudaMalloc(&seen, sizeof(int));
    cudaMemset(cell, 0, sizeof(int));
    publishWithoutBarrier<<<1, 64>>>(cell, seen);
    report("warp 0 publishes, warp 1 reads", cudaDeviceSynchronize());
    return 0;
}
