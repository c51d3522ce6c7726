# Lessons are registered from their manifests, lessons/NN_name/lesson.json (docs/adding_a_lesson.md
# lists its fields): the folders are taken in order, and each manifest's "build" object becomes the
# arguments of course_add_lesson(). No other list of lessons exists in the build.

# _course_manifest_string(<json> <out> <key>...): the string at the path of keys, or "" where the
# path is absent.
function(_course_manifest_string json out)
  string(JSON value ERROR_VARIABLE missing GET "${json}" ${ARGN})
  if(missing)
    set(value "")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# _course_manifest_list(<json> <out> <key>...): the array at the path of keys as a CMake list.
function(_course_manifest_list json out)
  set(items "")
  string(JSON count ERROR_VARIABLE missing LENGTH "${json}" ${ARGN})
  if(NOT missing AND count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${json}" ${ARGN} ${i})
      list(APPEND items "${item}")
    endforeach()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# course_add_lessons(): every lessons/NN_name/lesson.json, in the order of the numbers.
function(course_add_lessons)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)  # each manifest's check of the grader's speed checks
  if(COURSE_WITH_SOLUTIONS)
    _course_apply_patches()  # the planted kernels and gaming attempts given as patches, all at once
  endif()
  file(GLOB manifests CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/lessons/[0-9][0-9]_*/lesson.json")
  list(SORT manifests)
  foreach(manifest IN LISTS manifests)
    get_filename_component(folder "${manifest}" DIRECTORY)
    get_filename_component(lesson "${folder}" NAME)
    file(READ "${manifest}" json)
    string(JSON title ERROR_VARIABLE bad GET "${json}" title)
    if(bad)
      message(FATAL_ERROR "${manifest}: not a lesson manifest (${bad})")
    endif()
    set(arguments "")
    _course_manifest_list("${json}" sources build lesson_sources)
    list(TRANSFORM sources PREPEND "${lesson}/")
    list(APPEND arguments LESSON_SOURCES ${sources})
    _course_manifest_list("${json}" student_sources build student_sources)
    list(APPEND arguments STUDENT_SOURCES ${student_sources})
    foreach(key uses_reference_of starter_fails_with starter_forbids student_program host_check host_check_starter_fails_with)
      _course_manifest_string("${json}" value build ${key})
      if(NOT value STREQUAL "")
        string(TOUPPER "${key}" option)
        list(APPEND arguments ${option} "${value}")
      endif()
    endforeach()
    course_add_lesson(${lesson} ${arguments})
    # The speed checks the manifest declares are the ones the grader registers (--list-checks).
    string(SUBSTRING "${lesson}" 0 2 number)
    add_test(NAME lesson${number}.manifest_checks
      COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tools/check_manifest_checks.py" "${manifest}"
              $<TARGET_FILE:lesson${number}_grader>)
    set_tests_properties(lesson${number}.manifest_checks PROPERTIES LABELS "lesson${number};manifest" TIMEOUT 60)
  endforeach()
endfunction()
