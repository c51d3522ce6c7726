// Generic device code: a kernel template over element types (int, float, double, long long) and
// functors; lambdas written inside device code (plain and generic, capturing by value and by
// reference) passed to a __device__ template (lambdas passed from the host need nvcc's
// --extended-lambda, which the corpus does not use); recursive __device__ functions (Fibonacci with
// a depth limit, Euclid's gcd, a recursive sum over an array); and pointers to __device__ functions
// chosen at run time, from a __device__ table and from a pointer copied to the host with
// cudaMemcpyFromSymbol and passed back as a kernel argument.
#include <cstring>

#include "common.cuh"

struct Square {
    template <typename T>
    __device__ T operator()(T x) const
    {
        return x * x;
    }
};

template <typename T>
struct AddScaled {
    T scale;
    T offset;
    __device__ T operator()(T x) const { return x * scale + offset; }
};

struct Clamp {
    int lo, hi;
    template <typename T>
    __device__ T operator()(T x) const
    {
        return x < static_cast<T>(lo) ? static_cast<T>(lo) : x > static_cast<T>(hi) ? static_cast<T>(hi) : x;
    }
};

template <typename T, typename Op>
__global__ void transform(const T* in, T* out, int n, Op op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = op(in[i]);
}

template <typename F>
__device__ int applyTwice(F f, int x)
{
    return f(f(x));
}

template <typename F>
__device__ float foldLeft(F f, const float* values, int n, float init)
{
    for (int i = 0; i < n; ++i)
        init = f(init, values[i]);
    return init;
}

__global__ void lambdas(const float* values, int* iout, float* fout)
{
    const int t = threadIdx.x;
    const int k = t + 1;
    auto addK = [k](int x) { return x + k; };
    int calls = 0;
    auto counted = [&calls](int x) {
        ++calls;
        return x * 2;
    };
    auto generic = [](auto a, auto b) { return a > b ? a : b; };
    iout[t * 4] = applyTwice(addK, t * 100);
    iout[t * 4 + 1] = applyTwice(counted, t);
    iout[t * 4 + 2] = calls;
    iout[t * 4 + 3] = generic(t, 5) + static_cast<int>(generic(0.5 * t, 2.25) * 4);
    fout[t] = foldLeft([](float acc, float v) { return acc * 0.5f + v; }, values, t % 8, 1.0f);
}

__device__ int fibonacci(int n, int depth)
{
    if (depth > 30)
        return -1;
    if (n < 2)
        return n;
    return fibonacci(n - 1, depth + 1) + fibonacci(n - 2, depth + 1);
}

__device__ unsigned gcd(unsigned a, unsigned b)
{
    return b == 0 ? a : gcd(b, a % b);
}

__device__ long long sumRange(const int* v, int lo, int hi)
{
    if (hi - lo == 1)
        return v[lo];
    int mid = (lo + hi) / 2;
    return sumRange(v, lo, mid) + sumRange(v, mid, hi);
}

__global__ void recursion(const int* values, int n, long long* out)
{
    const int t = threadIdx.x;
    out[t * 3] = fibonacci(t % 16, 0);
    out[t * 3 + 1] = gcd(static_cast<unsigned>(t * 462 + 1071), static_cast<unsigned>(t * 35 + 1029));
    out[t * 3 + 2] = sumRange(values, 0, 1 + (t * 7) % n);
}

typedef int (*BinaryOp)(int, int);

__device__ int addOp(int a, int b)
{
    return a + b;
}
__device__ int subOp(int a, int b)
{
    return a - b;
}
__device__ int mulOp(int a, int b)
{
    return a * b;
}
__device__ int maxOp(int a, int b)
{
    return a > b ? a : b;
}

__device__ BinaryOp operations[4] = {addOp, subOp, mulOp, maxOp};
__device__ BinaryOp chosenOnHost = mulOp;

__global__ void viaTable(const int* selectors, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        BinaryOp op = operations[selectors[i] % 4];
        out[i] = op(i, 7);
    }
}

__global__ void viaArgument(BinaryOp op, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = op(i + 1, i - 3);
}

template <typename T, typename Op>
void runTransform(const char* label, const T* host, int n, Op op)
{
    T *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(T)));
    CHECK(cudaMalloc(&dout, n * sizeof(T)));
    CHECK(cudaMemcpy(din, host, n * sizeof(T), cudaMemcpyHostToDevice));
    transform<<<2, 32>>>(din, dout, n, op);
    CHECK(cudaGetLastError());
    T out[64];
    CHECK(cudaMemcpy(out, dout, n * sizeof(T), cudaMemcpyDeviceToHost));
    std::printf("%-22s:", label);
    for (int i = 0; i < n; i += 9) {
        unsigned long long bits = 0;
        std::memcpy(&bits, &out[i], sizeof(T));
        std::printf(" %llx", bits);
    }
    std::printf("\n");
    free_device(din, dout);
}

