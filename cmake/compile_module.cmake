# Compiles one student file into a module (a fat binary the lesson's host code loads at run time),
# and keeps it only if it includes nothing but what a student's code may see. Run by the build
# (cmake -P) through course_add_module() in CourseModules.cmake:
#
#   cmake -D NVCC=... -D SOURCE=... -D OUTPUT=... -D DEPFILE=... -D "FLAGS=..." -D "ALLOWED=..."
#         -D "DENIED=..." -D "EXEMPT=..." [-D CHECK_ONLY=ON] -P compile_module.cmake
#                                                                    (lists separated by '|')
#
# With CHECK_ONLY, NVCC may be any compiler that understands -M (a student's host C++ file, checked
# before the build compiles it) and OUTPUT is a stamp file written once the check passes.
#
# ALLOWED lists the folders whose files the source may include (its own folder, the lesson's
# interface headers, the course's public headers, the CUDA toolkit, the C++ library); DENIED lists
# folders refused even inside an allowed one (the course's source and build trees, and for a host
# file the CUDA toolkit), EXEMPT the folders of DENIED that stay allowed (the source's own folder,
# the lesson's, common/include), and HEADERS_ONLY the folders from which only headers may be
# included (the lesson's: its interface, not the sources that hold its references). An include from
# anywhere else, followed through links, stops the build with the file and the reason.

foreach(required NVCC SOURCE OUTPUT DEPFILE ALLOWED)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "compile_module.cmake: ${required} is not set")
  endif()
endforeach()

foreach(list IN ITEMS FLAGS ALLOWED DENIED EXEMPT HEADERS_ONLY)
  string(REPLACE "|" ";" ${list} "${${list}}")
endforeach()
# The folders as real paths, each with a trailing slash: resolved once here, not for every header
# the source reaches (a kernel with cooperative groups reaches a thousand).
foreach(list IN ITEMS ALLOWED DENIED EXEMPT HEADERS_ONLY)
  set(real_folders "")
  foreach(folder IN LISTS ${list})
    if(NOT folder STREQUAL "")
      file(REAL_PATH "${folder}" real_folder)
      list(APPEND real_folders "${real_folder}/")
    endif()
  endforeach()
  set(${list} "${real_folders}")
endforeach()

# Two runs of this script for one output at once (two test runs in one tree) must not read or
# remove each other's files: each writes files of its own and moves them into place when it
# succeeds; a refusal or a failure removes the output, so that no module of an earlier build stays.
string(RANDOM LENGTH 12 run)
set(PART_OUTPUT "${OUTPUT}.${run}.part")
set(PART_DEPFILE "${DEPFILE}.${run}.part")

function(_course_give_up message_text)
  file(REMOVE "${OUTPUT}" "${DEPFILE}" "${PART_OUTPUT}" "${PART_DEPFILE}")
  message(FATAL_ERROR "${message_text}")
endfunction()

# Whether the real path `path` lies in one of `folders` (real paths with a trailing slash).
function(_course_inside path folders out)
  set(${out} FALSE PARENT_SCOPE)
  foreach(folder IN LISTS folders)
    string(FIND "${path}/" "${folder}" at)
    if(at EQUAL 0)
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# Refuses the build (the output and the depfile removed) where the depfile names a file outside what
# a student's code may include.
function(_course_check_includes)
  file(READ "${PART_DEPFILE}" rules)
  string(REPLACE "\\\n" " " rules "${rules}")
  string(REPLACE "\\ " "<space>" rules "${rules}")
  string(REGEX REPLACE "^[^:]*:[ \t]" "" rules "${rules}")
  string(REGEX REPLACE "[ \t\n]+" ";" dependencies "${rules}")
  get_filename_component(source_folder "${SOURCE}" DIRECTORY)
  file(REAL_PATH "${SOURCE}" real_source)
  foreach(dependency IN LISTS dependencies)
    string(REPLACE "<space>" " " dependency "${dependency}")
    if(dependency STREQUAL "")
      continue()
    endif()
    file(REAL_PATH "${dependency}" real BASE_DIRECTORY "${source_folder}")
    _course_inside("${real}" "${ALLOWED}" allowed)
    _course_inside("${real}" "${DENIED}" denied)
    _course_inside("${real}" "${EXEMPT}" exempt)
    _course_inside("${real}" "${HEADERS_ONLY}" headers_only)
    set(header FALSE)
    if(real MATCHES "\\.(h|hpp|cuh)$")
      set(header TRUE)
    endif()
    if(real STREQUAL real_source)
      set(header TRUE)  # the file itself
    endif()
    if(NOT allowed OR (denied AND NOT exempt) OR (headers_only AND NOT header))
      # NOTICE prints the line as it is (FATAL_ERROR would wrap it), for ./course to quote.
      if(CHECK_ONLY)  # a student program's host file: no CUDA runtime, so no toolkit either
        string(CONCAT may_include "its own folder, the lesson's interface headers, the course's headers in "
                                  "common/include and the C++ standard library, not the CUDA toolkit")
      else()
        string(CONCAT may_include "its own folder, the lesson's interface headers, the course's headers in "
                                  "common/include, the CUDA toolkit and the C++ standard library")
      endif()
      message(NOTICE "refused: ${SOURCE} includes ${real}, outside what a student's code may include (${may_include})")
      _course_give_up("the module was not built")
    endif()
  endforeach()
endfunction()

# The headers the source reaches, as nvcc's preprocessor finds them (-M), into PART_DEPFILE; `out`
# false if it cannot read them, `said` what the preprocessor said.
function(_course_list_includes out said)
  execute_process(
    COMMAND "${NVCC}" ${FLAGS} -M -MT "${OUTPUT}" -MF "${PART_DEPFILE}" "${SOURCE}"
    RESULT_VARIABLE status
    OUTPUT_VARIABLE text
    ERROR_VARIABLE text
    TIMEOUT 120)
  string(STRIP "${text}" text)
  set(${said} "${text}" PARENT_SCOPE)
  if(status EQUAL 0)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

if(CHECK_ONLY)
  _course_list_includes(listed said)
  if(NOT listed)
    message(NOTICE "${said}")
    _course_give_up("${SOURCE} does not compile (see the compiler's messages above)")
  endif()
  _course_check_includes()
  file(RENAME "${PART_DEPFILE}" "${DEPFILE}")
  file(TOUCH "${OUTPUT}")
  return()
endif()

# One pass of nvcc compiles the module and lists its headers (-MD). What the compiler says is held
# back until the headers pass the check: it could quote a file the source may not include. A source
# that does not compile has its headers listed on their own for the check.
execute_process(
  COMMAND "${NVCC}" ${FLAGS} -fatbin -MD -MF "${PART_DEPFILE}" -MT "${OUTPUT}" -o "${PART_OUTPUT}" "${SOURCE}"
  RESULT_VARIABLE status
  OUTPUT_VARIABLE said
  ERROR_VARIABLE said
  TIMEOUT 300)
if(status EQUAL 0)
  _course_check_includes()
else()
  _course_list_includes(listed ignored)  # the compiler said the same already
  if(listed)
    _course_check_includes()
  endif()
endif()
string(STRIP "${said}" said)
if(said)
  message(NOTICE "${said}")
endif()
if(NOT status EQUAL 0)
  _course_give_up("${SOURCE} does not compile (see the compiler's messages above)")
endif()
file(RENAME "${PART_DEPFILE}" "${DEPFILE}")
file(RENAME "${PART_OUTPUT}" "${OUTPUT}")
