// Cooperative groups: thread_block (ranks, sizes, sync), tiled_partition<32> and <8> (ranks, shfl,
// shfl_down, shfl_xor, any/all/ballot), a dynamic tiled_partition(block, 16), cg::reduce with
// plus/less/greater, inclusive and exclusive scans, and coalesced_threads() inside a branch.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "common.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 64;
constexpr int kBlocks = 2;
constexpr int kFields = 20;

__global__ void groups(int* out)
{
    __shared__ int stage[kThreads];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    cg::thread_group part16 = cg::tiled_partition(block, 16);

    const int rank = static_cast<int>(block.thread_rank());
    int* o = out + (blockIdx.x * kThreads + rank) * kFields;
    const int v = rank * 3 + 1 + static_cast<int>(block.group_index().x) * 1000;

    o[0] = static_cast<int>(block.size()) * 1000 + static_cast<int>(block.thread_index().x);
    o[1] = static_cast<int>(warp.meta_group_rank() * 100 + warp.thread_rank() + warp.meta_group_size() * 10000);
    o[2] = static_cast<int>(tile8.meta_group_rank() * 100 + tile8.thread_rank() + tile8.meta_group_size() * 10000);
    o[3] = static_cast<int>(part16.size() * 100 + part16.thread_rank());

    // Tree sum with shfl_down inside each tile of 8: lane 0 holds the tile's sum.
    int s = v;
    for (int offset = tile8.size() / 2; offset > 0; offset /= 2)
        s += tile8.shfl_down(s, offset);
    o[4] = s;
    o[5] = cg::reduce(warp, v, cg::plus<int>());
    o[6] = cg::reduce(tile8, v, cg::greater<int>());
    o[7] = cg::reduce(tile8, (rank * 37) % 11 - 5, cg::less<int>());
    o[8] = warp.any(rank == 40) + 2 * warp.all(v > 0) + 4 * tile8.all(rank % 8 < 7) + 8 * tile8.any(rank == 5);
    o[9] = static_cast<int>(warp.ballot(v % 3 == 1 && rank % 5 != 0));
    o[10] = static_cast<int>(tile8.ballot(rank % 3 == 0));
    o[11] = cg::inclusive_scan(warp, v);
    o[12] = cg::exclusive_scan(tile8, v, cg::plus<int>());
    o[13] = warp.shfl(v, 5);
    o[14] = tile8.shfl_xor(v, 3);
    o[15] = tile8.shfl_up(v, 2);

    // The threads that take the branch form a coalesced group.
    o[16] = -1;
    o[17] = -1;
    o[18] = -1;
    if (rank % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        o[16] = static_cast<int>(active.size() * 100 + active.thread_rank());
        o[17] = active.shfl(v, 0);
        o[18] = cg::reduce(active, v, cg::plus<int>());
    }

    // block.sync() orders the writes to shared memory before the reads.
    stage[rank] = v;
    block.sync();
    o[19] = stage[kThreads - 1 - rank] + stage[(rank + 1) % kThreads];
}

int main()
{
    const int n = kBlocks * kThreads * kFields;
    int* d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    groups<<<kBlocks, kThreads>>>(d);
    CHECK(cudaGetLastError());
    int* h = new int[n];
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    const char* names[kFields] = {"block size/index", "warp ranks",      "tile8 ranks",
                                  "tiled(16)",        "tile8 shfl_down", "reduce plus",
                                  "reduce greater",   "reduce less",     "votes",
                                  "warp ballot",      "tile8 ballot",    "inclusive scan",
                                  "exclusive scan",   "warp shfl 5",     "tile8 shfl_xor 3",
                                  "tile8 shfl_up 2",  "coalesced rank",  "coalesced shfl",
                                  "coalesced reduce", "block.sync"};
    const int ranks[] = {0, 1, 3, 7, 8, 13, 31, 32, 33, 47, 63};
    for (int f = 0; f < kFields; ++f) {
        long long sum = 0;
        for (int t = 0; t < kBlocks * kThreads; ++t)
            sum += h[t * kFields + f];
        std::printf("%-17s:", names[f]);
        for (int r : ranks) {
            if (f == 9 || f == 10)
                std::printf(" %x", h[r * kFields + f]);
            else
                std::printf(" %d", h[r * kFields + f]);
        }
        std::printf(" | block 1 thread 63: %d | sum %lld\n", h[(kThreads + 63) * kFields + f], sum);
    }
    CHECK(cudaFree(d));
    delete[] h;
    return 0;
}
