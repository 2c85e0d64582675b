// One job at a time on a thread of its own, at the lowest CPU priority. The app
// steps the world there while the main thread has the frame drawn: software GL
// (llvmpipe) leaves a core idle while the main thread sends the draws, and the
// step takes that core. At the lowest priority it never slows the rasteriser's
// threads down; whatever of it is left when they are done runs then, as it
// would have on the main thread.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace impulse::app {

class BackgroundJob {
public:
    BackgroundJob() : thread_([this] { serve(); }) {}
    ~BackgroundJob() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        thread_.join();
    }
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    /// Starts `job` on the thread; the job started before must have been waited for.
    void start(std::function<void()> job) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = std::move(job);
            pending_ = true;
        }
        changed_.notify_all();
    }

    /// Blocks until the started job is done; rethrows what it threw.
    void wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return !pending_; });
        if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
    }

private:
    void serve() {
#ifdef __linux__
        // Linux's nice is per thread: 19 on this thread only. Failing leaves it at the
        // main thread's priority, which is still correct, just slower to draw.
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
#endif
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            changed_.wait(lock, [this] { return stopping_ || pending_; });
            if (stopping_) return;
            lock.unlock();
            std::exception_ptr failure;
            try {
                job_();
            } catch (...) {
                failure = std::current_exception();
            }
            lock.lock();
            failure_ = failure;
            pending_ = false;
            changed_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::function<void()> job_;
    std::exception_ptr failure_;
    bool pending_ = false;  // started and not done
    bool stopping_ = false;
    std::thread thread_;  // last: starts once the members above exist
};

}  // namespace impulse::app
