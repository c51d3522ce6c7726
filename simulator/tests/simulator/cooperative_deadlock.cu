// A cooperative launch whose grid can never get past this_grid().sync(): block 1 returns before it.
// On a GPU the launch hangs; the simulator stops it with cudaErrorLaunchTimeout and says why.
#include <cooperative_groups.h>

#include <cstdio>

__global__ void one_block_leaves(int* out)
{
    if (blockIdx.x == 1)
        return;
    cooperative_groups::this_grid().sync();
    out[blockIdx.x] = 1;
}

int main()
{
    int* out = nullptr;
    cudaMalloc(&out, 4 * sizeof(int));
    void* args[] = {&out};
    const cudaError_t launched = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(one_block_leaves), dim3(4),
                                                             dim3(64), args, 0, nullptr);
    std::printf("launch: %s\n", cudaGetErrorName(launched));
    std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
