// Shared-memory tree reductions: static and dynamic shared memory,
// interleaved addressing and unrolled final warp with __syncwarp.
#include "common.cuh"

constexpr int kBlock = 256;

__global__ void reduceStatic(const int* in, int* out, int n)
{
    __shared__ int smem[kBlock];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    smem[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            smem[tid] += smem[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = smem[0];
}

__global__ void reduceDynamic(const int* in, int* out, int n)
{
    extern __shared__ int smem[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + tid;
    int v = 0;
    if (i < n)
        v += in[i];
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    smem[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            smem[tid] += smem[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        int sum = smem[tid] + smem[tid + 32];
        __syncwarp();
        for (int offset = 16; offset > 0; offset /= 2) {
            smem[tid] = sum;
            __syncwarp();
            sum += smem[tid + offset];
            __syncwarp();
        }
        if (tid == 0)
            out[blockIdx.x] = sum;
    }
}

// The last warp finishes the tree alone, through shared memory. Since Volta a warp's lanes need
// not run in lockstep, so __syncwarp() orders each step's writes before the next step's reads
// (the old volatile-only version of this loop is a data race).
__global__ void reduceLastWarpSynced(const int* in, int* out, int n)
{
    __shared__ int smem[kBlock];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    smem[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            smem[tid] += smem[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        int value = smem[tid] + smem[tid + 32];
        for (unsigned offset = 16; offset > 0; offset >>= 1) {
            smem[tid] = value;
            __syncwarp();
            value += smem[tid + offset];
            __syncwarp();
        }
        if (tid == 0)
            out[blockIdx.x] = value;
    }
}

int main()
{
    const int n = 100000;
    int* h = new int[n];
    long long expected = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = (i * 7919) % 1000 - 500;
        expected += h[i];
    }
    int *d_in, *d_out;
    const int grid = (n + kBlock - 1) / kBlock;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, grid * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int* partial = new int[grid];

    reduceStatic<<<grid, kBlock>>>(d_in, d_out, n);
    CHECK(cudaMemcpy(partial, d_out, grid * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < grid; ++i)
        sum += partial[i];
    std::printf("static: %lld %s\n", sum, sum == expected ? "ok" : "WRONG");

    const int grid2 = (n + 2 * kBlock - 1) / (2 * kBlock);
    reduceDynamic<<<grid2, kBlock, kBlock * sizeof(int)>>>(d_in, d_out, n);
    CHECK(cudaMemcpy(partial, d_out, grid2 * sizeof(int), cudaMemcpyDeviceToHost));
    sum = 0;
    for (int i = 0; i < grid2; ++i)
        sum += partial[i];
    std::printf("dynamic: %lld %s\n", sum, sum == expected ? "ok" : "WRONG");
    std::printf("first partials: %d %d\n", partial[0], partial[1]);

    reduceLastWarpSynced<<<grid, kBlock>>>(d_in, d_out, n);
    CHECK(cudaMemcpy(partial, d_out, grid * sizeof(int), cudaMemcpyDeviceToHost));
    sum = 0;
    for (int i = 0; i < grid; ++i)
        sum += partial[i];
    std::printf("last warp synced: %lld %s\n", sum, sum == expected ? "ok" : "WRONG");
    return 0;
}
