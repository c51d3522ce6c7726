// Host unit tests of the course library: nothing here needs a GPU. doctest's implementation comes
// from course::doctest_runtime.
#include <doctest/doctest.h>

int main(int argc, char** argv)
{
    return doctest::Context(argc, argv).run();
}
