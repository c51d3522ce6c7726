#pragma once
/// @file gpu_sharing.hpp
/// @brief Graders that share one GPU: timed runs alone on it, all other work side by side.
///
/// A timing is only worth something if nothing else runs on the GPU meanwhile, but most of a
/// grader's work (correctness cases, planted kernels rejected for a wrong result) measures nothing
/// and may share the card with other graders. The course's processes on one machine coordinate
/// through a reader-writer lock per GPU, kept in two lock files of the temporary folder (flock(2),
/// released by the kernel when a process ends, however it ends):
///
/// - GpuWork (a reader) is held by a grader for each test case it runs;
/// - ExclusiveGpu (a writer) is held for each timed section and for work that needs most of the
///   card's memory. It waits until every other grader has left its test case or given its share
///   up at a point where nothing of its own is on the GPU (let_waiting_timing_run: before and after
///   each run of a case), and new test cases wait until it is done, so a stream of correctness
///   work never starves a timing.
///
/// The folder is COURSE_GPU_LOCK_DIR, else the system's temporary folder. On the simulator both
/// are no-ops: its timings are modelled, not measured.

#include <string>

namespace course {

/// A grader's use of the GPU that measures nothing: others may use the card at the same time,
/// except while one of them holds ExclusiveGpu. Scopes may nest.
class GpuWork {
public:
    GpuWork();
    ~GpuWork();
    GpuWork(const GpuWork&) = delete;
    GpuWork& operator=(const GpuWork&) = delete;
};

/// Inside a GpuWork: if a timing of another process waits, lets it run first (this process's work
/// on the GPU finished, then its share given up until the timing is done). Called where a case
/// has just finished a run, so that a timing waits for one run of each grader instead of a whole
/// test case. Nothing outside a GpuWork, or on the simulator.
void let_waiting_timing_run();

/// The GPU to this process alone for the scope: no other course process is inside a GpuWork or
/// an ExclusiveGpu meanwhile. Inside a GpuWork of this process, that work's share is given up for
/// the scope and taken again after it. Throws std::runtime_error if the lock files cannot be
/// opened (a timing that cannot be kept alone is not taken).
class ExclusiveGpu {
public:
    ExclusiveGpu();
    ~ExclusiveGpu();
    ExclusiveGpu(const ExclusiveGpu&) = delete;
    ExclusiveGpu& operator=(const ExclusiveGpu&) = delete;
};

namespace detail {

/// The reader-writer lock between processes behind GpuWork and ExclusiveGpu, on the lock files
/// `stem`.turn and `stem`.work; scopes of either kind nest. Throws std::runtime_error if a file
/// cannot be opened or locked.
class ProcessSharedLock {
public:
    explicit ProcessSharedLock(const std::string& stem);
    ~ProcessSharedLock();
    ProcessSharedLock(const ProcessSharedLock&) = delete;
    ProcessSharedLock& operator=(const ProcessSharedLock&) = delete;

    void enter_shared();
    void leave_shared() noexcept;
    void enter_exclusive();
    void leave_exclusive() noexcept;
    /// Whether this process holds a share (and no exclusive scope) while another's writer waits.
    [[nodiscard]] bool writer_waits() const;
    /// The share given up until the waiting writer is done, then taken again.
    void yield_to_writer();

private:
    int turn_ = -1;            // held by a writer from before it waits for "work" until it is done
    int work_ = -1;            // shared by readers, exclusive to one writer
    int shared_depth_ = 0;     // shared scopes open in this process
    int exclusive_depth_ = 0;  // exclusive scopes open in this process
};

}  // namespace detail

}  // namespace course
