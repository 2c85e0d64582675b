// One job at a time on a thread of its own, at the lowest CPU priority. The app
// steps the world there while the main thread has the frame drawn: software GL
// (llvmpipe) leaves a core idle while the main thread sends the draws, and the
// step takes that core. At the lowest priority it never slows the rasteriser's
// threads down; whatever of it is left when they are done runs then, as it
// would have on the main thread.
//
// Linux's nice counts only within a scheduling group (an autogroup: one per
// terminal session). A busy process started from the same session, say a build,
// then leaves the job next to nothing: frames of pile1000 went from 20 to 900 ms.
// JobPlacement notices that and has the caller run the job itself for a while.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#ifdef __linux__
#include <pthread.h>
#include <sys/resource.h>
#include <time.h>
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
        const auto waitStart = std::chrono::steady_clock::now();
        const double cpuStart = threadCpuMs();
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return !pending_; });
        const double cpuEnd = threadCpuMs();
        const auto waited = std::chrono::steady_clock::now() - waitStart;
        lastWaitMs_ = std::chrono::duration<double, std::milli>(waited).count();
        lastWaitCpuMs_ = cpuStart >= 0.0 && cpuEnd >= 0.0 ? cpuEnd - cpuStart : lastWaitMs_;
        if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
    }

    /// How long the last wait() took, and how much of that the job's thread spent on
    /// a CPU (ms; all of it where the thread's CPU clock cannot be read).
    double lastWaitMs() const { return lastWaitMs_; }
    double lastWaitCpuMs() const { return lastWaitCpuMs_; }

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

    // The job thread's CPU time, ms; negative where it cannot be read.
    double threadCpuMs() {
#ifdef __linux__
        clockid_t clock{};
        timespec t{};
        if (pthread_getcpuclockid(thread_.native_handle(), &clock) == 0 && clock_gettime(clock, &t) == 0) {
            return 1e3 * double(t.tv_sec) + 1e-6 * double(t.tv_nsec);
        }
#endif
        return -1.0;
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::function<void()> job_;
    std::exception_ptr failure_;
    bool pending_ = false;  // started and not done
    double lastWaitMs_ = 0.0, lastWaitCpuMs_ = 0.0;
    bool stopping_ = false;
    std::thread thread_;  // last: starts once the members above exist
};

/// Where the frame's job runs: on the BackgroundJob, unless it was starved there
/// (see the top of this file). The caller then runs it itself, at its own priority,
/// for a while, and tries the background again.
///
/// How long is set by what the starved frame lost, as in renting against buying: a
/// try on the background risks another such frame, and each frame on the caller
/// costs the job's own time. The caller keeps the job until that time adds up to
/// kLossesWorth such losses: about 10 s when another busy process took the core
/// (hundreds of ms lost), half a second for a hiccup of the host (a few ms).
class JobPlacement {
public:
    /// A frame waited more than this for a job that was on a CPU less than
    /// kStarvedCpuShare of that wait: starved. While the caller waits, this process
    /// has nothing else to run (the GL work is done), so the job should have a core.
    static constexpr double kStarvedWaitMs = 2.0;
    static constexpr double kStarvedCpuShare = 0.5;
    static constexpr double kLossesWorth = 4.0;
    /// Frames on the caller after a starved frame, at least and at most (0.5 and 10 s
    /// at 60 fps).
    static constexpr int kMinFramesOnCaller = 30;
    static constexpr int kMaxFramesOnCaller = 600;

    bool onBackground() const { return callerFramesLeft_ == 0; }

    /// After a frame: on the background, how long the caller waited for the job and
    /// how much of that wait the job was on a CPU; on the caller, how long the job took
    /// there (ms).
    void record(double waitedMs, double cpuWhileWaitedMs, double jobOnCallerMs) {
        if (!onBackground()) {
            --callerFramesLeft_;
            callerMsLeft_ -= jobOnCallerMs;
            const int framesOnCaller = kMaxFramesOnCaller - callerFramesLeft_;
            if (callerMsLeft_ <= 0.0 && framesOnCaller >= kMinFramesOnCaller) callerFramesLeft_ = 0;
            return;
        }
        const bool starved = waitedMs > kStarvedWaitMs && cpuWhileWaitedMs < kStarvedCpuShare * waitedMs;
        if (starved) {
            callerFramesLeft_ = kMaxFramesOnCaller;
            callerMsLeft_ = kLossesWorth * (waitedMs - cpuWhileWaitedMs);
        }
    }

private:
    int callerFramesLeft_ = 0;
    double callerMsLeft_ = 0.0;  // job time the caller still takes on before a try
};

}  // namespace impulse::app
