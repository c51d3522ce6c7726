# Finds the course's third-party pieces. Each one missing stops the configure step with the exact
# command that installs it, instead of a long CMake error about a missing *Config.cmake file.

find_package(CUDAToolkit 12.0 REQUIRED)
# Python, for the patches of the planted kernels, the driver's tests and the docs: found once here
# for every folder below (each search runs the interpreter to ask its version). Where `python3` on
# PATH is a launcher (pyenv's shims start bash and pyenv at every call, and FindPython calls the
# interpreter several times), FindPython is given the interpreter that the launcher starts.
if(NOT DEFINED Python3_EXECUTABLE)
  find_program(_course_python3_on_path NAMES python3 NO_CACHE)
  if(_course_python3_on_path)
    execute_process(COMMAND "${_course_python3_on_path}" -c "import sys; print(sys.executable)"
                    OUTPUT_VARIABLE _course_python3 OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                    RESULT_VARIABLE _course_python3_failed)
    if(_course_python3_failed EQUAL 0 AND EXISTS "${_course_python3}")
      set(Python3_EXECUTABLE "${_course_python3}" CACHE FILEPATH "The Python 3 interpreter")
    endif()
  endif()
endif()
find_package(Python3 COMPONENTS Interpreter)

set(_course_missing_packages "")
macro(_course_find package debian_package)
  find_package(${package} CONFIG QUIET)
  if(NOT ${package}_FOUND)
    list(APPEND _course_missing_packages ${debian_package})
  endif()
endmacro()

_course_find(doctest doctest-dev)
_course_find(CLI11 libcli11-dev)
_course_find(nlohmann_json nlohmann-json3-dev)

if(_course_missing_packages)
  list(JOIN _course_missing_packages " " _course_missing_list)
  message(FATAL_ERROR
    "missing libraries; install them with:\n"
    "  sudo apt-get install -y ${_course_missing_list}\n"
    "(or point CMAKE_PREFIX_PATH at a prefix that holds them)")
endif()

include(doctest)  # doctest_discover_tests()
