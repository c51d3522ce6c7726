// Double-precision functions whose results are exact or correctly rounded, printed as bit patterns:
// sqrt, division, fma, floor/ceil/trunc/round/rint/nearbyint, fabs, fmin/fmax (with NaN and signed
// zeros), copysign, frexp/ldexp/scalbn/ilogb/logb, modf, fmod/remainder/remquo, fdim, nextafter,
// the __double2hiint/__double2loint/__hiloint2double bit moves and the integer <-> double
// conversions. The transcendental functions (whose last bit may differ) are printed only to six
// significant digits.
#include <cmath>
#include <cstring>

#include "common.cuh"

constexpr int kUnary = 20;
constexpr int kBinary = 10;

__global__ void unary(const double* in, unsigned long long* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const double x = in[i];
    unsigned long long* o = out + i * kUnary;
    int e = 0;
    double whole = 0;
    const double fraction = modf(x, &whole);
    const double mantissa = frexp(x, &e);
    const double r[] = {sqrt(x),          floor(x), ceil(x),         trunc(x),
                        round(x),         rint(x),  nearbyint(x),    fabs(x),
                        copysign(3.0, x), mantissa, ldexp(x, -1074), scalbn(x, 1000),
                        fraction,         whole,    logb(x),         static_cast<double>(ilogb(x))};
    for (int k = 0; k < 16; ++k)
        o[k] = static_cast<unsigned long long>(__double_as_longlong(r[k]));
    o[16] = static_cast<unsigned long long>(static_cast<long long>(e));
    o[17] = static_cast<unsigned>(__double2hiint(x));
    o[18] = static_cast<unsigned>(__double2loint(x));
    o[19] =
        static_cast<unsigned long long>(__double_as_longlong(__hiloint2double(__double2loint(x), __double2hiint(x))));
}

__global__ void binary(const double* a, const double* b, unsigned long long* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const double x = a[i], y = b[i];
    unsigned long long* o = out + i * kBinary;
    int quotient = 0;
    const double rq = remquo(x, y, &quotient);
    const double r[] = {x / y, fmin(x, y), fmax(x, y),      fmod(x, y),   remainder(x, y),
                        rq,    fdim(x, y), nextafter(x, y), fma(x, y, -x)};
    for (int k = 0; k < 9; ++k)
        o[k] = static_cast<unsigned long long>(__double_as_longlong(r[k]));
    o[9] = static_cast<unsigned long long>(static_cast<long long>(quotient & 7));
}

constexpr int kConversions = 8;

__global__ void conversions(const long long* in, const double* d, unsigned long long* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const long long v = in[i];
    unsigned long long* o = out + i * kConversions;
    o[0] = static_cast<unsigned long long>(__double_as_longlong(static_cast<double>(static_cast<int>(v))));
    o[1] = static_cast<unsigned long long>(__double_as_longlong(static_cast<double>(static_cast<unsigned>(v))));
    o[2] = static_cast<unsigned long long>(__double_as_longlong(static_cast<double>(v)));
    o[3] =
        static_cast<unsigned long long>(__double_as_longlong(static_cast<double>(static_cast<unsigned long long>(v))));
    o[4] = static_cast<unsigned long long>(static_cast<long long>(static_cast<int>(d[i])));
    o[5] = static_cast<unsigned long long>(static_cast<long long>(d[i]));
    o[6] = static_cast<unsigned long long>(llrint(d[i]));
    o[7] = static_cast<unsigned long long>(lround(d[i]));
}

__global__ void transcendental(const double* in, double* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const double x = in[i];
    double* o = out + i * 8;
    o[0] = exp(x);
    o[1] = log(fabs(x) + 1.0);
    o[2] = sin(x);
    o[3] = cos(x);
    o[4] = pow(fabs(x) + 0.5, 1.7);
    o[5] = atan2(x, 1.5);
    o[6] = cbrt(x);
    o[7] = hypot(x, 2.0);
}

