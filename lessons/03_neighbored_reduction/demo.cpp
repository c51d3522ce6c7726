// Lesson 03 demo: reduceNeighbored against your reduceNeighboredLess, timed side by side.
//
//   ./course run 03                      # your kernel (exercises/)
//   ./course run 03 --solution           # the reference (solutions/)
//   ./course run 03 --n 2^28 --block 256 --json results.json

#include "neighbored_reduction.hpp"

#include "course/reduction_demo.hpp"

#include <string>

int main(int argc, char** argv)
{
    const course::BlockReductionDemo demo{"03_neighbored_reduction", COURSE_PROGRAM,
                                          "neighbored-pair reduction in global memory (lesson 03)",
                                          lesson03::kernels()};
    return course::run_block_reduction_demo(demo, argc, argv);
}
