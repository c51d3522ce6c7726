// Device-side printf with the common conversions. One thread prints per
// block so that the order is the same on every device.
#include "common.cuh"

__global__ void hello(const char* tag)
{
    if (threadIdx.x == 3) {
        printf("block %d thread %u: %s %c %5.2f %e %x %lld %s\n", blockIdx.x, threadIdx.x, "str", 'A' + blockIdx.x,
               1.5f * blockIdx.x, 1234.5, 255 + blockIdx.x, -1234567890123ll, tag);
    }
}

int main()
{
    char* tag;
    const char text[] = "from-device-memory";
    CHECK(cudaMalloc(&tag, sizeof text));
    CHECK(cudaMemcpy(tag, text, sizeof text, cudaMemcpyHostToDevice));
    hello<<<1, 8>>>(tag);
    CHECK(cudaDeviceSynchronize());
    hello<<<1, 8>>>(tag);
    CHECK(cudaDeviceSynchronize());
    std::printf("host done\n");
    return 0;
}
