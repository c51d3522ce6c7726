// Planted race: the first lane of every warp stores its thread index into one shared word, with
// neither an atomic nor a barrier (write-after-write between warps). A GPU keeps one of them.
#include "common.cuh"

__global__ void lastWriterWins(int* out)
{
    __shared__ int winner;
    if (threadIdx.x % 32 == 0)
        winner = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        *out = winner;
}

int main()
{
    int* d;
    cudaMalloc(&d, sizeof(int));
    lastWriterWins<<<1, 96>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
