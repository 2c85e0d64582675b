// The run's keyframes: world snapshots at some of its steps, within a memory
// budget. The steps between two keyframes are not kept: the experiment runs
// them again from the earlier one with the run's logged inputs (experiment.h),
// which the world's determinism makes exact. Keyframes where an input other
// than the drag's target came are pinned: a re-run never crosses an edit, so
// it needs only the drag targets. The others are taken every `spacing()` steps,
// and when the budget is full every other one goes and the spacing doubles.
#pragma once

#include "physics/world_snapshot.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace impulse::app {

class RunHistory {
public:
    static constexpr size_t kDefaultBudgetBytes = size_t(256) << 20;
    /// Spacing of the unpinned keyframes while the budget allows it: a seek
    /// re-runs fewer steps than this.
    static constexpr uint64_t kFirstSpacing = 4;
    /// Most bytes of keyframe a step costs on average: a larger world's keyframes
    /// are spaced wider. A snapshot's copy costs about 3 ms per MB here, against a
    /// settled pile1000's 1.8 ms step (1.65 MB a keyframe): this keeps recording
    /// under 5 % of its step (bench/micro/bench_history.cpp, docs/app.md).
    static constexpr size_t kMaxBytesPerStep = size_t(32) << 10;

    struct Keyframe {
        /// Shared with the runs a branch made of this one.
        std::shared_ptr<const WorldSnapshot> world;
        double simulatedTime = 0.0;
        bool pinned = false;  ///< after an input: kept whatever the budget
    };

    /// Forgets every keyframe; the next one starts a run.
    void clear();
    /// Keeps `world` as it is now (after the inputs of its step), replacing a
    /// keyframe of the same step. `pinned` for a step where an input came.
    void keep(const World& world, double simulatedTime, bool pinned);
    /// After a step of the run: keeps the world if a keyframe is due, and widens the
    /// spacing while that keyframe costs more than kMaxBytesPerStep a step.
    void stepped(const World& world, double simulatedTime);
    /// The latest keyframe at or before `step`; null when there is none.
    const Keyframe* atOrBefore(uint64_t step) const;
    /// Drops the keyframes after `step` (a branch replaces that part of the run).
    void dropAfter(uint64_t step);

    const std::vector<Keyframe>& keyframes() const { return keyframes_; }
    uint64_t spacing() const { return spacing_; }
    /// Bytes held: the snapshots (also those shared with another run), and each
    /// distinct set of body properties once.
    size_t bytes() const { return bytes_; }
    size_t budget() const { return budget_; }
    /// Thins the keyframes at once if they exceed the new budget.
    void setBudget(size_t bytes);

private:
    void thinToBudget();
    size_t bytesOf(size_t index) const;

    std::vector<Keyframe> keyframes_;  // ascending step
    uint64_t spacing_ = kFirstSpacing;
    size_t budget_ = kDefaultBudgetBytes;
    size_t bytes_ = 0;
};

}  // namespace impulse::app
