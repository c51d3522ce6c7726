// Gaming attempt: includes a source file of the lesson (its baseline kernel) rather than one of
// its interface headers. The lesson's folder offers only headers to a student's file: a lesson's
// sources may hold the references its grader checks against.

#include "reduce_neighbored.cu"
