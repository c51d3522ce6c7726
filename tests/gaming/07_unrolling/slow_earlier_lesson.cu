// Gaming attempt: only the first rung of the ladder (two data blocks per block, the whole tree with
// __syncthreads), graded beside the student's own lesson 04 left as the slow starter. Against that
// starter's shared-memory kernel (tid % (2 * stride)) it would look fast enough; lesson 07's
// baseline is the course's own lesson-04 reference kernel.
//
// replaces: reduce_unrolled.cu
// expect: ^fail: too slow: reduce_unrolled
// with starters

#include "unrolling.cuh"

extern "C" __constant__ unsigned reduce_unrolled_data_blocks = 2;

namespace {

__device__ void reduce_two(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * 2 * blockDim.x + tid;
    const int a = i < n ? data[i] : 0;
    const int b = i + blockDim.x < n ? data[i + blockDim.x] : 0;
    cache[tid] = a + b;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}

}  // namespace

extern "C" __global__ void reduce_unrolled_32(const int* d, int* p, std::size_t n)
{
    reduce_two(d, p, n);
}
extern "C" __global__ void reduce_unrolled_64(const int* d, int* p, std::size_t n)
{
    reduce_two(d, p, n);
}
extern "C" __global__ void reduce_unrolled_128(const int* d, int* p, std::size_t n)
{
    reduce_two(d, p, n);
}
extern "C" __global__ void reduce_unrolled_256(const int* d, int* p, std::size_t n)
{
    reduce_two(d, p, n);
}
extern "C" __global__ void reduce_unrolled_512(const int* d, int* p, std::size_t n)
{
    reduce_two(d, p, n);
}
extern "C" __global__ void reduce_unrolled_1024(const int* d, int* p, std::size_t n)
{
    reduce_two(d, p, n);
}
