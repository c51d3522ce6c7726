// Lesson 06 host check: exercise 1 without a GPU. Your theoretical_occupancy, run in the student
// program the lesson builds from your files, against the lesson's worked examples and against
// NVIDIA's calculator (cuda_occupancy.h) on an H100 and a T4 described by hand.
//
//   cmake --build --preset ci --target lesson06_host_check lesson06_exercise_modules
//   build/ci/lessons/lesson06_host_check                                   # your calculator
//   build/ci/lessons/lesson06_host_check --modules=build/ci/modules/solution   # the reference

#include "sweep_check.hpp"

#include "course/module.hpp"

#include <iostream>
#include <optional>
#include <string_view>

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

int main(int argc, char** argv)
{
    // --modules=DIR[:DIR...]: where the student program is (by default the student's, built from
    // exercises/); doctest ignores the option.
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (!arg.starts_with("--modules="))
            continue;
        const auto folders = arg.substr(10);
        if (const auto missing = course::missing_module_folder(folders)) {
            std::cerr << argv[0] << ": " << arg << ": " << *missing << " is not a folder\n";
            return 2;
        }
        course::set_student_module_path(folders);
    }
    doctest::Context context(argc, argv);
    return context.run();
}
