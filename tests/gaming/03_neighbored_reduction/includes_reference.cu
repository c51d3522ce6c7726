// Gaming attempt: takes the reference solution instead of writing it, through an include that
// leaves the student's folder (@COURSE_ROOT@ is the course's folder, filled in by the test). The
// module build refuses it, as it refuses a relative "../../solutions/..." from exercises/.
//
// replaces: reduce_neighbored_less.cu
// expect: refused: .* includes .*/solutions/03_neighbored_reduction/reduce_neighbored_less.cu
// refused by the build

#include "@COURSE_ROOT@/solutions/03_neighbored_reduction/reduce_neighbored_less.cu"
