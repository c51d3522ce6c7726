#include "course/gpu_sharing.hpp"

#include "course/cuda_check.hpp"
#include "course/watchdog.hpp"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace course {
namespace detail {
namespace {

int open_lock_file(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        throw std::runtime_error("cannot open the GPU's lock file " + path + ": " + std::strerror(errno) +
                                 " (COURSE_GPU_LOCK_DIR chooses another folder)");
    ::fchmod(fd, 0666);  // other users' graders on this machine share the GPU too; best effort
    return fd;
}

/// flock(fd, operation), polled, so that the watchdogs (course/watchdog.hpp) do not take a wait for
/// the GPU for a kernel that never finishes, and the wait is not counted against a grader's limit.
void take(int fd, int operation)
{
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        if (::flock(fd, operation | LOCK_NB) == 0)
            break;
        if (errno != EWOULDBLOCK && errno != EINTR)
            throw std::runtime_error(std::string("flock on the GPU's lock file failed: ") + std::strerror(errno));
        note_progress();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    note_gpu_wait(std::chrono::steady_clock::now() - start);
}

void release(int fd) noexcept
{
    (void)::flock(fd, LOCK_UN);
}

}  // namespace

ProcessSharedLock::ProcessSharedLock(const std::string& stem)
    : turn_(open_lock_file(stem + ".turn")), work_(open_lock_file(stem + ".work"))
{
}

ProcessSharedLock::~ProcessSharedLock()
{
    ::close(turn_);
    ::close(work_);
}

void ProcessSharedLock::enter_shared()
{
    if (shared_depth_ == 0 && exclusive_depth_ == 0) {
        take(turn_, LOCK_SH);  // waits while a writer waits or works
        try {
            take(work_, LOCK_SH);
        } catch (...) {
            release(turn_);
            throw;
        }
        release(turn_);
    }
    ++shared_depth_;
}

void ProcessSharedLock::leave_shared() noexcept
{
    if (--shared_depth_ == 0 && exclusive_depth_ == 0)
        release(work_);
}

void ProcessSharedLock::enter_exclusive()
{
    if (exclusive_depth_ > 0) {
        ++exclusive_depth_;
        return;
    }
    // This process's own share goes first: another writer may be waiting for it while holding the turn.
    if (shared_depth_ > 0)
        release(work_);
    try {
        take(turn_, LOCK_EX);
        try {
            take(work_, LOCK_EX);
        } catch (...) {
            release(turn_);
            throw;
        }
    } catch (...) {
        if (shared_depth_ > 0)
            (void)::flock(work_, LOCK_SH);  // the share this process had; best effort
        throw;
    }
    ++exclusive_depth_;
}

void ProcessSharedLock::leave_exclusive() noexcept
{
    if (--exclusive_depth_ > 0)
        return;
    // Still holding the turn, so that no writer comes between: back to a share, or to nothing.
    if (shared_depth_ > 0)
        (void)::flock(work_, LOCK_SH);
    else
        release(work_);
    release(turn_);
}

bool ProcessSharedLock::writer_waits() const
{
    if (shared_depth_ == 0 || exclusive_depth_ > 0)
        return false;
    if (::flock(turn_, LOCK_SH | LOCK_NB) != 0)
        return true;  // a writer holds the turn
    release(turn_);
    return false;
}

void ProcessSharedLock::yield_to_writer()
{
    release(work_);
    take(turn_, LOCK_SH);  // until the writer is done
    take(work_, LOCK_SH);
    release(turn_);
}

}  // namespace detail

#if COURSE_ON_SIMULATOR
// The simulator's timings are modelled, not measured: nothing to share.
GpuWork::GpuWork() = default;
GpuWork::~GpuWork() = default;
void let_waiting_timing_run()
{
}
ExclusiveGpu::ExclusiveGpu() = default;
ExclusiveGpu::~ExclusiveGpu() = default;
#else
namespace {

std::string gpu_name()
{
    int device = 0;
    char bus_id[32] = {};
    COURSE_CUDA_CHECK(cudaGetDevice(&device));
    COURSE_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device));
    std::string name = bus_id;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '-';
    return name;
}

std::mutex lock_mutex;
detail::ProcessSharedLock* opened_lock = nullptr;  // once gpu_lock() opened it

/// The lock of the GPU this process uses, opened on first use.
detail::ProcessSharedLock& gpu_lock()
{
    static detail::ProcessSharedLock lock = [] {
        const char* chosen = std::getenv("COURSE_GPU_LOCK_DIR");
        const std::filesystem::path folder = chosen != nullptr && *chosen != '\0'
                                                 ? std::filesystem::path(chosen)
                                                 : std::filesystem::temp_directory_path();
        return detail::ProcessSharedLock((folder / ("course-gpu-" + gpu_name())).string());
    }();
    opened_lock = &lock;
    return lock;
}

}  // namespace

GpuWork::GpuWork()
{
    const std::lock_guard guard(lock_mutex);
    gpu_lock().enter_shared();
}

GpuWork::~GpuWork()
{
    const std::lock_guard guard(lock_mutex);
    gpu_lock().leave_shared();
}

void let_waiting_timing_run()
{
    const std::lock_guard guard(lock_mutex);
    if (opened_lock != nullptr && opened_lock->writer_waits()) {
        COURSE_CUDA_CHECK(cudaDeviceSynchronize());  // none of this process's work left on the GPU
        opened_lock->yield_to_writer();
    }
}

ExclusiveGpu::ExclusiveGpu()
{
    const std::lock_guard guard(lock_mutex);
    gpu_lock().enter_exclusive();
}

ExclusiveGpu::~ExclusiveGpu()
{
    const std::lock_guard guard(lock_mutex);
    gpu_lock().leave_exclusive();
}
#endif

}  // namespace course
