#include "course/gpu_sharing.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace {

/// Lock files of their own in a fresh folder, and a second open file description of each: another
/// process's view of the lock (flock(2) locks belong to the open file description).
class Fixture {
public:
    Fixture()
        : folder_(std::filesystem::temp_directory_path() / ("course-gpu-sharing-test-" + std::to_string(::getpid())))
    {
        std::filesystem::create_directories(folder_);
    }
    ~Fixture() { std::filesystem::remove_all(folder_); }
    Fixture(const Fixture&) = delete;
    Fixture& operator=(const Fixture&) = delete;

    std::string stem() const { return (folder_ / "gpu").string(); }
    /// Whether another process could take the lock file `which` ("turn" or "work") in mode `mode`
    /// now; it does not keep it.
    bool other_could(const char* which, int mode) const
    {
        const int fd = ::open((stem() + "." + which).c_str(), O_RDWR);
        REQUIRE(fd >= 0);
        const bool taken = ::flock(fd, mode | LOCK_NB) == 0;
        ::close(fd);
        return taken;
    }

private:
    std::filesystem::path folder_;
};

}  // namespace

TEST_CASE("GPU sharing: work shares the GPU, a timing has it alone, and nesting restores the share")
{
    Fixture files;
    course::detail::ProcessSharedLock lock(files.stem());
    CHECK(files.other_could("work", LOCK_EX));

    lock.enter_shared();
    CHECK(files.other_could("work", LOCK_SH));        // another grader's test case runs beside
    CHECK_FALSE(files.other_could("work", LOCK_EX));  // another grader's timing waits
    CHECK(files.other_could("turn", LOCK_EX));        // the turn is not kept by a share

    lock.enter_exclusive();  // a timed section inside a test case
    CHECK_FALSE(files.other_could("work", LOCK_SH));
    CHECK_FALSE(files.other_could("turn", LOCK_SH));  // new test cases wait at the turn
    lock.enter_exclusive();
    lock.leave_exclusive();
    CHECK_FALSE(files.other_could("work", LOCK_SH));  // still the outer timed section

    lock.leave_exclusive();
    CHECK(files.other_could("work", LOCK_SH));
    CHECK_FALSE(files.other_could("work", LOCK_EX));  // back to the test case's share
    CHECK(files.other_could("turn", LOCK_EX));

    lock.leave_shared();
    CHECK(files.other_could("work", LOCK_EX));
}

TEST_CASE("GPU sharing: a timing waits for the work under way and keeps new work out meanwhile")
{
    Fixture files;
    course::detail::ProcessSharedLock timing(files.stem());
    // Another grader inside a test case.
    const int other = ::open((files.stem() + ".work").c_str(), O_RDWR);
    REQUIRE(other >= 0);
    REQUIRE(::flock(other, LOCK_SH) == 0);

    std::atomic<bool> alone{false};
    std::thread writer([&] {
        timing.enter_exclusive();
        alone = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK_FALSE(alone.load());
    CHECK_FALSE(files.other_could("turn", LOCK_SH));  // a third grader's next case must wait

    ::flock(other, LOCK_UN);  // the other grader's case ends
    writer.join();
    CHECK(alone.load());
    CHECK_FALSE(files.other_could("work", LOCK_SH));
    timing.leave_exclusive();
    CHECK(files.other_could("turn", LOCK_SH));
    CHECK(files.other_could("work", LOCK_EX));
    ::close(other);
}

TEST_CASE("GPU sharing: a lock folder that cannot be written is named")
{
    CHECK_THROWS_WITH_AS(course::detail::ProcessSharedLock("/nonexistent-folder/gpu"),
                         doctest::Contains("/nonexistent-folder/gpu.turn"), std::runtime_error);
}

TEST_CASE("GPU sharing: a grader between two runs lets a waiting timing go first")
{
    Fixture files;
    course::detail::ProcessSharedLock grader(files.stem());
    grader.enter_shared();
    CHECK_FALSE(grader.writer_waits());

    // Another grader's timing: it holds the turn and waits for the work lock.
    const int turn = ::open((files.stem() + ".turn").c_str(), O_RDWR);
    const int work = ::open((files.stem() + ".work").c_str(), O_RDWR);
    REQUIRE((turn >= 0 && work >= 0));
    REQUIRE(::flock(turn, LOCK_EX) == 0);
    CHECK(grader.writer_waits());

    std::atomic<bool> back{false};
    std::thread yielding([&] {
        grader.yield_to_writer();
        back = true;
    });
    // The timing gets the GPU alone, and the grader waits until it is done.
    while (::flock(work, LOCK_EX | LOCK_NB) != 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(back.load());
    ::flock(work, LOCK_UN);
    ::flock(turn, LOCK_UN);
    yielding.join();
    CHECK(back.load());
    CHECK_FALSE(files.other_could("work", LOCK_EX));  // the grader's share again
    grader.leave_shared();
    ::close(turn);
    ::close(work);
}
