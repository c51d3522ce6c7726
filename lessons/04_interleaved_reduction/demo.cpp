// Lesson 04 demo: every block reduction of the ladder so far, in global and in shared memory,
// timed side by side (speedups over lesson 03's reduceNeighbored).
//
//   ./course run 04                      # your kernels (exercises/)
//   ./course run 04 --solution           # the reference (solutions/)
//   ./course run 04 --kernel shared-neighbored-less --reps 1    # one kernel, e.g. under ncu

#include "interleaved_reduction.hpp"

#include "course/reduction_demo.hpp"

#include <string>

int main(int argc, char** argv)
{
    const course::BlockReductionDemo demo{lesson04::kLesson, COURSE_PROGRAM,
                                          "interleaved-pair reduction, in global and in shared memory (lesson 04)",
                                          lesson04::kernels()};
    return course::run_block_reduction_demo(demo, argc, argv);
}
