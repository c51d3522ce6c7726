# Planted kernels and gaming attempts: wrong or dishonest submissions every lesson's grader must
# reject. Each is one file that says what it is in its header lines (tests/planted/README.md):
#   tests/planted/NN_name/<name>.patch       a mutation of the reference solution (a unified diff)
#   tests/planted/NN_name/<name>.cu|.cpp     a short standalone file, where the mistake is the point
#   tests/gaming/NN_name/<name>.patch|.cu|.cpp  an attempt to fool the grader, as a patch of the
#                                            reference or the starter, or a file of its own
#                                            (tests/gaming/CMakeLists.txt)
# course_add_lesson() registers the lesson's planted kernels itself: nothing lists them by hand.

# What a grader says when the simulator's race check stops a kernel (simulator/README.md,
# "Checking"), or when a case's result changes from one warp schedule to another: @RACE@ in an
# expectation.
set(COURSE_RACE_MESSAGE "CUDA error.*race.*(read-after-write|write-after-read|write-after-write)|race: .* depends on the order in which the warps run")

# Planted kernels and gaming attempts given as patches are applied by cmake/apply_patch.py, with the
# Python of CourseDependencies.cmake.

# A GPU tree grades the planted kernels and gaming attempts on its GPU. A tree for machines without
# one (preset "ci") leaves them out, modules and tests: they would only report skipped there, and
# the simulator's tree compiles and grades every one of them.
option(COURSE_GPU_SUBMISSION_TESTS "Build and register the planted kernels and gaming attempts graded on a GPU" ON)

