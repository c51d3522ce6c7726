// Special registers read through inline PTX: lane and warp numbers, SM id,
// the clocks and the global timer.
#include "common.cuh"

__device__ unsigned laneId()
{
    unsigned v;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(v));
    return v;
}

__device__ unsigned warpId()
{
    unsigned v;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(v));
    return v;
}

__device__ unsigned smId()
{
    unsigned v;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(v));
    return v;
}

__device__ unsigned long long globalTimer()
{
    unsigned long long v;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));
    return v;
}

__global__ void read(unsigned* ids, int* checks)
{
    int t = threadIdx.x;
    ids[t] = laneId() + 100 * (t / 32);
    long long c0 = clock64();
    unsigned t0 = clock();
    unsigned long long g0 = globalTimer();
    float x = t;
    for (int i = 0; i < 100; ++i)
        x = x * 0.5f + 1.0f;
    long long c1 = clock64();
    unsigned long long g1 = globalTimer();
    if (t == 0) {
        checks[0] = c1 > c0;
        checks[1] = clock() != t0 || x < 0;
        checks[2] = g1 >= g0 && g0 > 0;
        checks[3] = smId() < 132;
        checks[4] = warpId() < 64;
    }
}

int main()
{
    unsigned* ids;
    int* checks;
    CHECK(cudaMalloc(&ids, 64 * sizeof(unsigned)));
    CHECK(cudaMalloc(&checks, 5 * sizeof(int)));
    read<<<1, 64>>>(ids, checks);
    unsigned h[64];
    int c[5];
    CHECK(cudaMemcpy(h, ids, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(c, checks, sizeof c, cudaMemcpyDeviceToHost));
    std::printf("lane ids: %u %u %u %u\n", h[0], h[31], h[32], h[63]);
    std::printf("clock64 advances %d, clock advances %d, globaltimer advances %d, smid < 132 %d, warpid < 64 %d\n",
                c[0], c[1], c[2], c[3], c[4]);
    return 0;
}
