// In-place neighbored reduction in global memory with __syncthreads().
#include "common.cuh"

__global__ void reduceNeighbored(int* g_idata, int* g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int* idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// Less divergent: consecutive threads do the work.
__global__ void reduceNeighboredLess(int* g_idata, int* g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int* idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int index = 2 * stride * tid;
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

int main()
{
    const unsigned n = 1 << 16;
    const int block = 512, grid = n / block;
    int* h = new int[n];
    long long expected = 0;
    for (unsigned i = 0; i < n; ++i) {
        h[i] = (int)(i % 97) - 40;
        expected += h[i];
    }
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, grid * sizeof(int)));
    int* partial = new int[grid];
    for (int version = 0; version < 2; ++version) {
        CHECK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
        if (version == 0)
            reduceNeighbored<<<grid, block>>>(d_in, d_out, n);
        else
            reduceNeighboredLess<<<grid, block>>>(d_in, d_out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(partial, d_out, grid * sizeof(int), cudaMemcpyDeviceToHost));
        long long sum = 0;
        for (int i = 0; i < grid; ++i)
            sum += partial[i];
        std::printf("version %d: sum %lld (expected %lld), block 0 %d, block 127 %d\n", version, sum, expected,
                    partial[0], partial[grid - 1]);
    }
    free_device(d_in, d_out);
    delete[] h;
    delete[] partial;
    return 0;
}