# course_header_field(<file> <key> <out>): the value of the header line "<key>: <value>" (or
# "// <key>: <value>" in a source file), ON for a line that is the key alone, empty without one.
# @RACE@ in the value stands for COURSE_RACE_MESSAGE.
function(course_header_field file key out)
  file(STRINGS "${file}" lines REGEX "^(// )?${key}(:|$)" LIMIT_COUNT 1)
  set(value "")
  if(lines)
    string(REGEX REPLACE "^(// )?${key}:? ?" "" value "${lines}")
    if(value STREQUAL "")
      set(value ON)
    endif()
    string(REPLACE "@RACE@" "${COURSE_RACE_MESSAGE}" value "${value}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# course_add_refused_submission(<test> <NN_name> <name> <student file> <source> EXPECT <regex>
#                               LABELS <labels>)
# A submission the build must refuse (an include of the reference, of the toolkit in a host
# program, ...): the test runs the module's include check on it and expects <regex>. The file sits
# where a student's would, in a lesson folder of its own; @COURSE_ROOT@ in it is the course's
# folder, for attempts that reach for it by absolute path.
function(course_add_refused_submission test lesson name replaces source)
  cmake_parse_arguments(PARSE_ARGV 5 arg "" "EXPECT" "LABELS")
  set(folder "${CMAKE_CURRENT_BINARY_DIR}/refused/${name}/${lesson}")
  set(COURSE_ROOT "${PROJECT_SOURCE_DIR}")
  configure_file("${source}" "${folder}/${replaces}" @ONLY)
  set(host_check "")
  if(replaces MATCHES "\\.cpp$")
    set(host_check HOST_CHECK)
  endif()
  course_module_command(command ${host_check} SOURCE "${folder}/${replaces}" OUTPUT "${folder}/refused.checked"
    LESSON_DIR "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  add_test(NAME ${test} COMMAND ${command})
  set_tests_properties(${test} PROPERTIES LABELS "${arg_LABELS}" TIMEOUT 300 PASS_REGULAR_EXPRESSION "${arg_EXPECT}")
endfunction()

# _course_patch_paths(<patch> <replaces> <original> <applied>): for a planted kernel or gaming
# attempt given as a patch (tests/planted|gaming/NN_name/<name>.patch), the student file it
# replaces (its "+++ b/<file>" line), the file it applies to (the lesson's reference, or its
# starter as shipped for a gaming patch with "applies to: starter": course files, never the
# student's) and where the patched file is written.
function(_course_patch_paths patch out_replaces out_original out_applied)
  get_filename_component(folder "${patch}" DIRECTORY)
  get_filename_component(lesson "${folder}" NAME)
  get_filename_component(set_folder "${folder}" DIRECTORY)
  get_filename_component(set "${set_folder}" NAME)
  get_filename_component(name "${patch}" NAME_WE)
  file(STRINGS "${patch}" target REGEX "^\\+\\+\\+ b/" LIMIT_COUNT 1)
  if(NOT target)
    message(FATAL_ERROR "${patch}: no '+++ b/<student file>' line: not a unified diff of a student file")
  endif()
  string(REGEX REPLACE "^\\+\\+\\+ b/([^\t ]+).*" "\\1" replaces "${target}")
  course_header_field("${patch}" "applies to" applies_to)
  set(base "${PROJECT_SOURCE_DIR}/solutions/${lesson}")
  if(set STREQUAL "gaming" AND applies_to STREQUAL "starter")
    _course_starter_folder(${lesson} base)
  elseif(applies_to)
    message(FATAL_ERROR "${patch}: 'applies to: ${applies_to}': a patch applies to the reference (no such line) or, "
      "for a gaming attempt, to the starter ('applies to: starter')")
  endif()
  set(${out_replaces} "${replaces}" PARENT_SCOPE)
  set(${out_original} "${base}/${replaces}" PARENT_SCOPE)
  set(${out_applied} "${PROJECT_BINARY_DIR}/patched/${set}/${lesson}/${name}/${replaces}" PARENT_SCOPE)
endfunction()

# _course_apply_patches(): every patch of tests/planted/ and tests/gaming/ applied, by one run of
# cmake/apply_patch.py (one Python start, not one per patch). Configuring runs again when a patch
# or a file it applies to changes, and stops, naming the patch and the hunk, when one no longer
# applies.
function(_course_apply_patches)
  file(GLOB patches CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/tests/planted/[0-9][0-9]_*/*.patch"
                                      "${PROJECT_SOURCE_DIR}/tests/gaming/[0-9][0-9]_*/*.patch")
  if(NOT patches)
    return()
  endif()
  if(NOT Python3_Interpreter_FOUND)
    message(FATAL_ERROR "planted kernels and gaming attempts are patches applied by Python: install it "
      "(sudo apt-get install -y python3), or configure with -DCOURSE_WITH_SOLUTIONS=OFF")
  endif()
  set(arguments "")
  foreach(patch IN LISTS patches)
    _course_patch_paths("${patch}" replaces original applied)
    list(APPEND arguments "${patch}" "${original}" "${applied}")
    set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${patch}" "${original}")
  endforeach()
  execute_process(COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/cmake/apply_patch.py" ${arguments}
    RESULT_VARIABLE failed ERROR_VARIABLE why)
  if(failed)
    string(STRIP "${why}" why)
    message(FATAL_ERROR "${why}")  # it names each patch, the hunk and the line that differs
  endif()
endfunction()

# _course_add_planted_kernels(<NN_name>): every file of tests/planted/NN_name/, registered from its
# header lines.
function(_course_add_planted_kernels lesson)
  string(SUBSTRING "${lesson}" 0 2 number)
  file(GLOB planted CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/tests/planted/${lesson}/*.patch"
                                      "${PROJECT_SOURCE_DIR}/tests/planted/${lesson}/*.cu"
                                      "${PROJECT_SOURCE_DIR}/tests/planted/${lesson}/*.cpp")
  foreach(file IN LISTS planted)
    get_filename_component(name "${file}" NAME_WE)
    foreach(key plants expect passes replaces "gpu only" "simulator only" "refused by the build" "on gpu sanitize"
                "sanitize test case" "host check expects")
      string(REPLACE " " "_" variable "${key}")
      course_header_field("${file}" "${key}" field_${variable})
    endforeach()
    if(NOT field_plants OR (NOT field_expect AND NOT field_passes))
      message(FATAL_ERROR "${file}: a planted kernel needs a 'plants:' line (the mistake it plants) and an "
        "'expect:' line (the message that must reject it): tests/planted/README.md")
    endif()
    if(field_simulator_only AND NOT COURSE_SIMULATOR)
      continue()  # only the simulator's checks can see this mistake
    endif()
    if(NOT field_refused_by_the_build AND NOT COURSE_SIMULATOR AND NOT COURSE_GPU_SUBMISSION_TESTS)
      continue()  # graded on a GPU only, and this tree is for machines without one
    endif()
    if(file MATCHES "\\.patch$")
      _course_patch_paths("${file}" replaces original source)  # applied by _course_apply_patches()
    elseif(NOT field_replaces)
      message(FATAL_ERROR "${file}: a standalone planted kernel needs a '// replaces: <student file>' line")
    else()
      set(replaces "${field_replaces}")
      set(source "${file}")
    endif()

    if(field_refused_by_the_build)
      course_add_refused_submission(lesson${number}.planted.${name} ${lesson} ${name} ${replaces} "${source}"
        EXPECT "${field_expect}" LABELS lesson${number} planted host)
      continue()
    endif()
    if(field_passes)
      course_add_passing_submission(${lesson} ${name} ${replaces} "${source}" TEST_CASES "${field_passes}")
      continue()
    endif()
    set(options "")
    if(field_gpu_only)
      list(APPEND options GPU_ONLY)
    endif()
    foreach(pair "ON_GPU_SANITIZE;on_gpu_sanitize" "SANITIZE_TEST_CASE;sanitize_test_case"
                 "HOST_CHECK_FAILS_WITH;host_check_expects")
      list(GET pair 0 option)
      list(GET pair 1 variable)
      if(field_${variable})
        list(APPEND options ${option} "${field_${variable}}")
      endif()
    endforeach()
    course_add_planted_kernel(${lesson} ${name} REPLACES ${replaces} SOURCE "${source}"
      FAILS_WITH "${field_expect}" ${options})
  endforeach()
endfunction()

# course_add_passing_submission(<NN_name> <name> <student file> <source> TEST_CASES <filter>)
# A right submission unlike the reference (another order of float additions, ...): the grader's test
# cases matching <filter> must pass it, with no failure. The suite "baselines" is left out, as for a
# planted kernel (cmake/Course.cmake): it checks the lesson's own kernels, which no submission replaces.
function(course_add_passing_submission lesson name replaces source)
  cmake_parse_arguments(PARSE_ARGV 4 arg "" "TEST_CASES" "")
  if(NOT COURSE_WITH_SOLUTIONS)
    return()
  endif()
  string(SUBSTRING "${lesson}" 0 2 number)
  set(id "lesson${number}")
  course_add_replaced_submission(modules_option ${lesson} planted ${name} ${replaces} "${source}")
  course_failure_words(failures correctness fault timeout grader)
  add_test(NAME ${id}.planted.${name}_passes
    COMMAND ${id}_grader ${modules_option} "--test-case=${arg_TEST_CASES}" --test-suite-exclude=baselines)
  set_tests_properties(${id}.planted.${name}_passes PROPERTIES
    LABELS "${id};planted"
    TIMEOUT ${COURSE_GRADER_TIMEOUT}
    SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "test cases: *[1-9][0-9]* \\| *[1-9][0-9]* passed \\| *0 failed"
    FAIL_REGULAR_EXPRESSION "${failures}")
endfunction()
