// Simulator-only: the per-launch counters of cudasim/counters.hpp on
// kernels whose counts are known exactly.
#include <cstdio>

#include <cudasim/counters.hpp>

// Loops in both branches keep nvcc from turning the if into a select.
__global__ void evenOdd(float* out, int n)
{
    int tid = threadIdx.x;
    float v = 0.0f;
    if (tid % 2 == 0) {
        for (int i = 0; i < n; ++i)
            v += sinf(v + i);
    } else {
        for (int i = 0; i < n; ++i)
            v += cosf(v + i);
    }
    out[tid] = v;
}

__global__ void warpParity(float* out, int n)
{
    int tid = threadIdx.x;
    float v = 0.0f;
    if ((tid / warpSize) % 2 == 0) {
        for (int i = 0; i < n; ++i)
            v += sinf(v + i);
    } else {
        for (int i = 0; i < n; ++i)
            v += cosf(v + i);
    }
    out[tid] = v;
}

__global__ void sharedStride(int* out, int stride)
{
    __shared__ int smem[32 * 32];
    smem[(threadIdx.x * stride) % (32 * 32)] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = smem[threadIdx.x];
}

__global__ void globalStride(const int* in, int* out, int stride)
{
    out[threadIdx.x] = in[threadIdx.x * stride];
}

// Lane 31 reads the first int and lane 0 the 32nd: a line that runs backwards.
__global__ void globalReverse(const int* in, int* out)
{
    out[threadIdx.x] = in[31 - threadIdx.x];
}

// One byte of each 4-byte record.
__global__ void globalBytes(const unsigned char* in, int* out)
{
    out[threadIdx.x] = in[threadIdx.x * 4];
}

// The odd lanes read every third int, the highest first: 16 lanes whose sectors come out of order,
// two lanes in some of them (ints 0 to 90, six apart: 12 sectors); they write one int each, two
// lanes to a sector (4 sectors).
__global__ void globalOddLanesBackwards(const int* in, int* out)
{
    if (threadIdx.x % 2 == 1)
        out[threadIdx.x] = in[(31 - threadIdx.x) * 3];
}

void show(const char* what)
{
    cudasim::LaunchCounters c = cudasim::last_launch_counters();
    std::printf("%-16s branches %llu divergent %llu efficiency %.2f | shared st %llu ld %llu conflicts %llu | "
                "global ld %llu/%llu sectors st %llu/%llu sectors | barriers %llu | warp eff %.3f\n",
                what, (unsigned long long)c.counts.branches, (unsigned long long)c.counts.divergent_branches,
                c.branch_efficiency(), (unsigned long long)c.counts.shared_store_requests,
                (unsigned long long)c.counts.shared_load_requests, (unsigned long long)c.counts.shared_bank_conflicts,
                (unsigned long long)c.counts.global_load_requests, (unsigned long long)c.counts.global_load_sectors,
                (unsigned long long)c.counts.global_store_requests, (unsigned long long)c.counts.global_store_sectors,
                (unsigned long long)c.counts.barriers, c.warp_execution_efficiency());
}

int main()
{
    float* f;
    int *a, *b;
    cudaMalloc(&f, 64 * sizeof(float));
    cudaMalloc(&a, 32 * 32 * sizeof(int));
    cudaMalloc(&b, 64 * sizeof(int));
    // The kernels read what they were given: zeros, not memory nothing wrote (the initcheck).
    cudaMemset(f, 0, 64 * sizeof(float));
    cudaMemset(a, 0, 32 * 32 * sizeof(int));
    cudaMemset(b, 0, 64 * sizeof(int));
    evenOdd<<<1, 64>>>(f, 4);
    show("evenOdd");
    warpParity<<<1, 64>>>(f, 4);
    show("warpParity");
    sharedStride<<<1, 32>>>(b, 1);
    show("shared stride 1");
    sharedStride<<<1, 32>>>(b, 2);
    show("shared stride 2");
    sharedStride<<<1, 32>>>(b, 32);
    show("shared stride 32");
    globalStride<<<1, 32>>>(a, b, 1);
    show("global stride 1");
    globalStride<<<1, 32>>>(a, b, 2);
    show("global stride 2");
    globalStride<<<1, 32>>>(a, b, 8);
    show("global stride 8");
    globalStride<<<1, 32>>>(a, b, 9);
    show("global stride 9");
    globalStride<<<1, 32>>>(a, b, 32);
    show("global stride 32");
    globalReverse<<<1, 32>>>(a, b);
    show("global reverse");
    globalBytes<<<1, 32>>>(reinterpret_cast<const unsigned char*>(a), b);
    show("global bytes");
    globalOddLanesBackwards<<<1, 32>>>(a, b);
    show("odd lanes back");
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
