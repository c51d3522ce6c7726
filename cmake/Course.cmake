# course_add_lesson() and course_add_planted_kernel(): everything a lesson needs from CMake.
#
# A lesson NN_name is three folders:
#   lessons/NN_name/    the text, the interface headers, the baseline kernels, the host code that
#                       launches the student's kernels, demo.cpp, grader.cpp
#   exercises/NN_name/  the student's files (the STUDENT_SOURCES, starter versions; the cache
#                       variable COURSE_EXERCISES_DIR points at another folder of that shape)
#   solutions/NN_name/  the same files, reference versions
# and its manifest lessons/NN_name/lesson.json, whose "build" object cmake/CourseManifest.cmake
# turns into the arguments of course_add_lesson() (and whose speed checks become the grader's
# lesson_checks.hpp); no list of lessons is written anywhere else. With N = the two digits it makes:
#   lessonN_lesson                 the lesson's trusted code (a static library)
#   lessonN_demo, lessonN_grader   the demo and the grader, one of each
#   modules/<exercise|solution>/NN_name/<file>.fatbin   each student .cu compiled on its own
#                                  (cmake/CourseModules.cmake): the demo and the grader load the
#                                  student's by default and the reference with --modules=DIR
#   modules/<exercise|solution>/NN_name/student_program  a lesson whose exercises are host C++
#                                  (STUDENT_PROGRAM <main source>): the student's .cpp files and
#                                  the lesson's main, a program without the CUDA runtime that the
#                                  grader runs as a child process, questions on stdin, answers on
#                                  stdout (common/include/course/student_program.hpp)
# The student's code is never linked into the grader or the demo: nothing of it runs in the
# process that decides a verdict. The graders' test cases are registered with CTest (labels
# lessonN plus exercise or solution), with a self-test that the unmodified starter fails its
# grader for the reason the lesson expects:
#   course_add_lesson(NN_name LESSON_SOURCES ... STUDENT_SOURCES ... STARTER_FAILS_WITH <regex>
#                     [STARTER_FORBIDS <regex>] [STUDENT_PROGRAM <source>] [USES_REFERENCE_OF ...])
# STARTER_FORBIDS defaults to every failure word but the speed ones (common/include/course/failures.hpp):
# a starter is expected to be right and slow. A lesson whose starter is unfinished on purpose
# narrows it.
#
# USES_REFERENCE_OF <NN_name>...: earlier lessons whose reference kernels this lesson measures
# against (lesson 04 compares with lesson 03's neighbored and neighbored-less kernels): the earlier
# lesson's host code is linked and launches the course's reference modules, never the student's,
# so a later lesson's baselines do not depend on how far the student got with an earlier one.
#
# A lesson whose exercise can also be checked without a GPU names a doctest program with
# HOST_CHECK <source in lessons/NN_name/>: lessonN_host_check, run against the reference (label
# "host", so it runs on CI machines too) and against the unmodified starter, which must fail with
# HOST_CHECK_STARTER_FAILS_WITH.

include(CourseModules)
include(CoursePlanted)
include(CourseManifest)

# Where the build tree keeps the modules and student programs (common/src/module.cpp reads it).
set(COURSE_MODULES_ROOT "${PROJECT_BINARY_DIR}/modules")

set(COURSE_GRADER_TIMEOUT 600 CACHE STRING "CTest timeout of one grader test case, in seconds")

# Where the student's kernels come from: ./course grade --submissions points this at each
# submission in turn, so one build tree grades many students without touching exercises/.
set(COURSE_EXERCISES_DIR "${PROJECT_SOURCE_DIR}/exercises" CACHE PATH
  "The folder whose NN_name/ subfolders hold the student's kernels")

