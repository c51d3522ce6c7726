# course_add_lesson() and course_add_planted_kernel(): everything a lesson needs from CMake.
#
# A lesson NN_name is three folders:
#   lessons/NN_name/    the text, the interface header, the baseline kernels, demo.cpp, grader.cpp
#   exercises/NN_name/  the student's kernels (the STUDENT_SOURCES, starter versions; the cache
#                       variable COURSE_EXERCISES_DIR points at another folder of that shape)
#   solutions/NN_name/  the same files, reference versions
# and one line in lessons/CMakeLists.txt. From those it makes, with N = the two digits:
#   lessonN_demo,   lessonN_demo_solution     the demo against the student's / the reference kernels
#   lessonN_grader, lessonN_grader_solution   the grader against the same two
# and registers the graders' test cases with CTest (labels lessonN plus exercise or solution), and
# a self-test that the unmodified starter fails its grader for the reason the lesson expects:
#   course_add_lesson(NN_name LESSON_SOURCES ... STUDENT_SOURCES ... STARTER_FAILS_WITH <regex>
#                     [STARTER_FORBIDS <regex>])
# STARTER_FORBIDS defaults to "wrong result:|not written:|CUDA error|timeout:": a starter is
# expected to be right and slow. A lesson whose starter is unfinished on purpose narrows it.
#
# USES_REFERENCE_OF <NN_name>...: earlier lessons whose reference kernels this lesson measures
# against (lesson 04 compares with lesson 03's neighbored and neighbored-less kernels). Their
# solution kernel library is linked, never the student's version, so a later lesson's baselines do
# not depend on how far the student got with an earlier one, and no kernel is copied.
#
# A lesson whose exercise can also be checked without a GPU names a doctest program with
# HOST_CHECK <source in lessons/NN_name/>: it is built as lessonN_host_check and
# lessonN_host_check_solution against the same kernel libraries; the solution's must pass (label
# "host", so it runs on CI machines too) and the unmodified starter's must fail with
# HOST_CHECK_STARTER_FAILS_WITH.

set(COURSE_GRADER_TIMEOUT 600 CACHE STRING "CTest timeout of one grader test case, in seconds")

# Where the student's kernels come from: ./course grade --submissions points this at each
# submission in turn, so one build tree grades many students without touching exercises/.
set(COURSE_EXERCISES_DIR "${PROJECT_SOURCE_DIR}/exercises" CACHE PATH
  "The folder whose NN_name/ subfolders hold the student's kernels")

# A student copy of the course (./course release) has no solutions/: no solution demos, graders
# or planted kernels then. Detected, or set with -DCOURSE_WITH_SOLUTIONS=OFF.
if(EXISTS "${PROJECT_SOURCE_DIR}/solutions")
  set(_course_has_solutions ON)
else()
  set(_course_has_solutions OFF)
endif()
option(COURSE_WITH_SOLUTIONS "Build the reference solutions' demos, graders and planted kernels"
  ${_course_has_solutions})
if(COURSE_WITH_SOLUTIONS AND NOT _course_has_solutions)
  message(FATAL_ERROR "COURSE_WITH_SOLUTIONS is ON but ${PROJECT_SOURCE_DIR}/solutions does not exist")
endif()

# Labels: "exercise" marks the student's grading (./course grade); everything else is the
# course's own suite (./course test).
function(_course_register_grader target lesson_id variant)
  doctest_discover_tests(${target}
    TEST_PREFIX "${lesson_id}.${variant}/"
    TEST_LIST ${target}_TESTS
    PROPERTIES TIMEOUT ${COURSE_GRADER_TIMEOUT} SKIP_RETURN_CODE 77)
  # The discovered tests exist only once CTest has read doctest's generated file, so their labels
  # are set by a second script CTest reads right after it.
  set(label_script "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake")
  file(WRITE "${label_script}"
    "if(DEFINED ${target}_TESTS)\n"
    "  set_tests_properties(\${${target}_TESTS} PROPERTIES LABELS \"${lesson_id};${variant}\")\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${label_script}")
endfunction()

# Sources shared by several executables are compiled once, into object libraries: the grader
# (one per lesson, however many planted kernels reuse it) and each reference solution file,
# named ${id}_solution_<file as a C identifier>.
function(_course_solution_objects_name out id file)
  string(MAKE_C_IDENTIFIER "${file}" stem)
  set(${out} ${id}_solution_${stem} PARENT_SCOPE)
endfunction()

# A kernel library: the given sources plus the lesson's base objects (baseline kernels, registry).
function(_course_add_kernel_library name lesson_base)
  add_library(${name} STATIC ${ARGN})
  target_link_libraries(${name} PUBLIC ${lesson_base})
endfunction()

function(_course_add_grader target id kernels)
  add_executable(${target} $<TARGET_OBJECTS:${id}_grader_objects>)
  target_link_libraries(${target} PRIVATE ${kernels} course::grader_main)
