// Tensor cores through nvcuda::wmma: 16x16x16 half multiplies with float and half accumulators
// (row- and column-major operands, fill_fragment, load and store with a leading dimension, element
// access to fragments), an 8x8x4 double multiply, a 16x16x8 tf32 multiply and a 16x16x16 signed
// 8-bit integer multiply with int accumulators. The inputs are small integers (and halves of
// them), so every product and sum is exact whatever the order of accumulation.
#include <mma.h>

#include <cuda_fp16.h>

#include "common.cuh"

using namespace nvcuda;

// One warp computes C = A * B + C for a 32x32 result from 16x16 tiles; A is row-major, B column-major.
__global__ void halfToFloat(const half* a, const half* b, float* c, int n)
{
    const int tileRow = blockIdx.y, tileCol = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.5f);
    for (int k = 0; k < n; k += 16) {
        wmma::load_matrix_sync(fa, a + tileRow * 16 * n + k, n);
        wmma::load_matrix_sync(fb, b + tileCol * 16 * n + k, n);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; ++i)
        acc.x[i] *= 2.0f;
    wmma::store_matrix_sync(c + tileRow * 16 * n + tileCol * 16, acc, n, wmma::mem_row_major);
}

__global__ void halfToHalf(const half* a, const half* b, half* c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_col_major);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_col_major);
}

__global__ void doubles(const double* a, const double* b, double* c)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
    wmma::fill_fragment(acc, -1.0);
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 8, wmma::mem_row_major);
}

__global__ void tf32(const float* a, const float* b, float* c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 16);
    for (int i = 0; i < fa.num_elements; ++i)
        fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i)
        fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

__global__ void int8(const signed char* a, const signed char* b, int* c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 1000);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

