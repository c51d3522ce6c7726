// Function attributes and the occupancy calculator on the modelled H100.
#include "common.cuh"

__global__ void saxpy(float a, const float* x, float* y, int n)
{
    __shared__ float unused[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unused[threadIdx.x % 256] = x[i];
        y[i] = a * unused[threadIdx.x % 256] + y[i];
    }
}

int main()
{
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, saxpy));
    std::printf("static smem %zu, local %zu, max threads %d, registers <= 32: %d\n", attr.sharedSizeBytes,
                attr.localSizeBytes, attr.maxThreadsPerBlock, attr.numRegs <= 32);
    for (int block : {32, 128, 256, 1024}) {
        int blocks;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, block, 0));
        std::printf("block %4d: %2d blocks/SM\n", block, blocks);
    }
    int blocks;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 48 * 1024));
    std::printf("block  256 + 48 KB dynamic smem: %d blocks/SM\n", blocks);
    int minGrid, bestBlock;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, saxpy, 0, 0));
    std::printf("max potential block size %d, min grid %d\n", bestBlock, minGrid);
    return 0;
}
