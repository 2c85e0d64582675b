#include "app/run_timeline.h"

#include <algorithm>
#include <utility>

namespace impulse::app {

std::string describe(const LoggedInput& input) {
    if (std::holds_alternative<DragTargetInput>(input.input) || !input.book) return "drag target";
    // The book holds the history as the input left it: a command or redo made the
    // entry before the undone ones, an undo undid the first of them.
    const EditHistory& history = input.book->history;
    const size_t undone = input.book->undone;
    const bool undo = std::holds_alternative<UndoInput>(input.input);
    const size_t index = history.size() - undone - (undo ? 0 : 1);
    const std::string what = index < history.size() ? describe(*history[index]) : std::string("edit");
    if (undo) return "undo " + what;
    if (std::holds_alternative<RedoInput>(input.input)) return "redo " + what;
    return what;
}

namespace {

/// The drag targets logged at `step` after its last other input, applied to `world`:
/// what came before that input is in the keyframe it pinned.
void applyDragTargetsAt(const Run& run, World& world, uint64_t step) {
    const auto byStep = [](const LoggedInput& a, const LoggedInput& b) { return a.step < b.step; };
    const LoggedInput key{step, DragTargetInput{}, nullptr};
    auto [first, last] = std::equal_range(run.inputs.begin(), run.inputs.end(), key, byStep);
    for (auto it = first; it != last; ++it) {
        if (!std::holds_alternative<DragTargetInput>(it->input)) first = it + 1;
    }
    for (auto it = first; it != last; ++it) world.setDragTarget(std::get<DragTargetInput>(it->input).target);
}

/// What a logged input holds: its entry, and its book's list of edit-history entries.
size_t loggedBytes(const LoggedInput& input) {
    if (!input.book) return sizeof(LoggedInput);
    return sizeof(LoggedInput) + sizeof(EditBook) + input.book->history.size() * sizeof(EditHistory::value_type);
}

/// The step at which two runs of one world go their own ways: that of the first input
/// one of them logged and the other did not (the same inputs make the same steps).
uint64_t partingStep(const Run& a, const Run& b) {
    size_t shared = 0;
    while (shared < a.inputs.size() && shared < b.inputs.size() &&
           a.inputs[shared].serial == b.inputs[shared].serial) {
        ++shared;
    }
    uint64_t step = std::min(a.end, b.end);
    if (shared < a.inputs.size()) step = std::min(step, a.inputs[shared].step);
    if (shared < b.inputs.size()) step = std::min(step, b.inputs[shared].step);
    return step;
}

}  // namespace

void replayStep(const Run& run, World& world, double& simulatedTime) {
    world.step();
    simulatedTime += world.settings().timestep;
    const uint64_t step = world.stepCount();
    const RunHistory::Keyframe& keyframe = *run.keyframes.atOrBefore(step);
    if (keyframe.pinned && keyframe.world->stepCount() == step) {
        world.restore(*keyframe.world);
        simulatedTime = keyframe.simulatedTime;
    }
    applyDragTargetsAt(run, world, step);
}

void seekRun(const Run& run, World& world, double& simulatedTime, uint64_t step, bool worldShowsRun) {
    step = std::clamp(step, run.start(), run.end);
    const RunHistory::Keyframe* at = run.keyframes.atOrBefore(step);
    // A keyframe without its step's contact reports shows that step only once run to.
    if (at->world->stepCount() == step && !at->world->hasLastStepReports()) at = run.keyframes.atOrBefore(step - 1);
    const RunHistory::Keyframe& keyframe = *at;
    if (!worldShowsRun || world.stepCount() < keyframe.world->stepCount() || world.stepCount() > step) {
        world.restore(*keyframe.world);
        simulatedTime = keyframe.simulatedTime;
        applyDragTargetsAt(run, world, world.stepCount());
    }
    while (world.stepCount() < step) replayStep(run, world, simulatedTime);
}

void RunTimeline::start(const World& world, double time, std::shared_ptr<const EditBook> book) {
    Observations observations = std::move(run_.observations);
    run_ = Run{};
    run_.keyframes.keep(world, time, true);
    run_.end = world.stepCount();
    run_.startBook = std::move(book);
    observations.restart(world);
    run_.observations = std::move(observations);
    previousRuns_.clear();  // runs of another world
    fitToBudget();
}

void RunTimeline::branchAt(uint64_t step) {
    previousRuns_.push_back(run_);
    if (previousRuns_.size() > kPreviousRunsKept) previousRuns_.erase(previousRuns_.begin());
    while (!run_.inputs.empty() && run_.inputs.back().step > step) {
        run_.inputBytes -= loggedBytes(run_.inputs.back());
        run_.inputs.pop_back();
    }
    run_.keyframes.dropAfter(step);
    run_.observations.forgetAfter(step);
    run_.end = step;
    for (Run& run : previousRuns_) run.leftAt = partingStep(run, run_);
    ++branchCount_;
    fitToBudget();
}

void RunTimeline::log(uint64_t step, RunInput input, std::shared_ptr<const EditBook> book) {
    run_.inputs.push_back(LoggedInput{step, std::move(input), std::move(book), inputsLogged_++});
    run_.inputBytes += loggedBytes(run_.inputs.back());
    fitToBudget();
}

void RunTimeline::grew(const World& world, double time) {
    run_.end = world.stepCount();
    const size_t bytesBefore = run_.keyframes.bytes();
    switch (run_.keyframes.stepped(world, time)) {
        case RunHistory::Kept::added:
            // Held by this run alone, and it fits the budget (RunHistory::keep thins
            // against the same bytes held elsewhere): no need to count every run again.
            historyBytes_ += run_.keyframes.bytes() - bytesBefore;
            break;
        case RunHistory::Kept::addedAndThinned:
            fitToBudget();
            break;
        case RunHistory::Kept::none:
            break;
    }
}

const EditBook& RunTimeline::bookAt(uint64_t step) const {
    for (size_t i = run_.inputs.size(); i-- > 0;) {
        if (run_.inputs[i].step <= step && run_.inputs[i].book) return *run_.inputs[i].book;
    }
    return *run_.startBook;
}

void RunTimeline::promote(size_t index) {
    std::swap(run_, previousRuns_[index]);
    const Observations& shownBefore = previousRuns_[index].observations;
    run_.observations.plots.showSeriesOf(shownBefore.plots);
    run_.observations.trails.setRecording(shownBefore.trails.recording());
    for (Run& run : previousRuns_) run.leftAt = partingStep(run, run_);
    fitToBudget();
}

size_t RunTimeline::countBytes() const {
    std::vector<const RunHistory*> histories{&run_.keyframes};
    size_t inputs = run_.inputBytes;
    for (const Run& run : previousRuns_) {
        histories.push_back(&run.keyframes);
        inputs += run.inputBytes;
    }
    return RunHistory::bytesOf(histories) + inputs;
}

void RunTimeline::setBudget(size_t bytes) {
    budget_ = bytes;
    fitToBudget();
}

void RunTimeline::fitToBudget() {
    for (Run& run : previousRuns_) run.keyframes.setBudget(budget_ / (2 * kPreviousRunsKept));
    run_.keyframes.setBudget(budget_);
    // A keyframe the run drops may stay in a previous run: then it is held elsewhere.
    while (true) {
        const size_t before = run_.keyframes.bytes();
        historyBytes_ = countBytes();
        run_.keyframes.setHeldElsewhere(historyBytes_ - before);
        if (run_.keyframes.bytes() == before) return;
    }
}

}  // namespace impulse::app
