// doctest's implementation, compiled once for every program of the course that runs doctest cases
// (the graders, lesson 06's host check, the unit tests): it is the largest part of their build, and
// each program's own files need only the declarations and their main().
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
