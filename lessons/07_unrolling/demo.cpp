// Lesson 07 demo: lesson 04's shared-memory reduction, unrolled one step at a time, and your
// kernel, timed side by side (speedups over lesson 04's reference).
//
//   ./course run 07                      # your kernel (exercises/)
//   ./course run 07 --solution           # the reference (solutions/)
//   ./course run 07 --kernel unrolling8 --reps 1    # one kernel, e.g. under ncu

#include "unrolling.hpp"

#include "course/reduction_demo.hpp"

#include <string>

int main(int argc, char** argv)
{
    const course::BlockReductionDemo demo{
        lesson07::kLesson, COURSE_PROGRAM,
        "unrolling: several data blocks per block, the last warp, the block size at compile time (lesson 07)",
        lesson07::kernels()};
    return course::run_block_reduction_demo(demo, argc, argv);
}
