#include "course/cuda_check.hpp"

#include <doctest/doctest.h>

#include <string>

// cudaGetErrorName/String need no device, so the error path can be tested anywhere.

TEST_CASE("COURSE_CUDA_CHECK throws with the call, the place and the error's name")
{
    try {
        COURSE_CUDA_CHECK(cudaErrorIllegalAddress);
        FAIL("no exception");
    } catch (const course::CudaError& error) {
        const std::string text = error.what();
        CHECK(error.code() == cudaErrorIllegalAddress);
        CHECK(text.find("cudaErrorIllegalAddress") != std::string::npos);
        CHECK(text.find("`cudaErrorIllegalAddress`") != std::string::npos);  // the call's text
        CHECK(text.find("test_cuda_check.cpp:") != std::string::npos);
        CHECK(text.find("illegal memory access") != std::string::npos);
    }
}

TEST_CASE("COURSE_CUDA_CHECK is silent on success")
{
    CHECK_NOTHROW(COURSE_CUDA_CHECK(cudaSuccess));
}
