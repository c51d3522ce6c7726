// Gaming attempt: reaches into the course's tree outside the lesson's interface and common/include
// (here, one of the course's own test files; @COURSE_ROOT@ is the course's folder, filled in by
// the test). The module build refuses it.
//
// replaces: reduce_neighbored_less.cu
// expect: refused: .* includes .*/tests/gaming/03_neighbored_reduction/first_call_only.cu
// refused by the build

#include "@COURSE_ROOT@/tests/gaming/03_neighbored_reduction/first_call_only.cu"
