// The run timeline: the run shown, made of its starting state, its logged inputs
// and its keyframes, and the runs that branches replaced. Each run owns what was
// observed of it (impact log, strongest impacts, plots, trails), so that a
// branch, a promotion or a replay never shows one run's observations with
// another run's world. No GL, SDL or ImGui here.
#pragma once

#include "app/observations.h"
#include "app/run_history.h"
#include "app/undo_history.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace impulse::app {

/// One input of the run and the step it took effect at (World::stepCount() then):
/// before that step's motion, after the inputs logged before it at the same step.
struct LoggedInput {
    uint64_t step = 0;
    RunInput input;
    /// The edit history right after it; null for a drag target, which leaves it as it was.
    std::shared_ptr<const EditBook> book;
    /// Its number in the experiment: runs that share an input (a branch copies the
    /// inputs before it) share its number, so two runs part at their first input not shared.
    uint64_t serial = 0;
};

/// What an input did, for the timeline's marks ("crate: mass", "undo spawn box_1", "grab").
std::string describe(const LoggedInput& input);

/// A run: its starting state (the first keyframe), its logged inputs, its keyframes
/// and its observations.
struct Run {
    std::vector<LoggedInput> inputs;  ///< ascending step
    RunHistory keyframes;
    uint64_t end = 0;  ///< last recorded step
    size_t inputBytes = 0;  ///< what `inputs` holds (Experiment::historyBytes)
    std::shared_ptr<const EditBook> startBook;  ///< the edit history when it began
    /// Of a run in previousRuns(): the step at which it and the current run go their own ways.
    uint64_t leftAt = 0;
    /// What was observed of this run's steps, up to its end.
    Observations observations;
    uint64_t start() const { return keyframes.keyframes().front().world->stepCount(); }
};

/// The recorded run's next step on `world` (which shows the run, before its end):
/// its edits come from the keyframes they pinned, its drag targets from the log.
void replayStep(const Run& run, World& world, double& simulatedTime);
/// `world` as the run had it at `step` (clamped to the run): the keyframe before it and
/// the steps since. `worldShowsRun`: `world` is the run's at its step already; when that
/// lies between the keyframe and `step` (scrubbing forward), the steps go on from it.
void seekRun(const Run& run, World& world, double& simulatedTime, uint64_t step, bool worldShowsRun);

class RunTimeline {
public:
    static constexpr size_t kPreviousRunsKept = 2;

    const Run& run() const { return run_; }
    /// The current run's observations, recorded by the experiment as the run grows.
    Observations& observations() { return run_.observations; }
    /// The runs that branches replaced, oldest first (the newest kPreviousRunsKept).
    const std::vector<Run>& previousRuns() const { return previousRuns_; }
    uint64_t branchCount() const { return branchCount_; }
    size_t historyBytes() const { return historyBytes_; }
    void setBudget(size_t bytes);

    /// A new run starting at `world` after a load or reset: the previous runs (of another
    /// world) are forgotten; the observations start again with the same plotted series.
    void start(const World& world, double time, std::shared_ptr<const EditBook> book);
    /// The run continues from `step` as a new one; the old one is kept whole as the
    /// newest previous run (its keyframes' snapshots shared, not copied).
    void branchAt(uint64_t step);
    /// Keeps `world` (at the step shown) as a keyframe an input pins.
    void pin(const World& world, double time) { run_.keyframes.keep(world, time, true); }
    /// Logs an input of the run at `step`.
    void log(uint64_t step, RunInput input, std::shared_ptr<const EditBook> book);
    /// The run went on past its end by one step, to `world`.
    void grew(const World& world, double time);
    /// The edit history as it was at `step` of the run.
    const EditBook& bookAt(uint64_t step) const;
    /// previousRuns()[index] becomes the run, with its own observations (the plotted
    /// series follow the ones chosen), and the run takes its place.
    void promote(size_t index);

private:
    /// Thins the keyframes until historyBytes() fits the budget (or only keyframes
    /// that must stay are left).
    void fitToBudget();
    /// historyBytes() counted anew (fitToBudget keeps it after every change).
    size_t countBytes() const;

    Run run_;
    std::vector<Run> previousRuns_;
    size_t budget_ = RunHistory::kDefaultBudgetBytes;
    size_t historyBytes_ = 0;
    uint64_t branchCount_ = 0;
    uint64_t inputsLogged_ = 0;  ///< the serial of the next input logged
};

}  // namespace impulse::app
