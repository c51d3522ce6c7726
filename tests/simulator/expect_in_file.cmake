# cmake -DFILE=<path> -DREGEX=<regex> -P expect_in_file.cmake: fails unless FILE exists and a line
# of it matches REGEX.
if(NOT EXISTS "${FILE}")
  message(FATAL_ERROR "${FILE} was not written")
endif()
file(STRINGS "${FILE}" matching REGEX "${REGEX}")
if(NOT matching)
  message(FATAL_ERROR "no line of ${FILE} matches ${REGEX}")
endif()
