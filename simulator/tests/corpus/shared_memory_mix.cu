// Shared, constant and global memory declared in the ways students do: static __shared__ arrays
// (one 2-D, padded, and one declared inside a __device__ function) next to extern __shared__
// dynamic memory in the same kernel; dynamic memory carved by offsets into arrays of two types,
// with a double aligned after an odd number of chars; two extern __shared__ declarations of
// different types that share one address; a kernel template instantiated for several block sizes
// (with its static shared size from cudaFuncGetAttributes); __constant__ memory written with
// cudaMemcpyToSymbol (whole and at an offset) and read back with cudaMemcpyFromSymbol; and
// __device__ globals, initialised, updated by a kernel and read back, also through
// cudaGetSymbolAddress.
#include <cstdint>

#include "common.cuh"

struct Coefficients {
    float scale;
    int offset;
    double weights[4];
};

__constant__ Coefficients coefficients;
__constant__ int lookup[16];
__device__ int launches = 100;
__device__ long long history[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ unsigned alignmentChecks;

// Static shared memory declared in a device function: one copy per block.
__device__ int blockTotal(int v)
{
    __shared__ int total;
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    atomicAdd(&total, v);
    __syncthreads();
    return total;
}

// Static 2-D tile (padded against bank conflicts) plus dynamic memory carved into a char array of
// `tags` entries and, after it (rounded up to 8 bytes), a double per thread.
__global__ void mixed(const float* in, float* transposed, double* sums, int tags)
{
    __shared__ float tile[16][17];
    extern __shared__ unsigned char dynamic[];
    char* tag = reinterpret_cast<char*>(dynamic);
    double* partial = reinterpret_cast<double*>(dynamic + ((tags + 7) & ~7));

    const int x = threadIdx.x % 16, y = threadIdx.x / 16;  // 256 threads: a 16 x 16 tile
    tile[y][x] = in[blockIdx.x * 256 + y * 16 + x];
    if (threadIdx.x < tags)
        tag[threadIdx.x] = static_cast<char>('a' + threadIdx.x % 26);
    partial[threadIdx.x] = tile[y][x] * 0.5;
    __syncthreads();
    transposed[blockIdx.x * 256 + y * 16 + x] = tile[x][y];
    if (threadIdx.x == 0) {
        double s = 0;
        for (int i = 0; i < 256; ++i)
            s += partial[i];
        int t = 0;
        for (int i = 0; i < tags; ++i)
            t += tag[i];
        sums[blockIdx.x * 3] = s;
        sums[blockIdx.x * 3 + 1] = t;
        sums[blockIdx.x * 3 + 2] =
            (reinterpret_cast<uintptr_t>(partial) % 8 == 0) +
            2 * (reinterpret_cast<uintptr_t>(&tile[1][0]) - reinterpret_cast<uintptr_t>(&tile[0][0]));
    }
    int total = blockTotal(static_cast<int>(threadIdx.x));
    if (threadIdx.x == 0)
        atomicAdd(&alignmentChecks, total == 255 * 256 / 2);
}

// Two extern __shared__ arrays of different types start at the same address.
__global__ void aliased(unsigned* out)
{
    extern __shared__ int asInt[];
    extern __shared__ float asFloat[];
    asFloat[threadIdx.x] = threadIdx.x * 0.25f - 1.0f;
    __syncthreads();
    out[threadIdx.x] = static_cast<unsigned>(asInt[blockDim.x - 1 - threadIdx.x]);
}

// Block-size template: a static array sized by the parameter, a tree reduction, and constants.
template <int N>
__global__ void reduceBlock(const int* in, long long* out)
{
    __shared__ long long cache[N];
    __shared__ int flags[N / 32 + 1];
    const int t = threadIdx.x;
    const int v = in[blockIdx.x * N + t];
    cache[t] = static_cast<long long>(v) * lookup[t % 16] + coefficients.offset;
    if (t % 32 == 0)
        flags[t / 32] = 1;
    __syncthreads();
    for (int stride = N / 2; stride > 0; stride /= 2) {
        if (t < stride)
            cache[t] += cache[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        int f = 0;
        for (int i = 0; i < N / 32; ++i)
            f += flags[i];
        const double w = coefficients.weights[N % 4] * coefficients.scale;
        out[blockIdx.x] = cache[0] * 10 + f + static_cast<long long>(w);
        atomicAdd(&launches, 1);
        atomicAdd(reinterpret_cast<unsigned long long*>(&history[N / 32 % 8]), static_cast<unsigned long long>(N));
    }
}

template <int N>
void runReduce(const int* d_in, long long* d_out)
{
    reduceBlock<N><<<2, N>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    long long h[2];
    CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, reduceBlock<N>));
    std::printf("reduceBlock<%d>: %lld %lld, static shared %zu bytes\n", N, h[0], h[1], attributes.sharedSizeBytes);
}

