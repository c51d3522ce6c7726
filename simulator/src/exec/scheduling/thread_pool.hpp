// A fixed set of worker threads that run one job at a time, all workers
// together (the blocks of a launch are shared out between them).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cudasim {

class ThreadPool {
public:
    // Worker count: CUDASIM_THREADS if set, else the number of cores.
    static ThreadPool& instance();
    explicit ThreadPool(unsigned workers);
    ~ThreadPool();

    unsigned size() const { return static_cast<unsigned>(threads_.size()) + 1; }
    // Calls job(worker) on every worker (the caller is worker 0) and waits.
    void run_on_all(const std::function<void(unsigned)>& job);

private:
    void worker_loop(unsigned index);

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(unsigned)>* job_ = nullptr;
    uint64_t generation_ = 0;
    unsigned pending_ = 0;
    bool quit_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace cudasim
