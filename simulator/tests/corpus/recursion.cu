// Recursive device functions: a doubly recursive Fibonacci whose depth differs from lane to lane,
// mutual recursion (is_even/is_odd), a recursive function with a local array in every activation
// (each call must see its own), and a recursive sum over a binary tree held in an array.
#include "common.cuh"

__device__ __noinline__ int fibonacci(int n)
{
    return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
}

__device__ __noinline__ bool is_odd(unsigned n);

__device__ __noinline__ bool is_even(unsigned n)
{
    return n == 0 ? true : is_odd(n - 1);
}

__device__ __noinline__ bool is_odd(unsigned n)
{
    return n == 0 ? false : is_even(n - 1);
}

// Each activation keeps its digits in a local array and checks them after the deeper calls return.
__device__ __noinline__ int digits_checked(unsigned n, int depth)
{
    volatile int mine[4];
    for (int i = 0; i < 4; ++i)
        mine[i] = static_cast<int>(n % 10) * (i + 1) + depth;
    const int deeper = n >= 10 ? digits_checked(n / 10, depth + 1) : 0;
    int ok = 0;
    for (int i = 0; i < 4; ++i)
        ok += mine[i] == static_cast<int>(n % 10) * (i + 1) + depth ? 1 : 0;
    return deeper + static_cast<int>(n % 10) + (ok == 4 ? 0 : 1000);
}

__device__ __noinline__ long long tree_sum(const int* tree, int size, int node)
{
    if (node >= size)
        return 0;
    return tree[node] + tree_sum(tree, size, 2 * node + 1) + tree_sum(tree, size, 2 * node + 2);
}

__global__ void recurse(const int* tree, int size, long long* out)
{
    const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    long long* o = out + t * 4;
    o[0] = fibonacci(t % 20);
    o[1] = is_even(static_cast<unsigned>(t * 7)) ? 1 : 0;
    o[2] = digits_checked(static_cast<unsigned>(t) * 7919u + 12345u, 0);
    o[3] = tree_sum(tree, size, t % 7);
}

int main()
{
    constexpr int kThreads = 64;
    constexpr int kTree = 1000;
    int host_tree[kTree];
    for (int i = 0; i < kTree; ++i)
        host_tree[i] = (i * 37) % 101 - 50;
    // The recursions are deeper than the default stack (1 KB a thread) holds.
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
    int* tree = nullptr;
    long long* out = nullptr;
    CHECK(cudaMalloc(&tree, sizeof host_tree));
    CHECK(cudaMalloc(&out, kThreads * 4 * sizeof(long long)));
    CHECK(cudaMemcpy(tree, host_tree, sizeof host_tree, cudaMemcpyHostToDevice));
    recurse<<<2, kThreads / 2>>>(tree, kTree, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    long long host_out[kThreads * 4];
    CHECK(cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < kThreads; ++t)
        std::printf("thread %d: fibonacci %lld, even %lld, digit sum %lld, tree sum %lld\n", t, host_out[t * 4],
                    host_out[t * 4 + 1], host_out[t * 4 + 2], host_out[t * 4 + 3]);
    return 0;
}