int main()
{
    // Constants: the whole struct, then the lookup table in two parts, the second at an offset.
    Coefficients c = {1.5f, 7, {10.0, 20.0, 30.0, 40.0}};
    CHECK(cudaMemcpyToSymbol(coefficients, &c, sizeof c));
    int table[16];
    for (int i = 0; i < 16; ++i)
        table[i] = i % 5 - 2;
    CHECK(cudaMemcpyToSymbol(lookup, table, 8 * sizeof(int)));
    CHECK(cudaMemcpyToSymbol(lookup, table + 8, 8 * sizeof(int), 8 * sizeof(int)));
    Coefficients back;
    int tableBack[4];
    CHECK(cudaMemcpyFromSymbol(&back, coefficients, sizeof back));
    CHECK(cudaMemcpyFromSymbol(tableBack, lookup, sizeof tableBack, 10 * sizeof(int)));
    std::printf("constants read back: %.2f %d %.1f | %d %d %d %d\n", back.scale, back.offset, back.weights[3],
                tableBack[0], tableBack[1], tableBack[2], tableBack[3]);

    const int blocks = 2;
    float* h_in = new float[blocks * 256];
    for (int i = 0; i < blocks * 256; ++i)
        h_in[i] = static_cast<float>(i % 97) - 40.0f;
    float *d_in, *d_t;
    double* d_sums;
    CHECK(cudaMalloc(&d_in, blocks * 256 * sizeof(float)));
    CHECK(cudaMalloc(&d_t, blocks * 256 * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, blocks * 3 * sizeof(double)));
    CHECK(cudaMemcpy(d_in, h_in, blocks * 256 * sizeof(float), cudaMemcpyHostToDevice));
    const int tags = 13;
    const size_t dynamicBytes = ((tags + 7) & ~7) + 256 * sizeof(double);
    mixed<<<blocks, 256, dynamicBytes>>>(d_in, d_t, d_sums, tags);
    CHECK(cudaGetLastError());
    float* h_t = new float[blocks * 256];
    double h_sums[blocks * 3];
    CHECK(cudaMemcpy(h_t, d_t, blocks * 256 * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost));
    std::printf("transpose: %.0f %.0f %.0f %.0f\n", h_t[1], h_t[16], h_t[256 + 17 * 3], h_t[511]);
    for (int b = 0; b < blocks; ++b)
        std::printf("block %d: double sum %.1f, tag sum %.0f, aligned + 2 * row bytes %.0f\n", b, h_sums[b * 3],
                    h_sums[b * 3 + 1], h_sums[b * 3 + 2]);
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, mixed));
    std::printf("mixed: static shared %zu bytes\n", attributes.sharedSizeBytes);

    unsigned* d_alias;
    CHECK(cudaMalloc(&d_alias, 64 * sizeof(unsigned)));
    aliased<<<1, 64, 64 * sizeof(float)>>>(d_alias);
    CHECK(cudaGetLastError());
    unsigned h_alias[64];
    CHECK(cudaMemcpy(h_alias, d_alias, sizeof h_alias, cudaMemcpyDeviceToHost));
    std::printf("aliased extern arrays: %08x %08x %08x\n", h_alias[0], h_alias[59], h_alias[63]);

    int* h_vals = new int[2 * 256];
    for (int i = 0; i < 2 * 256; ++i)
        h_vals[i] = (i * 37) % 101 - 50;
    int* d_vals;
    long long* d_out;
    CHECK(cudaMalloc(&d_vals, 2 * 256 * sizeof(int)));
    CHECK(cudaMalloc(&d_out, 2 * sizeof(long long)));
    CHECK(cudaMemcpy(d_vals, h_vals, 2 * 256 * sizeof(int), cudaMemcpyHostToDevice));
    runReduce<32>(d_vals, d_out);
    runReduce<64>(d_vals, d_out);
    runReduce<128>(d_vals, d_out);
    runReduce<256>(d_vals, d_out);

    int count;
    long long hist[8];
    unsigned checks;
    CHECK(cudaMemcpyFromSymbol(&count, launches, sizeof count));
    CHECK(cudaMemcpyFromSymbol(hist, history, sizeof hist));
    CHECK(cudaMemcpyFromSymbol(&checks, alignmentChecks, sizeof checks));
    std::printf("launches %d, blockTotal checks %u, history:", count, checks);
    for (long long v : hist)
        std::printf(" %lld", v);
    std::printf("\n");
    long long* historyAddress;
    CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&historyAddress), history));
    CHECK(cudaMemset(historyAddress + 2, 0, sizeof(long long)));
    CHECK(cudaMemcpyFromSymbol(hist, history, 4 * sizeof(long long)));
    std::printf("after a memset through the symbol's address: %lld %lld %lld %lld\n", hist[0], hist[1], hist[2],
                hist[3]);
    free_device(d_in, d_t, d_sums, d_alias, d_vals, d_out);
    delete[] h_in;
    delete[] h_t;
    delete[] h_vals;
    return 0;
}
