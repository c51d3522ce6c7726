// tex1Dfetch on a texture object that was destroyed before the launch: undefined on a GPU (it may
// read anything); the simulator stops the kernel and names the object.
#include <cstdio>

__global__ void fetch(cudaTextureObject_t t, int* out)
{
    out[threadIdx.x] = tex1Dfetch<int>(t, threadIdx.x);
}

int main()
{
    int* data = nullptr;
    int* out = nullptr;
    cudaMalloc(&data, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaResourceDesc resource = {};
    resource.resType = cudaResourceTypeLinear;
    resource.res.linear.devPtr = data;
    resource.res.linear.desc = cudaCreateChannelDesc<int>();
    resource.res.linear.sizeInBytes = 32 * sizeof(int);
    cudaTextureDesc texture = {};
    cudaTextureObject_t object = 0;
    std::printf("create: %s\n", cudaGetErrorName(cudaCreateTextureObject(&object, &resource, &texture, nullptr)));
    std::printf("destroy: %s\n", cudaGetErrorName(cudaDestroyTextureObject(object)));
    fetch<<<1, 32>>>(object, out);
    std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
