// Planted races: the last warp of a shared-memory tree reduction written warp-synchronously, as
// before Volta. Since Volta a warp's lanes need not run in step: without __syncwarp() between the
// steps, a lane reads a word another lane of its warp wrote in the step before (read-after-write);
// with __syncwarp() after each `+=`, a lane still overwrites a word another lane reads in the same
// step (write-after-read). A GPU usually gives the right sums.
#include "common.cuh"

constexpr unsigned kBlock = 128;

__device__ void lastWarpVolatile(volatile int* s, unsigned tid)
{
    s[tid] = s[tid] + s[tid + 32];
    s[tid] = s[tid] + s[tid + 16];
    s[tid] = s[tid] + s[tid + 8];
    s[tid] = s[tid] + s[tid + 4];
    s[tid] = s[tid] + s[tid + 2];
    s[tid] = s[tid] + s[tid + 1];
}

__device__ void lastWarpSyncedInPlace(volatile int* s, unsigned tid)
{
    for (unsigned offset = 32; offset > 0; offset /= 2) {
        s[tid] = s[tid] + s[tid + offset];
        __syncwarp();
    }
}

template <bool kSynced>
__global__ void reduceLastWarp(const int* in, int* out)
{
    __shared__ int s[kBlock];
    const unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * kBlock + tid];
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride > 32; stride /= 2) {
        if (tid < stride)
            s[tid] = s[tid] + s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        if (kSynced)
            lastWarpSyncedInPlace(s, tid);
        else
            lastWarpVolatile(s, tid);
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    int host[2 * kBlock];
    for (unsigned i = 0; i < 2 * kBlock; ++i)
        host[i] = static_cast<int>(i % 7) + 1;
    for (bool synced : {false, true}) {
        int *in, *out;
        cudaMalloc(&in, sizeof host);
        cudaMalloc(&out, 2 * sizeof(int));
        cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
        if (synced)
            reduceLastWarp<true><<<2, kBlock>>>(in, out);
        else
            reduceLastWarp<false><<<2, kBlock>>>(in, out);
        report(synced ? "with __syncwarp, in place" : "volatile only", cudaDeviceSynchronize());
        cudaDeviceReset();
    }
    return 0;
}
