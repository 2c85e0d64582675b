// A fixed team of threads for the sub-steps' sweeps. The caller is member 0;
// the others wait on a condition variable between runs, so an idle world
// costs nothing, and meet at spin barriers (sync) inside a run. The solver
// gives each member a share of every colour's batches, which commute, so the
// results do not depend on the team's size.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace impulse {

class ThreadTeam {
public:
    /// `size` members (>= 1): the caller and size - 1 threads.
    explicit ThreadTeam(int size);
    ~ThreadTeam();
    ThreadTeam(const ThreadTeam&) = delete;
    ThreadTeam& operator=(const ThreadTeam&) = delete;

    int size() const { return int(workers_.size()) + 1; }
    /// Runs task(member) on every member and returns when all are done.
    void run(const std::function<void(int)>& task);
    /// Inside run(): returns once every member has called it (a barrier).
    void sync();

    /// The part [begin, end) of `count` items that `member` takes.
    struct Share {
        size_t begin, end;
    };
    Share share(size_t count, int member) const {
        const size_t members = size_t(size());
        return {count * size_t(member) / members, count * size_t(member + 1) / members};
    }

private:
    void serve(int member);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    const std::function<void(int)>* task_ = nullptr;  // guarded by mutex_
    uint64_t generation_ = 0;                         // guarded by mutex_
    bool stopping_ = false;                           // guarded by mutex_
    std::atomic<int> busy_{0};                        // workers still in the current task
    std::atomic<int> arrived_{0};                     // members at the current barrier
    std::atomic<uint32_t> phase_{0};                  // barriers passed
};

}  // namespace impulse
