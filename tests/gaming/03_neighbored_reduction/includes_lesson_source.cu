// Gaming attempt: includes a source file of the lesson (its baseline kernel) rather than one of
// its interface headers. The lesson's folder offers only headers to a student's file: a lesson's
// sources may hold the references its grader checks against.
//
// replaces: reduce_neighbored_less.cu
// expect: refused: .* includes .*/lessons/03_neighbored_reduction/baselines.cu
// refused by the build

#include "baselines.cu"
