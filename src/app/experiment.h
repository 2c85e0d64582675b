// The experiment: the world being run, the scene it came from and its path,
// what is selected, and the one door through which the world changes.
// Every change (a panel's edit of a body or of the world settings, a spawn, a
// deletion, a mouse drag's begin and end, loading or resetting the scene) is a
// Command value handed to apply(), which validates it, applies it and records
// what it replaced and the step it was applied at. undo() and redo() walk that
// record. Its parts: the edit history (src/app/undo_history.h), the run timeline
// whose runs own their observations (src/app/run_timeline.h) and the ghost, a
// previous run shown beside the current one (src/app/ghost_run.h). No GL, SDL or
// ImGui here: tests drive it.
#pragma once

#include "app/ghost_run.h"
#include "app/run_timeline.h"
#include "app/undo_history.h"
#include "physics/world.h"
#include "scene/scene.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace impulse::app {

/// A body the experiment removed after a step because it left the world's bounds.
struct BodyLeftBounds {
    std::string name;
    uint64_t step = 0;  ///< World::stepCount() after the step that took it out
    vec3 position{0.0f};  ///< its centre of mass then, m
};

class Experiment {
public:
    /// An empty world with default settings and no scene.
    Experiment() { startRun(); }

    /// Validates and applies one command and records it in history(). A refused command
    /// returns the rule broken, naming the field, and leaves everything as it was, with
    /// nothing recorded.
    Validation apply(Command command);

    /// Reads a scene file and applies LoadScene; returns the file's error ("" when loaded).
    std::string open(const std::string& path);
    /// Writes sceneNow() as a scene file, with the view's camera and classroom views when
    /// given; returns the error ("" when saved).
    std::string save(const std::string& path, const std::optional<scene::SceneCamera>& camera = std::nullopt,
                     const std::optional<std::vector<scene::ShownView>>& show = std::nullopt) const;
    /// The world as it is now as a scene, with the loaded scene's name and note.
    scene::Scene sceneNow() const;

    /// Advances the world by one step of settings().timestep. While an earlier step
    /// is shown, the step is the recorded run's next one (with its inputs); at the
    /// run's end the run goes on and is recorded, and each dynamic body the step took
    /// out of the world's bounds is removed by an undoable edit (DeleteBody::leftBounds,
    /// an input of the run like any other, which a replay makes again by itself).
    void step();
    /// The bodies removed for leaving the bounds since the last call, oldest first.
    std::vector<BodyLeftBounds> takeBodiesLeftBounds() { return std::exchange(bodiesLeftBounds_, {}); }
    /// Moves the grabbed point's target (the cursor); not an edit, as it changes every
    /// frame, but an input of the run when it changes the target.
    void setDragTarget(const vec3& target);

    /// The run: the starting state is its first keyframe, the rest is `runInputs()`,
    /// oldest first. A load or reset (or undoing one) starts a new run; an input
    /// while an earlier step is shown (seek) continues from there as a new run,
    /// and the old one is kept whole in previousRuns().
    const Run& run() const { return runs_.run(); }
    const std::vector<LoggedInput>& runInputs() const { return run().inputs; }
    const RunHistory& runHistory() const { return run().keyframes; }
    /// First and last recorded step of the run, and the one shown.
    uint64_t runStart() const { return run().start(); }
    uint64_t runEnd() const { return run().end; }
    uint64_t shownStep() const { return world_.stepCount(); }
    /// Shows the run at `step` (clamped to the run): the world, its last step's stats
    /// and contacts as they were, from the keyframe before it and the logged inputs
    /// (or from the step shown, when that lies between them: scrubbing forward).
    void seek(uint64_t step);
    /// The history's memory budget (RunHistory::kDefaultBudgetBytes by default): for
    /// everything historyBytes() counts. The previous runs get at most a quarter of
    /// it each (counting what they share with the run); the run's keyframes are
    /// thinned to fit beside them.
    void setHistoryBudget(size_t bytes) { runs_.setBudget(bytes); }
    /// Bytes the history holds: the keyframes of the run and of the previous runs
    /// (each snapshot, full snapshot and set of body properties once, however many
    /// runs share it) and each run's input log (its entries and their books' lists
    /// of edit-history entries; the entries themselves are the undo history's).
    size_t historyBytes() const { return runs_.historyBytes(); }

    /// The runs that branches replaced, oldest first (the newest kPreviousRunsKept; a
    /// load or reset forgets them). A branch makes the run it replaced the ghost.
    const std::vector<Run>& previousRuns() const { return runs_.previousRuns(); }
    static constexpr size_t kPreviousRunsKept = RunTimeline::kPreviousRunsKept;
    /// How many times an input at an earlier step has continued the run as a new one.
    uint64_t branchCount() const { return runs_.branchCount(); }
    /// The previous run shown as the ghost; none when hidden.
    std::optional<size_t> ghost() const { return ghost_.index(); }
    /// Shows previousRuns()[index] as the ghost, or hides it (nullopt or no such run).
    void setGhost(std::optional<size_t> index);
    /// The ghost run becomes the current one, shown at the same step (within it), with
    /// its own observations and edit history, and the current one becomes the ghost.
    /// Nothing happens without a ghost.
    void promoteGhost();
    /// The ghost run's world at the shown step (at its end if it ended before);
    /// null without a ghost. Playing forward steps it with the run, a seek seeks it.
    const World* ghostWorld() const { return ghost_.world(); }
    /// Per body of the world shown that the ghost has too (same handle).
    std::vector<BodyDivergence> divergence() const { return ghost_.divergence(world_); }
    /// The worst of divergence() at the shown step.
    Divergence worstDivergence() const { return ghost_.worstDivergence(world_); }
    /// The worst divergence at each step shown with this ghost, ascending steps.
    const std::vector<Divergence>& divergenceSeries() const { return ghost_.divergenceSeries(); }

