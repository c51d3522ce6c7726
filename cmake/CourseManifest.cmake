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

# _course_cpp_string(<out> <text>): <text> as a C++ string literal.
function(_course_cpp_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# _course_write_checks_header(<json> <lesson> <number> <out_dir>): the manifest's speed checks as
# <out_dir>/lesson_checks.hpp, which the lesson's grader includes: it registers them (what
# --list-checks prints and a thresholds file may override) and gives each threshold by name at
# compile time. The manifest is their one source; the file is rewritten only when it changes.
function(_course_write_checks_header json lesson number out_dir)
  set(rows "")
  string(JSON count ERROR_VARIABLE missing LENGTH "${json}" speed_checks checks)
  if(NOT missing AND count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      foreach(field back_end name passes_when threshold unit what)
        string(JSON ${field} ERROR_VARIABLE bad GET "${json}" speed_checks checks ${i} ${field})
        if(bad)
          message(FATAL_ERROR "lessons/${lesson}/lesson.json: speed check ${i} has no '${field}' (${bad})")
        endif()
      endforeach()
      if(NOT back_end MATCHES "^(gpu|sim)$" OR NOT passes_when MATCHES "^(>=|<=)$" OR
         NOT threshold MATCHES "^[0-9]+(\\.[0-9]+)?$")
        message(FATAL_ERROR "lessons/${lesson}/lesson.json: speed check '${name}': back_end gpu or sim, passes_when "
                            ">= or <=, threshold a positive number (got ${back_end}, ${passes_when}, ${threshold})")
      endif()
      if(NOT threshold MATCHES "\\.")
        string(APPEND threshold ".0")
      endif()
      set(at_most false)
      if(passes_when STREQUAL "<=")
        set(at_most true)
      endif()
      _course_cpp_string(name "${name}")
      _course_cpp_string(unit "${unit}")
      _course_cpp_string(what "${what}")
      string(APPEND rows "    {${name}, Backend::${back_end}, ${threshold}, ${at_most}, ${unit},\n     ${what}},\n")
    endforeach()
  else()
    set(count 0)
  endif()
  set(text "// Lesson ${number}'s speed checks, written from lessons/${lesson}/lesson.json when the build is
// configured: change the manifest, not this file.
#pragma once

#include \"course/results.hpp\"

#include <array>
#include <span>
#include <string_view>

namespace manifest {

using course::results::Backend;

/// The manifest's speed_checks, in its order.
inline constexpr std::array<course::results::CheckSpec, ${count}> kChecks{{
${rows}}};

/// What --list-checks prints, and what a thresholds file may override.
inline const course::results::CheckList kRegistered{kChecks};

/// The manifest's threshold of check `name` on `backend`: a name it lacks does not compile.
consteval double threshold(std::string_view name, Backend backend)
{
    return course::results::threshold_of(kChecks, name, backend);
}

}  // namespace manifest
")
  file(WRITE "${out_dir}/lesson_checks.hpp.new" "${text}")
  configure_file("${out_dir}/lesson_checks.hpp.new" "${out_dir}/lesson_checks.hpp" COPYONLY)
endfunction()

# _course_write_identity_header(<lesson> <number> <out_dir>): <out_dir>/lessonNN_identity.hpp, the
# lesson's folder name (which names its modules) as lessonNN::kLesson, from the folder itself; the
# lesson's interface header includes it, so the name is written nowhere else.
function(_course_write_identity_header lesson number out_dir)
  set(text "// Lesson ${number}'s folder name, written from the folder when the build is configured.
#pragma once

namespace lesson${number} {

/// The lesson's folder name, which names its modules.
inline constexpr const char* kLesson = \"${lesson}\";

}  // namespace lesson${number}
")
  file(WRITE "${out_dir}/lesson${number}_identity.hpp.new" "${text}")
  configure_file("${out_dir}/lesson${number}_identity.hpp.new" "${out_dir}/lesson${number}_identity.hpp" COPYONLY)
endfunction()

# course_add_lessons(): every lessons/NN_name/lesson.json, in the order of the numbers.
function(course_add_lessons)
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
    string(SUBSTRING "${lesson}" 0 2 number)
    set(generated "${CMAKE_BINARY_DIR}/generated/lesson${number}")
    _course_write_checks_header("${json}" ${lesson} ${number} "${generated}/checks")
    target_include_directories(lesson${number}_grader PRIVATE "${generated}/checks")
    course_identity_dir(${lesson} identity)
    _course_write_identity_header(${lesson} ${number} "${identity}")
    target_include_directories(lesson${number}_lesson PUBLIC "${identity}")
  endforeach()
endfunction()