endfunction()

function(course_add_lesson lesson)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "STARTER_FAILS_WITH;STARTER_FORBIDS;HOST_CHECK;HOST_CHECK_STARTER_FAILS_WITH"
    "LESSON_SOURCES;STUDENT_SOURCES;USES_REFERENCE_OF")
  if(NOT arg_STUDENT_SOURCES OR NOT arg_STARTER_FAILS_WITH)
    message(FATAL_ERROR "course_add_lesson(${lesson}): STUDENT_SOURCES and STARTER_FAILS_WITH are required")
  endif()
  string(SUBSTRING "${lesson}" 0 2 number)
  set(id "lesson${number}")
  set(lesson_dir "${PROJECT_SOURCE_DIR}/lessons/${lesson}")

  # What both the exercise and the solution builds share: baseline kernels, registry, interface.
  # An object library: its objects go into each kernel library below, whose registry refers to
  # the student's launchers, so no static-library link order can split them.
  add_library(${id}_base OBJECT ${arg_LESSON_SOURCES})
  target_include_directories(${id}_base PUBLIC "${lesson_dir}")
  target_link_libraries(${id}_base PUBLIC course::common)
  foreach(earlier IN LISTS arg_USES_REFERENCE_OF)
    string(SUBSTRING "${earlier}" 0 2 earlier_number)
    # A student copy without solutions/ (./course release) falls back on the student's kernels.
    if(TARGET lesson${earlier_number}_kernels_solution)
      target_link_libraries(${id}_base PUBLIC lesson${earlier_number}_kernels_solution)
    elseif(TARGET lesson${earlier_number}_kernels)
      target_link_libraries(${id}_base PUBLIC lesson${earlier_number}_kernels)
    else()
      message(FATAL_ERROR "course_add_lesson(${lesson}): USES_REFERENCE_OF ${earlier}: register that lesson first")
    endif()
  endforeach()

  add_library(${id}_grader_objects OBJECT "${lesson_dir}/grader.cpp")
  target_link_libraries(${id}_grader_objects PRIVATE ${id}_base course::grader_main)

  set(variants exercise)
  if(COURSE_WITH_SOLUTIONS)
    list(APPEND variants solution)
    foreach(file IN LISTS arg_STUDENT_SOURCES)
      _course_solution_objects_name(objects ${id} ${file})
      add_library(${objects} OBJECT "${PROJECT_SOURCE_DIR}/solutions/${lesson}/${file}")
      target_link_libraries(${objects} PRIVATE ${id}_base)
    endforeach()
  endif()
  foreach(variant IN LISTS variants)
    set(suffix "")
    if(variant STREQUAL "exercise")
      list(TRANSFORM arg_STUDENT_SOURCES PREPEND "${COURSE_EXERCISES_DIR}/${lesson}/" OUTPUT_VARIABLE sources)
    else()
      set(suffix "_solution")
      set(sources "")
      foreach(file IN LISTS arg_STUDENT_SOURCES)
        _course_solution_objects_name(objects ${id} ${file})
        list(APPEND sources $<TARGET_OBJECTS:${objects}>)
      endforeach()
    endif()
    _course_add_kernel_library(${id}_kernels${suffix} ${id}_base ${sources})

    add_executable(${id}_demo${suffix} "${lesson_dir}/demo.cpp")
    target_link_libraries(${id}_demo${suffix} PRIVATE ${id}_kernels${suffix})
    target_compile_definitions(${id}_demo${suffix} PRIVATE
      COURSE_PROGRAM="${id}_demo${suffix}" COURSE_STUDENT_FOLDER="${variant}s/${lesson}")

    _course_add_grader(${id}_grader${suffix} ${id} ${id}_kernels${suffix})
    _course_register_grader(${id}_grader${suffix} ${id} ${variant})
  endforeach()

  # The starter, unmodified, must fail its grader for the lesson's reason and no other. A starter
  # that is deliberately unfinished (a kernel the student must complete, not speed up) names its
  # expected "wrong result:" in STARTER_FAILS_WITH and leaves it out of STARTER_FORBIDS.
  if(NOT DEFINED arg_STARTER_FORBIDS)
    set(arg_STARTER_FORBIDS "wrong result:|not written:|not on device:|CUDA error|timeout:")
  endif()
  add_test(NAME ${id}.starter_fails_as_expected COMMAND ${id}_grader)
  set_tests_properties(${id}.starter_fails_as_expected PROPERTIES
    LABELS "${id};selftest"
    TIMEOUT ${COURSE_GRADER_TIMEOUT}
    SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "${arg_STARTER_FAILS_WITH}"
    FAIL_REGULAR_EXPRESSION "${arg_STARTER_FORBIDS}")

  if(arg_HOST_CHECK)
    # Compiled once (doctest's main is a heavy translation unit), linked into every variant.
    add_library(${id}_host_check_main OBJECT "${lesson_dir}/${arg_HOST_CHECK}")
    target_link_libraries(${id}_host_check_main PRIVATE ${id}_base doctest::doctest)
    foreach(variant IN LISTS variants)
      set(suffix "")
      if(variant STREQUAL "solution")
        set(suffix "_solution")
      endif()
      add_executable(${id}_host_check${suffix})
      target_link_libraries(${id}_host_check${suffix} PRIVATE ${id}_host_check_main ${id}_kernels${suffix}
                            doctest::doctest)
    endforeach()
    if(COURSE_WITH_SOLUTIONS)
      add_test(NAME ${id}.host_check COMMAND ${id}_host_check_solution)
      set_tests_properties(${id}.host_check PROPERTIES LABELS "${id};host" TIMEOUT 120)
    endif()
    add_test(NAME ${id}.starter_fails_host_check COMMAND ${id}_host_check)
    set_tests_properties(${id}.starter_fails_host_check PROPERTIES
      LABELS "${id};selftest"
      TIMEOUT 120
      PASS_REGULAR_EXPRESSION "${arg_HOST_CHECK_STARTER_FAILS_WITH}")
    set_property(GLOBAL PROPERTY COURSE_${id}_HOST_CHECK ${id}_host_check_main)
  endif()

  set_property(GLOBAL PROPERTY COURSE_${id}_LESSON "${lesson}")
  set_property(GLOBAL PROPERTY COURSE_${id}_STUDENT_SOURCES "${arg_STUDENT_SOURCES}")
  set_property(GLOBAL APPEND PROPERTY COURSE_LESSONS "${lesson}")
