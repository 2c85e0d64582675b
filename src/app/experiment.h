// The experiment: the world being run, the scene it came from and its path,
// what is selected, and the one door through which the world changes.
// Every change (a panel's edit of a body or of the world settings, a spawn, a
// deletion, a mouse drag's begin and end, loading or resetting the scene) is a
// Command value handed to apply(), which validates it, applies it and records
// what it replaced and the step it was applied at. undo() and redo() walk that
// record; a timeline and input recording build on it. No GL, SDL or ImGui here:
// tests drive it.
#pragma once

#include "app/observations.h"
#include "app/run_history.h"
#include "physics/world.h"
#include "scene/scene.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace impulse::app {

/// Replaces the whole definition (properties and state) of a body.
struct SetBody {
    BodyId body;
    BodyDef def;
};
struct SetWorldSettings {
    WorldSettings settings;
};
/// The mouse drag's spring, used by the next grab and by the one in progress.
struct SetDragSettings {
    DragSettings settings;
};
/// Creates a body; `selectIt` makes it the selection (a spawned box is, a shot is not).
struct SpawnBody {
    BodyDef def;
    bool selectIt = false;
};
struct DeleteBody {
    BodyId body;
};
/// Grabs a body at a world point with the experiment's drag settings.
struct BeginDrag {
    BodyId body;
    vec3 point{0.0f};
};
/// Lets go of the dragged body; it keeps its velocity (a throw).
struct EndDrag {};
/// Replaces the world with a new scene; `path` is where it came from ("" for none).
struct LoadScene {
    scene::Scene scene;
    std::string path;
};
/// Rebuilds the world from the scene as loaded (never refused).
struct ResetScene {};

using Command = std::variant<SetBody, SetWorldSettings, SetDragSettings, SpawnBody, DeleteBody, BeginDrag, EndDrag,
                             LoadScene, ResetScene>;

/// The experiment as a scene load or reset replaced it.
struct ExperimentState {
    World world;
    scene::Scene scene;
    std::string scenePath;
    double simulatedTime = 0.0;
};

/// What an applied command replaced, for undo: the values it overwrote. Only the fields
/// of the command's kind are set. A body that comes back (an undone deletion, a redone
/// spawn) gets a new handle, as World never hands out one twice: the history's handles
/// of it are then rewritten to the new one.
struct Replaced {
    BodyId selection;                        ///< every command: the selection before
    std::optional<BodyDef> body;             ///< SetBody, DeleteBody: the body's definition before
    std::optional<WorldSettings> settings;   ///< SetWorldSettings
    std::optional<DragSettings> dragSettings;  ///< SetDragSettings
    std::optional<DragState> drag;           ///< BeginDrag, EndDrag, DeleteBody: the drag before
    BodyId created;                          ///< SpawnBody: the body it made (removing it undoes the spawn)
    /// LoadScene, ResetScene: the whole world, scene and path before (shared: large). Undo
    /// swaps it with the experiment in force, so that redo puts that one back as it was.
    std::shared_ptr<ExperimentState> experiment;
};

/// One entry of the edit history.
struct AppliedEdit {
    Command command;
    Replaced before;
    /// World::stepCount() when it was applied: steps since the scene was last loaded or
    /// reset (for LoadScene and ResetScene, of the world they replaced).
    uint64_t step = 0;
    /// Counts up over the experiment's life: tells "the edit in force when saved" apart.
    uint64_t serial = 0;
};

/// Undo and redo pass over the mouse drag's begin and end: they are kept in the record
/// but are not edits (their effect is motion, which a later timeline rewinds).
bool isUndoable(const Command& command);
/// LoadScene and ResetScene put a new world in force (the views of the old one go).
bool restartsWorld(const Command& command);
/// What an entry did, for the undo and redo buttons' tooltips ("crate: mass, e").
std::string describe(const AppliedEdit& edit);

/// The run's inputs besides commands: undo and redo (inputs like any edit: the
/// edit history they walk is the one the run's log built), and the drag's target.
struct UndoInput {};
struct RedoInput {};
struct DragTargetInput {
    vec3 target{0.0f};
};
using RunInput = std::variant<Command, UndoInput, RedoInput, DragTargetInput>;

/// The edit history's entries, shared with the books of the run's inputs (an entry
/// that changes in place, a handle renamed or a deletion re-recorded, is copied first).
using EditHistory = std::vector<std::shared_ptr<AppliedEdit>>;

