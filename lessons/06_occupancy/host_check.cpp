// Lesson 06 host check: exercise 1 without a GPU. Your theoretical_occupancy against the lesson's
// worked examples and against NVIDIA's calculator (cuda_occupancy.h) on an H100 and a T4 described
// by hand.
//
//   cmake --build --preset ci --target lesson06_host_check && build/ci/lessons/lesson06_host_check

#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "sweep_check.hpp"

TEST_SUITE("lesson06 host check")
{
    TEST_CASE("exercise 1: theoretical_occupancy reproduces the lesson's worked examples (no GPU needed)")
    {
        lesson06::check_worked_examples();
    }

    TEST_CASE("exercise 1: theoretical_occupancy agrees with NVIDIA's calculator (no GPU needed)")
    {
        lesson06::check_sweep_on_described_devices();
    }
}
