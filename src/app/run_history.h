// The run's keyframes: world snapshots at some of its steps, within a memory
// budget. The steps between two keyframes are not kept: the experiment runs
// them again from the earlier one with the run's logged inputs (experiment.h),
// which the world's determinism makes exact. Keyframes where an input other
// than the drag's target came are pinned: a re-run never crosses an edit, so
// it needs only the drag targets. The others are taken every `spacing()` steps,
// and when the budget is full every other one goes and the spacing doubles.
// A keyframe is kept against an earlier full one (WorldSnapshot::base): a
// resting pile's keyframe is then about a seventh of its full size.
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
    /// re-runs fewer steps than this. Wider spacings double it (3, 6, 12, 24, ...):
    /// 5 minutes of a settled pile1000 fit the default budget at 24 steps, where
    /// 32 would be the next step from 4 (a seek re-running a third more).
    static constexpr uint64_t kFirstSpacing = 3;
    /// Most bytes of world state (WorldSnapshot::stateBytes: what taking a keyframe
    /// reads) a step reads for keyframes on average: a larger world's keyframes are
    /// spaced wider. Measured on a settled pile1000 (1.7 MB of state, a 1.9 ms step),
    /// this keeps recording under 5 % of its step (bench/micro/bench_history.cpp,
    /// docs/app.md).
    static constexpr size_t kMaxStateBytesPerStep = size_t(128) << 10;

    struct Keyframe {
        /// Shared with the runs a branch made of this one.
        std::shared_ptr<const WorldSnapshot> world;
        double simulatedTime = 0.0;
        bool pinned = false;  ///< after an input: kept whatever the budget
    };

    /// What keeping a keyframe did to the history: for the bytes the runs hold
    /// together (Experiment::historyBytes), which change by this history's own when
    /// nothing was thinned, and must be counted again when the budget dropped keyframes.
    enum class Kept { none, added, addedAndThinned };

    /// Forgets every keyframe; the next one starts a run.
    void clear();
    /// Keeps `world` as it is now (after the inputs of its step), replacing a
    /// keyframe of the same step. `pinned` for a step where an input came.
    Kept keep(const World& world, double simulatedTime, bool pinned);
    /// After a step of the run: keeps the world if a keyframe is due (none if not), and
    /// widens the spacing while that keyframe reads more than kMaxStateBytesPerStep a step.
    Kept stepped(const World& world, double simulatedTime);
    /// The latest keyframe at or before `step`; null when there is none.
    const Keyframe* atOrBefore(uint64_t step) const;
    /// Drops the keyframes after `step` (a branch replaces that part of the run).
    void dropAfter(uint64_t step);

    const std::vector<Keyframe>& keyframes() const { return keyframes_; }
    uint64_t spacing() const { return spacing_; }
    /// Bytes held: the keyframes, their snapshots and the full ones these are kept
    /// against (also those shared with another run), and each distinct set of body
    /// properties, each once.
    size_t bytes() const { return bytes_; }
    size_t budget() const { return budget_; }
    /// Thins the keyframes at once if they exceed the new budget.
    void setBudget(size_t bytes);
    /// Bytes the budget also pays for outside these keyframes (the run's input log,
    /// what only the previous runs hold: Experiment::historyBytes); thins the
    /// keyframes at once if they no longer fit beside them.
    void setHeldElsewhere(size_t bytes);
    /// Bytes the histories hold together: each keyframe, and each snapshot, full
    /// snapshot kept against and set of body properties once, however many share it.
    static size_t bytesOf(const std::vector<const RunHistory*>& histories);

private:
    /// Whether it dropped keyframes.
    bool thinToBudget();

    std::vector<Keyframe> keyframes_;  // ascending step
    uint64_t spacing_ = kFirstSpacing;
    size_t budget_ = kDefaultBudgetBytes;
    size_t bytes_ = 0;
    size_t heldElsewhere_ = 0;
};

}  // namespace impulse::app
