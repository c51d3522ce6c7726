# course_add_module(): one student file compiled into a module, a fat binary that the lesson's
# host code loads at run time (common/include/course/module.hpp). The student's code is never
# linked into a grader or a demo, so none of it runs on their host side.
#
#   course_add_module(<output variable> SOURCE <file.cu> OUTPUT <file.fatbin> LESSON_DIR <folder>)
#   course_add_module(<output variable> HOST_CHECK SOURCE <file.cpp> OUTPUT <stamp> LESSON_DIR <folder>)
#
# Sets <output variable> to the fat binary's (or the stamp's) path, for a target to depend on. The
# HOST_CHECK form only checks the includes of a student's host file, which a student program
# (cmake/Course.cmake) compiles. The build
# refuses a source that includes anything outside its own folder, the lesson's interface headers,
# the course's public headers (common/include), the CUDA toolkit and the C++ library
# (cmake/compile_module.cmake says how); a host file may not include the CUDA toolkit either.

set(_course_modules_script "${CMAKE_CURRENT_LIST_DIR}/compile_module.cmake")

# nvcc's architecture flags for CMAKE_CUDA_ARCHITECTURES, as CMake gives them to compiled targets,
# with PTX always among them: the judge reads what a module declares from its PTX before it runs
# it (course/module_ptx.hpp). "native" is the architectures CMake found on this machine (nvcc's own
# -arch=native embeds none); a list of "-real" ones gets the PTX of the newest.
function(_course_module_architecture_flags out)
  set(architectures "${CMAKE_CUDA_ARCHITECTURES}")
  if(architectures STREQUAL "native" AND CMAKE_CUDA_ARCHITECTURES_NATIVE)
    set(architectures "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
    list(TRANSFORM architectures REPLACE "-real$" "")
  endif()
  set(flags "")
  set(has_ptx OFF)
  set(newest "")
  foreach(arch IN LISTS architectures)
    if(arch MATCHES "^(native|all|all-major)$")
      list(APPEND flags "-arch=${arch}")
      if(NOT arch STREQUAL "native")
        set(has_ptx ON)
      endif()
    elseif(arch MATCHES "^([0-9]+[a-z]?)-real$")
      list(APPEND flags "-gencode=arch=compute_${CMAKE_MATCH_1},code=sm_${CMAKE_MATCH_1}")
      set(newest "${CMAKE_MATCH_1}")
    elseif(arch MATCHES "^([0-9]+[a-z]?)-virtual$")
      list(APPEND flags "-gencode=arch=compute_${CMAKE_MATCH_1},code=compute_${CMAKE_MATCH_1}")
      set(has_ptx ON)
    elseif(arch MATCHES "^([0-9]+[a-z]?)$")
      list(APPEND flags "-gencode=arch=compute_${arch},code=[compute_${arch},sm_${arch}]")
      set(has_ptx ON)
    else()
      message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES: cannot compile modules for '${arch}'")
    endif()
  endforeach()
  if(NOT has_ptx AND newest)
    list(APPEND flags "-gencode=arch=compute_${newest},code=compute_${newest}")
  endif()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

function(_course_module_flags out lesson_dir)
  _course_module_architecture_flags(flags)
  list(APPEND flags -std=c++20 "-I${lesson_dir}" "-I${PROJECT_SOURCE_DIR}/common/include")
  if(CMAKE_CUDA_HOST_COMPILER)
    list(APPEND flags "-ccbin=${CMAKE_CUDA_HOST_COMPILER}")
  endif()
  if(CMAKE_BUILD_TYPE STREQUAL "Debug")
    list(APPEND flags -G)
  else()
    list(APPEND flags -lineinfo)
  endif()
  # The PTX stays text: the judge reads what a module declares before it runs it (course/module_ptx.hpp),
  # and the simulator executes it.
  list(APPEND flags --no-compress)
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# course_identity_dir(<NN_name> <out>): the folder of the lesson's lessonNN_identity.hpp, which
# cmake/CourseManifest.cmake writes when the build is configured.
function(course_identity_dir lesson out)
  string(SUBSTRING "${lesson}" 0 2 number)
  set(${out} "${CMAKE_BINARY_DIR}/generated/lesson${number}/identity" PARENT_SCOPE)
endfunction()

# The command that compiles SOURCE into OUTPUT (with its include check), for add_custom_command and
# for tests that expect a refusal. With HOST_CHECK, SOURCE is a student's host C++ file, only
# checked (the C++ compiler lists its includes) and OUTPUT is a stamp.
function(course_module_command out)
  cmake_parse_arguments(PARSE_ARGV 1 arg "HOST_CHECK" "SOURCE;OUTPUT;LESSON_DIR" "")
  if(arg_HOST_CHECK)
    set(compiler "${CMAKE_CXX_COMPILER}")
    set(flags -std=c++20 "-I${arg_LESSON_DIR}")
    set(check_only -DCHECK_ONLY=ON)
  else()
    set(compiler "${CMAKE_CUDA_COMPILER}")
    _course_module_flags(flags "${arg_LESSON_DIR}")
    set(check_only "")
  endif()
  # The lesson's identity header (lessonNN_identity.hpp, which configuring writes from its folder's
  # name) is part of its interface, which a student's file may include.
  get_filename_component(lesson_name "${arg_LESSON_DIR}" NAME)
  course_identity_dir("${lesson_name}" identity)
  list(APPEND flags "-I${identity}")
  get_filename_component(source_folder "${arg_SOURCE}" DIRECTORY)
  get_filename_component(toolkit_root "${CUDAToolkit_BIN_DIR}/.." ABSOLUTE)
  set(own_folders "${source_folder}" "${arg_LESSON_DIR}" "${identity}" "${PROJECT_SOURCE_DIR}/common/include")
  # The C++ library and the compilers' own headers, wherever the compilers keep them (/opt/gcc/...).
  set(allowed ${own_folders} "${toolkit_root}" ${CUDAToolkit_INCLUDE_DIRS} /usr/include /usr/lib /usr/local/include
    ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES} ${CMAKE_CUDA_IMPLICIT_INCLUDE_DIRECTORIES})
  set(denied "${PROJECT_SOURCE_DIR}" "${PROJECT_BINARY_DIR}")
  if(arg_HOST_CHECK)
    # A student program has no CUDA runtime, and the toolkit holds a lesson's reference
    # (cuda_occupancy.h, lesson 06's): none of the toolkit's headers, wherever they are linked from.
    foreach(folder IN ITEMS "${toolkit_root}" ${CUDAToolkit_INCLUDE_DIRS})
      if(NOT folder MATCHES "^/usr(/local)?(/include)?/?$")
        list(APPEND denied "${folder}")
      endif()
    endforeach()
  endif()
  # Lists travel to the script with '|' between items: a ';' would split the command's arguments.
  set(headers_only "${arg_LESSON_DIR}")
  foreach(list IN ITEMS flags allowed denied own_folders headers_only)
    string(REPLACE ";" "|" ${list} "${${list}}")
  endforeach()
  set(${out} "${CMAKE_COMMAND}" ${check_only}
    "-DNVCC=${compiler}" "-DSOURCE=${arg_SOURCE}" "-DOUTPUT=${arg_OUTPUT}" "-DDEPFILE=${arg_OUTPUT}.d"
    "-DFLAGS=${flags}" "-DALLOWED=${allowed}" "-DDENIED=${denied}" "-DEXEMPT=${own_folders}"
    "-DHEADERS_ONLY=${headers_only}"
    -P "${_course_modules_script}" PARENT_SCOPE)
