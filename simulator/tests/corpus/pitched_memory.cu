// Pitched 2-D allocations: cudaMallocPitch, cudaMemcpy2D in both
// directions, and a kernel that indexes rows through the pitch.
#include "common.cuh"

__global__ void transpose(const float* in, size_t inPitch, float* out, size_t outPitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    const float* inRow = reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + y * inPitch);
    float* outRow = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + x * outPitch);
    outRow[y] = inRow[x];
}

int main()
{
    const int width = 37, height = 21;
    float h[height][width], t[width][height];
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            h[y][x] = y * 100.0f + x;
    float *in, *out;
    size_t inPitch, outPitch;
    CHECK(cudaMallocPitch(&in, &inPitch, width * sizeof(float), height));
    CHECK(cudaMallocPitch(&out, &outPitch, height * sizeof(float), width));
    std::printf("pitches hold a row: %d %d\n", inPitch >= width * sizeof(float), outPitch >= height * sizeof(float));
    CHECK(cudaMemcpy2D(in, inPitch, h, width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
    transpose<<<grid, block>>>(in, inPitch, out, outPitch, width, height);
    CHECK(cudaGetLastError());
    CHECK(
        cudaMemcpy2D(t, height * sizeof(float), out, outPitch, height * sizeof(float), width, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            wrong += t[x][y] != h[y][x];
    std::printf("transposed %dx%d, %d wrong; t[36][20] = %.0f\n", width, height, wrong, t[36][20]);
    cudaError_t e = cudaMemcpy2D(in, inPitch, h, width * sizeof(float), inPitch + 4, height, cudaMemcpyHostToDevice);
    std::printf("width larger than the pitch: %s\n", cudaGetErrorName(e));
    free_device(in, out);
    return 0;
}
