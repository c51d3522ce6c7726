#include "exec/scheduling/thread_pool.hpp"

#include <cstdlib>

namespace cudasim {

ThreadPool& ThreadPool::instance()
{
    static ThreadPool pool([] {
        if (const char* env = std::getenv("CUDASIM_THREADS")) {
            int n = std::atoi(env);
            if (n > 0)
                return static_cast<unsigned>(n);
        }
        unsigned n = std::thread::hardware_concurrency();
        return n ? n : 1u;
    }());
    return pool;
}

ThreadPool::ThreadPool(unsigned workers)
{
    for (unsigned i = 1; i < workers; ++i)
        threads_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_)
        t.join();
}

void ThreadPool::run_on_all(const std::function<void(unsigned)>& job)
{
    {
        std::lock_guard lock(mutex_);
        job_ = &job;
        pending_ = static_cast<unsigned>(threads_.size());
        ++generation_;
    }
    wake_.notify_all();
    job(0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
}

void ThreadPool::worker_loop(unsigned index)
{
    uint64_t seen = 0;
    for (;;) {
        const std::function<void(unsigned)>* job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return quit_ || generation_ != seen; });
            if (quit_)
                return;
            seen = generation_;
            job = job_;
        }
        (*job)(index);
        std::lock_guard lock(mutex_);
        if (--pending_ == 0)
            done_.notify_one();
    }
}

}  // namespace cudasim
