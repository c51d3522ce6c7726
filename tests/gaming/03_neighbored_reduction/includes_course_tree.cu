// Gaming attempt: reaches into the course's tree outside the lesson's interface and common/include
// (here, one of the course's own test files; @COURSE_ROOT@ is the course's folder, filled in by
// the test). The module build refuses it.
//
// replaces: reduce_neighbored_less.cu
// expect: refused: .* includes .*/tests/planted/03_neighbored_reduction/accepted_shifted_index.cu
// refused by the build

#include "@COURSE_ROOT@/tests/planted/03_neighbored_reduction/accepted_shifted_index.cu"
