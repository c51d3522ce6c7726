// A recursion that never ends: on a GPU it overflows the thread's stack; the simulator stops it at
// 1024 nested calls with cudaErrorIllegalAddress and names the function.
#include <cstdio>

// Each call leaves a trace in memory (volatile: the compiler may not drop the calls), then adds a
// value it reads after the deeper call: no loop can stand in for it.
__device__ __noinline__ int forever(volatile int* trail, int n)
{
    trail[n % 32] = n;
    return forever(trail, n + 1) + trail[(n + 7) % 32];
}

__global__ void start(int* out)
{
    out[threadIdx.x] = forever(out, static_cast<int>(threadIdx.x));
}

int main()
{
    int* out = nullptr;
    cudaMalloc(&out, 32 * sizeof(int));
    start<<<1, 32>>>(out);
    std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
