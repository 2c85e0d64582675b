// The edit history: every command applied to the experiment, with what it
// replaced, and which of them are undone. It knows the order of the entries and
// which one undo or redo takes next; applying, reverting and reapplying them on
// the world is the experiment's (src/app/experiment.h). No GL, SDL or ImGui here.
#pragma once

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
    /// The experiment removed it, as it left the world's bounds (WorldSettings::bounds).
    bool leftBounds = false;
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

/// The entries, undone ones and what was last saved, as the experiment keeps them.
class UndoHistory {
public:
    /// Most entries kept (the oldest go first), and most of them that hold a whole
    /// experiment (a load or reset keeps the world it replaced).
    static constexpr size_t kLimit = 1000;
    static constexpr size_t kExperimentsKeptLimit = 20;

    /// Every applied command, oldest first; the last undone() of them are undone.
    const EditHistory& entries() const { return entries_; }
    size_t undone() const { return undone_; }

    /// Records an applied command at `step`. An edit forks from the undone ones (they can
    /// no longer be redone); a drag's begin or end is recorded where it happened.
    void record(Command command, Replaced before, uint64_t step);

    /// The entry undo() / redo() takes back or applies again.
    std::optional<size_t> undoIndex() const;
    std::optional<size_t> redoIndex() const;
    const AppliedEdit* nextUndo() const;
    const AppliedEdit* nextRedo() const;
    /// Entry i, copied first if a book of a run shares it, to be changed in place.
    AppliedEdit& own(size_t i);
    /// Entry i was undone / applied again.
    void undid(size_t i) { undone_ = entries_.size() - i; }
    void redid(size_t i) { undone_ = entries_.size() - i - 1; }

    /// Serial of the latest undoable entry in force, 0 for none.
    uint64_t latestEditInForce() const;
    bool hasUnsavedEdits() const { return latestEditInForce() != savedSerial_; }
    void markSaved() { savedSerial_ = latestEditInForce(); }

    /// A body came back under a new handle: the entries of the world in force say so from now on.
    void renameBody(BodyId from, BodyId to);

    /// The history as a book (with the drag settings in force), and back.
    EditBook book(const DragSettings& dragSettings) const {
        return EditBook{entries_, undone_, savedSerial_, dragSettings};
    }
    void use(const EditBook& book);

private:
    /// Drops the oldest entries beyond kLimit and kExperimentsKeptLimit.
    void trim();

    EditHistory entries_;
    size_t undone_ = 0;  // entries at the end of entries_ that are undone
    uint64_t nextSerial_ = 1;
    uint64_t savedSerial_ = 0;
};

/// `current` with every field that differs between `from` and `to` set to `to`'s value:
/// an edit's change carried onto the body as it is now (which may have moved since).
BodyDef carryChange(BodyDef current, const BodyDef& from, const BodyDef& to);

}  // namespace impulse::app
