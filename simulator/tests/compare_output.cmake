# Runs PROGRAM, compares its stdout with the file EXPECTED and, if STDERR_REGEX is given, checks
# that stderr matches it. With STOPS_WITH (a program using what the simulator does not model): the
# program must fail with stderr matching STOPS_WITH, and what it printed before stopping must be
# the start of EXPECTED, so that nothing it printed was wrong (the failing call's own line apart).
execute_process(COMMAND ${PROGRAM}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${EXPECTED} expected)
if(DEFINED STOPS_WITH)
  if(rc EQUAL 0)
    message(FATAL_ERROR "ran to the end; expected it to stop with '${STOPS_WITH}'\n--- got:\n${out}")
  endif()
  if(NOT err MATCHES "${STOPS_WITH}")
    message(FATAL_ERROR "stderr does not match '${STOPS_WITH}':\n${err}")
  endif()
  # The corpus's CHECK prints the failing call last ("cudaGetLastError() failed: cudaError..."), which
  # a GPU does not print.
  string(REGEX REPLACE "[^\n]* failed: cuda[A-Za-z]+\n$" "" out "${out}")
  string(FIND "${expected}" "${out}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "what it printed before stopping is not the start of ${EXPECTED}\n--- got:\n${out}\n--- expected:\n${expected}")
  endif()
  return()
endif()
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "stdout differs from ${EXPECTED}\n--- got:\n${out}\n--- expected:\n${expected}\n--- stderr:\n${err}")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status ${rc}\n${err}")
endif()
