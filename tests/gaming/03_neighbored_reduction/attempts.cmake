# Lesson 03's gaming attempts (see ../CMakeLists.txt). Each replaces reduce_neighbored_less.cu.
set(l03 03_neighbored_reduction)
set(l03_file reduce_neighbored_less.cu)
course_add_gaming_attempt(${l03} static_exit REPLACES ${l03_file} SOURCE static_exit.cu
  EXPECT "^fail: too slow: reduce_neighbored_less")
course_add_gaming_attempt(${l03} atexit_exit REPLACES ${l03_file} SOURCE atexit_exit.cu
  EXPECT "^fail: too slow: reduce_neighbored_less")
course_add_gaming_attempt(${l03} device_printf REPLACES ${l03_file} SOURCE device_printf.cu
  EXPECT "^fail: too slow: reduce_neighbored_less")
course_add_gaming_attempt(${l03} replays_by_pointer REPLACES ${l03_file} SOURCE replays_by_pointer.cu
  EXPECT "^fail: wrong result: ")
course_add_gaming_attempt(${l03} first_call_only REPLACES ${l03_file} SOURCE first_call_only.cu
  EXPECT "^fail: not written: reduce_neighbored_less")
course_add_refused_attempt(${l03} includes_reference REPLACES ${l03_file} SOURCE includes_reference.cu
  EXPECT "refused: .* includes .*/solutions/03_neighbored_reduction/reduce_neighbored_less.cu")
course_add_refused_attempt(${l03} includes_course_tree REPLACES ${l03_file} SOURCE includes_course_tree.cu
  EXPECT "refused: .* includes .*/tests/planted/03_neighbored_reduction/wrong_bound.cu")
course_add_refused_attempt(${l03} includes_lesson_source REPLACES ${l03_file} SOURCE includes_lesson_source.cu
  EXPECT "refused: .* includes .*/lessons/03_neighbored_reduction/reduce_neighbored.cu")
