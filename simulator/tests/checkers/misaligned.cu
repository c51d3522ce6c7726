// Planted bug: an int read through a pointer that is not 4-byte aligned.
#include "common.cuh"

__global__ void readMisaligned(const char* bytes, int* out)
{
    *out = *reinterpret_cast<const int*>(bytes + 2);
}

int main()
{
    char* bytes;
    int* out;
    cudaMalloc(&bytes, 64);
    cudaMalloc(&out, sizeof(int));
    readMisaligned<<<1, 1>>>(bytes, out);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