/// The edit history as an input left it: a branch at an earlier step takes it back.
struct EditBook {
    EditHistory history;
    size_t undone = 0;
    uint64_t savedSerial = 0;
    DragSettings dragSettings;
};

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

/// A run: its starting state (the first keyframe), its logged inputs and its keyframes.
struct Run {
    std::vector<LoggedInput> inputs;  ///< ascending step
    RunHistory keyframes;
    uint64_t end = 0;  ///< last recorded step
    size_t inputBytes = 0;  ///< what `inputs` holds (Experiment::historyBytes)
    std::shared_ptr<const EditBook> startBook;  ///< the edit history when it began
    /// Of a run in previousRuns(): the step at which it and the current run go their own ways.
    uint64_t leftAt = 0;
    uint64_t start() const { return keyframes.keyframes().front().world->stepCount(); }
};

/// How far a body of the ghost run is from the same body (same handle) now.
struct BodyDivergence {
    BodyId body;
    float distance = 0.0f;  ///< between the centres of mass, m
    float angle = 0.0f;     ///< of the rotation from one orientation to the other, rad
};
/// The worst of the bodies at one step: the farthest and the most turned.
struct Divergence {
    uint64_t step = 0;
    BodyDivergence farthest;
    BodyDivergence mostTurned;
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
    /// run's end the run goes on and is recorded.
    void step();
    /// Moves the grabbed point's target (the cursor); not an edit, as it changes every
    /// frame, but an input of the run when it changes the target.
    void setDragTarget(const vec3& target);

    /// The run: the starting state is its first keyframe, the rest is `runInputs()`,
    /// oldest first. A load or reset (or undoing one) starts a new run; an input
    /// while an earlier step is shown (seek) continues from there as a new run,
    /// and the old one is kept whole in previousRuns().
    const Run& run() const { return run_; }
    const std::vector<LoggedInput>& runInputs() const { return run_.inputs; }
    const RunHistory& runHistory() const { return run_.keyframes; }
    /// First and last recorded step of the run, and the one shown.
    uint64_t runStart() const { return run_.start(); }
    uint64_t runEnd() const { return run_.end; }
    uint64_t shownStep() const { return world_.stepCount(); }
    /// Shows the run at `step` (clamped to the run): the world, its last step's stats
    /// and contacts as they were, from the keyframe before it and the logged inputs
    /// (or from the step shown, when that lies between them: scrubbing forward).
    void seek(uint64_t step);
    /// The history's memory budget (RunHistory::kDefaultBudgetBytes by default): for
    /// everything historyBytes() counts. The previous runs get at most a quarter of
    /// it each (counting what they share with the run); the run's keyframes are
    /// thinned to fit beside them.
    void setHistoryBudget(size_t bytes);
    /// Bytes the history holds: the keyframes of the run and of the previous runs
    /// (each snapshot, full snapshot and set of body properties once, however many
    /// runs share it) and each run's input log (its entries and their books' lists
    /// of edit-history entries; the entries themselves are the undo history's).
    size_t historyBytes() const { return historyBytes_; }

    /// The runs that branches replaced, oldest first (the newest kPreviousRunsKept; a
    /// load or reset forgets them). A branch makes the run it replaced the ghost.
    const std::vector<Run>& previousRuns() const { return previousRuns_; }
    static constexpr size_t kPreviousRunsKept = 2;
    /// How many times an input at an earlier step has continued the run as a new one.
    uint64_t branchCount() const { return branchCount_; }
    /// The previous run shown as the ghost; none when hidden.
    std::optional<size_t> ghost() const { return ghost_; }
    /// Shows previousRuns()[index] as the ghost, or hides it (nullopt or no such run).
    void setGhost(std::optional<size_t> index);
    /// The ghost run becomes the current one, shown at the same step (within it),
    /// and the current one becomes the ghost. Nothing happens without a ghost.
    void promoteGhost();
    /// The ghost run's world at the shown step (at its end if it ended before);
    /// null without a ghost. Playing forward steps it with the run, a seek seeks it.
    const World* ghostWorld() const { return ghost_ ? &ghostWorld_ : nullptr; }
    /// Per body of the world shown that the ghost has too (same handle).
    std::vector<BodyDivergence> divergence() const;
    /// The worst of divergence() at the shown step.
    Divergence worstDivergence() const;
    /// The worst divergence at each step shown with this ghost, ascending steps.
    const std::vector<Divergence>& divergenceSeries() const { return divergenceSeries_; }

