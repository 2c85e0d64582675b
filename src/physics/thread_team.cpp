#include "physics/thread_team.h"

namespace impulse {
namespace {

// Spin a little (a barrier is usually a few hundred nanoseconds away), then
// give the core up: on a busy machine the member we wait for may need it.
template <typename Done>
void waitUntil(Done done) {
    for (int spins = 0; !done(); ++spins) {
        if (spins > 2000) std::this_thread::yield();
    }
}

}  // namespace

ThreadTeam::ThreadTeam(int size) {
    for (int member = 1; member < size; ++member) workers_.emplace_back([this, member] { serve(member); });
}

ThreadTeam::~ThreadTeam() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
}

void ThreadTeam::run(const std::function<void(int)>& task) {
    if (workers_.empty()) {
        task(0);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = &task;
        busy_.store(int(workers_.size()), std::memory_order_relaxed);
        ++generation_;
    }
    wake_.notify_all();
    task(0);
    waitUntil([this] { return busy_.load(std::memory_order_acquire) == 0; });
}

void ThreadTeam::sync() {
    if (workers_.empty()) return;
    const uint32_t phase = phase_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == size() - 1) {
        // Last to arrive: open the barrier; the release publishes every member's writes.
        arrived_.store(0, std::memory_order_relaxed);
        phase_.store(phase + 1, std::memory_order_release);
        return;
    }
    waitUntil([this, phase] { return phase_.load(std::memory_order_acquire) != phase; });
}

void ThreadTeam::serve(int member) {
    uint64_t served = 0;
    for (;;) {
        const std::function<void(int)>* task = nullptr;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != served; });
            if (stopping_) return;
            served = generation_;
            task = task_;
        }
        (*task)(member);
        busy_.fetch_sub(1, std::memory_order_release);
    }
}

}  // namespace impulse
