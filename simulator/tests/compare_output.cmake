# Runs PROGRAM, compares its stdout with the file EXPECTED and, if
# STDERR_REGEX is given, checks that stderr matches it.
execute_process(COMMAND ${PROGRAM}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "stdout differs from ${EXPECTED}\n--- got:\n${out}\n--- expected:\n${expected}\n--- stderr:\n${err}")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status ${rc}\n${err}")
endif()
