// Asynchronous copies from global to shared memory (sm_80 and later): the __pipeline_memcpy_async /
// __pipeline_commit / __pipeline_wait_prior primitives in a double-buffered loop, the cooperative
// groups cg::memcpy_async with cg::wait and cg::wait_prior, and cuda::memcpy_async completing on a
// block-scoped cuda::barrier (arrive_and_wait, with the barrier reused for several phases).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>

#include "common.cuh"

namespace cg = cooperative_groups;

constexpr int kTile = 128;  // ints per tile, one per thread
constexpr int kTiles = 8;

// Sums each column position over kTiles tiles, fetching tile t + 1 while adding tile t.
__global__ void pipelined(const int* in, long long* out)
{
    __shared__ alignas(16) int buffer[2][kTile];
    const int t = threadIdx.x;
    const int* base = in + blockIdx.x * kTile * kTiles;
    long long sum = 0;
    __pipeline_memcpy_async(&buffer[0][t], &base[t], sizeof(int));
    __pipeline_commit();
    for (int tile = 0; tile < kTiles; ++tile) {
        if (tile + 1 < kTiles)
            __pipeline_memcpy_async(&buffer[(tile + 1) % 2][t], &base[(tile + 1) * kTile + t], sizeof(int));
        __pipeline_commit();
        __pipeline_wait_prior(1);  // all but the newest group have landed
        __syncthreads();
        sum += buffer[tile % 2][(t + tile) % kTile] * (tile + 1);
        __syncthreads();
    }
    out[blockIdx.x * kTile + t] = sum;
}

// 16-byte copies of int4s with the cooperative-groups interface.
__global__ void groupCopy(const int4* in, int* out)
{
    __shared__ int4 first[kTile / 4];
    __shared__ int4 second[kTile / 4];
    cg::thread_block block = cg::this_thread_block();
    const int4* base = in + blockIdx.x * (kTile / 2);
    cg::memcpy_async(block, first, base, sizeof first);
    cg::memcpy_async(block, second, base + kTile / 4, sizeof second);
    cg::wait_prior<1>(block);  // the first copy has landed
    const int t = threadIdx.x;
    const int* f = reinterpret_cast<const int*>(first);
    int early = f[(t * 5) % kTile];
    cg::wait(block);
    const int* s = reinterpret_cast<const int*>(second);
    out[blockIdx.x * kTile + t] = early * 1000 + s[kTile - 1 - t];
}

// cuda::memcpy_async signals a block-scoped barrier; the barrier is used for three phases.
__global__ void barrierCopy(const float* in, float* out)
{
    __shared__ alignas(16) float tile[kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    float acc = 0.0f;
    for (int phase = 0; phase < 3; ++phase) {
        cuda::memcpy_async(block, tile, in + (blockIdx.x * 3 + phase) * kTile, cuda::aligned_size_t<16>(sizeof tile),
                           bar);
        bar.arrive_and_wait();
        acc += tile[(threadIdx.x * 3 + phase) % kTile];
        bar.arrive_and_wait();  // nobody overwrites the tile while others still read it
    }
    out[blockIdx.x * kTile + threadIdx.x] = acc;
}

int main()
{
    const int blocks = 2;
    int* hin = new int[blocks * kTile * kTiles];
    for (int i = 0; i < blocks * kTile * kTiles; ++i)
        hin[i] = (i * 7919) % 1000 - 500;
    int* din;
    long long* dsum;
    CHECK(cudaMalloc(&din, blocks * kTile * kTiles * sizeof(int)));
    CHECK(cudaMalloc(&dsum, blocks * kTile * sizeof(long long)));
    CHECK(cudaMemcpy(din, hin, blocks * kTile * kTiles * sizeof(int), cudaMemcpyHostToDevice));
    pipelined<<<blocks, kTile>>>(din, dsum);
    CHECK(cudaGetLastError());
    long long sums[blocks * kTile];
    CHECK(cudaMemcpy(sums, dsum, sizeof sums, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < kTile; ++t) {
            long long want = 0;
            for (int tile = 0; tile < kTiles; ++tile)
                want +=
                    static_cast<long long>(hin[b * kTile * kTiles + tile * kTile + (t + tile) % kTile]) * (tile + 1);
            wrong += sums[b * kTile + t] != want;
        }
    std::printf("pipeline primitives: %d of %d wrong; sums %lld %lld %lld\n", wrong, blocks * kTile, sums[0], sums[77],
                sums[blocks * kTile - 1]);

    int* dout;
    CHECK(cudaMalloc(&dout, blocks * kTile * sizeof(int)));
    groupCopy<<<blocks, kTile>>>(reinterpret_cast<const int4*>(din), dout);
    CHECK(cudaGetLastError());
    int hout[blocks * kTile];
    CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < kTile; ++t) {
            const int* base = hin + b * 2 * kTile;
            wrong += hout[b * kTile + t] != base[(t * 5) % kTile] * 1000 + base[kTile + kTile - 1 - t];
        }
    std::printf("cg::memcpy_async: %d of %d wrong; %d %d\n", wrong, blocks * kTile, hout[0], hout[blocks * kTile - 1]);

    float* hf = new float[blocks * 3 * kTile];
    for (int i = 0; i < blocks * 3 * kTile; ++i)
        hf[i] = static_cast<float>(i % 50) * 0.5f;
    float *dfin, *dfout;
    CHECK(cudaMalloc(&dfin, blocks * 3 * kTile * sizeof(float)));
    CHECK(cudaMalloc(&dfout, blocks * kTile * sizeof(float)));
    CHECK(cudaMemcpy(dfin, hf, blocks * 3 * kTile * sizeof(float), cudaMemcpyHostToDevice));
    barrierCopy<<<blocks, kTile>>>(dfin, dfout);
    CHECK(cudaGetLastError());
    float hfo[blocks * kTile];
    CHECK(cudaMemcpy(hfo, dfout, sizeof hfo, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < kTile; ++t) {
            float want = 0.0f;
            for (int phase = 0; phase < 3; ++phase)
                want += hf[(b * 3 + phase) * kTile + (t * 3 + phase) % kTile];
            wrong += hfo[b * kTile + t] != want;
        }
    std::printf("cuda::memcpy_async with cuda::barrier: %d of %d wrong; %.1f %.1f\n", wrong, blocks * kTile, hfo[0],
                hfo[blocks * kTile - 1]);
    free_device(din, dsum, dout, dfin, dfout);
    delete[] hin;
    delete[] hf;
    return 0;
}
