// Simulator-only: the counters of warp exchanges and 16-byte loads (cudasim/counters.hpp), on
// kernels whose counts are known exactly.
#include <cstdio>

#include <cudasim/counters.hpp>

// Five shuffles per warp (offsets 16, 8, 4, 2, 1); lane 0 of each warp writes the warp's sum.
__global__ void warpSum(const int* in, int* out)
{
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0)
        out[threadIdx.x / 32] = v;
}

// A 64-bit value moves as two 32-bit halves: ten shuffles per warp.
__global__ void warpSum64(const long long* in, long long* out)
{
    long long v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0)
        out[threadIdx.x / 32] = v;
}

// One int4 load per lane (16 bytes: a wide request, 512 bytes = 16 sectors), then one 4-byte load.
__global__ void vectorThenScalar(const int4* vectors, const int* scalars, int* out)
{
    int4 v = vectors[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w + scalars[threadIdx.x];
}

void show(const char* what)
{
    cudasim::LaunchCounters c = cudasim::last_launch_counters();
    std::printf(
        "%-18s shuffles %llu | warp reductions %llu | global ld %llu requests, %llu of 16 bytes, %llu sectors\n", what,
        (unsigned long long)c.counts.shuffles, (unsigned long long)c.counts.warp_reductions,
        (unsigned long long)c.counts.global_load_requests, (unsigned long long)c.counts.global_wide_load_requests,
        (unsigned long long)c.counts.global_load_sectors);
}

int main()
{
    int *in, *out;
    long long *in64, *out64;
    int4* vectors;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMalloc(&in64, 64 * sizeof(long long));
    cudaMalloc(&out64, 2 * sizeof(long long));
    cudaMalloc(&vectors, 32 * sizeof(int4));
    cudaMemset(in, 0, 64 * sizeof(int));
    cudaMemset(in64, 0, 64 * sizeof(long long));
    cudaMemset(vectors, 0, 32 * sizeof(int4));
    warpSum<<<1, 64>>>(in, out);
    show("warpSum, 2 warps");
    warpSum64<<<1, 64>>>(in64, out64);
    show("warpSum64, 2 warps");
    vectorThenScalar<<<1, 32>>>(vectors, in, out);
    show("vectorThenScalar");
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
