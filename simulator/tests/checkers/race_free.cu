// Kernels the race check must not report: shared memory ordered by barriers, by __syncwarp() between
// lanes of one warp, atomics, threads that only touch their own words (also single bytes of a
// shared word), a word written before a barrier and read by everyone after it, and many threads
// storing the same value into a flag.
#include <cstdlib>

#include "common.cuh"

#define CHECK(call)                \
    do {                           \
        cudaError_t err_ = (call); \
        if (err_ != cudaSuccess) { \
            report(#call, err_);   \
            std::exit(1);          \
        }                          \
    } while (0)

constexpr unsigned kBlock = 256;

// The tree with a barrier after every step.
__global__ void reduceBarriers(const int* in, int* out)
{
    __shared__ int s[kBlock];
    const unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * kBlock + tid];
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// The last warp alone, each step's sum read into a register before a __syncwarp() and written after it.
__global__ void reduceLastWarpSynced(const int* in, int* out)
{
    __shared__ int s[kBlock];
    const unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * kBlock + tid];
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride > 32; stride /= 2) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        int value = s[tid];
        for (unsigned offset = 32; offset > 0; offset /= 2) {
            value += s[tid + offset];
            __syncwarp();
            s[tid] = value;
            __syncwarp();
        }
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// A shared counter: atomics from every thread, read after a barrier.
__global__ void countPositive(const int* in, int* out)
{
    __shared__ int count;
    __shared__ int largest;
    if (threadIdx.x == 0)
        count = largest = 0;
    __syncthreads();
    const int x = in[blockIdx.x * kBlock + threadIdx.x];
    if (x > 3)
        atomicAdd(&count, 1);
    atomicMax(&largest, x);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = 100 * count + largest;
}

// Each thread updates only its own word, many times, with no barrier; bytes of one word belong to
// four different threads.
__global__ void ownWords(const int* in, int* out)
{
    __shared__ int mine[kBlock];
    __shared__ unsigned char flags[kBlock];
    const unsigned tid = threadIdx.x;
    mine[tid] = in[blockIdx.x * kBlock + tid];
    flags[tid] = static_cast<unsigned char>(tid);
    for (int i = 0; i < 3; ++i)
        mine[tid] += mine[tid] + flags[tid];
    flags[tid] = 1;
    out[blockIdx.x * kBlock + tid] = mine[tid] + flags[tid];
}

// One word written before a barrier and read by every thread after it; then many threads set a flag
// to the same value, read after another barrier.
__global__ void broadcast(const int* in, int* out)
{
    __shared__ int first;
    __shared__ int anyNegative;
    if (threadIdx.x == 0) {
        first = in[blockIdx.x * kBlock];
        anyNegative = 0;
    }
    __syncthreads();
    const int x = in[blockIdx.x * kBlock + threadIdx.x];
    if (x - first < 0)
        anyNegative = 1;
    __syncthreads();
    out[blockIdx.x * kBlock + threadIdx.x] = x - first + anyNegative;
}

// Neighbouring lanes swap words through shared memory with __syncwarp() between store and load.
__global__ void swapPairs(const int* in, int* out)
{
    __shared__ int s[kBlock];
    const unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * kBlock + tid];
    __syncwarp();
    const int other = s[tid ^ 1];
    __syncwarp();
    s[tid] = other;  // the old value was read by lane tid ^ 1 before the __syncwarp()
    out[blockIdx.x * kBlock + tid] = other;
}

int main()
{
    const unsigned blocks = 8, n = blocks * kBlock;
    int* host = new int[n];
    for (unsigned i = 0; i < n; ++i)
        host[i] = static_cast<int>((i * 37) % 11);
    int *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice));
    int* result = new int[n];
    auto sum = [&](unsigned count) {
        long long total = 0;
        for (unsigned i = 0; i < count; ++i)
            total += result[i];
        return total;
    };
    long long expected = 0;
    for (unsigned i = 0; i < n; ++i)
        expected += host[i];

    reduceBarriers<<<blocks, kBlock>>>(in, out);
    CHECK(cudaMemcpy(result, out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("barriers: %s\n", sum(blocks) == expected ? "ok" : "WRONG");

    reduceLastWarpSynced<<<blocks, kBlock>>>(in, out);
    CHECK(cudaMemcpy(result, out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("last warp with __syncwarp: %s\n", sum(blocks) == expected ? "ok" : "WRONG");

    countPositive<<<blocks, kBlock>>>(in, out);
    CHECK(cudaMemcpy(result, out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (unsigned b = 0; b < blocks; ++b) {
        int count = 0, largest = 0;
        for (unsigned t = 0; t < kBlock; ++t) {
            count += host[b * kBlock + t] > 3;
            largest = host[b * kBlock + t] > largest ? host[b * kBlock + t] : largest;
        }
        ok &= result[b] == 100 * count + largest;
    }
    std::printf("atomics: %s\n", ok ? "ok" : "WRONG");

    ownWords<<<blocks, kBlock>>>(in, out);
    CHECK(cudaMemcpy(result, out, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (unsigned i = 0; i < n; ++i) {
        int mine = host[i], flag = static_cast<int>(i % kBlock % 256);
        for (int r = 0; r < 3; ++r)
            mine += mine + flag;
        ok &= result[i] == mine + 1;
    }
    std::printf("own words and bytes: %s\n", ok ? "ok" : "WRONG");

    broadcast<<<blocks, kBlock>>>(in, out);
    CHECK(cudaMemcpy(result, out, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (unsigned b = 0; b < blocks; ++b) {
        int first = host[b * kBlock], negative = 0;
        for (unsigned t = 0; t < kBlock; ++t)
            negative |= host[b * kBlock + t] < first;
        for (unsigned t = 0; t < kBlock; ++t)
            ok &= result[b * kBlock + t] == host[b * kBlock + t] - first + negative;
    }
    std::printf("broadcast and flag: %s\n", ok ? "ok" : "WRONG");

    swapPairs<<<blocks, kBlock>>>(in, out);
    CHECK(cudaMemcpy(result, out, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (unsigned i = 0; i < n; ++i)
        ok &= result[i] == host[i ^ 1];
    std::printf("pairs swapped with __syncwarp: %s\n", ok ? "ok" : "WRONG");
    CHECK(cudaDeviceSynchronize());
    return 0;
}