int main()
{
    // 32x32 half matrices: A row-major, B column-major.
    const int n = 32;
    half ha[n * n], hb[n * n];
    float ref[n * n];
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            ha[i * n + j] = __float2half(static_cast<float>((i + 2 * j) % 7 - 3));
            hb[j * n + i] = __float2half(static_cast<float>((3 * i + j) % 5 - 2) * 0.5f);  // B(i, j)
        }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0.5f;
            for (int k = 0; k < n; ++k)
                s += __half2float(ha[i * n + k]) * __half2float(hb[j * n + k]);
            ref[i * n + j] = 2.0f * s;
        }
    half *da, *db;
    float* dc;
    CHECK(cudaMalloc(&da, sizeof ha));
    CHECK(cudaMalloc(&db, sizeof hb));
    CHECK(cudaMalloc(&dc, n * n * sizeof(float)));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    halfToFloat<<<dim3(2, 2), 32>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    float hc[n * n];
    CHECK(cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n * n; ++i)
        wrong += hc[i] != ref[i];
    std::printf("half x half -> float 32x32: %d of %d differ from the host; c[0] %.1f c[33] %.1f c[1023] %.1f\n", wrong,
                n * n, hc[0], hc[33], hc[1023]);

    // 16x16 half accumulate: A column-major, B row-major, C column-major.
    half sa[256], sb[256], sc[256];
    for (int i = 0; i < 256; ++i) {
        sa[i] = __float2half(static_cast<float>(i % 9 - 4));
        sb[i] = __float2half(static_cast<float>(i % 4) * 0.25f);
        sc[i] = __float2half(static_cast<float>(i % 3));
    }
    half* dsa;
    half* dsb;
    half* dsc;
    CHECK(cudaMalloc(&dsa, sizeof sa));
    CHECK(cudaMalloc(&dsb, sizeof sb));
    CHECK(cudaMalloc(&dsc, sizeof sc));
    CHECK(cudaMemcpy(dsa, sa, sizeof sa, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dsb, sb, sizeof sb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dsc, sc, sizeof sc, cudaMemcpyHostToDevice));
    halfToHalf<<<1, 32>>>(dsa, dsb, dsc);
    CHECK(cudaGetLastError());
    half out[256];
    CHECK(cudaMemcpy(out, dsc, sizeof out, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            float s = __half2float(sc[c * 16 + r]);
            for (int k = 0; k < 16; ++k)
                s += __half2float(sa[k * 16 + r]) * __half2float(sb[k * 16 + c]);
            wrong += __half2float(out[c * 16 + r]) != s;
        }
    std::printf("half x half -> half 16x16: %d of 256 differ; bits %04x %04x %04x\n", wrong, __half_as_ushort(out[0]),
                __half_as_ushort(out[17]), __half_as_ushort(out[255]));

    double da8[8 * 4], db8[4 * 8];
    for (int i = 0; i < 32; ++i) {
        da8[i] = (i % 5) - 2.0;
        db8[i] = (i % 3) * 0.5;
    }
    double *dda, *ddb, *ddc;
    CHECK(cudaMalloc(&dda, sizeof da8));
    CHECK(cudaMalloc(&ddb, sizeof db8));
    CHECK(cudaMalloc(&ddc, 64 * sizeof(double)));
    CHECK(cudaMemcpy(dda, da8, sizeof da8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ddb, db8, sizeof db8, cudaMemcpyHostToDevice));
    doubles<<<1, 32>>>(dda, ddb, ddc);
    CHECK(cudaGetLastError());
    double dc8[64];
    CHECK(cudaMemcpy(dc8, ddc, sizeof dc8, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) {
            double s = -1.0;
            for (int k = 0; k < 4; ++k)
                s += da8[r * 4 + k] * db8[k * 8 + c];
            wrong += dc8[r * 8 + c] != s;
        }
    std::printf("double 8x8x4: %d of 64 differ; c[0] %.2f c[9] %.2f c[63] %.2f\n", wrong, dc8[0], dc8[9], dc8[63]);

    float ta[16 * 8], tb[8 * 16];
    for (int i = 0; i < 128; ++i) {
        ta[i] = static_cast<float>(i % 7) - 3.0f;
        tb[i] = static_cast<float>(i % 6) * 0.25f;
    }
    float *dta, *dtb, *dtc;
    CHECK(cudaMalloc(&dta, sizeof ta));
    CHECK(cudaMalloc(&dtb, sizeof tb));
    CHECK(cudaMalloc(&dtc, 256 * sizeof(float)));
    CHECK(cudaMemcpy(dta, ta, sizeof ta, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dtb, tb, sizeof tb, cudaMemcpyHostToDevice));
    tf32<<<1, 32>>>(dta, dtb, dtc);
    CHECK(cudaGetLastError());
    float tc[256];
    CHECK(cudaMemcpy(tc, dtc, sizeof tc, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            float s = 0.0f;
            for (int k = 0; k < 8; ++k)
                s += ta[r * 8 + k] * tb[k * 16 + c];
            wrong += tc[r * 16 + c] != s;
        }
    std::printf("tf32 16x16x8: %d of 256 differ; c[0] %.2f c[17] %.2f c[255] %.2f\n", wrong, tc[0], tc[17], tc[255]);

    signed char ia[256], ib[256];
    for (int i = 0; i < 256; ++i) {
        ia[i] = static_cast<signed char>((i * 37) % 255 - 127);
        ib[i] = static_cast<signed char>((i * 11) % 200 - 100);
    }
    signed char *dia, *dib;
    int* dic;
    CHECK(cudaMalloc(&dia, sizeof ia));
    CHECK(cudaMalloc(&dib, sizeof ib));
    CHECK(cudaMalloc(&dic, 256 * sizeof(int)));
    CHECK(cudaMemcpy(dia, ia, sizeof ia, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dib, ib, sizeof ib, cudaMemcpyHostToDevice));
    int8<<<1, 32>>>(dia, dib, dic);
    CHECK(cudaGetLastError());
    int ic[256];
    CHECK(cudaMemcpy(ic, dic, sizeof ic, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            int s = 1000;
            for (int k = 0; k < 16; ++k)
                s += ia[r * 16 + k] * ib[c * 16 + k];
            wrong += ic[r * 16 + c] != s;
        }
    std::printf("int8 16x16x16: %d of 256 differ; c[0] %d c[17] %d c[255] %d\n", wrong, ic[0], ic[17], ic[255]);
    return 0;
}