endfunction()

function(course_add_module out)
  cmake_parse_arguments(PARSE_ARGV 1 arg "HOST_CHECK" "SOURCE;OUTPUT;LESSON_DIR" "")
  set(host_check "")
  set(main_dependency MAIN_DEPENDENCY "${arg_SOURCE}")
  if(arg_HOST_CHECK)
    set(host_check HOST_CHECK)
    # A plain dependency: a target's source that is a command's MAIN_DEPENDENCY is no longer
    # compiled, and the student program compiles this file.
    set(main_dependency "")
  endif()
  course_module_command(command ${host_check} SOURCE "${arg_SOURCE}" OUTPUT "${arg_OUTPUT}"
    LESSON_DIR "${arg_LESSON_DIR}")
  get_filename_component(output_folder "${arg_OUTPUT}" DIRECTORY)
  add_custom_command(
    OUTPUT "${arg_OUTPUT}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${output_folder}"
    COMMAND ${command}
    ${main_dependency}
    DEPENDS "${arg_SOURCE}" "${_course_modules_script}"
    DEPFILE "${arg_OUTPUT}.d"
    COMMENT "Compiling the module ${arg_OUTPUT}"
    VERBATIM)
  set(${out} "${arg_OUTPUT}" PARENT_SCOPE)
endfunction()