# The starters as shipped, for the course's own tests (the unmodified starter fails for the lesson's
# reason; gaming attempts start from it): never the student's working copy, so that nothing a
# student writes in exercises/ can change or break them. A released copy keeps them in starters/; a
# clone of the course's repository has them in git's HEAD, written here into the build tree (and
# written again when HEAD moves). A lesson found in neither (begun, not yet committed) uses its
# exercises/ folder.
function(_course_prepare_starters)
  if(IS_DIRECTORY "${PROJECT_SOURCE_DIR}/starters")
    set(COURSE_STARTERS_ROOT "${PROJECT_SOURCE_DIR}/starters" PARENT_SCOPE)
    return()
  endif()
  set(root "${PROJECT_BINARY_DIR}/starters")
  set(COURSE_STARTERS_ROOT "${root}" PARENT_SCOPE)
  find_package(Git QUIET)
  if(NOT GIT_FOUND)
    return()
  endif()
  execute_process(COMMAND "${GIT_EXECUTABLE}" ls-tree -r --name-only HEAD -- exercises
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" RESULT_VARIABLE failed OUTPUT_VARIABLE names ERROR_QUIET
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(failed OR names STREQUAL "")
    return()  # not a git clone, or nothing committed yet
  endif()
  string(REPLACE "\n" ";" names "${names}")
  foreach(name IN LISTS names)
    string(REGEX REPLACE "^exercises/" "" relative "${name}")
    set(scratch "${root}/.extracted")
    file(MAKE_DIRECTORY "${root}")
    execute_process(COMMAND "${GIT_EXECUTABLE}" show "HEAD:./${name}" WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
      OUTPUT_FILE "${scratch}" RESULT_VARIABLE failed ERROR_QUIET)
    if(NOT failed)
      get_filename_component(folder "${root}/${relative}" DIRECTORY)
      file(MAKE_DIRECTORY "${folder}")
      file(COPY_FILE "${scratch}" "${root}/${relative}" ONLY_IF_DIFFERENT)  # unchanged: nothing rebuilds
    endif()
    file(REMOVE "${scratch}")
  endforeach()
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --git-path logs/HEAD WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    OUTPUT_VARIABLE reflog OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  get_filename_component(reflog "${reflog}" ABSOLUTE BASE_DIR "${PROJECT_SOURCE_DIR}")
  if(EXISTS "${reflog}")
    set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${reflog}")
  endif()
endfunction()
_course_prepare_starters()

# _course_starter_folder(<NN_name> <out>): the folder of lesson NN_name's shipped starter.
function(_course_starter_folder lesson out)
  if(IS_DIRECTORY "${COURSE_STARTERS_ROOT}/${lesson}")
    set(${out} "${COURSE_STARTERS_ROOT}/${lesson}" PARENT_SCOPE)
  else()
    set(${out} "${PROJECT_SOURCE_DIR}/exercises/${lesson}" PARENT_SCOPE)
  endif()
endfunction()

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
function(_course_register_grader target lesson_id variant modules_option)
  doctest_discover_tests(${target}
    TEST_PREFIX "${lesson_id}.${variant}/"
    TEST_LIST ${target}_${variant}_TESTS
    EXTRA_ARGS ${modules_option}
    PROPERTIES TIMEOUT ${COURSE_GRADER_TIMEOUT} SKIP_RETURN_CODE 77)
  # The discovered tests exist only once CTest has read doctest's generated file, so their labels
  # are set by a second script CTest reads right after it.
  set(label_script "${CMAKE_CURRENT_BINARY_DIR}/${target}_${variant}_labels.cmake")
  file(WRITE "${label_script}"
    "if(DEFINED ${target}_${variant}_TESTS)\n"
    "  set_tests_properties(\${${target}_${variant}_TESTS} PROPERTIES LABELS \"${lesson_id};${variant}\")\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${label_script}")
endfunction()

# The target ${id}_${target_suffix}_modules that builds the student code of one variant into
# <modules root>/<lesson>/: a module per .cu file, and with a STUDENT_PROGRAM the .cpp files as
# one program. It is part of the default build unless ON_DEMAND is given: the student's own files
# (exercises/) are built only by the commands that use them, so that a file a student is still
# writing never stops the rest of the course from building. A student's file that is missing or
# not a file gives a target that fails saying so, instead of a configure error.
function(_course_add_student_code id lesson target_suffix source_folder modules_root sources program_main)
  cmake_parse_arguments(PARSE_ARGV 7 arg "ON_DEMAND" "" "")
  set(all ALL)
  if(arg_ON_DEMAND)
    set(all "")
    # Configure again when a file appears or disappears in the folder (the first list), or changes
    # kind (the second: a folder replaced by a file of the same name leaves the first unchanged).
    file(GLOB watched CONFIGURE_DEPENDS LIST_DIRECTORIES true "${source_folder}/*")
    file(GLOB watched_files CONFIGURE_DEPENDS LIST_DIRECTORIES false "${source_folder}/*")
    set(unusable "")
    foreach(file IN LISTS sources)
      set(path "${source_folder}/${file}")
      if(NOT EXISTS "${path}")
        string(SUBSTRING "${lesson}" 0 2 number)
        list(APPEND unusable "missing file: ${path} (./course reset ${number} puts the starter back)")
      elseif(IS_DIRECTORY "${path}")
        list(APPEND unusable "not a file: ${path} is a folder; the lesson needs a source file there")
      endif()
    endforeach()
    if(unusable)
      set(echo "")
      foreach(line IN LISTS unusable)
        list(APPEND echo COMMAND "${CMAKE_COMMAND}" -E echo "course: ${line}")
      endforeach()
      add_custom_target(${id}_${target_suffix}_modules ${echo} COMMAND "${CMAKE_COMMAND}" -E false VERBATIM)
      return()
    endif()
  endif()
  set(lesson_dir "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  set(outputs "")
  set(program_sources "")
  foreach(file IN LISTS sources)
    if(file MATCHES "\\.cu$")
      get_filename_component(stem "${file}" NAME_WE)
      course_add_module(module SOURCE "${source_folder}/${file}" LESSON_DIR "${lesson_dir}"
        OUTPUT "${modules_root}/${lesson}/${stem}.fatbin")
      list(APPEND outputs "${module}")
    else()
      list(APPEND program_sources "${source_folder}/${file}")
      # The same include check as a module's, before the program compiles the file.
      course_add_module(stamp HOST_CHECK SOURCE "${source_folder}/${file}" LESSON_DIR "${lesson_dir}"
        OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/include_checks/${target_suffix}/${lesson}/${file}.checked")
      list(APPEND outputs "${stamp}")
    endif()
  endforeach()
  add_custom_target(${id}_${target_suffix}_modules ${all} DEPENDS ${outputs})
  if(program_sources)
    if(NOT program_main)
      message(FATAL_ERROR "${lesson}: host sources ${program_sources} need STUDENT_PROGRAM <main source>")
    endif()
    set(program ${id}_${target_suffix}_program)
    add_executable(${program} "${lesson_dir}/${program_main}" ${program_sources})
    if(arg_ON_DEMAND)
      set_target_properties(${program} PROPERTIES EXCLUDE_FROM_ALL ON)
    endif()
    target_include_directories(${program} PRIVATE "${lesson_dir}")
    target_link_libraries(${program} PRIVATE course_build_flags)
    # A submission's own files (the student's, a planted or gaming one) are warned about but never
    # stopped by a warning: a correct solution builds whatever a compiler says of an unused helper.
    # The course's own variants, the solution and the starter, keep COURSE_WARNINGS_AS_ERRORS.
    if(NOT target_suffix MATCHES "^(solution|starter)$")
      set_source_files_properties(${program_sources} PROPERTIES COMPILE_OPTIONS -Wno-error)
    endif()
    # Static: the judge starts it with no file descriptor to spare (RLIMIT_NOFILE), so it must
    # need no shared library opened at start. The sanitizers' runtimes cannot be linked statically:
    # in a sanitizer tree it is built without them (the options every target got from the top).
    target_link_options(${program} PRIVATE -static)
    if(COURSE_SANITIZERS)
      set_target_properties(${program} PROPERTIES COMPILE_OPTIONS "" LINK_OPTIONS "-static")
    endif()
    set_target_properties(${program} PROPERTIES
      OUTPUT_NAME student_program
      RUNTIME_OUTPUT_DIRECTORY "${modules_root}/${lesson}")
    add_dependencies(${id}_${target_suffix}_modules ${program})
    add_custom_target(${id}_${target_suffix}_include_checks DEPENDS ${outputs})
    add_dependencies(${program} ${id}_${target_suffix}_include_checks)
  endif()
endfunction()

# A student copy (./course release) has no solutions/, but a later lesson's baselines still need the
# course's reference of an earlier one: the release ships it compiled, as PTX, in
# references/NN_name/, and it is copied where the reference modules live.
function(_course_add_shipped_references id lesson)
  file(GLOB shipped "${PROJECT_SOURCE_DIR}/references/${lesson}/*.fatbin")
  if(NOT shipped)
    return()
  endif()
  set(copies "")
  foreach(module IN LISTS shipped)
    get_filename_component(name "${module}" NAME)
    set(copy "${COURSE_MODULES_ROOT}/solution/${lesson}/${name}")
    add_custom_command(OUTPUT "${copy}" COMMAND "${CMAKE_COMMAND}" -E copy "${module}" "${copy}"
      DEPENDS "${module}" VERBATIM)
    list(APPEND copies "${copy}")
  endforeach()
  add_custom_target(${id}_solution_modules ALL DEPENDS ${copies})
endfunction()

# _course_hint_formulas(<hints.md> <out>): the hints' formulas as one regular expression of
# alternatives: every `code span` with an operator or a call in it ("index = 2 * stride * tid",
# "__popc(word)"), not plain names or the course's commands.
function(_course_hint_formulas hints out)
  file(READ "${hints}" text)
  string(REPLACE ";" "<semicolon>" text "${text}")  # a list separator in CMake: matched as any character
  string(REGEX MATCHALL "`[^`]+`" spans "${text}")
  set(formulas "")
  foreach(span IN LISTS spans)
    string(REGEX REPLACE "^`(.*)`$" "\\1" span "${span}")
    string(LENGTH "${span}" length)
    if(length LESS 8 OR span MATCHES "^\\./course" OR NOT span MATCHES "[][()=*+%<>]|^__")
      continue()
    endif()
    string(REGEX REPLACE "([][^$.*+?()|\\])" "\\\\\\1" span "${span}")
    string(REPLACE "<semicolon>" "." span "${span}")
    list(APPEND formulas "${span}")
  endforeach()
  list(REMOVE_DUPLICATES formulas)
  list(JOIN formulas "|" joined)
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()

# course_failure_words(<out> <kind>...): the failure words of those kinds (correctness, fault,
# speed, timeout, grader) as a regular expression of alternatives, read from the one place that
# defines them, common/include/course/failures.hpp.
function(course_failure_words out)
  set(header "${PROJECT_SOURCE_DIR}/common/include/course/failures.hpp")
  file(STRINGS "${header}" lines REGEX "^inline constexpr Word ")
  set(words "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^inline constexpr Word [a-z_]+\\{\"([^\"]+)\", Kind::([a-z]+)\\};")
      message(FATAL_ERROR "${header}: a failure word not in the form CMake reads: ${line}")
    endif()
    if(CMAKE_MATCH_2 IN_LIST ARGN)
      list(APPEND words "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(NOT words)
    message(FATAL_ERROR "${header}: no failure word of kind ${ARGN}")
  endif()
  list(JOIN words "|" joined)
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()

function(course_add_lesson lesson)
  cmake_parse_arguments(PARSE_ARGV 1 arg ""
    "STARTER_FAILS_WITH;STARTER_FORBIDS;HOST_CHECK;HOST_CHECK_STARTER_FAILS_WITH;STUDENT_PROGRAM"
    "LESSON_SOURCES;STUDENT_SOURCES;USES_REFERENCE_OF")
  if(NOT arg_STUDENT_SOURCES OR NOT arg_STARTER_FAILS_WITH)
    message(FATAL_ERROR "course_add_lesson(${lesson}): STUDENT_SOURCES and STARTER_FAILS_WITH are required")
  endif()
  string(SUBSTRING "${lesson}" 0 2 number)
  set(id "lesson${number}")
  set(lesson_dir "${PROJECT_SOURCE_DIR}/lessons/${lesson}")

  # The lesson's trusted code: baseline kernels, the host code that loads and launches the
  # student's kernels, the registry the demo and the grader share.
  add_library(${id}_lesson STATIC ${arg_LESSON_SOURCES})
  target_include_directories(${id}_lesson PUBLIC "${lesson_dir}")
  target_link_libraries(${id}_lesson PUBLIC course::common)
  foreach(earlier IN LISTS arg_USES_REFERENCE_OF)
    # The earlier lesson's host code, launching its reference modules (never the student's).
    string(SUBSTRING "${earlier}" 0 2 earlier_number)
    if(NOT TARGET lesson${earlier_number}_lesson)
      message(FATAL_ERROR "course_add_lesson(${lesson}): USES_REFERENCE_OF ${earlier}: register that lesson first")
    endif()
    target_link_libraries(${id}_lesson PUBLIC lesson${earlier_number}_lesson)
  endforeach()

  # One module per student file: the student's files (built on demand), the shipped starters and
  # the reference solutions (both built by default, for the course's own tests).
  _course_add_student_code(${id} ${lesson} exercise "${COURSE_EXERCISES_DIR}/${lesson}"
    "${COURSE_MODULES_ROOT}/exercise" "${arg_STUDENT_SOURCES}" "${arg_STUDENT_PROGRAM}" ON_DEMAND)
  _course_starter_folder(${lesson} starter_folder)
  _course_add_student_code(${id} ${lesson} starter "${starter_folder}"
    "${COURSE_MODULES_ROOT}/starter" "${arg_STUDENT_SOURCES}" "${arg_STUDENT_PROGRAM}")
  if(COURSE_WITH_SOLUTIONS)
    _course_add_student_code(${id} ${lesson} solution "${PROJECT_SOURCE_DIR}/solutions/${lesson}"
      "${COURSE_MODULES_ROOT}/solution" "${arg_STUDENT_SOURCES}" "${arg_STUDENT_PROGRAM}")
  endif()
  if(NOT COURSE_WITH_SOLUTIONS)
    _course_add_shipped_references(${id} ${lesson})
  endif()
  foreach(earlier IN LISTS arg_USES_REFERENCE_OF)
    string(SUBSTRING "${earlier}" 0 2 earlier_number)
    if(TARGET lesson${earlier_number}_solution_modules)
      add_dependencies(${id}_lesson lesson${earlier_number}_solution_modules)
    endif()
  endforeach()

  # One demo and one grader: --modules=DIR chooses whose kernels they load (the student's by
  # default). Neither depends on the student's modules, so that a class is graded by one build.
  add_executable(${id}_demo "${lesson_dir}/demo.cpp")
  target_link_libraries(${id}_demo PRIVATE ${id}_lesson)
  target_compile_definitions(${id}_demo PRIVATE COURSE_PROGRAM="${id}_demo")
  add_executable(${id}_grader "${lesson_dir}/grader.cpp")
  target_link_libraries(${id}_grader PRIVATE ${id}_lesson course::grader_main)
  _course_register_grader(${id}_grader ${id} exercise "")
  if(COURSE_WITH_SOLUTIONS)
    _course_register_grader(${id}_grader ${id} solution "--modules=${COURSE_MODULES_ROOT}/solution")
  endif()

  # The starter, unmodified, must fail its grader for the lesson's reason and no other. A starter
  # that is deliberately unfinished (a kernel the student must complete, not speed up) names its
  # expected "wrong result:" in STARTER_FAILS_WITH and leaves it out of STARTER_FORBIDS.
  if(NOT DEFINED arg_STARTER_FORBIDS)
    course_failure_words(arg_STARTER_FORBIDS correctness fault timeout grader)
    string(APPEND arg_STARTER_FORBIDS "|error:")  # lesson 06's student program could not answer
  endif()
  # Its failure says what is wrong and ends with the hint command; it never gives the fix away: no
  # formula of the lesson's hints (hints.md) may appear in the grader's output.
  _course_hint_formulas("${lesson_dir}/hints.md" formulas)
  set(forbidden "${arg_STARTER_FORBIDS}")
  if(formulas)  # an empty alternative would match every output
    string(APPEND forbidden "|${formulas}")
  endif()
  add_test(NAME ${id}.starter_fails_as_expected COMMAND ${id}_grader "--modules=${COURSE_MODULES_ROOT}/starter")
  set_tests_properties(${id}.starter_fails_as_expected PROPERTIES
    LABELS "${id};selftest"
    TIMEOUT ${COURSE_GRADER_TIMEOUT}
    SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "(${arg_STARTER_FAILS_WITH}).*Hints, one at a time: \\./course hint ${number}"
    FAIL_REGULAR_EXPRESSION "${forbidden}")

  if(arg_HOST_CHECK)
    course_add_host_check(${lesson} ${id} "${arg_HOST_CHECK}" "${arg_HOST_CHECK_STARTER_FAILS_WITH}")
  endif()

  set_property(GLOBAL PROPERTY COURSE_${id}_LESSON "${lesson}")
  set_property(GLOBAL PROPERTY COURSE_${id}_STUDENT_SOURCES "${arg_STUDENT_SOURCES}")
  set_property(GLOBAL PROPERTY COURSE_${id}_STUDENT_PROGRAM "${arg_STUDENT_PROGRAM}")
  set_property(GLOBAL APPEND PROPERTY COURSE_LESSONS "${lesson}")

  # The lesson's planted kernels (tests/planted/NN_name/): built from the reference, so only with it.
  if(COURSE_WITH_SOLUTIONS)
    _course_add_planted_kernels(${lesson})
  endif()
endfunction()

# course_add_replaced_submission(<out> <NN_name> <set> <name> <student file> <source>)
# Builds a submission of lesson NN_name whose <student file> is <source> and whose other files are
# the reference's, into modules/<set>/<NN_name>/<name>, and sets <out> to the graders' --modules
# option for it. The file is copied into a folder of its own under the name it replaces, so that
# it may include only what a student's file may (its own folder, the lesson's interface).
function(course_add_replaced_submission out lesson set name replaces source)
  string(SUBSTRING "${lesson}" 0 2 number)
  set(id "lesson${number}")
  get_property(student_sources GLOBAL PROPERTY COURSE_${id}_STUDENT_SOURCES)
  get_property(program_main GLOBAL PROPERTY COURSE_${id}_STUDENT_PROGRAM)
  if(NOT replaces IN_LIST student_sources)
    message(FATAL_ERROR "${set} submission ${name}: ${replaces} is not a student source of ${lesson}")
  endif()
  set(folder "${CMAKE_CURRENT_BINARY_DIR}/${set}/${lesson}/${name}")
  configure_file("${source}" "${folder}/${replaces}" COPYONLY)
  set(modules_root "${COURSE_MODULES_ROOT}/${set}/${lesson}/${name}")
  if(replaces MATCHES "\\.cu$")
    _course_add_student_code(${id} ${lesson} ${set}_${name} "${folder}" "${modules_root}" "${replaces}" "")
  else()
    # A host file: the whole student program is rebuilt, its other files from solutions/.
    set(host_sources "${student_sources}")
    list(FILTER host_sources EXCLUDE REGEX "\\.cu$")
    foreach(file IN LISTS host_sources)
      if(NOT file STREQUAL replaces)
        configure_file("${PROJECT_SOURCE_DIR}/solutions/${lesson}/${file}" "${folder}/${file}" COPYONLY)
      endif()
    endforeach()
    _course_add_student_code(${id} ${lesson} ${set}_${name} "${folder}" "${modules_root}" "${host_sources}"
      "${program_main}")
  endif()
  # The submission's folder first, the reference for the lesson's other files.
  set(${out} "--modules=${modules_root}:${COURSE_MODULES_ROOT}/solution" PARENT_SCOPE)
endfunction()

# What each compute-sanitizer tool prints when it finds something (analysis and hazard report modes
# of racecheck; errors and warnings alike).
function(_course_sanitizer_reports tool out)
  if(tool STREQUAL "racecheck")
    set(${out} "Race reported between|Potential (RAW|WAR|WAW) hazard detected" PARENT_SCOPE)
  elseif(tool STREQUAL "synccheck")
    set(${out} "Barrier error detected|Invalid arguments detected" PARENT_SCOPE)
  elseif(tool STREQUAL "memcheck")
    set(${out} "Invalid __(global|shared|local)__ (read|write) of size|Program hit cuda" PARENT_SCOPE)
  elseif(tool STREQUAL "initcheck")
    set(${out} "Uninitialized __global__ memory read of size" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "ON_GPU_SANITIZE ${tool}: not a compute-sanitizer tool (racecheck, synccheck, memcheck, "
      "initcheck)")
  endif()
endfunction()

# course_add_planted_kernel(<NN_name> <name> REPLACES <student file> SOURCE <file> FAILS_WITH <regex>
#                           [HOST_CHECK_FAILS_WITH <regex>] [GPU_ONLY]
#                           [ON_GPU_SANITIZE <tool> [SANITIZE_TEST_CASE <doctest filter>]])
# Grades a deliberately wrong version of one student file (the lesson's other files from
# solutions/) and checks that the grader rejects it with a message matching <regex>. With
# HOST_CHECK_FAILS_WITH, the lesson's host check (see course_add_lesson) must reject it too, on any
# machine. GPU_ONLY: a mistake only a case the simulator does not run can show (an index past 2^31),
# not registered in a simulator tree.
#
# ON_GPU_SANITIZE <tool> is for a kernel whose results come out right on a GPU in practice although
# it is wrong, such as a data race that the lanes of a warp running in step hide: on the simulator
# (COURSE_SIMULATOR), whose checks find it, the grader must still fail with FAILS_WITH; on a GPU the
# test runs the grader under `compute-sanitizer --tool <tool> --error-exitcode 1` instead and
# expects the tool to report the bug (racecheck: a race; synccheck: a barrier error; memcheck: an
# invalid access; initcheck: an uninitialised read). Where compute-sanitizer is not installed the
# test is not registered (a STATUS message says so). SANITIZE_TEST_CASE limits that run to the
# grader's test cases matching the filter (doctest's --test-case): the tools slow kernels down a
# hundredfold, and the grader's timed test cases need not run under them.
function(course_add_planted_kernel lesson name)
  cmake_parse_arguments(PARSE_ARGV 2 arg "GPU_ONLY"
    "REPLACES;SOURCE;FAILS_WITH;HOST_CHECK_FAILS_WITH;ON_GPU_SANITIZE;SANITIZE_TEST_CASE" "")
  if(NOT COURSE_WITH_SOLUTIONS OR (arg_GPU_ONLY AND COURSE_SIMULATOR))
    return()  # the rest of the planted submission comes from solutions/
  endif()
  string(SUBSTRING "${lesson}" 0 2 number)
  set(id "lesson${number}")
  get_filename_component(source "${arg_SOURCE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  course_add_replaced_submission(modules_option ${lesson} planted ${name} ${arg_REPLACES} "${source}")

  if(arg_ON_GPU_SANITIZE)
    _course_sanitizer_reports("${arg_ON_GPU_SANITIZE}" tool_reports)  # a wrong tool fails in every tree
  endif()
  if(arg_ON_GPU_SANITIZE AND NOT COURSE_SIMULATOR)
    find_program(COURSE_COMPUTE_SANITIZER compute-sanitizer HINTS "${CUDAToolkit_BIN_DIR}"
      DOC "compute-sanitizer, for the planted kernels that only its tools catch on a GPU")
    if(NOT COURSE_COMPUTE_SANITIZER)
      message(STATUS "${id}.planted.${name}: compute-sanitizer not found, the test of this planted kernel "
        "(compute-sanitizer --tool ${arg_ON_GPU_SANITIZE}) is not registered")
    else()
      set(test_case "")
      if(arg_SANITIZE_TEST_CASE)
        set(test_case "--test-case=${arg_SANITIZE_TEST_CASE}")
      endif()
      add_test(NAME ${id}.planted.${name}
        COMMAND "${COURSE_COMPUTE_SANITIZER}" --tool ${arg_ON_GPU_SANITIZE} --error-exitcode 1
          --show-backtrace no $<TARGET_FILE:${id}_grader> ${modules_option} ${test_case})
      # COURSE_SANITIZE=1, as ./course grade's sanitizer pass runs the grader: the correctness
      # cases at their small sizes only. The test then proves that pass catches the mistake, and
      # a run slowed a hundredfold by the tool does not hold the GPU's share for minutes (timings
      # of other tests wait for it: course/gpu_sharing.hpp).
      set_tests_properties(${id}.planted.${name} PROPERTIES
        LABELS "${id};planted;sanitize"
        ENVIRONMENT "COURSE_SANITIZE=1"
        TIMEOUT ${COURSE_GRADER_TIMEOUT}
        SKIP_RETURN_CODE 77
        PASS_REGULAR_EXPRESSION "${tool_reports}")
    endif()
  else()
    # A planted grader stops after its first failing test case: the rest would only say more of the
    # same, and a wrong kernel can be slow (on the simulator, a grid-stride loop that steps by one
    # block does n x blocks additions). It leaves out the test cases of the suite "baselines", which
    # check the lesson's own kernels: a planted kernel replaces none of them, and the solution's and
    # the starter's tests run them.
    add_test(NAME ${id}.planted.${name}
      COMMAND ${id}_grader ${modules_option} --abort-after=1 --test-suite-exclude=baselines)
    set_tests_properties(${id}.planted.${name} PROPERTIES
      LABELS "${id};planted"
      TIMEOUT ${COURSE_GRADER_TIMEOUT}
      SKIP_RETURN_CODE 77
      PASS_REGULAR_EXPRESSION "${arg_FAILS_WITH}")
  endif()

  if(arg_HOST_CHECK_FAILS_WITH)
    if(NOT TARGET ${id}_host_check)
      message(FATAL_ERROR "planted kernel ${name}: ${lesson} has no HOST_CHECK")
    endif()
    add_test(NAME ${id}.planted.${name}.host_check COMMAND ${id}_host_check ${modules_option})
    set_tests_properties(${id}.planted.${name}.host_check PROPERTIES
      LABELS "${id};planted;host"
      TIMEOUT 120
      PASS_REGULAR_EXPRESSION "${arg_HOST_CHECK_FAILS_WITH}")
  endif()
endfunction()

# A lesson's host check (HOST_CHECK): one doctest program, run against the reference and against
# the unmodified starter.
function(course_add_host_check lesson id source starter_fails_with)
  add_executable(${id}_host_check "${PROJECT_SOURCE_DIR}/lessons/${lesson}/${source}")
  target_link_libraries(${id}_host_check PRIVATE ${id}_lesson course::doctest_runtime)
  if(COURSE_WITH_SOLUTIONS)
    add_test(NAME ${id}.host_check COMMAND ${id}_host_check "--modules=${COURSE_MODULES_ROOT}/solution")
    set_tests_properties(${id}.host_check PROPERTIES LABELS "${id};host" TIMEOUT 120)
  endif()
  add_test(NAME ${id}.starter_fails_host_check COMMAND ${id}_host_check "--modules=${COURSE_MODULES_ROOT}/starter")
  set_tests_properties(${id}.starter_fails_host_check PROPERTIES
    LABELS "${id};selftest"
    TIMEOUT 120
    PASS_REGULAR_EXPRESSION "${starter_fails_with}")
endfunction()
