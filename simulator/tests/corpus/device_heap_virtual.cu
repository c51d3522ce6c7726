// Device-side dynamic memory and polymorphism: malloc/free and new/delete inside kernels (the heap
// size set with cudaDeviceSetLimit and read back with cudaDeviceGetLimit; a request larger than
// the heap returns NULL), memory allocated by one kernel, used by a second and freed by a third,
// placement new, and classes with virtual functions whose objects are created on the device and
// called through base-class pointers in a later kernel.
#include <new>

#include "common.cuh"

struct Shape {
    __device__ virtual ~Shape() {}
    __device__ virtual int area() const = 0;
    __device__ virtual int sides() const { return 0; }
};

struct Rectangle : Shape {
    int w, h;
    __device__ Rectangle(int w_, int h_) : w(w_), h(h_) {}
    __device__ int area() const override { return w * h; }
    __device__ int sides() const override { return 4; }
};

struct Triangle : Shape {
    int base, height;
    __device__ Triangle(int b, int h) : base(b), height(h) {}
    __device__ int area() const override { return base * height / 2; }
    __device__ int sides() const override { return 3; }
};

struct Disc : Shape {
    int r;
    __device__ explicit Disc(int r_) : r(r_) {}
    __device__ int area() const override { return 3 * r * r; }  // sides() is the base class's
};

__global__ void build(Shape** shapes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    switch (i % 3) {
    case 0:
        shapes[i] = new Rectangle(i + 1, 2);
        break;
    case 1:
        shapes[i] = new Triangle(i, 4);
        break;
    default:
        shapes[i] = new Disc(i % 5);
        break;
    }
}

__global__ void measure(Shape* const* shapes, int* areas, int* sides, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        areas[i] = shapes[i]->area();
        sides[i] = shapes[i]->sides();
    }
}

__global__ void destroy(Shape** shapes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        delete shapes[i];
        shapes[i] = nullptr;
    }
}

// Each thread allocates t + 1 ints, fills and sums them, and frees them.
__global__ void scratch(long long* sums, int* failures)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    int* buffer = static_cast<int*>(malloc((t + 1) * sizeof(int)));
    if (buffer == nullptr) {
        atomicAdd(failures, 1);
        sums[t] = -1;
        return;
    }
    for (int i = 0; i <= t; ++i)
        buffer[i] = i * i - t;
    long long s = 0;
    for (int i = 0; i <= t; ++i)
        s += buffer[i];
    sums[t] = s;
    free(buffer);
}

__device__ double* shared_table;

__global__ void allocateTable(int n, int* tooLargeIsNull)
{
    shared_table = new double[n];
    *tooLargeIsNull = malloc(size_t(1) << 40) == nullptr;
}

__global__ void fillTable(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        shared_table[i] = i * 0.5;
}

__global__ void sumAndFreeTable(int n, double* out)
{
    double s = 0;
    for (int i = 0; i < n; ++i)
        s += shared_table[i];
    *out = s;
    delete[] shared_table;
}

__global__ void placement(int* out)
{
    alignas(Rectangle) unsigned char storage[sizeof(Rectangle)];
    Shape* s = threadIdx.x % 2 ? static_cast<Shape*>(new (storage) Rectangle(threadIdx.x, 3))
                               : static_cast<Shape*>(new (storage) Disc(threadIdx.x));
    out[threadIdx.x] = s->area() * 10 + s->sides();
    s->~Shape();
}

int main()
{
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20));
    size_t heap = 0;
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    std::printf("heap limit %zu\n", heap);

    const int n = 40;
    Shape** shapes;
    int *areas, *sides;
    CHECK(cudaMalloc(&shapes, n * sizeof(Shape*)));
    CHECK(cudaMalloc(&areas, n * sizeof(int)));
    CHECK(cudaMalloc(&sides, n * sizeof(int)));
    build<<<2, 32>>>(shapes, n);
    CHECK(cudaGetLastError());
    measure<<<2, 32>>>(shapes, areas, sides, n);
    CHECK(cudaGetLastError());
    destroy<<<2, 32>>>(shapes, n);
    CHECK(cudaGetLastError());
    int ha[n], hs[n];
    CHECK(cudaMemcpy(ha, areas, sizeof ha, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hs, sides, sizeof hs, cudaMemcpyDeviceToHost));
    std::printf("virtual calls (area/sides):");
    for (int i = 0; i < n; i += 3)
        std::printf(" %d/%d", ha[i], hs[i]);
    std::printf("\n");
    std::printf("more:");
    for (int i = 1; i < n; i += 3)
        std::printf(" %d/%d", ha[i], hs[i]);
    for (int i = 2; i < n; i += 3)
        std::printf(" %d/%d", ha[i], hs[i]);
    std::printf("\n");

    long long* sums;
    int* failures;
    CHECK(cudaMalloc(&sums, 128 * sizeof(long long)));
    CHECK(cudaMalloc(&failures, sizeof(int)));
    CHECK(cudaMemset(failures, 0, sizeof(int)));
    scratch<<<4, 32>>>(sums, failures);
    CHECK(cudaGetLastError());
    long long hsums[128];
    int hfailures;
    CHECK(cudaMemcpy(hsums, sums, sizeof hsums, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hfailures, failures, sizeof hfailures, cudaMemcpyDeviceToHost));
    long long total = 0;
    for (long long v : hsums)
        total += v;
    std::printf("per-thread malloc: failures %d, sums %lld %lld %lld, total %lld\n", hfailures, hsums[0], hsums[5],
                hsums[127], total);

    int* tooLarge;
    double* tableSum;
    CHECK(cudaMalloc(&tooLarge, sizeof(int)));
    CHECK(cudaMalloc(&tableSum, sizeof(double)));
    allocateTable<<<1, 1>>>(1000, tooLarge);
    fillTable<<<4, 256>>>(1000);
    sumAndFreeTable<<<1, 1>>>(1000, tableSum);
    CHECK(cudaGetLastError());
    int htooLarge;
    double htableSum;
    CHECK(cudaMemcpy(&htooLarge, tooLarge, sizeof htooLarge, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&htableSum, tableSum, sizeof htableSum, cudaMemcpyDeviceToHost));
    std::printf("table across kernels: sum %.1f, a 1 TiB malloc returned NULL %d\n", htableSum, htooLarge);

    int* placed;
    CHECK(cudaMalloc(&placed, 8 * sizeof(int)));
    placement<<<1, 8>>>(placed);
    CHECK(cudaGetLastError());
    int hp[8];
    CHECK(cudaMemcpy(hp, placed, sizeof hp, cudaMemcpyDeviceToHost));
    std::printf("placement new:");
    for (int v : hp)
        std::printf(" %d", v);
    std::printf("\n");
    free_device(shapes, areas, sides, sums, failures, tooLarge, tableSum, placed);
    return 0;
}
