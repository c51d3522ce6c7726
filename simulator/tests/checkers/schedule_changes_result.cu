// A race the in-order schedule hides: thread 0 (warp 0) stores a value in shared memory that thread
// 32 (warp 1) reads, with no barrier between them. In order, warp 0 runs first and every block reads
// the value; under a seeded schedule (CUDASIM_SCHEDULE) warp 1 runs first in some blocks. Run with
// the race check off, as a program whose race goes unreported would.
#include <cstdio>

constexpr unsigned kBlocks = 64;

__global__ void handOver(int* seen)
{
    __shared__ volatile int value;  // volatile: else the compiler takes 42 to be the only value it can hold
    if (threadIdx.x == 0)
        value = 42;
    if (threadIdx.x == 32)
        seen[blockIdx.x] = value;
}

int main()
{
    int* seen;
    cudaMalloc(&seen, kBlocks * sizeof(int));
    handOver<<<kBlocks, 64>>>(seen);
    int host[kBlocks];
    cudaMemcpy(host, seen, sizeof host, cudaMemcpyDeviceToHost);
    unsigned found = 0;
    for (int v : host)
        found += v == 42;
    std::printf("%u of %u blocks: warp 1 found warp 0's value\n", found, kBlocks);
    return 0;
}
