// Simulator-only: the counters behind the timing model (README, "Timing model") on kernels whose
// values are known: issue slots of an integer remainder, aggregated and per-lane atomics, DRAM
// sectors with L2 residency across launches, and memory round trips (in a kernel with many
// registers too).
#include <cstdio>

#include <cudasim/counters.hpp>

__global__ void remainder(int* out, int divisor)
{
    out[threadIdx.x] = threadIdx.x % divisor;
}

// The same constant from every lane to one address: ptxas makes it one update per warp.
__global__ void addOne(unsigned long long* counter)
{
    atomicAdd(counter, 1ull);
}
__global__ void addOwn(unsigned long long* counter)
{
    atomicAdd(counter, threadIdx.x + 1ull);
}

// Two loads issued before either is used: one round trip. A load whose address comes from
// another load: two.
__global__ void independentLoads(const int* in, int* out)
{
    out[threadIdx.x] = in[threadIdx.x] + in[threadIdx.x + 64];
}
__global__ void chainedLoads(const int* index, int* out)
{
    out[threadIdx.x] = index[index[threadIdx.x]];
}
// The PTX adds each value right after its load (ld, ld, add, ld, add, ...); the loads do not
// depend on each other, so ptxas issues all four first: one round trip.
__global__ void addedAsLoaded(const int* in, int* out)
{
    int sum = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k)
        sum += in[threadIdx.x + 32 * k];
    out[threadIdx.x] = sum;
}
// A loop that is not unrolled: each iteration's add waits for its load before the branch back,
// so the next load cannot issue early: one round trip per iteration.
__global__ void loadPerIteration(const int* in, int* out, int count)
{
    int sum = 0;
#pragma unroll 1
    for (int k = 0; k < count; ++k)
        sum += in[threadIdx.x + 32 * k];
    out[threadIdx.x] = sum;
}
// The second address is computed from the first load's value: two round trips, however many
// instructions lie between.
__global__ void computedFromLoad(const int* index, int* out)
{
    const int i = index[threadIdx.x];
    out[threadIdx.x] = index[(i * 3 + 1) % 64];
}

// Over two hundred registers: a sum of 160 loaded values, in registers numbered past the first
// 128, then a load from an address computed from that sum, which waits for it: two round trips.
__global__ void manyRegisters(const int* in, int* out)
{
    int v[160];
#pragma unroll
    for (int k = 0; k < 160; ++k)
        v[k] = in[k % 128];
    int sum = 0;
#pragma unroll
    for (int k = 0; k < 160; ++k)
        sum += v[k] * (k + 1);
    out[threadIdx.x] = in[sum & 127];
}

cudasim::LaunchCounters last()
{
    return cudasim::last_launch_counters();
}

void showMemory(const char* what)
{
    const cudasim::LaunchCounters c = last();
    std::printf("%-26s DRAM sectors %llu | round trips DRAM %llu L2 %llu touched %llu\n", what,
                (unsigned long long)c.counts.dram_sectors, (unsigned long long)c.counts.dram_rounds,
                (unsigned long long)c.counts.l2_rounds, (unsigned long long)c.counts.cached_rounds);
}

int main()
{
    int *in, *out, *flush;
    unsigned long long* counter;
    cudaMalloc(&in, 128 * sizeof(int));
    cudaMalloc(&out, 256 * sizeof(int));
    cudaMalloc(&counter, sizeof *counter);
    cudaMalloc(&flush, 64 << 20);
    int indices[128];
    for (int i = 0; i < 128; ++i)
        indices[i] = 127 - i;
    cudaMemcpy(in, indices, sizeof indices, cudaMemcpyHostToDevice);

    remainder<<<1, 64>>>(out, 7);
    cudasim::LaunchCounters c = last();
    std::printf("remainder: issue slots %llu for %llu warp instructions (one rem per warp costs 18)\n",
                (unsigned long long)c.counts.issue_slots, (unsigned long long)c.counts.warp_instructions);

    addOne<<<2, 64>>>(counter);
    c = last();
    std::printf("addOne: %llu atomic instructions, %llu updates, %llu on the busiest address\n",
                (unsigned long long)c.counts.atomics, (unsigned long long)c.counts.atomic_operations,
                (unsigned long long)c.atomics_on_hottest_address);
    addOwn<<<2, 64>>>(counter);
    c = last();
    std::printf("addOwn: %llu atomic instructions, %llu updates, %llu on the busiest address\n",
                (unsigned long long)c.counts.atomics, (unsigned long long)c.counts.atomic_operations,
                (unsigned long long)c.atomics_on_hottest_address);

    cudaMemset(flush, 0, 64 << 20);  // larger than L2: nothing left there
    independentLoads<<<1, 64>>>(in, out);
    showMemory("independentLoads");
    independentLoads<<<1, 64>>>(in, out);
    showMemory("again, right after");
    cudaMemset(flush, 0, 64 << 20);
    independentLoads<<<1, 64>>>(in, out);
    showMemory("again, after a flush");
    chainedLoads<<<1, 64>>>(in, out);
    showMemory("chainedLoads");
    addedAsLoaded<<<1, 32>>>(in, out);
    showMemory("addedAsLoaded");
    loadPerIteration<<<1, 32>>>(in, out, 3);
    showMemory("loadPerIteration, 3");
    computedFromLoad<<<1, 32>>>(in, out);
    showMemory("computedFromLoad");
    manyRegisters<<<1, 32>>>(in, out);
    showMemory("manyRegisters");

    const int threads = 256;
    remainder<<<1000, threads>>>(out, 7);  // 1000 blocks, 8 per SM at most by threads
    c = last();
    std::printf("resident: %d blocks, %d warps per SM, theoretical occupancy %.2f\n", c.resident_blocks_per_sm,
                c.resident_warps_per_sm, c.theoretical_occupancy);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