endfunction()

# course_add_planted_kernel(<NN_name> <name> REPLACES <student file> SOURCE <file> FAILS_WITH <regex>
#                           [HOST_CHECK_FAILS_WITH <regex>])
# Builds lesson NN's grader with one student file swapped for a deliberately wrong version (the
# rest from solutions/) and checks that the grader rejects it with a message matching <regex>.
# With HOST_CHECK_FAILS_WITH, the lesson's host check (see course_add_lesson) must reject it too,
# on any machine.
function(course_add_planted_kernel lesson name)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "REPLACES;SOURCE;FAILS_WITH;HOST_CHECK_FAILS_WITH" "")
  if(NOT COURSE_WITH_SOLUTIONS)
    return()  # the rest of the planted grader comes from solutions/
  endif()
  string(SUBSTRING "${lesson}" 0 2 number)
  set(id "lesson${number}")
  get_property(student_sources GLOBAL PROPERTY COURSE_${id}_STUDENT_SOURCES)
  if(NOT arg_REPLACES IN_LIST student_sources)
    message(FATAL_ERROR "planted kernel ${name}: ${arg_REPLACES} is not a student source of ${lesson}")
  endif()
  set(sources "${CMAKE_CURRENT_SOURCE_DIR}/${arg_SOURCE}")
  foreach(file IN LISTS student_sources)
    if(NOT file STREQUAL arg_REPLACES)
      _course_solution_objects_name(objects ${id} ${file})
      list(APPEND sources $<TARGET_OBJECTS:${objects}>)
    endif()
  endforeach()

  set(target ${id}_planted_${name})
  _course_add_kernel_library(${target}_kernels ${id}_base ${sources})
  _course_add_grader(${target} ${id} ${target}_kernels)
  # On the simulator a planted grader stops after its first failing test case: a wrong kernel can
  # be slow to interpret (a grid-stride loop that steps by one block does n x blocks additions).
  set(stop_early "")
  if(COURSE_SIMULATOR)
    set(stop_early --abort-after=1)
  endif()
  add_test(NAME ${id}.planted.${name} COMMAND ${target} ${stop_early})
  set_tests_properties(${id}.planted.${name} PROPERTIES
    LABELS "${id};planted"
    TIMEOUT ${COURSE_GRADER_TIMEOUT}
    SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "${arg_FAILS_WITH}")

  if(arg_HOST_CHECK_FAILS_WITH)
    get_property(host_check GLOBAL PROPERTY COURSE_${id}_HOST_CHECK)
    if(NOT host_check)
      message(FATAL_ERROR "planted kernel ${name}: ${lesson} has no HOST_CHECK")
    endif()
    add_executable(${target}_host_check)
    target_link_libraries(${target}_host_check PRIVATE ${host_check} ${target}_kernels doctest::doctest)
    add_test(NAME ${id}.planted.${name}.host_check COMMAND ${target}_host_check)
    set_tests_properties(${id}.planted.${name}.host_check PROPERTIES
      LABELS "${id};planted;host"
      TIMEOUT 120
      PASS_REGULAR_EXPRESSION "${arg_HOST_CHECK_FAILS_WITH}")
  endif()
endfunction()