    /// Selects a body, or none for a null or stale handle. Not an edit: the world is unchanged.
    void select(BodyId id);
    BodyId selected() const { return selected_; }

    const World& world() const { return world_; }
    const scene::Scene& scene() const { return scene_; }
    const std::string& scenePath() const { return scenePath_; }
    const DragSettings& dragSettings() const { return dragSettings_; }
    /// Simulated seconds since the scene was last loaded or reset.
    double simulatedTime() const { return simulatedTime_; }
    /// The observations of the run shown (its impact log, plotted series and trails),
    /// recorded as the run grows: each run owns its own (a branch keeps what came
    /// before its step; a promoted run brings its own back; a new run starts them again).
    const Observations& observations() const { return run().observations; }
    Observations& observations() { return runs_.observations(); }
    /// Every applied command, oldest first; the last redoCount() of them are undone.
    const EditHistory& history() const { return edits_.entries(); }
    /// Most entries history() keeps (the oldest go first), and most of them that hold a
    /// whole experiment (a load or reset keeps the world it replaced).
    static constexpr size_t kHistoryLimit = UndoHistory::kLimit;
    static constexpr size_t kExperimentsKeptLimit = UndoHistory::kExperimentsKeptLimit;

    /// Reverts the latest edit in force on the world as it is now: only the values it
    /// changed go back (a body's mass, not where the body has moved since); a deleted
    /// body comes back at its place in body order; a load or reset puts the whole
    /// previous experiment back. Returns why not, with nothing changed, if it cannot.
    Validation undo();
    /// Applies the latest undone edit again, the same way.
    Validation redo();
    bool canUndo() const { return edits_.undoIndex().has_value(); }
    bool canRedo() const { return edits_.redoIndex().has_value(); }
    /// The entry undo() / redo() would take back or apply again; null when none.
    const AppliedEdit* nextUndo() const { return edits_.nextUndo(); }
    const AppliedEdit* nextRedo() const { return edits_.nextRedo(); }
    size_t redoCount() const { return edits_.undone(); }

    /// Edits since the scene was last opened or saved (a load, or undoing back to the
    /// state last saved, counts as saved).
    bool hasUnsavedEdits() const { return edits_.hasUnsavedEdits(); }
    /// The world as it is now is in a file: after save() by the app and for tests.
    void markSaved() { edits_.markSaved(); }

private:
    // One per command kind: validate, fill `before`, apply. A refusal must change nothing.
    Validation applyCommand(const SetBody& c, Replaced& before);
    Validation applyCommand(const SetWorldSettings& c, Replaced& before);
    Validation applyCommand(const SetDragSettings& c, Replaced& before);
    Validation applyCommand(const SpawnBody& c, Replaced& before);
    Validation applyCommand(const DeleteBody& c, Replaced& before);
    Validation applyCommand(const BeginDrag& c, Replaced& before);
    Validation applyCommand(const EndDrag& c, Replaced& before);
    Validation applyCommand(const LoadScene& c, Replaced& before);
    Validation applyCommand(const ResetScene& c, Replaced& before);
    /// Keeps the experiment as it is in `before`, then builds a fresh world from `scene`.
    void restart(Replaced& before, scene::Scene scene, std::string path);
    /// Puts back or applies again one entry (see undo()); a refusal changes nothing.
    Validation revert(AppliedEdit& edit);
    Validation reapply(AppliedEdit& edit);
    /// The drag settings of the next grab and of the one in progress.
    void useDragSettings(const DragSettings& settings);
    /// Sets on the body, as it is now, each field that differs between `from` and `to` to `to`'s value.
    Validation carryBodyChange(BodyId id, const BodyDef& from, const BodyDef& to);
    /// Swaps the experiment in force with the one an entry keeps (undo and redo of a load or reset).
    void swapExperiment(ExperimentState& kept);
    /// A body came back under a new handle: the entries of the world in force say so from now on.
    void renameBody(BodyId from, BodyId to);
    /// Applies a command, an undo or a redo and logs it in the run (see runInputs()).
    Validation input(RunInput input);
    Validation applyNow(Command command);
    Validation undoNow();
    Validation redoNow();
    EditBook currentBook() const;
    void useBook(const EditBook& book);
    /// The run continues from `step` as a new one: the old one is kept as the ghost.
    void branchAt(uint64_t step);
    /// Brings the ghost's world to the shown step and notes its divergence.
    void followGhost() { ghost_.follow(runs_.previousRuns(), world_); }
    /// A new run starting with the world as it is now.
    void startRun();
    /// Removes (as edits) the dynamic bodies outside the world's bounds after a step.
    void removeBodiesOutsideBounds();

    World world_;
    scene::Scene scene_;
    std::string scenePath_;
    BodyId selected_;
    DragSettings dragSettings_;
    double simulatedTime_ = 0.0;
    UndoHistory edits_;
    RunTimeline runs_;
    GhostRun ghost_;
    std::vector<BodyLeftBounds> bodiesLeftBounds_;
};

}  // namespace impulse::app