double fromBits(unsigned long long bits)
{
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

template <typename T>
T* toDevice(const T* host, int n)
{
    T* d;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    CHECK(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

int main()
{
    const double values[] = {
        2.0,
        2.5,
        -2.5,
        3.5,
        -0.5,
        0.49999999999999994,
        1e300,
        -1e-310,
        0.0,
        -0.0,
        1e16,
        4503599627370497.0,
        -7.75,
        123.456,
        fromBits(0x7ff0000000000000),
        fromBits(0xfff0000000000000),
        fromBits(0x7ff8000000000000),
        fromBits(0x0000000000000001),
        1.0 / 3.0,
        -1e15 - 0.5,
    };
    const int n = sizeof values / sizeof values[0];
    unsigned long long* dout;
    CHECK(cudaMalloc(&dout, n * kUnary * sizeof(unsigned long long)));
    unary<<<1, 32>>>(toDevice(values, n), dout, n);
    CHECK(cudaGetLastError());
    unsigned long long out[n * kUnary];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    const char* unaryNames[kUnary] = {"sqrt", "floor",      "ceil",           "trunc", "round",  "rint", "nearbyint",
                                      "fabs", "copysign 3", "frexp",          "ldexp", "scalbn", "modf", "modf whole",
                                      "logb", "ilogb",      "frexp exponent", "hiint", "loint",  "hilo"};
    for (int i = 0; i < n; ++i) {
        unsigned long long bits;
        std::memcpy(&bits, &values[i], sizeof bits);
        std::printf("%016llx (%g):\n", bits, values[i]);
        for (int k = 0; k < kUnary; ++k)
            std::printf("%s%s %llx%s", k % 5 == 0 ? "   " : "", unaryNames[k], out[i * kUnary + k],
                        k % 5 == 4 ? "\n" : ", ");
    }

    const double as[] = {7.0, -7.0, 7.5,    1.0, fromBits(0x7ff8000000000000), 1.0, -0.0, 0.0, 1e308, 5.0,
                         1.0, 2.0,  1e-320, 10.0};
    const double bs[] = {2.0, 2.0, -2.0, 3.0, 1.0, fromBits(0x7ff8000000000000), 0.0, -0.0, 0.1,
                         0.0, 2.0, 1.0,  3.0, 3.0};
    const int m = sizeof as / sizeof as[0];
    unsigned long long* dbout;
    CHECK(cudaMalloc(&dbout, m * kBinary * sizeof(unsigned long long)));
    binary<<<1, 32>>>(toDevice(as, m), toDevice(bs, m), dbout, m);
    CHECK(cudaGetLastError());
    unsigned long long bout[m * kBinary];
    CHECK(cudaMemcpy(bout, dbout, sizeof bout, cudaMemcpyDeviceToHost));
    const char* binaryNames[kBinary] = {"div",    "fmin", "fmax",      "fmod",        "remainder",
                                        "remquo", "fdim", "nextafter", "fma(a,b,-a)", "quotient&7"};
    for (int i = 0; i < m; ++i) {
        std::printf("%g, %g:", as[i], bs[i]);
        for (int k = 0; k < kBinary; ++k)
            std::printf("%s %s %llx", k == 0 ? "" : ",", binaryNames[k], bout[i * kBinary + k]);
        std::printf("\n");
    }

    const long long ints[] = {
        0, -1, 2147483647, -2147483648ll, 4294967295ll, (1ll << 53) + 1, -(1ll << 62) - 1, 0x7fffffffffffffffll};
    const double ds[] = {2.5, -2.5, 3.5, -0.5, 2147483647.5, -2147483648.75, 1e18 + 0.0, -123456789.5};
    const int k = sizeof ints / sizeof ints[0];
    unsigned long long* dcout;
    CHECK(cudaMalloc(&dcout, k * kConversions * sizeof(unsigned long long)));
    conversions<<<1, 32>>>(toDevice(ints, k), toDevice(ds, k), dcout, k);
    CHECK(cudaGetLastError());
    unsigned long long cout[k * kConversions];
    CHECK(cudaMemcpy(cout, dcout, sizeof cout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < k; ++i) {
        const unsigned long long* c = cout + i * kConversions;
        std::printf("%lld: (double)int %llx (double)unsigned %llx (double)ll %llx (double)ull %llx\n", ints[i], c[0],
                    c[1], c[2], c[3]);
        std::printf("%.2f: (int) %llx (long long) %llx llrint %llx lround %llx\n", ds[i], c[4], c[5], c[6], c[7]);
    }

    const double tin[] = {0.5, -1.25, 3.0, 10.0};
    double* dtout;
    CHECK(cudaMalloc(&dtout, 4 * 8 * sizeof(double)));
    transcendental<<<1, 32>>>(toDevice(tin, 4), dtout, 4);
    CHECK(cudaGetLastError());
    double tout[4 * 8];
    CHECK(cudaMemcpy(tout, dtout, sizeof tout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; ++i) {
        const double* t = tout + i * 8;
        std::printf("%g: exp %.6g log1p|x| %.6g sin %.6g cos %.6g pow %.6g atan2 %.6g cbrt %.6g hypot %.6g\n", tin[i],
                    t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]);
    }
    return 0;
}