int main()
{
    const int n = 50;
    int hi[n];
    float hf[n];
    double hd[n];
    long long hl[n];
    for (int i = 0; i < n; ++i) {
        hi[i] = i * 13 - 300;
        hf[i] = i * 0.75f - 10.0f;
        hd[i] = i * 1e-3 - 0.02;
        hl[i] = (i - 25) * 30000007ll;
    }
    runTransform("int square", hi, n, Square());
    runTransform("float square", hf, n, Square());
    runTransform("double square", hd, n, Square());
    runTransform("long long square", hl, n, Square());
    runTransform("int add scaled", hi, n, AddScaled<int>{-3, 17});
    runTransform("float add scaled", hf, n, AddScaled<float>{0.5f, 0.125f});
    runTransform("double add scaled", hd, n, AddScaled<double>{1e6, -3.0});
    runTransform("long long add scaled", hl, n, AddScaled<long long>{7, 1});
    runTransform("int clamp", hi, n, Clamp{-100, 200});
    runTransform("float clamp", hf, n, Clamp{-5, 5});
    runTransform("double clamp", hd, n, Clamp{0, 1});
    runTransform("long long clamp", hl, n, Clamp{-2000000000, 2000000000});

    float* dvalues;
    int* diout;
    float* dfout;
    CHECK(cudaMalloc(&dvalues, n * sizeof(float)));
    CHECK(cudaMalloc(&diout, 32 * 4 * sizeof(int)));
    CHECK(cudaMalloc(&dfout, 32 * sizeof(float)));
    CHECK(cudaMemcpy(dvalues, hf, n * sizeof(float), cudaMemcpyHostToDevice));
    lambdas<<<1, 32>>>(dvalues, diout, dfout);
    CHECK(cudaGetLastError());
    int iout[32 * 4];
    float fout[32];
    CHECK(cudaMemcpy(iout, diout, sizeof iout, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fout, dfout, sizeof fout, cudaMemcpyDeviceToHost));
    for (int t : {0, 1, 7, 31}) {
        unsigned bits;
        std::memcpy(&bits, &fout[t], sizeof bits);
        std::printf("lambdas thread %2d: twice +k %d, counted %d after %d calls, generic max %d, fold %08x\n", t,
                    iout[t * 4], iout[t * 4 + 1], iout[t * 4 + 2], iout[t * 4 + 3], bits);
    }

    int* dints;
    long long* drec;
    CHECK(cudaMalloc(&dints, n * sizeof(int)));
    CHECK(cudaMalloc(&drec, 32 * 3 * sizeof(long long)));
    CHECK(cudaMemcpy(dints, hi, n * sizeof(int), cudaMemcpyHostToDevice));
    recursion<<<1, 32>>>(dints, n, drec);
    CHECK(cudaGetLastError());
    long long rec[32 * 3];
    CHECK(cudaMemcpy(rec, drec, sizeof rec, cudaMemcpyDeviceToHost));
    std::printf("fibonacci:");
    for (int t = 0; t < 16; ++t)
        std::printf(" %lld", rec[t * 3]);
    std::printf("\ngcd:");
    for (int t = 0; t < 32; t += 4)
        std::printf(" %lld", rec[t * 3 + 1]);
    std::printf("\nrecursive sums:");
    for (int t = 0; t < 32; t += 4)
        std::printf(" %lld", rec[t * 3 + 2]);
    std::printf("\n");

    int selectors[n];
    for (int i = 0; i < n; ++i)
        selectors[i] = (i * 5) % 11;
    int* dsel;
    int* dops;
    CHECK(cudaMalloc(&dsel, n * sizeof(int)));
    CHECK(cudaMalloc(&dops, n * sizeof(int)));
    CHECK(cudaMemcpy(dsel, selectors, n * sizeof(int), cudaMemcpyHostToDevice));
    viaTable<<<2, 32>>>(dsel, dops, n);
    CHECK(cudaGetLastError());
    int ops[n];
    CHECK(cudaMemcpy(ops, dops, sizeof ops, cudaMemcpyDeviceToHost));
    std::printf("function table:");
    for (int i = 0; i < n; i += 5)
        std::printf(" %d", ops[i]);
    std::printf("\n");
    BinaryOp fromDevice;
    CHECK(cudaMemcpyFromSymbol(&fromDevice, chosenOnHost, sizeof fromDevice));
    viaArgument<<<2, 32>>>(fromDevice, dops, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ops, dops, sizeof ops, cudaMemcpyDeviceToHost));
    std::printf("function pointer argument:");
    for (int i = 0; i < n; i += 5)
        std::printf(" %d", ops[i]);
    std::printf("\n");
    return 0;
}