    /// Selects a body, or none for a null or stale handle. Not an edit: the world is unchanged.
    void select(BodyId id);
    BodyId selected() const { return selected_; }

    const World& world() const { return world_; }
    const scene::Scene& scene() const { return scene_; }
    const std::string& scenePath() const { return scenePath_; }
    const DragSettings& dragSettings() const { return dragSettings_; }
    /// Simulated seconds since the scene was last loaded or reset.
    double simulatedTime() const { return simulatedTime_; }
    /// The run's impact log and plotted series, recorded as the run grows (a branch
    /// forgets what came after its step; a new run starts them again).
    const Observations& observations() const { return observations_; }
    Observations& observations() { return observations_; }
    /// Every applied command, oldest first; the last redoCount() of them are undone.
    const EditHistory& history() const { return history_; }
    /// Most entries history() keeps (the oldest go first), and most of them that hold a
    /// whole experiment (a load or reset keeps the world it replaced).
    static constexpr size_t kHistoryLimit = 1000;
    static constexpr size_t kExperimentsKeptLimit = 20;

    /// Reverts the latest edit in force on the world as it is now: only the values it
    /// changed go back (a body's mass, not where the body has moved since); a deleted
    /// body comes back at its place in body order; a load or reset puts the whole
    /// previous experiment back. Returns why not, with nothing changed, if it cannot.
    Validation undo();
    /// Applies the latest undone edit again, the same way.
    Validation redo();
    bool canUndo() const { return undoIndex().has_value(); }
    bool canRedo() const { return redoIndex().has_value(); }
    /// The entry undo() / redo() would take back or apply again; null when none.
    const AppliedEdit* nextUndo() const;
    const AppliedEdit* nextRedo() const;
    size_t redoCount() const { return undone_; }

    /// Edits since the scene was last opened or saved (a load, or undoing back to the
    /// state last saved, counts as saved).
    bool hasUnsavedEdits() const { return latestEditInForce() != savedSerial_; }
    /// The world as it is now is in a file: after save() by the app and for tests.
    void markSaved() { savedSerial_ = latestEditInForce(); }

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
    /// Entry i, copied first if a book of the run shares it, to be changed in place.
    AppliedEdit& ownEntry(size_t i);
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
    /// The edit history as it was at `step` of the run.
    const EditBook& bookAt(uint64_t step) const;
    /// The run continues from `step` as a new one: the old one is kept as the ghost.
    void branchAt(uint64_t step);
    /// Brings the ghost's world to the shown step and notes its divergence.
    void followGhost();
    /// A new run starting with the world as it is now.
    void startRun();
    /// Logs an input of the run at the shown step.
    void logInput(RunInput input, std::shared_ptr<const EditBook> book);
    /// Thins the keyframes until historyBytes() fits the budget (or only keyframes
    /// that must stay are left).
    void fitHistoryToBudget();
    /// historyBytes() counted anew (fitHistoryToBudget keeps it after every change).
    size_t countHistoryBytes() const;
    /// Drops the oldest entries beyond kHistoryLimit and kExperimentsKeptLimit.
    void trimHistory();
    std::optional<size_t> undoIndex() const;
    std::optional<size_t> redoIndex() const;
    /// Serial of the latest undoable entry in force, 0 for none.
    uint64_t latestEditInForce() const;

    World world_;
    scene::Scene scene_;
    std::string scenePath_;
    BodyId selected_;
    DragSettings dragSettings_;
    double simulatedTime_ = 0.0;
    EditHistory history_;
    size_t undone_ = 0;  // entries at the end of history_ that are undone
    uint64_t nextSerial_ = 1;
    uint64_t savedSerial_ = 0;
    Observations observations_;
    Run run_;
    std::vector<Run> previousRuns_;
    size_t historyBudget_ = RunHistory::kDefaultBudgetBytes;
    size_t historyBytes_ = 0;
    std::optional<size_t> ghost_;
    World ghostWorld_;
    double ghostTime_ = 0.0;
    bool ghostFollowing_ = false;  // ghostWorld_ is the ghost run's, at an earlier shown step
    std::vector<Divergence> divergenceSeries_;
    uint64_t branchCount_ = 0;
    uint64_t inputsLogged_ = 0;  ///< the serial of the next input logged
};

}  // namespace impulse::app
