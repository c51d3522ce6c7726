// Floating-point arithmetic and conversions. IEEE-exact operations must
// match the host bit for bit; transcendentals within a tolerance.
#include "common.cuh"
#include <cmath>
#include <cstring>

constexpr int kExact = 26;
constexpr int kApprox = 6;

__host__ __device__ double exactOp(int op, float a, float b, double c)
{
    switch (op) {
    case 0:
        return a + b;
    case 1:
        return a - b;
    case 2:
        return a * b;
    case 3:
        return a / b;
    case 4:
        return sqrtf(fabsf(a));
    case 5:
        return fmaf(a, b, 1.25f);
    case 6:
        return 1.0f / b;
    case 7:
        return fminf(a, b);
    case 8:
        return fmaxf(a, b);
    case 9:
        return copysignf(a, b);
    case 10:
        return floorf(a);
    case 11:
        return ceilf(a);
    case 12:
        return truncf(a);
    case 13:
        return rintf(a);
    case 14:
        return (double)(int)a;
    case 15:
        return (double)(unsigned)fabsf(a);
    case 16:
        return (float)(int)(a * 1000.0f);
    case 17:
        return (double)(long long)(c * 1e6);
    case 18:
        return (float)c;
    case 19:
        return fma(c, c, c);  // explicit: nvcc would contract c * c + c into an fma
    case 20:
        return c / (a + 3.0);
    case 21:
        return sqrt(fabs(c));
    case 22:
        return fma(c, (double)a, -c);
    case 23:
        return (double)(a < b) + 2.0 * (a >= b) + 4.0 * (a != a);
    case 24:
        return (float)(long long)(c * 123.0);
    default:
        return fminf(fmaxf(a, 0.0f), 1.0f);
    }
}

__host__ __device__ double approxOp(int op, float a)
{
    switch (op) {
    case 0:
        return sinf(a);
    case 1:
        return cosf(a);
    case 2:
        return expf(a * 0.01f);
    case 3:
        return logf(fabsf(a) + 1.0f);
    case 4:
        return exp2f(a * 0.01f);
    default:
        return sin((double)a) * cos((double)a);
    }
}

__global__ void run(const float* a, const float* b, const double* c, double* exact, double* approx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int op = 0; op < kExact; ++op)
        exact[i * kExact + op] = exactOp(op, a[i], b[i], c[i]);
    for (int op = 0; op < kApprox; ++op)
        approx[i * kApprox + op] = approxOp(op, a[i]);
}

int main()
{
    const int n = 300;
    float ha[n], hb[n];
    double hc[n];
    for (int i = 0; i < n; ++i) {
        ha[i] = (i - 150) * 0.37f + (i % 4) * 0.5f;
        hb[i] = (i % 11 == 0) ? -0.0f : (float)((i * 7919) % 1000) / 97.0f - 5.0f;
        hc[i] = (i - 100) * 0.001234567 + 1.0 / (i + 1);
    }
    float *da, *db;
    double *dc, *dexact, *dapprox;
    CHECK(cudaMalloc(&da, sizeof ha));
    CHECK(cudaMalloc(&db, sizeof hb));
    CHECK(cudaMalloc(&dc, sizeof hc));
    CHECK(cudaMalloc(&dexact, n * kExact * sizeof(double)));
    CHECK(cudaMalloc(&dapprox, n * kApprox * sizeof(double)));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
    run<<<(n + 127) / 128, 128>>>(da, db, dc, dexact, dapprox, n);
    double* exact = new double[n * kExact];
    double* approx = new double[n * kApprox];
    CHECK(cudaMemcpy(exact, dexact, n * kExact * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(approx, dapprox, n * kApprox * sizeof(double), cudaMemcpyDeviceToHost));
    int exactMismatches = 0, approxMismatches = 0;
    for (int i = 0; i < n; ++i) {
        for (int op = 0; op < kExact; ++op) {
            double want = exactOp(op, ha[i], hb[i], hc[i]), got = exact[i * kExact + op];
            if (std::memcmp(&want, &got, sizeof want) != 0 && !(std::isnan(want) && std::isnan(got))) {
                if (++exactMismatches <= 5)
                    std::printf("exact op %d input %d: got %.17g want %.17g\n", op, i, got, want);
            }
        }
        for (int op = 0; op < kApprox; ++op) {
            double want = approxOp(op, ha[i]), got = approx[i * kApprox + op];
            if (std::fabs(want - got) > 1e-5 * (1.0 + std::fabs(want))) {
                if (++approxMismatches <= 5)
                    std::printf("approx op %d input %d: got %.9g want %.9g\n", op, i, got, want);
            }
        }
    }
    std::printf("exact: %d mismatches of %d\n", exactMismatches, n * kExact);
    std::printf("approximate: %d outside tolerance of %d\n", approxMismatches, n * kApprox);
    std::printf("samples: %.6f %.6f %.6f %.6f\n", exact[5 * kExact + 3], exact[7 * kExact + 4], exact[9 * kExact + 19],
                approx[10 * kApprox + 0]);
    return 0;
}
