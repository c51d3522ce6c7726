// Warp-level reductions: __shfl_down_sync, __ballot_sync + __popc +
// atomicAdd, int4 vector loads and grid-stride loops.
#include "common.cuh"

__inline__ __device__ int warpReduceSum(int v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

// Grid-stride loop, warp shuffle, one atomicAdd per warp.
__global__ void reduceShuffle(const int* in, int* total, int n)
{
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = warpReduceSum(sum);
    if ((threadIdx.x & (warpSize - 1)) == 0)
        atomicAdd(total, sum);
}

// Shared memory holds one partial per warp; the first warp finishes.
__global__ void reduceShuffleBlock(const int* in, int* total, int n)
{
    __shared__ int warpSums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    v = warpReduceSum(v);
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0)
        warpSums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / warpSize ? warpSums[lane] : 0;
        v = warpReduceSum(v);
        if (lane == 0)
            atomicAdd(total, v);
    }
}

// Counts positive elements with a ballot per warp.
__global__ void countPositive(const int* in, int* count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ballot = __ballot_sync(0xffffffff, i < n && in[i] > 0);
    if (threadIdx.x % warpSize == 0)
        atomicAdd(count, __popc(ballot));
}

// Four ints per load.
__global__ void reduceInt4(const int4* in, int* total, int n4)
{
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        int4 v = in[i];
        sum += v.x + v.y + v.z + v.w;
    }
    sum = warpReduceSum(sum);
    if (threadIdx.x % warpSize == 0)
        atomicAdd(total, sum);
}

int main()
{
    const int n = 1 << 20;
    int* h = new int[n];
    long long expected = 0;
    int positives = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = (i % 13) - 6;
        expected += h[i];
        positives += h[i] > 0;
    }
    int *d_in, *d_total;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_total, sizeof(int)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int result;

    CHECK(cudaMemset(d_total, 0, sizeof(int)));
    reduceShuffle<<<64, 256>>>(d_in, d_total, n);
    CHECK(cudaMemcpy(&result, d_total, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("shuffle grid-stride: %d (expected %lld)\n", result, expected);

    CHECK(cudaMemset(d_total, 0, sizeof(int)));
    reduceShuffleBlock<<<n / 512, 512>>>(d_in, d_total, n);
    CHECK(cudaMemcpy(&result, d_total, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("shuffle per block: %d (expected %lld)\n", result, expected);

    CHECK(cudaMemset(d_total, 0, sizeof(int)));
    countPositive<<<(n + 255) / 256, 256>>>(d_in, d_total, n);
    CHECK(cudaMemcpy(&result, d_total, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("ballot count: %d (expected %d)\n", result, positives);

    CHECK(cudaMemset(d_total, 0, sizeof(int)));
    reduceInt4<<<128, 128>>>(reinterpret_cast<const int4*>(d_in), d_total, n / 4);
    CHECK(cudaMemcpy(&result, d_total, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("int4 grid-stride: %d (expected %lld)\n", result, expected);
    CHECK(cudaDeviceSynchronize());
    return 0;
}
