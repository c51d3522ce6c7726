// Thread block clusters (sm_90): a kernel with a compile-time __cluster_dims__ and one given its
// cluster size at launch through cudaLaunchKernelEx and cudaLaunchAttributeClusterDimension;
// cg::this_cluster() ranks and sizes; distributed shared memory (each block reads its neighbour's
// shared array through cluster.map_shared_rank) between two cluster.sync() calls.
#include <cooperative_groups.h>

#include "common.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 64;

__global__ void __cluster_dims__(2, 1, 1) pairs(int* out)
{
    __shared__ int mine[kThreads];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    mine[threadIdx.x] = static_cast<int>(blockIdx.x * 1000 + threadIdx.x);
    cluster.sync();
    // Read the other block's array, in reverse.
    int* theirs = cluster.map_shared_rank(mine, rank ^ 1);
    const int v = theirs[kThreads - 1 - threadIdx.x];
    cluster.sync();  // no block may exit while another still reads its shared memory
    int* o = out + (blockIdx.x * kThreads + threadIdx.x) * 4;
    o[0] = v;
    o[1] = static_cast<int>(rank * 100 + cluster.num_blocks());
    o[2] = static_cast<int>(cluster.thread_rank());
    o[3] = static_cast<int>(cluster.block_index().x * 10 + cluster.dim_blocks().x);
}

// The cluster size comes from the launch; the block of rank 0 gathers one value from every block.
__global__ void gather(int* out)
{
    __shared__ int value;
    __shared__ int gathered[8];
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0)
        value = static_cast<int>(blockIdx.x * blockIdx.x + 1);
    cluster.sync();
    const unsigned blocks = cluster.num_blocks();
    if (cluster.block_rank() == 0 && threadIdx.x < blocks)
        gathered[threadIdx.x] = *cluster.map_shared_rank(&value, threadIdx.x);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        int s = 0;
        for (unsigned i = 0; i < blocks; ++i)
            s = s * 10 + gathered[i] % 10;
        out[blockIdx.x / blocks] = s * 100 + static_cast<int>(blocks);
    }
}

int main()
{
    const int blocks = 4;
    int* d;
    CHECK(cudaMalloc(&d, blocks * kThreads * 4 * sizeof(int)));
    pairs<<<blocks, kThreads>>>(d);
    CHECK(cudaGetLastError());
    int h[blocks * kThreads * 4];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b)
        for (int t : {0, 63}) {
            const int* o = h + (b * kThreads + t) * 4;
            std::printf("pairs block %d thread %2d: neighbour's value %d, rank*100+blocks %d, thread rank %d, "
                        "index*10+dim %d\n",
                        b, t, o[0], o[1], o[2], o[3]);
        }

    int* g;
    CHECK(cudaMalloc(&g, 4 * sizeof(int)));
    CHECK(cudaMemset(g, 0, 4 * sizeof(int)));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(8);
    config.blockDim = dim3(32);
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = 4;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&config, gather, g));
    int hg[4];
    CHECK(cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost));
    std::printf("gather, clusters of 4: %d %d %d %d\n", hg[0], hg[1], hg[2], hg[3]);
    free_device(d, g);
    return 0;
}
