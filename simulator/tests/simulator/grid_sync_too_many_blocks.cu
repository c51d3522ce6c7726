// grid.sync() in an ordinary launch of more blocks than the device holds at once: the resident
// blocks wait for blocks that cannot start until one of them ends. On a GPU the launch hangs; the
// simulator stops it with cudaErrorLaunchTimeout and says why.
#include <cooperative_groups.h>

#include <cstdio>

__global__ void __launch_bounds__(1024) waits_for_unstarted_blocks(int* out)
{
    cooperative_groups::this_grid().sync();
    out[blockIdx.x] = 1;
}

int main()
{
    int sms = 0;
    int per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, waits_for_unstarted_blocks, 1024, 0);
    const int blocks = per_sm * sms + 1;
    int* out = nullptr;
    cudaMalloc(&out, blocks * sizeof(int));
    waits_for_unstarted_blocks<<<blocks, 1024>>>(out);
    std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
