// Simulator-only: cudasim::set_counting(false). A launch not counted gives the same result, under
// the same checks, with no counters and no modelled time, a kernel that syncs its grid included (its
// sum is the one printed); turned on again, launches are counted as before.
#include <cstdio>

#include <cooperative_groups.h>
#include <cudasim/counters.hpp>

__global__ void blockSums(const int* in, long long* out)
{
    __shared__ long long partial[256];
    partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

__global__ void writePastEnd(int* out, int n)
{
    out[n + threadIdx.x] = 1;
}

__global__ void gridSum(const long long* partials, int blocks, long long* total)
{
    cooperative_groups::this_grid().sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long sum = 0;
        for (int b = 0; b < blocks; ++b)
            sum += partials[b];
        *total = sum;
    }
}

constexpr int kBlocks = 64;
constexpr int kThreads = 256;

void sumOnce(const char* what, const int* in, long long* partials, long long* total)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    blockSums<<<kBlocks, kThreads>>>(in, partials);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    const cudasim::LaunchCounters c = cudasim::last_launch_counters();
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    void* args[] = {&partials, const_cast<int*>(&kBlocks), &total};
    cudaLaunchCooperativeKernel(reinterpret_cast<void*>(gridSum), dim3(kBlocks), dim3(32), args, 0, 0);
    cudaDeviceSynchronize();
    const cudasim::LaunchCounters g = cudasim::last_launch_counters();
    long long sum = 0;
    cudaMemcpy(&sum, total, sizeof sum, cudaMemcpyDeviceToHost);
    std::printf("%-12s sum %lld | blockSums counted %d, warp instructions > 0: %d, modelled time > 0: %d, "
                "event time > 0: %d | gridSum counted %d\n",
                what, sum, c.counted ? 1 : 0, c.counts.warp_instructions > 0 ? 1 : 0,
                c.modelled_milliseconds > 0 ? 1 : 0, ms > 0 ? 1 : 0, g.counted ? 1 : 0);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}

int main()
{
    int host[kBlocks * kThreads];
    for (int i = 0; i < kBlocks * kThreads; ++i)
        host[i] = i % 7 - 3;
    int* in;
    long long *partials, *total;
    cudaMalloc(&in, sizeof host);
    cudaMalloc(&partials, kBlocks * sizeof(long long));
    cudaMalloc(&total, sizeof(long long));
    cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);

    std::printf("counting at start: %d\n", cudasim::counting() ? 1 : 0);
    sumOnce("counted", in, partials, total);
    cudasim::set_counting(false);
    sumOnce("not counted", in, partials, total);
    // The checks stay on: an out-of-bounds write still faults.
    writePastEnd<<<1, 32>>>(in, kBlocks * kThreads);
    std::printf("out of bounds, not counted: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaDeviceReset();
    std::printf("counting after a reset: %d\n", cudasim::counting() ? 1 : 0);
    cudasim::set_counting(true);
    std::printf("counting: %d\n", cudasim::counting() ? 1 : 0);
    return 0;
}
